// Physical dice: the faces a player rolled at the table, sent as `manual`. Parsing and the problem
// messages are pure; the dialog itself lives in the glue.

import { escapeHtml } from "./card.js";

/**
 * Operations that roll nothing (API.md marks them "no randomness") and so take no `manual` values.
 * @param {string} operationId
 */
export function takesManualValues(operationId) {
  const name = operationId.split(".").slice(1).join(".");
  return !(
    name.endsWith(".odds") ||
    name.endsWith(".advice") ||
    name.startsWith("validate-") ||
    name.endsWith("-apply") ||
    ["narration", "ladder"].includes(name)
  );
}

/**
 * What a player typed into the dialog → the `manual` list: whole numbers as numbers (dice, dF as -1 0 1,
 * also "+1"), everything else as a marble colour, in the glossary's German (rot, grün, …) or as the API
 * writes it (red, green, …). Commas or spaces separate.
 * @param {string} text
 * @returns {Array<number | string>}
 */
export function parseFaces(text) {
  return text
    .split(/[\s,;]+/)
    .filter((word) => word !== "")
    .map((word) => (/^[+-]?\d+$/.test(word) ? Number(word) : colourOf(word.toLowerCase())));
}

/** The API's colour for a German one (service/locale/glossary.json); any other word as typed. */
const API_COLOURS = { rot: "red", "grün": "green", blau: "blue", "weiß": "white", schwarz: "black" };

/** @param {string} word */
function colourOf(word) {
  return Object.hasOwn(API_COLOURS, word) ? API_COLOURS[/** @type {keyof typeof API_COLOURS} */ (word)] : word;
}

/**
 * The problems of a 422 that are about the manual values (`manual`, `manual.3`), as lines a player can
 * act on; empty when the error is about something else (then the dialog cannot help).
 * @param {unknown} error a WurfwerkError from the client
 * @returns {string[]}
 */
export function manualProblems(error) {
  const failure = /** @type {{status?: number, errors?: Record<string, string[]> | null}} */ (error);
  if (!failure || failure.status !== 422 || !failure.errors) return [];
  return Object.entries(failure.errors)
    .filter(([field]) => field === "manual" || field.startsWith("manual."))
    .flatMap(([field, messages]) => messages.map((message) => `${field}: ${message}`));
}

/**
 * The dialog's form: what to enter, the service's objections to the last try, and the last try itself
 * (nothing typed is lost).
 * @param {{hint: string, label: string, fix: string, faces: string, problems: string[]}} parts
 */
export function facesForm({ hint, label, fix, faces, problems }) {
  const objections = problems.length
    ? `<div class="wurfwerk-manual-problems"><p>${escapeHtml(fix)}</p><ul>${problems.map((problem) => `<li>${escapeHtml(problem)}</li>`).join("")}</ul></div>`
    : "";
  return (
    `<p class="wurfwerk-manual-hint">${escapeHtml(hint)}</p>${objections}` +
    `<div class="form-group"><label for="wurfwerk-faces">${escapeHtml(label)}</label>` +
    `<input id="wurfwerk-faces" type="text" name="faces" value="${escapeHtml(faces)}" autofocus></div>`
  );
}
