// Advice (API.md §1.10) in the module, without a service: `/ww encounter <system> advice [side] …`,
// the policies in words, the card in both languages, and the whisper of a 422 "too large".
import assert from "node:assert/strict";
import { test } from "node:test";

import { policyWords, samePolicyKey } from "../scripts/advice.js";
import { ADVICE_SHOWN, renderCard, smallNumber } from "../scripts/card.js";
import { CommandError, parseCommand } from "../scripts/command.js";
import { problemHtml } from "../scripts/problems.js";
import { translator } from "./translate.js";

const en = translator("en");
const de = translator("de");
const HONEST = {
  de: "Die Empfehlung nimmt an, dass beide Seiten sonst nach den Einstellungen dieser Anfrage spielen; sie ändert keinen Wurf.",
  en: "The advice assumes both sides otherwise play by this request&#39;s settings; it never changes a roll.",
};

test("/ww encounter <system> advice [side] asks <system>.encounter.advice; the side word is advise.side", () => {
  assert.deepEqual(parseCommand("/ww encounter paws advice a.name=Ryan a.rank=3 b.rank=2"), {
    help: false,
    operationId: "paws.encounter.advice",
    body: { a: { name: "Ryan", rank: 3 }, b: { rank: 2 } },
  });
  assert.deepEqual(parseCommand("/ww encounter paws advice b a.rank=3 b.rank=2").body, {
    a: { rank: 3 },
    b: { rank: 2 },
    advise: { side: "b" },
  });
  const quoted = parseCommand(
    `/ww encounter beutelschneider advice "Die Diebe" sides.0.name="Die Diebe" sides.0.bag.red=3 advise.choices=["ability"]`,
  );
  assert.equal(quoted.help ? "" : quoted.operationId, "beutelschneider.encounter.advice");
  assert.deepEqual(/** @type {any} */ (quoted).body.advise, { choices: ["ability"], side: "Die Diebe" });
  assert.deepEqual(parseCommand("/ww encounter proben advice"), {
    help: false,
    operationId: "proben.encounter.advice",
    body: {},
  }, "no side: the service advises its first side");
  assert.equal(/** @type {any} */ (parseCommand("/ww encounter paws advice advise.side=b")).body.advise.side, "b");
  assert.throws(
    () => parseCommand("/ww encounter paws advice b advise.side=a"),
    (error) => error instanceof CommandError && /key given twice: advise\.side/.test(error.message),
  );
  assert.throws(() => parseCommand("/ww encounter paws advice b rank"), /expected key=value, got: rank/);
  // The other two forms are unchanged.
  assert.equal(/** @type {any} */ (parseCommand("/ww encounter paws a.rank=1")).operationId, "paws.encounter.odds");
  assert.equal(/** @type {any} */ (parseCommand("/ww encounter paws play a.rank=1")).operationId, "paws.encounter");
  assert.equal(/** @type {any} */ (parseCommand("/ww paws.encounter.advice a.rank=1")).operationId, "paws.encounter.advice");
});

test("every system's fixed choices read in the service's words, German and English", () => {
  const cases = [
    ["paws", { one_shot_rescue: 1, give_up_at_wounds: null },
      "spend 1 one-shot rescue die, never give up", "1 einmaligen Rettungswürfel einsetzen, nie aufgeben"],
    ["paws", { one_shot_rescue: 0, give_up_at_wounds: 2 },
      "keep the one-shot rescue dice, give up at 2 wounds", "die einmaligen Rettungswürfel behalten, bei 2 Wunden aufgeben"],
    ["beutelschneider", { ability: "skill" }, "skill (green: the flight)", "Geschick (grün: die Flucht)"],
    ["beutelschneider", { ability: { Ann: "combat", Bo: "magic" }, pairs: [["Ann", "Affe 2"], ["Ann", "Affe 1"]] },
      "Ann: combat (red), Bo: magic (blue), meet Affe 2, Affe 1 in this order",
      "Ann: Kampf (rot), Bo: Magie (blau), in dieser Reihenfolge gegen Affe 2, Affe 1"],
    ["beutelschneider", { pairs: null }, "the pairs as given", "die Paarungen wie angegeben"],
    ["weltenbuch", { hold_hero_points: { Toran: 0, Fayla: 1 }, targeting: "strongest" },
      "Fayla holds back 1 hero point, aim at the strongest first", "Fayla hält 1 Heldenpunkt zurück, zuerst auf die Stärksten zielen"],
    ["weltenbuch", { hold_hero_points: { Toran: 0 }, targeting: "spread" },
      "spend every hero point for dice, spread the dice over the targets",
      "alle Heldenpunkte für Würfel einsetzen, die Würfel auf die Ziele verteilen"],
    ["proben", { max_attempts: [null, 2], carry_partial: false },
      "step 1: retry while dice are left, step 2: at most 2 attempts, partial successes do not carry over",
      "Schritt 1: wiederholen, solange Würfel übrig sind, Schritt 2: höchstens 2 Versuche, Teilerfolge nicht mitzählen"],
    ["proben", { max_attempts: [null, null] }, "retry every failed step while dice are left",
      "jeden misslungenen Schritt wiederholen, solange Würfel übrig sind"],
    ["proben", { helpers: ["Bea", "Cem"] }, "with the help of Bea, Cem", "mit Unterstützung von Bea, Cem"],
    ["proben", { helpers: [] }, "without helpers", "ohne Unterstützer"],
    ["malmsturm", { concede_at_consequences: 1, defend: false, targeting: "spread" },
      "concede at 1 consequence, do not defend, spread the attacks",
      "bei 1 Konsequenz nachgeben, nicht verteidigen, die Angriffe verteilen"],
    ["malmsturm", { concede_at_consequences: null, defend: true, targeting: "focus" },
      "never concede, defend, all attacks on one", "nie nachgeben, verteidigen, alle Angriffe auf einen"],
  ];
  for (const [system, policy, english, german] of cases) {
    assert.equal(policyWords(/** @type {string} */ (system), /** @type {any} */ (policy), en), english);
    assert.equal(policyWords(/** @type {string} */ (system), /** @type {any} */ (policy), de), german);
  }
  assert.equal(policyWords("paws", { new_choice: [1, 2] }, en), "new_choice = [1,2]", "a newer field as the API names it");
  assert.equal(policyWords("paws", {}, de), "–");
});

test("the default is found whatever order its keys come in", () => {
  assert.equal(
    samePolicyKey({ give_up_at_wounds: null, one_shot_rescue: 1 }),
    samePolicyKey({ one_shot_rescue: 1, give_up_at_wounds: null }),
  );
  assert.equal(samePolicyKey({ h: { Bo: 0, Ann: 1 } }), samePolicyKey({ h: { Ann: 1, Bo: 0 } }));
  assert.notEqual(samePolicyKey({ max_attempts: [null, 2] }), samePolicyKey({ max_attempts: [2, null] }));
});

/**
 * A Paws advice of `count` options, best first, 1 percentage point apart except the second, which is
 * within 0.1 (gleich gut); the default is the option at `defaultAt`, its keys in the other order.
 * @param {{count?: number, defaultAt?: number, exact?: boolean, adaptive?: any}} [shape]
 */
function pawsAdvice({ count = 10, defaultAt = 9, exact = true, adaptive } = {}) {
  const options = Array.from({ length: count }, (_, index) => {
    const behind = index === 0 ? 0 : index === 1 ? 0.0004 : index / 100;
    return {
      policy: { one_shot_rescue: index % 3, give_up_at_wounds: index < 3 ? null : index },
      win: { probability: 0.9 - behind, exact: exact ? (index === 0 ? "9/10" : "1234567/9999999") : null },
      outcomes: {},
      vs_best: { probability: -behind, exact: exact ? "-1/2500" : null, equal: index <= 1 },
    };
  });
  const fallback = options[defaultAt].policy;
  return {
    operation: "paws.encounter.advice",
    request: { a: { name: "Ryan" }, b: { name: "Jack" } },
    summary: "Advice for Ryan: best spend … <b>",
    lang: "en",
    advice: {
      side: "a",
      options,
      best: { policy: options[0].policy, win: options[0].win },
      default: {
        policy: { give_up_at_wounds: fallback.give_up_at_wounds, one_shot_rescue: fallback.one_shot_rescue },
        win: options[defaultAt].win,
        vs_best: options[defaultAt].vs_best,
      },
      adaptive: adaptive === undefined
        ? { win: { probability: 0.912, exact: null }, gain_over_best_fixed: { probability: 0.012, exact: null },
            rules: ["Spend the die after a lost round <i>", "Never give up."] }
        : adaptive,
      solver: exact
        ? { states: 42, precision: "exact", max_error: 0 }
        : { states: 15129, precision: "float64", max_error: 2.2026824808563106e-13 },
    },
    receipt: { id: "x", issued_at: "2026-01-01T00:00:00Z", alg: "Ed25519", kid: "k", signature: "s" },
  };
}

/** @param {string} html */
function rows(html) {
  return [...html.matchAll(/<tr data-rank="(\d+)"([^>]*)><th scope="row"><span class="wurfwerk-advice-policy">([^<]*)<\/span>(.*?)<\/th><td[^>]*>([^<]*)<\/td><td[^>]*>([^<]*)<\/td><\/tr>/g)]
    .map((match) => ({
      rank: Number(match[1]),
      policy: match[3],
      tags: [...match[4].matchAll(/<span class="wurfwerk-tag wurfwerk-tag-(\w+)">([^<]*)<\/span>/g)].map((tag) => `${tag[1]}:${tag[2]}`),
      chance: match[5],
      behind: match[6],
    }));
}

test("the advice card (English): the best 8 and the default, marked best, equally good and default", () => {
  const html = renderCard(pawsAdvice(), { t: en, link: "http://wurfwerk.test/play?x" });
  assert.match(html, /<div class="wurfwerk-card" data-operation="paws.encounter.advice">/);
  assert.match(html, /<p class="wurfwerk-summary">Advice for Ryan: best spend … &lt;b&gt;<\/p>/);
  // Short heads for the narrow chat column; the caption says what they measure.
  assert.match(html, /<caption>Fixed choices, best first: each one&#39;s chance to win, and how many percentage points it is behind the best<\/caption>/);
  assert.match(html, /<th scope="col">Choice<\/th><th scope="col">Chance<\/th><th scope="col">Behind<\/th>/);
  const listed = rows(html);
  assert.equal(ADVICE_SHOWN, 8);
  assert.deepEqual(listed.map((row) => row.rank), [1, 2, 3, 4, 5, 6, 7, 8, 10], "the top 8, then the default");
  assert.deepEqual(listed[0], {
    rank: 1, policy: "keep the one-shot rescue dice, never give up", tags: ["best:best"], chance: "90.0 %", behind: "0.0",
  });
  assert.deepEqual(listed[1].tags, ["equal:equally good"]);
  assert.equal(listed[1].behind, "0.0", "within 0.1 points rounds to 0.0, without a minus");
  assert.deepEqual(listed[2], {
    rank: 3, policy: "spend 2 one-shot rescue dice, never give up", tags: [], chance: "88.0 %", behind: "−2.0",
  });
  assert.deepEqual(listed[8], {
    rank: 10, policy: "keep the one-shot rescue dice, give up at 9 wounds", tags: ["default:default"], chance: "81.0 %", behind: "−9.0",
  });
  assert.match(html, /<tr class="wurfwerk-advice-gap"><td colspan="3">… 1 more choice in between …<\/td><\/tr><tr data-rank="10"/);
  assert.match(html, /<p class="wurfwerk-advice-more">1 more choice not shown\.<\/p>/);
  assert.match(renderCard(pawsAdvice({ count: 14 }), { t: en, link: null }), /… 1 more choice in between …[^]*5 more choices not shown\./);
  assert.match(renderCard(pawsAdvice({ count: 14, defaultAt: 12 }), { t: de, link: null }), /… 4 weitere Wahlen dazwischen …[^]*5 weitere Wahlen nicht gezeigt\./);
  assert.match(html, /title="9\/10">90\.0 %</, "a short exact fraction as the tooltip");
  assert.match(html, /<tr data-rank="2"[^]*?<td class="wurfwerk-advice-chance" title="">90\.0 %</, "a long one is not shown");
  assert.match(
    html,
    /<p class="wurfwerk-label">Deciding anew in every state: 91\.2 % \(\+1\.2 percentage points over the best fixed choice\)<\/p>/,
  );
  assert.match(html, /<ul class="wurfwerk-rules"><li>Spend the die after a lost round &lt;i&gt;<\/li><li>Never give up\.<\/li><\/ul>/);
  assert.doesNotMatch(html, /wurfwerk-advice-float/, "exact: no floating-point note");
  assert.ok(html.includes(`<p class="wurfwerk-advice-honest">${HONEST.en}</p>`));
  assert.match(html, /<button type="button" class="wurfwerk-verify">Verify<\/button>/);
  assert.match(html, /<a class="wurfwerk-play" href="http:\/\/wurfwerk\.test\/play\?x"/);
  assert.doesNotMatch(html, /<i>|<b>/, "the service's words are escaped");
});

test("the advice card (German): „gleich gut“, „Voreinstellung“, decimal commas, the float64 note", () => {
  const html = renderCard(pawsAdvice({ exact: false }), { t: de, link: null });
  assert.match(html, /<caption>Feste Wahlen, die beste zuerst: die Siegchance jeder Wahl und ihr Abstand zur besten in Prozentpunkten<\/caption>/);
  assert.match(html, /<th scope="col">Wahl<\/th><th scope="col">Chance<\/th><th scope="col">Abstand<\/th>/);
  const listed = rows(html);
  assert.deepEqual(listed[0].tags, ["best:beste Wahl"]);
  assert.deepEqual(listed[1].tags, ["equal:gleich gut"]);
  assert.deepEqual(listed.at(-1)?.tags, ["default:Voreinstellung"]);
  assert.equal(listed[2].chance, "88,0 %");
  assert.equal(listed[2].behind, "−2,0");
  assert.equal(listed[0].policy, "die einmaligen Rettungswürfel behalten, nie aufgeben");
  assert.match(html, /… 1 weitere Wahl dazwischen …/);
  assert.match(html, /In jeder Lage neu entschieden: 91,2 % \(\+1,2 Prozentpunkte gegenüber der besten festen Wahl\)/);
  assert.match(
    html,
    /<p class="wurfwerk-advice-float">Mit Gleitkommazahlen \(float64\) genähert über 15\.129 Zustände, nicht exakt: Jede Chance weicht um höchstens 2,2 · 10⁻¹³ ab\.<\/p>/,
  );
  assert.ok(html.includes(`<p class="wurfwerk-advice-honest">${HONEST.de}</p>`));
  assert.match(html, />Prüfen<\/button>/);
  assert.doesNotMatch(html, /\d\.\d %/, "no decimal point in German");
  const english = renderCard(pawsAdvice({ exact: false }), { t: en, link: null });
  assert.match(english, /Approximated in floating point \(float64\) over 15,129 states, not exact: each chance is off by at most 2\.2 · 10⁻¹³\./);
});

test("a default among the best 8 is marked there and not repeated; a short advice has no gap", () => {
  const html = renderCard(pawsAdvice({ count: 3, defaultAt: 0 }), { t: en, link: null });
  const listed = rows(html);
  assert.deepEqual(listed.map((row) => row.rank), [1, 2, 3]);
  assert.deepEqual(listed[0].tags, ["best:best", "default:default"]);
  assert.doesNotMatch(html, /wurfwerk-advice-gap|wurfwerk-advice-more/);
  const ninth = rows(renderCard(pawsAdvice({ count: 9, defaultAt: 8 }), { t: en, link: null }));
  assert.deepEqual(ninth.map((row) => row.rank), [1, 2, 3, 4, 5, 6, 7, 8, 9]);
  assert.doesNotMatch(renderCard(pawsAdvice({ count: 9, defaultAt: 8 }), { t: en, link: null }), /wurfwerk-advice-gap/);
});

test("no adaptive optimum (a cut max_rounds): no adaptive block; a proben advice says chance of success", () => {
  const html = renderCard(pawsAdvice({ count: 2, defaultAt: 1, adaptive: null }), { t: en, link: null });
  assert.doesNotMatch(html, /wurfwerk-adaptive/);
  const proben = renderCard(
    { ...pawsAdvice({ count: 2, defaultAt: 1 }), operation: "proben.encounter.advice" },
    { t: de, link: null },
  );
  assert.match(proben, /<caption>Feste Wahlen, die beste zuerst: die Erfolgschance jeder Wahl/);
});

test("error bounds read as a number a player can say", () => {
  assert.equal(smallNumber(2.2026824808563106e-13, en), "2.2 · 10⁻¹³");
  assert.equal(smallNumber(3e-5, de), "3 · 10⁻⁵");
  assert.equal(smallNumber(0.0123, de), "0,012");
  assert.equal(smallNumber(9.96e-14, en), "1 · 10⁻¹³", "a mantissa that rounds up moves the power");
  const noBound = pawsAdvice({ exact: false });
  noBound.advice.solver.max_error = 0;
  assert.match(renderCard(noBound, { t: de, link: null }), /<p class="wurfwerk-advice-float">Mit Gleitkommazahlen \(float64\) genähert, nicht exakt\.<\/p>/);
});

test("a 422 too large is a clear whisper in the table's words, with the service's figures, not a stack", () => {
  const tooLarge = {
    status: 422,
    operation: "beutelschneider.encounter.advice",
    problem: {
      type: "https://wurfwerk.dev/problems/encounter-too-large",
      title: "Ungültige Eingabe",
      status: 422,
      detail: "body: der ganze Ablauf hat bis zu 3.575.881 Zustände, mehr als die Grenze 20.000 (WURFWERK_MAX_ENCOUNTER_STATES)",
      instance: "/v1/beutelschneider/encounter/advice",
    },
    errors: { body: ["der ganze Ablauf hat bis zu 3.575.881 Zustände, mehr als die Grenze 20.000 (WURFWERK_MAX_ENCOUNTER_STATES)"] },
    message: "beutelschneider.encounter.advice: 422 …",
    stack: "WurfwerkError: at call (client.js:1)",
  };
  const german = problemHtml(tooLarge, de);
  assert.match(german, /<strong>wurfwerk konnte das nicht<\/strong>/);
  assert.match(german, /<p>Diese Empfehlung ist zu groß zum Ausrechnen: Frag nach weniger Entscheidungen \(advise\.choices=\[…\]\) oder nach einem kleineren Kampf\.<br>422 Ungültige Eingabe: body: der ganze Ablauf hat bis zu 3\.575\.881 Zustände/);
  assert.doesNotMatch(german, /at call|WurfwerkError/, "no stack");
  const options = {
    status: 422,
    operation: "paws.encounter.advice",
    problem: { type: "https://wurfwerk.dev/problems/invalid-input", title: "Unprocessable Content", status: 422,
      detail: "advise.choices: give 200 fixed options, more than 64: ask for fewer choices" },
    errors: { "advise.choices": ["give 200 fixed options, more than 64: ask for fewer choices"] },
  };
  assert.match(problemHtml(options, en), /<p>This advice is too large to work out: ask for fewer choices \(advise\.choices=\[…\]\) or advice on a smaller fight\.<br>422 Unprocessable Content: advise\.choices: give 200 fixed options/);
  const odds = { ...tooLarge, operation: "paws.encounter.odds", problem: { ...tooLarge.problem, instance: "/v1/paws/encounter/odds" } };
  assert.match(problemHtml(odds, en), /<p>This is too large to work out: make the fight smaller/);
  const other = { status: 422, operation: "paws.encounter.advice", problem: { title: "Unprocessable Content", status: 422, detail: "advise.side: must be one of: a, b" }, errors: { "advise.side": ["must be one of: a, b"] } };
  assert.doesNotMatch(problemHtml(other, en), /too large/, "other refusals as before");
});
