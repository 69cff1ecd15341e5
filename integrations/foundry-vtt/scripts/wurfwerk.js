// The module's entry point (module.json `esmodules`): Foundry hooks, the chat command, the macro API,
// the chat card, Dice So Nice and physical dice. Everything Foundry-specific is in this file; the pure
// parts (command, card, dice, manual, problems) are imported and tested on their own.

import { Client } from "./client.js";
import { isWurfwerkCommand, parseCommand } from "./command.js";
import { escapeHtml, playUrl, renderCard, showVerdict } from "./card.js";
import { diceGroups, rollData } from "./dice.js";
import { facesForm, manualProblems, parseFaces, takesManualValues } from "./manual.js";
import { closestOperation, problemHtml } from "./problems.js";
import { MODULE_ID, readSettings, registerSettings } from "./settings.js";

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
  return ChatMessage.create({
    content,
    speaker: ChatMessage.getSpeaker(),
    flags: { [MODULE_ID]: { operation: operationId, body: JSON.stringify(body), response: JSON.stringify(response) } },
  });
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
    const response =
      settings.physicalDice && takesManualValues(operationId)
        ? await callWithPhysicalDice(client, operationId, body)
        : await callOperation(client, operationId, body);
    if (response === null) return null;
    await animateDice(response);
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
  if (module) module.api = { roll, verifyMessage };
});
Hooks.on("chatMessage", onChatMessage);
document.addEventListener("click", onClick);
