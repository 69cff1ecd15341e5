import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { test } from "node:test";

import { escapeHtml, outcomesOf, playUrl, renderCard, showVerdict } from "../scripts/card.js";
import { translator } from "./translate.js";

const t = translator("en");
const moduleRoot = new URL("../", import.meta.url);

const pawsResponse = {
  operation: "paws.test",
  request: { name: "Ryan <b>", rank: 3 },
  result: { dice: [4, 1, 6], successes: 2, success: true, catastrophe: false, rescue: null },
  randomness: { source: "secure", events: [{ kind: "d6", values: [4, 1, 6] }] },
  summary: "Ryan <b>: Test with 3d6: 4, 1, 6 → 2 successes, success.",
  lang: "en",
  receipt: { id: "x", issued_at: "2026-01-01T00:00:00Z", alg: "Ed25519", kid: "k", signature: "s" },
};

test("the card shows summary, faces as pictures, outcome, /play link and verify button", () => {
  const link = playUrl("http://wurfwerk.test:8000/", "paws.test", { rank: 3, name: "Ryan" });
  const html = renderCard(pawsResponse, { t, link });
  assert.match(
    html,
    /<p class="wurfwerk-summary">Ryan &lt;b&gt;: Test with 3d6: 4, 1, 6 → 2 successes, success\.<\/p>/,
  );
  const faces = [
    ...html.matchAll(/<img class="wurfwerk-die" src="modules\/wurfwerk\/assets\/(d6-\d)\.svg" alt="(\d)"/g),
  ];
  assert.deepEqual(
    faces.map((match) => match[1]),
    ["d6-4", "d6-1", "d6-6"],
  );
  assert.match(html, /<li class="wurfwerk-good">Success<\/li>/);
  assert.match(html, /<li class="wurfwerk-neutral">Successes: 2<\/li>/);
  assert.match(html, /<p class="wurfwerk-source">Rolled by the service<\/p>/);
  assert.ok(
    html.includes(
      `href="http://wurfwerk.test:8000/play?operation=paws.test&amp;body=%7B%22rank%22%3A3%2C%22name%22%3A%22Ryan%22%7D"`,
    ),
    html,
  );
  assert.match(html, /<button type="button" class="wurfwerk-verify">Verify<\/button>/);
  assert.match(html, /<span class="wurfwerk-verdict" data-state="unchecked"/);
  assert.doesNotMatch(html, /<b>/, "names typed by players are escaped");
});

test("the /play link carries the request as JSON that round-trips", () => {
  const body = { bag: { red: 9, green: 6, white: 5 }, ability: "combat", name: "A & B" };
  const url = new URL(playUrl("https://dice.example/", "beutelschneider.challenge", body, "de"));
  assert.equal(url.pathname, "/play");
  assert.equal(url.searchParams.get("lang"), "de");
  assert.equal(url.searchParams.get("operation"), "beutelschneider.challenge");
  assert.deepEqual(JSON.parse(url.searchParams.get("body") ?? ""), body);
});

test("marbles, FUDGE dice and numbered dice have pictures of their own", () => {
  const html = renderCard(
    {
      operation: "x.y",
      result: {},
      randomness: {
        source: "manual",
        events: [
          { kind: "draw", values: ["red", "white", "black"] },
          { kind: "dF", values: [-1, 0, 1] },
          { kind: "d10", values: [7] },
          { kind: "d12", values: [11] },
        ],
      },
      summary: "s",
    },
    { t, link: null },
  );
  for (const name of ["marble-red", "marble-white", "marble-black", "df-minus", "df-blank", "df-plus", "d10", "die"]) {
    assert.ok(html.includes(`assets/${name}.svg`), name);
  }
  assert.match(html, /<span class="wurfwerk-number">7<\/span>/);
  assert.match(html, /<span class="wurfwerk-number">11<\/span>/);
  assert.match(html, /Physical dice, entered by hand/);
  assert.doesNotMatch(html, /wurfwerk-verify/, "no receipt, no verify button");
  assert.doesNotMatch(html, /wurfwerk-play/, "no service URL, no link");
});

test("every picture the card can use is a committed asset", () => {
  const html = renderCard(
    {
      operation: "x.y",
      randomness: {
        events: [
          { kind: "d6", values: [1, 2, 3, 4, 5, 6] },
          { kind: "dF", values: [-1, 0, 1] },
          { kind: "d8", values: [1] },
          { kind: "d10", values: [1] },
          { kind: "d20", values: [1] },
          { kind: "draw", values: ["red", "green", "blue", "white", "black", "purple"] },
        ],
      },
    },
    { t, link: null },
  );
  const sources = [...html.matchAll(/src="modules\/wurfwerk\/([^"]+)"/g)].map((match) => match[1]);
  assert.equal(sources.length, 6 + 3 + 1 + 1 + 1 + 6);
  for (const source of sources) assert.ok(existsSync(new URL(source, moduleRoot)), source);
});

test("outcomes of the five systems' results read in the card's words", () => {
  const words = (/** @type {Record<string, any>} */ result) =>
    outcomesOf(result).map((outcome) => t(outcome.key, outcome.data));
  assert.deepEqual(words({ success: false, unconscious: true, drawn: [] }), ["Failure", "Unconscious"]);
  assert.deepEqual(words({ outcome: "partial", successes: 1 }), ["Partial success", "Successes: 1"]);
  assert.deepEqual(words({ winner: null }), ["Tie"]);
  assert.deepEqual(words({ winner: "b", a: { name: "Ann" }, b: { name: "Bo" } }), ["Winner: Bo"]);
  assert.deepEqual(words({ winner: "Die Roten" }), ["Winner: Die Roten"]);
  assert.deepEqual(words({ dies: false }), ["Survives"]);
  assert.deepEqual(words({ hit: true, taken_out: true }), ["Hit", "Taken out"]);
  assert.deepEqual(words({ valid: false }), ["Not valid"]);
  assert.deepEqual(words({ success: true, catastrophe: true }), ["Success", "Catastrophe"]);
  assert.deepEqual(outcomesOf(undefined), []);
});

test("German cards use the German lang file", () => {
  const html = renderCard(pawsResponse, { t: translator("de"), link: "http://x/play" });
  assert.match(html, />Erfolg</);
  assert.match(html, />Prüfen</);
  assert.match(html, />In \/play öffnen</);
});

test("odds twins show each outcome's chance", () => {
  const html = renderCard(
    {
      operation: "paws.test.odds",
      request: {},
      odds: { outcomes: [{ outcome: "success", probability: 0.7037, exact: "19/27" }] },
    },
    { t, link: null },
  );
  assert.match(
    html,
    /<span class="wurfwerk-odds-outcome">success<\/span> <span class="wurfwerk-odds-chance" title="19\/27">70\.4 %<\/span>/,
  );
});

test("escapeHtml escapes the five characters", () => {
  assert.equal(escapeHtml(`<a href="x">'&'</a>`), "&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;");
});

test("a randomness source newer than the lang files is shown by its name", () => {
  const ticket = renderCard({ operation: "x.y", randomness: { source: "ticket", events: [] } }, { t, link: null });
  assert.match(ticket, /<p class="wurfwerk-source">Rolled from a roll ticket<\/p>/);
  const html = renderCard({ operation: "x.y", randomness: { source: "derived", events: [] } }, { t, link: null });
  assert.match(html, /<p class="wurfwerk-source">Randomness: derived<\/p>/);
});

test("the verdict has three looks: ✓ verified, ✗ not genuine, ○ not checked (never ✗ for that)", () => {
  const shown = (/** @type {any} */ check) => {
    const element = { attributes: /** @type {Record<string, string>} */ ({}), textContent: "",
      /** @param {string} name @param {string} value */ setAttribute(name, value) { this.attributes[name] = value; } };
    showVerdict(/** @type {any} */ (element), check, t);
    return [element.attributes["data-state"], element.textContent];
  };
  assert.deepEqual(shown({ state: "verified", cause: "signature" }), ["valid", "✓ signature valid"]);
  assert.deepEqual(shown({ state: "not-genuine", cause: "signature" }),
    ["invalid", "✗ signature invalid: the signature does not match the document"]);
  assert.deepEqual(shown({ state: "not-checked", cause: "keys-unreachable" }),
    ["not-checked", "○ not checked: the service's keys could not be fetched"]);
  assert.deepEqual(shown({ state: "not-checked", cause: "unknown-key" }),
    ["not-checked", "○ not checked: signed with a key this service does not publish"]);
  const german = translator("de");
  const element = { attributes: /** @type {Record<string, string>} */ ({}), textContent: "",
    /** @param {string} name @param {string} value */ setAttribute(name, value) { this.attributes[name] = value; } };
  showVerdict(/** @type {any} */ (element), { state: "not-checked", cause: "no-receipt" }, german);
  assert.equal(element.textContent, "○ nicht geprüft: die Nachricht trägt keinen Beleg");
});
