// The world's session (issues 41 and 48) against the fake Foundry and a live wurfwerk that needs an API
// key (WURFWERK_KEYED_URL, key `table-key`): each user's browser makes a seed and publishes only its
// commitment, the GM opens the session for every user (a user without a commitment gets an open seat
// whose key stays in the GM's browser), each user's rolls go through it with that user's seat, seed and
// counter, a roll in the blind roll mode is hidden (the full card whispered, the public part for the
// table), the reveal waits for the end, the log exports with the seeds only then, and its check names a
// gap. Plus the pure parts of scripts/session.js.
import assert from "node:assert/strict";
import { installFakeFoundry } from "./fake-foundry.js";
import { missing, needing } from "./needs.js";
import { translations } from "./translate.js";
import { nextSlot, readLog, sessionLog, slotOf, verdictHtml } from "../scripts/session.js";
import { seedCommit } from "../../../client-js/src/index.js";

const { test, before } = needing("WURFWERK_URL");
const foundry = installFakeFoundry({ translations: translations("en") });
console.warn = () => {};
/** @type {any} */
let api;
const keyed = { skip: missing("WURFWERK_KEYED_URL") };
const player = { id: "user-2", name: "Rynn", isGM: false };

before(async () => {
  await import("../scripts/wurfwerk.js");
  globalThis.Hooks.callAll("init");
  api = foundry.modules.get("wurfwerk").api;
  foundry.users.push(foundry.withUserFlags(player));
  await globalThis.game.settings.set("wurfwerk", "serviceUrl", process.env.WURFWERK_KEYED_URL ?? "");
  await globalThis.game.settings.set("wurfwerk", "apiKey", "table-key");
});

/** @param {any} user */
function actAs(user) {
  Object.assign(globalThis.game.user, user);
}

/** @param {string} userId the seed this (shared, fake) browser holds for a user */
function browserSeed(userId) {
  return JSON.parse(String(globalThis.game.settings.get("wurfwerk", "seeds")))[userId];
}

/** @param {any} message @param {string} key */
function flag(message, key) {
  const stored = message.flags?.wurfwerk?.[key];
  return typeof stored === "string" ? JSON.parse(stored) : undefined;
}

test("an evening: open, roll by seat, a hidden GM roll, export, check", keyed, async () => {
  const gm = { id: "user-1", name: "Gamemaster", isGM: true };
  actAs(player);
  const seed = await api.publishSeedCommit(); // Rynn's browser, at login
  assert.equal(player.getFlag("wurfwerk", "seedCommit"), seedCommit(seed));
  actAs(gm);
  const header = await api.openSession(undefined, 12 / 3600); // twelve seconds
  assert.deepEqual(header.seats, ["Gamemaster", "Rynn"]);
  assert.equal(header.seat_commits.Rynn, seedCommit(seed), "Rynn's seat is Rynn's seed's");
  assert.deepEqual(header.open_seats, [], "the GM's own browser published a commitment too");
  assert.match(foundry.messages.at(-1).content, new RegExp(header.commit));
  assert.doesNotMatch(JSON.stringify(foundry.messages), new RegExp(seed), "the seed never reaches the chat");

  actAs(player);
  const first = await api.roll("paws.test", { rank: 2 });
  const second = await api.roll("paws.test", { rank: 2 });
  assert.deepEqual([first.request.session.index, second.request.session.index], [0, 1]);
  assert.equal(first.request.session.prev, null);
  assert.equal(second.request.session.prev, first.receipt.signature, "the next card links to the last");
  assert.equal(first.randomness.source, "session");

  actAs(gm);
  await globalThis.game.settings.set("core", "rollMode", "blindroll");
  const hidden = await api.roll("proben.test", { attribute: 3, difficulty: 2 });
  await globalThis.game.settings.set("core", "rollMode", "publicroll");
  assert.equal(hidden.request.session.hidden, true);
  const [whispered, table] = foundry.messages.slice(-2);
  assert.deepEqual(whispered.whisper, ["user-1"], "the full card only for the game master");
  assert.equal(whispered.blind, true);
  assert.deepEqual(flag(table, "public"), hidden.public);
  assert.equal(table.whisper, undefined, "the public part for the table");
  assert.doesNotMatch(table.content, /successes|Erfolg|outcome/);

  assert.equal(await api.revealSession(), null, "no reveal before the end");
  await new Promise((resolve) => { setTimeout(resolve, Math.max(0, Date.parse(header.expires_at) - Date.now() + 100)); });
  await api.revealSession();
  const log = api.exportSessionLog();
  assert.deepEqual(log.seeds, { Gamemaster: browserSeed("user-1") }, "this browser's seat's seed, after the end");
  assert.equal(foundry.downloads.length, 1);
  assert.deepEqual(JSON.parse(foundry.downloads[0].data), log);
  assert.equal(log.cards.length, 4, "two open cards, the hidden full card and its public part");
  actAs(player); // Rynn's browser checks the GM's file: its own seed and the GM's from the file
  const verdict = await api.checkSessionLog(foundry.downloads[0].data);
  assert.equal(verdict.complete, true, JSON.stringify(verdict));
  assert.match(foundry.messages.at(-1).content, /Complete/);

  const dropped = { ...log, cards: log.cards.filter((card) => card !== log.cards[0]) };
  const gap = await api.checkSessionLog(JSON.stringify(dropped));
  assert.deepEqual(gap.gaps, [{ seat: "Rynn", from: 0, to: 0 }]);
  assert.match(foundry.messages.at(-1).content, /Missing: Rynn, roll 1/);
});

test("only a game master opens a session", keyed, async () => {
  actAs(player);
  assert.equal(await api.openSession(), null);
  assert.match(foundry.messages.at(-1).content, /Only the GM/);
});

test("the pure parts: the next slot, the log, a log read back, the verdict in words", () => {
  const header = { id: "s1" };
  const card = (seat, index, link, hidden = false) => (hidden
    ? { request: { session: { header, seat, index, hidden } }, public: { signature: link }, receipt: { signature: "x" } }
    : { request: { session: { header, seat, index } }, receipt: { signature: link } });
  const cards = [card("Rynn", 0, "a"), card("Rynn", 1, "b"), card("GM", 0, "c", true),
    { session: { header, seat: "GM", index: 0, hidden: true }, commitment: "k", signature: "c" }];
  assert.deepEqual(nextSlot(cards, "s1", "Rynn"), { index: 2, prev: "b" });
  assert.deepEqual(nextSlot(cards, "s1", "GM"), { index: 1, prev: "c" });
  assert.deepEqual(nextSlot(cards, "other", "Rynn"), { index: 0, prev: null });
  assert.equal(slotOf({ anything: 1 }), null);
  const log = sessionLog(header, [...cards, cards[0], { request: { session: { header: { id: "s2" }, seat: "Rynn", index: 0 } }, receipt: { signature: "z" } }], null);
  assert.equal(log.cards.length, 4, "each card once, only this session's");
  assert.deepEqual(readLog(JSON.stringify(log)).cards, log.cards);
  assert.deepEqual(readLog(cards).cards, cards);
  assert.throws(() => readLog("{}"), SyntaxError);
  const t = (/** @type {string} */ key, /** @type {any} */ data = {}) => `${key}${JSON.stringify(data)}`;
  const html = verdictHtml({ complete: false, gaps: [{ seat: "R<b>", from: 0, to: 0 }, { seat: "Alva", from: 2, to: 5 }],
    duplicates: [], invalid: [{ card: 2, reason: "dice" }], after_reveal: [], unshown: [], unverified: ["Alva"] }, 3, t);
  assert.match(html, /gapRange\{&quot;seat&quot;:&quot;Alva&quot;,&quot;from&quot;:3,&quot;to&quot;:6\}/);
  assert.match(html, /unverified/);
  assert.match(html, /blindSpot/);
  assert.match(html, /data-complete="false"/);
  assert.match(html, /WURFWERK\.Session\.why\.dice/);
  assert.doesNotMatch(html, /<b>/, "names are escaped");
});
