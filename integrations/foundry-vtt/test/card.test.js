import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { test } from "node:test";

import { curveTable, escapeHtml, outcomeWords, outcomesOf, playUrl, renderCard, showVerdict, readableFraction } from "../scripts/card.js";
import { translations, translator } from "./translate.js";

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
  // Proben: a partial success is the GM's option ("kann der Spielleiter Teilerfolge werten", issue 53).
  assert.deepEqual(words({ outcome: "partial", successes: 1 }), ["Failure, partial success possible", "Successes: 1"]);
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

test("odds twins show each outcome's chance in words, not as the raw key", () => {
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
  const german = renderCard(
    {
      operation: "beutelschneider.combat.odds",
      request: { attacker: { name: "Ann" }, defender: { name: "Bo" } },
      odds: {
        outcomes: [
          { outcome: "wins:Ann", probability: 0.5, exact: "1/2" },
          { outcome: "tie", probability: 0.25, exact: "1/4" },
          { outcome: "injury:Bo:serious", probability: 0.25, exact: "1/4" },
        ],
      },
    },
    { t: translator("de"), link: null },
  );
  // German writes a decimal comma (issue 53, typography): "50,0 %", never "50.0 %".
  assert.match(german, />50,0 %</);
  assert.doesNotMatch(german, /\d\.\d %/);
  const words = [...german.matchAll(/<span class="wurfwerk-odds-outcome">([^<]*)<\/span>/g)].map((m) => m[1]);
  assert.deepEqual(words, ["Sieg für Ann", "Gleichstand", "ernsthafte Verletzung für Bo"]);
  assert.doesNotMatch(german, />wins:|>injury:/);
});

test("outcome keys in words, German and English: sides by name, steps 1-based, unknown keys as they are", () => {
  const de = translator("de");
  const paws = { a: { name: "Ryan", rank: 3 }, b: { rank: 2 } };
  assert.equal(outcomeWords("wins:a", paws, t), "Ryan wins");
  assert.equal(outcomeWords("wins:b", paws, de), "Sieg für Zweite Seite");
  assert.equal(outcomeWords("a", paws, de), "Sieg für Ryan");
  assert.equal(outcomeWords("wins:Helden", {}, de), "Sieg für Helden");
  assert.equal(outcomeWords("failure:0", {}, de), "scheitert an Schritt 1");
  assert.equal(outcomeWords("failure:2", {}, t), "fails at step 3");
  assert.equal(outcomeWords("failure", {}, de), "misslungen");
  assert.equal(outcomeWords("both_out", {}, de), "beide in Ohnmacht");
  assert.equal(outcomeWords("undecided", {}, t), "still open after the rounds");
  assert.equal(outcomeWords("god:3", { gods: ["A", "B", "Hera"] }, de), "Hera (Gott 3)");
  assert.equal(outcomeWords("first:Ann", {}, t), "Ann acts first");
  assert.equal(outcomeWords("something:new", {}, t), "something:new");
});

test("the module says the outcomes in the words /play uses (service/web/labels.js), in both languages", async (context) => {
  const labels = new URL("../../../service/web/labels.js", import.meta.url);
  if (!existsSync(labels)) return context.skip("outside the repository (a release zip) there is no /play");
  const { LABELS } = await import(labels.href);
  for (const lang of /** @type {const} */ (["de", "en"])) {
    const module = translations(lang);
    const outcomes = Object.keys(module).filter((key) => key.startsWith("WURFWERK.Odds.") && !key.includes(".side."));
    assert.ok(outcomes.length >= 25, `${lang}: ${outcomes.length} outcome words`);
    for (const key of outcomes) {
      const name = key.slice("WURFWERK.Odds.".length);
      const play = name === "running" ? LABELS[lang].distributions.running : LABELS[lang].outcomes[name];
      assert.equal(module[key], play, `${lang} ${key}`);
    }
    assert.equal(module["WURFWERK.Card.curve"], LABELS[lang].ui.curve);
    assert.equal(module["WURFWERK.Card.round"], LABELS[lang].ui.round);
    assert.equal(module["WURFWERK.Odds.side.a"], LABELS[lang].fields.a[0]);
    assert.equal(module["WURFWERK.Odds.side.b"], LABELS[lang].fields.b[0]);
  }
});

test("an encounter's curve is a table: a row per round, a column per outcome in words, and 'still running'", () => {
  const curve = [
    { round: 1, running: 1.0 },
    { round: 2, running: 0.65625, "wins:a": 0.34375 },
    { round: 3, running: 0.388671875, "wins:a": 0.58203125, "wins:b": 0.029296875 },
  ];
  const html = renderCard(
    {
      operation: "paws.encounter.odds",
      request: { a: { name: "Ryan" }, b: { name: "Jack" }, curve_rounds: 3 },
      odds: { outcomes: [{ outcome: "wins:a", probability: 0.86, exact: "283/330" }], curve },
    },
    { t: translator("de"), link: null },
  );
  assert.match(html, /<table class="wurfwerk-curve"><caption>Verlauf über die Runden<\/caption>/);
  const heads = [...html.matchAll(/<th scope="col"[^>]*>([^<]*)<\/th>/g)].map((m) => m[1]);
  assert.deepEqual(heads, ["Runde", "Sieg für Ryan", "Sieg für Jack", "läuft noch"]);
  const rows = [...html.matchAll(/<tr><th scope="row">(\d+)<\/th>(.*?)<\/tr>/g)].map((m) => [
    m[1],
    [...m[2].matchAll(/<td>([^<]*)<\/td>/g)].map((cell) => cell[1]),
  ]);
  assert.deepEqual(rows, [
    ["1", ["0,0 %", "0,0 %", "100,0 %"]],
    ["2", ["34,4 %", "0,0 %", "65,6 %"]],
    ["3", ["58,2 %", "2,9 %", "38,9 %"]],
  ]);
  assert.equal(curveTable([], {}, t).includes("<tbody></tbody>"), true);
  assert.doesNotMatch(renderCard({ operation: "paws.test.odds", odds: { outcomes: [] } }, { t, link: null }), /wurfwerk-curve/);
});

test("a played-out encounter says its outcome in words, not the single operations' winner fields", () => {
  const paws = renderCard(
    {
      operation: "paws.encounter",
      request: { a: { name: "Ryan", rank: 3 }, b: { name: "Jack", rank: 2 } },
      result: { outcome: "wins:a", winner: "a", rounds: 2, steps: [] },
      summary: "Victory for Ryan after 2 rounds.",
    },
    { t, link: null },
  );
  assert.match(paws, /<ul class="wurfwerk-outcome"><li class="wurfwerk-good">Ryan wins<\/li><\/ul>/);
  const undecided = renderCard(
    { operation: "malmsturm.encounter", request: {}, result: { outcome: "undecided", winner: null, rounds: 5 } },
    { t: translator("de"), link: null },
  );
  assert.match(undecided, /<li class="wurfwerk-neutral">nach den Runden noch offen<\/li>/);
  assert.doesNotMatch(undecided, /Gleichstand/, "winner null is not a tie here");
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

test("no fraction with more than six digits reaches a player; the exact one stays in the JSON", () => {
  assert.equal(readableFraction("19/27"), "19/27");
  assert.equal(readableFraction("123456/999999"), "123456/999999");
  assert.equal(readableFraction("1234567/9999999"), "");
  assert.equal(readableFraction("3/10000000000000000"), "");
  assert.equal(readableFraction(null), "");
  const html = renderCard(
    { operation: "paws.test.odds", request: {}, odds: { outcomes: [{ outcome: "success", probability: 0.3, exact: "3/10000000000000000" }] } },
    { t, link: null },
  );
  assert.match(html, /title="">30\.0 %</);
});
