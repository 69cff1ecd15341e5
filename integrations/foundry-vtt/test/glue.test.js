// The module's glue against the fake Foundry globals, with every request going to a live wurfwerk whose
// URL is in WURFWERK_URL (tests/integrations/test_foundry_vtt.py starts one and runs this suite).
import assert from "node:assert/strict";
import { createServer } from "node:net";
import { installFakeFoundry, waitFor } from "./fake-foundry.js";
import { missing, needing } from "./needs.js";
import { translations } from "./translate.js";

const { test, before, beforeEach } = needing("WURFWERK_URL");
const serviceUrl = process.env.WURFWERK_URL;

const foundry = installFakeFoundry({ translations: translations("en") });
/** The module logs each problem for the browser console too; collected here instead of printed. */
const consoleWarnings = [];
console.warn = (/** @type {unknown[]} */ ...args) => consoleWarnings.push(args);
/** @type {any} */
let api;

/** What the service itself says about a response's receipt. */
async function serviceVerdict(/** @type {unknown} */ response) {
  const answer = await fetch(`${serviceUrl}/v1/receipts/verify`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(response),
  });
  return /** @type {{valid: boolean}} */ (await answer.json());
}

function lastMessage() {
  return foundry.messages[foundry.messages.length - 1];
}

/** A stand-in for the card's `.wurfwerk-verdict` element: the two things verifyMessage writes. */
function verdictElement() {
  return {
    /** @type {Record<string, string>} */
    attributes: {},
    textContent: "",
    /** @param {string} name @param {string} value */
    setAttribute(name, value) {
      this.attributes[name] = value;
    },
  };
}

/** @param {string} key @param {unknown} value */
async function setSetting(key, value) {
  await globalThis.game.settings.set("wurfwerk", key, value);
}

before(async () => {
  await import("../scripts/wurfwerk.js");
  assert.equal(foundry.hooks.get("init")?.length, 1, "the module waits for init");
  globalThis.Hooks.callAll("init");
  api = foundry.modules.get("wurfwerk").api;
});

beforeEach(async () => {
  foundry.messages.length = 0;
  foundry.dialogs.length = 0;
  foundry.animations.length = 0;
  foundry.disableDiceSoNice();
  await setSetting("serviceUrl", serviceUrl);
  await setSetting("apiKey", "");
  await setSetting("language", "auto");
  await setSetting("physicalDice", false);
});

/** A loopback port nothing listens on (taken and released again). */
async function closedPort() {
  const server = createServer();
  await new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve(undefined)));
  const address = /** @type {import("node:net").AddressInfo} */ (server.address());
  await new Promise((resolve) => server.close(resolve));
  return address.port;
}

test("init registers the four world settings, the hidden session setting, the browser's seeds and the macro API", () => {
  const registered = [...foundry.settings.entries()]
    .filter(([key]) => key.startsWith("wurfwerk."))
    .map(([key, { config }]) => [key, config.scope, config.config, config.type]);
  assert.deepEqual(registered, [
    ["wurfwerk.serviceUrl", "world", true, String],
    ["wurfwerk.apiKey", "world", true, String],
    ["wurfwerk.language", "world", true, String],
    ["wurfwerk.physicalDice", "world", true, Boolean],
    ["wurfwerk.session", "world", false, String],
    ["wurfwerk.seeds", "client", false, String],
    ["wurfwerk.seatKeys", "client", false, String],
  ]);
  assert.deepEqual(Object.keys(foundry.settings.get("wurfwerk.language")?.config.choices), ["auto", "de", "en"]);
  assert.equal(typeof api.roll, "function");
});

test("/ww in chat rolls on the service and posts a signed card; Foundry does not post the line", async () => {
  const handled = globalThis.Hooks.call("chatMessage", {}, "/ww paws.test rank=2 name=Ryan", {});
  assert.equal(handled, false, "returning false stops Foundry from posting the command itself");
  await waitFor(() => foundry.messages.length === 1);
  const message = lastMessage();
  assert.equal(message.whisper, undefined, "the card is public");
  assert.match(message.content, /<div class="wurfwerk-card" data-operation="paws.test">/);
  const flags = message.flags.wurfwerk;
  assert.equal(flags.operation, "paws.test");
  assert.deepEqual(JSON.parse(flags.body), { rank: 2, name: "Ryan" });
  const response = JSON.parse(flags.response);
  assert.equal(response.operation, "paws.test");
  assert.deepEqual(response.request.rank, 2);
  assert.ok(message.content.includes(response.summary.replaceAll("→", "→")), "the card shows the service's summary");
  const faces = [...message.content.matchAll(/assets\/d6-(\d)\.svg/g)].map((match) => Number(match[1]));
  assert.deepEqual(faces, response.randomness.events[0].values, "the pictures are the faces the service rolled");
  assert.equal((await serviceVerdict(response)).valid, true, "the response in the flags is exactly the signed one");
  assert.ok(message.content.includes(`href="${serviceUrl}/play?operation=paws.test&amp;body=`));
  assert.ok(message.content.includes("&amp;lang=en"), "/play opens in the results' language");
});

test("other chat lines are left to Foundry", () => {
  assert.equal(globalThis.Hooks.call("chatMessage", {}, "/roll 1d6", {}), true);
  assert.equal(globalThis.Hooks.call("chatMessage", {}, "hello", {}), true);
  assert.equal(foundry.messages.length, 0);
});

test("the verify button's check runs in this runtime (WebCrypto) and shows ✓, or ✗ after tampering", async () => {
  const response = await api.roll("beutelschneider.challenge", {
    bag: { red: 9, green: 6, white: 5 },
    ability: "combat",
  });
  assert.equal(response.operation, "beutelschneider.challenge");
  const message = lastMessage();
  assert.match(message.content, /assets\/marble-(red|green|white)\.svg/);
  const verdict = verdictElement();
  await api.verifyMessage(message.id, verdict);
  assert.equal(verdict.attributes["data-state"], "valid");
  assert.equal(verdict.textContent, "✓ signature valid");

  const tampered = JSON.parse(message.flags.wurfwerk.response);
  tampered.result.success = !tampered.result.success;
  message.flags.wurfwerk.response = JSON.stringify(tampered);
  const second = verdictElement();
  await api.verifyMessage(message.id, second);
  assert.equal(second.attributes["data-state"], "invalid");
  assert.equal(second.textContent, "✗ signature invalid: the signature does not match the document");
});

test("a typo in the operation is whispered with a suggestion, never silent", async () => {
  globalThis.Hooks.call("chatMessage", {}, "/ww paws.tset rank=2", {});
  await waitFor(() => foundry.messages.length === 1);
  const message = lastMessage();
  assert.deepEqual(message.whisper, [foundry.user.id]);
  assert.match(message.content, /Unknown operation paws\.tset\. Did you mean paws\.test\?/);
});

test("an unknown key is whispered with the service's own message", async () => {
  assert.equal(await api.roll("paws.test", { rank: 2, rnak: 3 }), null);
  const message = lastMessage();
  assert.deepEqual(message.whisper, [foundry.user.id]);
  assert.match(message.content, /422 Unprocessable Content: rnak: is not a field of this request/);
});

test("a command the parser cannot read is whispered", async () => {
  globalThis.Hooks.call("chatMessage", {}, "/ww paws.test rank", {});
  await waitFor(() => foundry.messages.length === 1);
  assert.match(lastMessage().content, /expected key=value, got: rank/);
  assert.deepEqual(lastMessage().whisper, [foundry.user.id]);
});

test("/ww help whispers the usage and the operations", async () => {
  globalThis.Hooks.call("chatMessage", {}, "/ww", {});
  await waitFor(() => foundry.messages.length === 1);
  assert.match(lastMessage().content, /Usage: \/ww &lt;operation&gt; key=value/);
  assert.match(lastMessage().content, /<code>weltenbuch\.conflict<\/code>/);
});

test("no service URL, or a service that does not answer, is whispered", async () => {
  await setSetting("serviceUrl", "");
  assert.equal(await api.roll("paws.test", { rank: 1 }), null);
  assert.match(lastMessage().content, /No wurfwerk service URL is set/);
  await setSetting("serviceUrl", `http://127.0.0.1:${await closedPort()}`);
  assert.equal(await api.roll("paws.test", { rank: 1 }), null);
  assert.match(lastMessage().content, /The service did not answer: paws\.test: could not reach/);
  assert.ok(consoleWarnings.length >= 2, "each problem is also in the browser console");
});

test("the language setting chooses the summary's language", async () => {
  await setSetting("language", "de");
  const german = await api.roll("paws.test", { rank: 1, name: "Ryan" });
  assert.equal(german.lang, "de");
  await setSetting("language", "en");
  assert.equal((await api.roll("paws.test", { rank: 1, name: "Ryan" })).lang, "en");
});

test("a German table gets the service's problem in German (issue 29)", async () => {
  await setSetting("language", "de");
  assert.equal(await api.roll("paws.test", { rank: 99 }), null);
  assert.match(lastMessage().content, /422 Ungültige Eingabe: rank: muss zwischen 0 und 10 liegen/);
  await setSetting("language", "en");
});

test("Dice So Nice throws exactly the faces the service rolled: d6, d10 and dF", async () => {
  foundry.enableDiceSoNice();
  const paws = await api.roll("paws.test", { rank: 3 });
  const malmsturm = await api.roll("malmsturm.action", { skill: 2, difficulty: 1 });
  const conflict = await api.roll("weltenbuch.conflict", {
    die: 10,
    parties: [
      { name: "Heroes", members: [{ name: "Ada", role: "player", seat: 1, profile: 2 }] },
      { name: "Foes", members: [{ name: "Orc", role: "npc", profile: 2 }] },
    ],
  });
  assert.equal(foundry.animations.length, 3);
  const shown = foundry.animations.map(({ roll }) =>
    roll.dice.map((/** @type {any} */ die) => [
      die.denomination,
      die.faces,
      die.results.map((/** @type {any} */ r) => r.result),
    ]),
  );
  const expected = [paws, malmsturm, conflict].map((response) =>
    response.randomness.events.map((/** @type {any} */ event) => [
      event.kind === "dF" ? "f" : "d",
      event.kind === "dF" ? 3 : Number(event.kind.slice(1)),
      event.values,
    ]),
  );
  assert.deepEqual(shown, expected);
  assert.ok(
    foundry.animations.every(({ synchronize, user }) => synchronize === true && user === foundry.user),
    "every player sees it",
  );
  await api.roll("beutelschneider.challenge", { bag: { red: 9, green: 6, white: 5 }, ability: "combat" });
  assert.equal(foundry.animations.length, 3, "marble draws are not dice");
});

test("physical dice: the dialog asks for faces, a 422 about them reopens it with the message and the typed faces", async () => {
  await setSetting("physicalDice", true);
  foundry.dialogAnswers.push("4 7", "4 6");
  const response = await api.roll("paws.test", { rank: 2 });
  assert.equal(foundry.dialogs.length, 2);
  assert.match(foundry.dialogs[0].title, /Physical dice: paws\.test/);
  assert.doesNotMatch(foundry.dialogs[0].content, /wurfwerk-manual-problems/);
  assert.match(foundry.dialogs[1].content, /manual\.1: expected a d6 face 1\.\.6, got 7/);
  assert.match(foundry.dialogs[1].content, /value="4 7"/, "what was typed is kept");
  assert.equal(response.randomness.source, "manual");
  assert.deepEqual(response.randomness.events, [{ kind: "d6", values: [4, 6] }]);
  assert.match(lastMessage().content, /Physical dice, entered by hand/);
});

test("physical dice: too few values are named, marbles are entered by colour", async () => {
  await setSetting("physicalDice", true);
  foundry.dialogAnswers.push("red", "red white");
  const response = await api.roll("beutelschneider.challenge", {
    bag: { red: 9, green: 6, white: 5 },
    ability: "combat",
  });
  assert.match(foundry.dialogs[1].content, /too few values/);
  assert.deepEqual(response.result.drawn, ["red", "white"]);
});

test("physical dice: closing the dialog posts nothing; other problems are whispered; odds need no dice", async () => {
  await setSetting("physicalDice", true);
  foundry.dialogAnswers.push(null);
  assert.equal(await api.roll("paws.test", { rank: 2 }), null);
  assert.equal(foundry.messages.length, 0);

  foundry.dialogAnswers.push("4 4");
  assert.equal(await api.roll("paws.test", { rank: 2, rnak: 1 }), null);
  assert.match(lastMessage().content, /rnak: is not a field of this request/);

  const odds = await api.roll("paws.test.odds", { rank: 2 });
  assert.equal(foundry.dialogs.length, 2, "no dialog for an operation without randomness");
  assert.ok(odds.odds.outcomes.length > 0);
  assert.match(lastMessage().content, /class="wurfwerk-odds"/);

  const advice = await api.roll("paws.encounter.advice", { a: { rank: 2 }, b: { rank: 2 } });
  assert.equal(foundry.dialogs.length, 2, "nor for an advice: it rolls nothing");
  assert.ok(advice.advice.options.length > 0);
  assert.match(lastMessage().content, /class="wurfwerk-advice"/);
});

const keyed = { skip: missing("WURFWERK_KEYED_URL") };
test("the API key setting is sent as the bearer key; a missing key is whispered as 401", keyed, async () => {
  const keyedUrl = process.env.WURFWERK_KEYED_URL;
  await setSetting("serviceUrl", keyedUrl);
  assert.equal(await api.roll("paws.test", { rank: 1 }), null);
  assert.match(lastMessage().content, /401/);
  assert.deepEqual(lastMessage().whisper, [foundry.user.id]);
  await setSetting("apiKey", "table-key");
  const response = await api.roll("paws.test", { rank: 1 });
  assert.equal(response?.operation, "paws.test");
  const verdict = verdictElement();
  await api.verifyMessage(lastMessage().id, verdict);
  assert.equal(verdict.attributes["data-state"], "valid", "the keys endpoint stays open");
});

test("a roll ticket typed as JSON rolls the ticket's dice, and the card says so", async () => {
  const issued = await fetch(`${serviceUrl}/v1/tickets`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ operation: "paws.test" }),
  });
  const [ticket] = (await issued.json()).tickets;
  globalThis.Hooks.call("chatMessage", {}, `/ww paws.test rank=3 ticket='${JSON.stringify(ticket)}'`, {});
  await waitFor(() => foundry.messages.length === 1);
  const response = JSON.parse(lastMessage().flags.wurfwerk.response);
  assert.equal(response.randomness.source, "ticket");
  assert.match(lastMessage().content, /Rolled from a roll ticket/);
});

test("/ww encounter asks the whole fight's odds and posts them in words with the curve (API.md §1.7)", async () => {
  globalThis.Hooks.call(
    "chatMessage",
    {},
    "/ww encounter paws a.name=Ryan a.rank=3 b.name=Jack b.rank=2 curve_rounds=4",
    {},
  );
  await waitFor(() => foundry.messages.length === 1);
  const message = lastMessage();
  assert.equal(message.whisper, undefined, "the card is public");
  assert.equal(message.flags.wurfwerk.operation, "paws.encounter.odds");
  const response = JSON.parse(message.flags.wurfwerk.response);
  const outcomes = [...message.content.matchAll(/<span class="wurfwerk-odds-outcome">([^<]*)<\/span>/g)].map((m) => m[1]);
  assert.deepEqual(outcomes.sort(), ["Jack wins", "Ryan wins"]);
  const chance = response.odds.outcomes.find((/** @type {any} */ entry) => entry.outcome === "wins:a");
  assert.equal(chance.exact, "283/330", "Ryan (3 dice) against Jack (2 dice), exactly");
  assert.ok(message.content.includes(`>85.8 %</span>`));
  assert.equal(response.odds.curve.length, 4);
  const rows = [...message.content.matchAll(/<tr><th scope="row">(\d+)<\/th>/g)].map((m) => Number(m[1]));
  assert.deepEqual(rows, [1, 2, 3, 4], "one row per round of the service's curve");
  assert.match(message.content, /<th scope="col"[^>]*>still running<\/th>/);
  assert.equal(response.receipt, undefined, "odds carry no receipt (nothing was rolled), so no Verify button");
  assert.doesNotMatch(message.content, /wurfwerk-verify/);
});

test("/ww encounter … play plays the fight out: every roll on the card, its receipt ✓", async () => {
  globalThis.Hooks.call(
    "chatMessage",
    {},
    "/ww encounter paws play a.name=Ryan a.rank=3 b.name=Jack b.rank=2 seed=1",
    {},
  );
  await waitFor(() => foundry.messages.length === 1);
  const message = lastMessage();
  assert.equal(message.flags.wurfwerk.operation, "paws.encounter");
  const response = JSON.parse(message.flags.wurfwerk.response);
  assert.ok(response.result.steps.length >= 1);
  assert.ok(message.content.includes(escapeForHtml(response.summary)), "the service's summary line");
  const winner = response.result.outcome === "wins:a" ? "Ryan" : "Jack";
  assert.match(message.content, new RegExp(`<li class="wurfwerk-good">${winner} wins</li>`));
  const faces = [...message.content.matchAll(/assets\/d6-(\d)\.svg/g)].map((match) => Number(match[1]));
  assert.deepEqual(faces, response.randomness.events.flatMap((/** @type {any} */ event) => event.values));
  const verdict = verdictElement();
  await api.verifyMessage(message.id, verdict);
  assert.equal(verdict.attributes["data-state"], "valid");
  assert.equal((await serviceVerdict(response)).valid, true);
});

test("/ww encounter with a system the service does not have is whispered with a suggestion", async () => {
  globalThis.Hooks.call("chatMessage", {}, "/ww encounter paw a.rank=3 b.rank=2", {});
  await waitFor(() => foundry.messages.length === 1);
  assert.deepEqual(lastMessage().whisper, [foundry.user.id]);
  assert.match(lastMessage().content, /Unknown operation paw\.encounter\.odds\. Did you mean paws\.encounter\.odds\?/);
});

test("/ww encounter … advice posts the service's advice as a card: choices in words, rules, Verify ✓ (API.md §1.10)", async () => {
  globalThis.Hooks.call(
    "chatMessage",
    {},
    "/ww encounter paws advice a.name=Ryan a.rank=3 b.name=Jack b.rank=2 one_shot_rescue.a=1",
    {},
  );
  await waitFor(() => foundry.messages.length === 1);
  const message = lastMessage();
  assert.equal(message.whisper, undefined, "the card is public");
  assert.equal(message.flags.wurfwerk.operation, "paws.encounter.advice");
  assert.deepEqual(JSON.parse(message.flags.wurfwerk.body), {
    a: { name: "Ryan", rank: 3 }, b: { name: "Jack", rank: 2 }, one_shot_rescue: { a: 1 },
  }, "no side word: the service's first side");
  const response = JSON.parse(message.flags.wurfwerk.response);
  const { advice } = response;
  assert.equal(advice.side, "a");
  assert.ok(message.content.includes(escapeForHtml(response.summary)), "the service's summary line");
  const ranks = [...message.content.matchAll(/<tr data-rank="(\d+)"/g)].map((match) => Number(match[1]));
  assert.deepEqual(ranks, advice.options.slice(0, 8).map((/** @type {any} */ _, /** @type {number} */ index) => index + 1));
  assert.match(message.content, /<tr data-rank="1" data-best=""[^>]*><th scope="row"><span class="wurfwerk-advice-policy">spend 1 one-shot rescue die, never give up<\/span> <span class="wurfwerk-tag wurfwerk-tag-best">best<\/span>/);
  assert.equal(advice.best.win.exact, "39601/43560");
  assert.ok(message.content.includes(`title="39601/43560">90.9 %</td>`));
  assert.match(message.content, /<span class="wurfwerk-tag wurfwerk-tag-default">default<\/span>/);
  for (const rule of advice.adaptive.rules) assert.ok(message.content.includes(`<li>${escapeForHtml(rule)}</li>`), rule);
  assert.doesNotMatch(message.content, /wurfwerk-advice-float/, "Paws is exact");
  assert.match(message.content, /The advice assumes both sides otherwise play by this request&#39;s settings; it never changes a roll\./);
  assert.ok(message.content.includes(`href="${serviceUrl}/play?operation=paws.encounter.advice&amp;body=`));
  const verdict = verdictElement();
  await api.verifyMessage(message.id, verdict);
  assert.equal(verdict.attributes["data-state"], "valid");
  assert.equal(verdict.textContent, "✓ signature valid");
  assert.equal((await serviceVerdict(response)).valid, true);
});

test("advice for the side named, the service's words in the results' language, a float64 fight with its note", async () => {
  // The language setting is the service's (summary, rules); the card's own words are Foundry's
  // language (game.i18n, English here), as on every card.
  await setSetting("language", "de");
  globalThis.Hooks.call(
    "chatMessage",
    {},
    "/ww encounter paws advice b a.name=Ryan a.rank=3 b.name=Jack b.rank=2 one_shot_rescue.b=1",
    {},
  );
  await waitFor(() => foundry.messages.length === 1);
  let response = JSON.parse(lastMessage().flags.wurfwerk.response);
  assert.equal(response.lang, "de");
  assert.equal(response.advice.side, "b");
  assert.match(response.summary, /^Rat für Jack: /);
  assert.ok(lastMessage().content.includes(escapeForHtml(response.summary)));
  assert.match(lastMessage().content, /<tr data-rank="1" data-best="" data-default="">/, "Jack's default (spend it) is the best");
  assert.ok(response.advice.adaptive.rules.length >= 1);
  for (const rule of response.advice.adaptive.rules) assert.ok(lastMessage().content.includes(`<li>${escapeForHtml(rule)}</li>`), rule);
  assert.match(lastMessage().content, /<li>Gib nie auf: /, "the service's rules in German");
  await setSetting("language", "en");

  foundry.messages.length = 0;
  globalThis.Hooks.call(
    "chatMessage",
    {},
    "/ww encounter beutelschneider advice Dieb sides.0.name=Dieb sides.0.bag.red=3 sides.0.bag.green=6 sides.0.bag.white=5 sides.0.bag.black=1 sides.1.name=Wache sides.1.bag.red=7 sides.1.bag.green=3 sides.1.bag.white=5",
    {},
  );
  await waitFor(() => foundry.messages.length === 1);
  assert.equal(lastMessage().whisper, undefined);
  response = JSON.parse(lastMessage().flags.wurfwerk.response);
  assert.equal(response.advice.side, "Dieb");
  assert.equal(response.advice.solver.precision, "float64");
  assert.match(lastMessage().content, /<span class="wurfwerk-advice-policy">combat \(red\)<\/span>/);
  assert.match(lastMessage().content, /<span class="wurfwerk-advice-policy">skill \(green: the flight\)<\/span>/);
  assert.match(lastMessage().content, /<p class="wurfwerk-advice-float">Approximated in floating point \(float64\) over [\d,]+ states, not exact: each chance is off by at most [\d.]+ · 10⁻[⁰¹²³⁴⁵⁶⁷⁸⁹]+\.<\/p>/);
});

test("an advice too large to work out is whispered in words, with the service's figures", async () => {
  globalThis.Hooks.call(
    "chatMessage",
    {},
    "/ww encounter beutelschneider advice sides.0.name=A sides.0.bag.red=30 sides.0.bag.green=30 sides.0.bag.white=30 sides.1.name=B sides.1.bag.red=30 sides.1.bag.green=30 sides.1.bag.white=30",
    {},
  );
  await waitFor(() => foundry.messages.length === 1);
  assert.deepEqual(lastMessage().whisper, [foundry.user.id]);
  assert.match(lastMessage().content, /This advice is too large to work out: ask for fewer choices/);
  assert.match(lastMessage().content, /422 Unprocessable Content: body: the encounter has up to [\d,]+ states, more than the limit/);
  assert.doesNotMatch(lastMessage().content, /\bat .*\.js:\d+/, "no stack");

  assert.equal(await api.roll("paws.encounter.advice", {
    a: { rank: 10, extra_bonus_dice: 40 }, b: { rank: 10, extra_bonus_dice: 40 }, one_shot_rescue: { a: 3, b: 3 },
  }), null);
  assert.match(lastMessage().content, /This advice is too large to work out[^]*advise\.choices: give 200 fixed options, more than 64/);
});

/** @param {string} text */
function escapeForHtml(text) {
  return text.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;").replaceAll("'", "&#39;");
}
