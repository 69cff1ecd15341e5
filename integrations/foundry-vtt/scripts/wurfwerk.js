// The module's entry point (module.json `esmodules`): Foundry hooks, the chat command, the macro API,
// the chat card, Dice So Nice and physical dice. Everything Foundry-specific is in this file; the pure
// parts (command, card, dice, manual, problems) are imported and tested on their own.

import { Client, makeSeed, seedCommit, verifySession } from "./client.js";
import { isWurfwerkCommand, parseCommand } from "./command.js";
import { escapeHtml, playUrl, renderCard, showVerdict } from "./card.js";
import { diceGroups, rollData } from "./dice.js";
import { facesForm, manualProblems, parseFaces, takesManualValues } from "./manual.js";
import { closestOperation, problemHtml } from "./problems.js";
import { MODULE_ID, readSettings, registerSettings } from "./settings.js";
import { nextSlot, readLog, sessionLog, verdictHtml } from "./session.js";

/** @typedef {Record<string, any>} Json */
/** @typedef {import("./client.js").OperationId} OperationId */

/**
 * Foundry's translation: `format` when there are values to fill in.
 * @param {string} key
 * @param {Record<string, string | number>} [data]
 */
function t(key, data) {
  if (!data) return game.i18n.localize(key);
  return game.i18n.format(key, Object.fromEntries(Object.entries(data).map(([name, value]) => [name, String(value)])));
}

/** @type {{key: string, client: Client} | null} */
let cachedClient = null;

/**
 * One client per configuration, so the verification keys it fetched stay cached between clicks.
 * @param {import("./settings.js").WurfwerkSettings} settings
 */
function clientFor(settings) {
  const key = JSON.stringify([settings.serviceUrl, settings.apiKey, settings.language]);
  if (cachedClient?.key !== key) {
    const client = new Client({
      baseUrl: settings.serviceUrl,
      apiKey: settings.apiKey || undefined,
      lang: settings.language,
      timeoutMs: 15000,
    });
    cachedClient = { key, client };
  }
  return cachedClient.client;
}

/**
 * The operations of the five systems, as the client knows them.
 * @returns {string[]}
 */
function knownOperations() {
  return Client.operations.filter((operation) => operation.system).map((operation) => operation.id);
}

/**
 * The client's call for an operation id and body that arrive at run time (typed in chat, passed to the
 * macro API), so they cannot be typed per operation here; assertKnownOperation has checked the id.
 * @param {Client} client
 * @param {string} operationId
 * @param {Json} body
 * @returns {Promise<Json>}
 */
function callOperation(client, operationId, body) {
  return /** @type {Promise<Json>} */ (client.call(/** @type {OperationId} */ (operationId), /** @type {any} */ (body)));
}

/**
 * A typo in the operation gets a suggestion instead of the client's bare "unknown operation id".
 * @param {string} operationId
 */
function assertKnownOperation(operationId) {
  const known = knownOperations();
  if (known.includes(operationId)) return;
  const suggestion = closestOperation(operationId, known);
  const words = [t("WURFWERK.Problem.unknownOperation", { operation: operationId })];
  if (suggestion) words.push(t("WURFWERK.Problem.didYouMean", { suggestion }));
  throw new Error(words.join(" "));
}

/**
 * Tell only the player who typed it what went wrong; never fail silently.
 * @param {unknown} error
 */
async function whisperProblem(error) {
  console.warn("wurfwerk |", error);
  await whisper(problemHtml(error, t));
}

/** @param {string} content */
async function whisper(content) {
  await ChatMessage.create({ content, whisper: [game.user.id], speaker: { alias: "wurfwerk" } });
}

async function whisperHelp() {
  const operations = knownOperations().filter((id) => !id.endsWith(".odds"));
  await whisper(
    `<div class="wurfwerk-help"><p>${escapeHtml(t("WURFWERK.Help.usage"))}</p>` +
      `<p>${escapeHtml(t("WURFWERK.Help.encounter"))}</p>` +
      `<p>${escapeHtml(t("WURFWERK.Help.operations"))}: ${operations.map((id) => `<code>${id}</code>`).join(", ")}</p></div>`,
  );
}

/**
 * Ask for the faces rolled at the table until the service accepts them. A 422 about the manual values
 * opens the dialog again with the service's words and what was typed; null when the player closes it.
 * @param {Client} client
 * @param {string} operationId
 * @param {Json} body
 * @returns {Promise<Json | null>}
 */
async function callWithPhysicalDice(client, operationId, body) {
  let faces = "";
  /** @type {string[]} */
  let problems = [];
  for (;;) {
    const entered = await askForFaces(operationId, faces, problems);
    if (entered === null) return null;
    faces = entered;
    try {
      return await callOperation(client, operationId, { ...body, manual: parseFaces(faces) });
    } catch (error) {
      problems = manualProblems(error);
      if (problems.length === 0) throw error;
    }
  }
}

/**
 * @param {string} operationId
 * @param {string} faces
 * @param {string[]} problems
 * @returns {Promise<string | null>}
 */
async function askForFaces(operationId, faces, problems) {
  const content = facesForm({
    hint: t("WURFWERK.Manual.hint"),
    label: t("WURFWERK.Manual.faces"),
    fix: t("WURFWERK.Manual.fix"),
    faces,
    problems,
  });
  const answer = await foundry.applications.api.DialogV2.prompt({
    window: { title: t("WURFWERK.Manual.title", { operation: operationId }) },
    content,
    ok: {
      label: t("WURFWERK.Manual.send"),
      callback: (_event, button) => {
        const input = /** @type {HTMLInputElement | null} */ (button.form?.elements.namedItem("faces") ?? null);
        return input?.value ?? "";
      },
    },
    rejectClose: false,
  });
  return typeof answer === "string" ? answer : null;
}

/**
 * Dice So Nice, when active, throws the faces the service rolled (never faces of its own): a Roll is
 * rebuilt from the events with Roll.fromData and handed to showForRoll, shown to every player.
 * @param {Json} response
 */
async function animateDice(response) {
  /** @type {any} */
  const dice3d = /** @type {any} */ (game).dice3d;
  if (!dice3d || !game.modules.get("dice-so-nice")?.active) return;
  const groups = diceGroups(response.randomness?.events);
  if (groups.length === 0) return;
  try {
    const roll = Roll.fromData(/** @type {any} */ (rollData(groups)));
    await dice3d.showForRoll(roll, game.user, true);
  } catch (error) {
    console.warn("wurfwerk | Dice So Nice could not show the roll", error);
  }
}

/**
 * Post the card. The request and the signed response travel in the flags as JSON text, so Foundry's
 * handling of dotted keys in document data cannot change what was signed.
 * @param {string} operationId
 * @param {Json} body
 * @param {Json} response
 * @param {import("./settings.js").WurfwerkSettings} settings
 */
async function postCard(operationId, body, response, settings) {
  const link = playUrl(settings.serviceUrl, operationId, body, settings.language);
  const content = renderCard(response, { t, link });
  const flags = { operation: operationId, body: JSON.stringify(body), response: JSON.stringify(response) };
  if (response.public) {
    // A hidden roll in the session: the full card only for the game masters (and the roller), the
    // public part, a commitment without dice or outcome, for the table.
    const gameMasters = game.users.filter((user) => user.isGM).map((user) => user.id);
    await ChatMessage.create({
      content,
      speaker: ChatMessage.getSpeaker(),
      whisper: [...new Set([...gameMasters, game.user.id])],
      blind: game.settings.get("core", "rollMode") === "blindroll",
      flags: { [MODULE_ID]: flags },
    });
    const use = response.public.session;
    return ChatMessage.create({
      content: `<div class="wurfwerk-card wurfwerk-hidden"><p>${escapeHtml(t("WURFWERK.Session.hiddenCard", {
        seat: use.seat, n: use.index + 1 }))}</p><p class="wurfwerk-commitment"><code>${escapeHtml(
        response.public.commitment.slice(0, 16))}…</code></p></div>`,
      speaker: ChatMessage.getSpeaker(),
      flags: { [MODULE_ID]: { operation: operationId, body: "{}", public: JSON.stringify(response.public) } },
    });
  }
  return ChatMessage.create({ content, speaker: ChatMessage.getSpeaker(), flags: { [MODULE_ID]: flags } });
}

// -- the world's session (issue 41) ------------------------------------------------------------------

/**
 * The session the GM opened for the world, or null.
 * @returns {{header: Json, reveal: Json | null} | null}
 */
function worldSession() {
  const stored = String(game.settings.get(MODULE_ID, "session") ?? "");
  if (!stored) return null;
  try {
    const session = JSON.parse(stored);
    return session?.header ? session : null;
  } catch {
    return null;
  }
}

/**
 * Every card in the chat log this client can see: signed responses and public parts of hidden rolls.
 * @returns {Json[]}
 */
function chatCards() {
  /** @type {Json[]} */
  const cards = [];
  for (const message of game.messages.contents) {
    for (const stored of [message.getFlag(MODULE_ID, "response"), message.getFlag(MODULE_ID, "public")]) {
      if (typeof stored !== "string") continue;
      try {
        cards.push(JSON.parse(stored));
      } catch {
        // not ours to judge here; the check names it
      }
    }
  }
  return cards;
}

/**
 * @param {"seeds" | "seatKeys"} key
 * @returns {Record<string, any>}
 */
function browserStore(key) {
  try {
    return JSON.parse(String(game.settings.get(MODULE_ID, key) ?? "{}")) ?? {};
  } catch {
    return {};
  }
}

/**
 * This user's seat seed, made in this browser the first time it is needed (sessions v2): it stays
 * here; only its commitment is published, as the user's flag, for the game master to open a session.
 * @returns {Promise<string>}
 */
export async function publishSeedCommit() {
  const seeds = browserStore("seeds");
  let seed = seeds[game.user.id];
  if (typeof seed !== "string") {
    seed = makeSeed();
    await game.settings.set(MODULE_ID, "seeds", JSON.stringify({ ...seeds, [game.user.id]: seed }));
  }
  const commit = seedCommit(seed);
  if (game.user.getFlag(MODULE_ID, "seedCommit") !== commit) await game.user.setFlag(MODULE_ID, "seedCommit", commit);
  return seed;
}

/**
 * What proves this user's seat in `header`: the seed of this browser (when its commitment is the
 * seat's), or an open seat's key the game master received; null when this browser holds neither.
 * @param {Json} header
 * @param {string} seat
 * @returns {Json | null}
 */
function seatProof(header, seat) {
  const key = browserStore("seatKeys")[header.id]?.[seat];
  if (header.open_seats.includes(seat)) return typeof key === "string" ? { seat_key: key } : null;
  const seed = browserStore("seeds")[game.user.id];
  return typeof seed === "string" && seedCommit(seed) === header.seat_commits[seat] ? { seed } : null;
}

/**
 * The seeds this browser may hand over for the session's seats: only once the session has ended.
 * @param {Json} header
 * @returns {Record<string, string>}
 */
function seedsToShare(header) {
  if (Date.parse(header.expires_at) > Date.now()) return {};
  const seed = browserStore("seeds")[game.user.id];
  const seat = game.user.name;
  return typeof seed === "string" && header.seat_commits[seat] === seedCommit(seed) ? { [seat]: seed } : {};
}

/**
 * The `session` member of this user's next roll: the world's open session, the user's name as the
 * seat with this browser's proof of it, the roll number and link after the user's last card in the chat
 * log; hidden in the blind and GM roll modes. Null outside a session (or for a user without a seat or
 * proof in this browser, or after it ended).
 * @returns {Json | null}
 */
function sessionMember() {
  const session = worldSession();
  if (!session || session.reveal || Date.parse(session.header.expires_at) <= Date.now()) return null;
  const seat = game.user.name;
  if (!session.header.seats.includes(seat)) return null;
  const proof = seatProof(session.header, seat);
  if (!proof) return null;
  const mode = game.settings.get("core", "rollMode");
  const hidden = mode === "blindroll" || mode === "gmroll";
  return { header: session.header, seat, ...proof, ...nextSlot(chatCards(), session.header.id, seat),
    ...(hidden ? { hidden } : {}) };
}

/**
 * The macro API: `api.openSession(seats?, hours?)` (a GM): a session for every user of the world (or
 * `seats`) lasting `hours` (default 4). A user whose client published a seed commitment gets a seat with
 * it; any other seat is open, its key kept in this GM's browser. Every roll of every user then goes
 * through it. Resolves to the session, or null after a whisper.
 * @param {string[]} [seats]
 * @param {number} [hours]
 */
export async function openSession(seats, hours = 4) {
  try {
    if (!game.user.isGM) throw new Error(t("WURFWERK.Session.gmOnly"));
    const settings = readSettings();
    if (!settings.serviceUrl) throw new Error(t("WURFWERK.Problem.noServiceUrl"));
    await publishSeedCommit();
    const names = [...new Set(seats ?? game.users.map((user) => user.name))];
    const commits = new Map(game.users.map((user) => [user.name, user.getFlag(MODULE_ID, "seedCommit")]));
    const { session, seat_keys: seatKeys } = await clientFor(settings).call("sessions.open", {
      seats: names.map((name) => {
        const commit = commits.get(name);
        return commit ? { name, commit } : name; // without a commitment: an open seat, its key for this GM
      }),
      ttl_s: Math.round(hours * 3600) });
    await game.settings.set(MODULE_ID, "seatKeys", JSON.stringify({ ...browserStore("seatKeys"), [session.id]: seatKeys }));
    await game.settings.set(MODULE_ID, "session", JSON.stringify({ header: session, reveal: null }));
    const open = session.open_seats.length
      ? `<p>${escapeHtml(t("WURFWERK.Session.openSeats", { seats: session.open_seats.join(", ") }))}</p>` : "";
    await ChatMessage.create({
      content: `<div class="wurfwerk-session"><p>${escapeHtml(t("WURFWERK.Session.opened", {
        seats: session.seats.join(", "), until: session.expires_at }))}</p><p><code>${escapeHtml(session.commit)}</code></p>${open}</div>`,
      speaker: ChatMessage.getSpeaker(),
    });
    return session;
  } catch (error) {
    await whisperProblem(error);
    return null;
  }
}

/** The macro API: `api.revealSession()` (a GM ends the evening, or anyone after it ended). */
export async function revealSession() {
  try {
    const session = worldSession();
    if (!session) throw new Error(t("WURFWERK.Session.none"));
    const { reveal } = await clientFor(readSettings()).call("sessions.reveal", { session: /** @type {any} */ (session.header) });
    await game.settings.set(MODULE_ID, "session", JSON.stringify({ header: session.header, reveal }));
    await ChatMessage.create({
      content: `<div class="wurfwerk-session"><p>${escapeHtml(t("WURFWERK.Session.revealed"))}</p></div>`,
      speaker: ChatMessage.getSpeaker(),
    });
    return reveal;
  } catch (error) {
    await whisperProblem(error);
    return null;
  }
}

/** The macro API: `api.exportSessionLog()` saves the session's log (the chat's cards) as a file. */
export function exportSessionLog() {
  const session = worldSession();
  if (!session) return null;
  const log = sessionLog(session.header, chatCards(), session.reveal, seedsToShare(session.header));
  saveDataToFile(JSON.stringify(log, null, 1), "application/json", `wurfwerk-session-${session.header.id}.json`);
  return log;
}

/**
 * The macro API: `api.checkSessionLog(log?)` checks a log file's text (or the world's own log) in
 * this browser, every die recomputed (verifySession), and whispers the verdict.
 * @param {string | Json} [log]
 */
export async function checkSessionLog(log) {
  try {
    const session = worldSession();
    const given = log === undefined
      ? (session ? sessionLog(session.header, chatCards(), session.reveal, seedsToShare(session.header)) : null) : log;
    if (given === null) throw new Error(t("WURFWERK.Session.none"));
    const { cards, reveal, header, seeds } = readLog(given);
    const client = clientFor(readSettings());
    const revealed = reveal ?? (await client.call("sessions.reveal", { session: /** @type {any} */ (header ?? session?.header) })).reveal;
    const own = revealed?.session ? seedsToShare(revealed.session) : {};
    const verdict = await verifySession(cards, revealed, await client.keys(), { seeds: { ...own, ...seeds } });
    await whisper(verdictHtml(verdict, cards.length, t));
    return verdict;
  } catch (error) {
    await whisperProblem(error);
    return null;
  }
}

/**
 * The macro API: `game.modules.get("wurfwerk").api.roll("paws.test", {rank: 2})`. Resolves to the
 * signed response after the card is posted, or null when a problem was whispered instead (or the
 * physical-dice dialog was closed).
 * @param {string} operationId
 * @param {Json} [body]
 * @returns {Promise<Json | null>}
 */
export async function roll(operationId, body = {}) {
  try {
    const settings = readSettings();
    if (!settings.serviceUrl) throw new Error(t("WURFWERK.Problem.noServiceUrl"));
    assertKnownOperation(operationId);
    const client = clientFor(settings);
    const session = sessionMember(); // in the world's session, the seat's roll number decides the dice
    const response = session
      ? await callOperation(client, operationId, { ...body, session })
      : settings.physicalDice && takesManualValues(operationId)
        ? await callWithPhysicalDice(client, operationId, body)
        : await callOperation(client, operationId, body);
    if (response === null) return null;
    if (!response.public) await animateDice(response); // a hidden roll's dice are nobody else's business
    await postCard(operationId, body, response, settings);
    return response;
  } catch (error) {
    await whisperProblem(error);
    return null;
  }
}

/**
 * Check a card's receipt in this browser (keys from the service; WebCrypto, or the client's pure
 * JavaScript Ed25519 where a world on plain http has none) and show ✓, ✗ or "not checked" on it.
 * @param {string} messageId
 * @param {Element} verdict
 */
export async function verifyMessage(messageId, verdict) {
  const message = game.messages.get(messageId);
  const stored = message?.getFlag(MODULE_ID, "response");
  if (typeof stored !== "string") return;
  verdict.setAttribute("data-state", "checking");
  verdict.textContent = t("WURFWERK.Card.verifying");
  try {
    // check() never rejects; a card whose stored response does not parse, or settings that make no
    // client, are "not checked" too, never ✗.
    showVerdict(verdict, await clientFor(readSettings()).check(JSON.parse(stored)), t);
  } catch (error) {
    showVerdict(verdict, { state: "not-checked", cause: "error", reason: /** @type {Error} */ (error).message }, t);
  }
}

/**
 * One listener for every card, present and future, in the chat log and in popouts.
 * @param {MouseEvent} event
 */
function onClick(event) {
  const target = /** @type {Element | null} */ (event.target instanceof Element ? event.target : null);
  const button = target?.closest(".wurfwerk-verify");
  const card = button?.closest("[data-message-id]");
  const verdict = button?.parentElement?.querySelector(".wurfwerk-verdict");
  if (!button || !card || !verdict) return;
  event.preventDefault();
  void verifyMessage(card.getAttribute("data-message-id") ?? "", verdict);
}

/**
 * Foundry's chatMessage hook: a `/ww …` line is ours (returning false keeps Foundry from posting it).
 * @param {unknown} _chatLog
 * @param {string} line
 */
function onChatMessage(_chatLog, line) {
  if (!isWurfwerkCommand(line)) return true;
  void runCommand(line);
  return false;
}

/** @param {string} line */
export async function runCommand(line) {
  let parsed;
  try {
    parsed = parseCommand(line);
  } catch (error) {
    await whisperProblem(error);
    return null;
  }
  if (parsed.help) {
    await whisperHelp();
    return null;
  }
  return roll(parsed.operationId, parsed.body);
}

Hooks.once("init", () => {
  registerSettings();
  const module = game.modules.get(MODULE_ID);
  if (module) {
    module.api = { roll, verifyMessage, publishSeedCommit, openSession, revealSession, exportSessionLog, checkSessionLog };
  }
});
// Every browser publishes its user's seed commitment at login, so the GM can open a session in which
// each user's dice depend on a seed only that user's browser holds (sessions v2).
Hooks.once("ready", () => {
  publishSeedCommit().catch((error) => console.warn("wurfwerk: no seed commitment published", error));
});
Hooks.on("chatMessage", onChatMessage);
document.addEventListener("click", onClick);
