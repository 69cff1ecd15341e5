// The chat command `/ww <operation> key=value …`: pure parsing, no Foundry globals, so node tests it.

/** The chat prefix the module answers to (Foundry passes every chat line through the chatMessage hook). */
export const COMMAND_PREFIX = "/ww";

/** A mistake in the typed command itself, found before anything is sent to the service. */
export class CommandError extends Error {
  /** @param {string} message */
  constructor(message) {
    super(message);
    this.name = "CommandError";
  }
}

/**
 * Whether a chat line is meant for this module (`/ww`, `/ww help`, `/ww paws.test …`).
 * @param {string} line
 */
export function isWurfwerkCommand(line) {
  const trimmed = line.trimStart();
  return trimmed === COMMAND_PREFIX || trimmed.startsWith(COMMAND_PREFIX + " ");
}

/**
 * Split a line into words; double or single quotes keep spaces inside one word (`name="Ryan the Bold"`),
 * a backslash escapes the next character inside quotes. Each word says whether its value (the part after
 * the first `=`, or the whole word) began with a quote, because a quoted value is always text.
 * @param {string} line
 * @returns {{text: string, quotedValue: boolean}[]}
 */
export function tokenize(line) {
  /** @type {{text: string, quotedValue: boolean}[]} */
  const words = [];
  let word = "";
  let inWord = false;
  let quotedValue = false;
  /** @type {string | null} */
  let quote = null;
  for (let index = 0; index < line.length; index++) {
    const char = line[index];
    if (quote) {
      if (char === "\\" && index + 1 < line.length) word += line[++index];
      else if (char === quote) quote = null;
      else word += char;
    } else if ((char === '"' || char === "'") && (!inWord || isBareKey(word))) {
      // Quotes open only at the start of a word or of its value, so JSON such as ["a","b"] stays intact.
      quotedValue = true;
      quote = char;
      inWord = true;
    } else if (/\s/.test(char)) {
      if (inWord) words.push({ text: word, quotedValue });
      word = "";
      inWord = false;
      quotedValue = false;
    } else {
      word += char;
      inWord = true;
    }
  }
  if (quote) throw new CommandError(`unclosed quote ${quote} in: ${line.trim()}`);
  if (inWord) words.push({ text: word, quotedValue });
  return words;
}

/** @param {string} word */
function isBareKey(word) {
  return word.indexOf("=") === word.length - 1;
}

/**
 * The value a player means by what they typed: numbers, booleans and null as such, JSON arrays and
 * objects parsed (`gods=["Ares","Hera"]`, also quoted when it holds spaces), everything else a string
 * (`ability=combat`). Other quoted values are always text, so `name="42"` stays a string.
 * @param {string} text
 * @param {boolean} [quoted]
 * @returns {unknown}
 */
export function typedValue(text, quoted = false) {
  if (text.startsWith("[") || text.startsWith("{")) return parseJson(text);
  if (quoted) return text;
  if (text === "true") return true;
  if (text === "false") return false;
  if (text === "null") return null;
  if (/^[+-]?(\d+(\.\d+)?|\.\d+)([eE][+-]?\d+)?$/.test(text)) return Number(text);
  return text;
}

/** @param {string} text */
function parseJson(text) {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new CommandError(`not valid JSON: ${text} (${/** @type {Error} */ (error).message})`);
  }
}

const INDEX = /^(0|[1-9]\d*)$/;

/**
 * Put `value` at a dotted path into `body`: `bag.red` makes `{bag: {red: …}}`; a numeric segment makes an
 * array (`participants.0.name`). Setting a path twice, or below a value already given, is an error.
 * @param {Record<string, any>} body
 * @param {string} path
 * @param {unknown} value
 */
export function setPath(body, path, value) {
  const segments = path.split(".");
  if (segments.some((segment) => segment === "")) throw new CommandError(`empty part in key: ${path}`);
  /** @type {any} */
  let container = body;
  segments.forEach((segment, position) => {
    const key = Array.isArray(container) ? arrayIndex(segment, path) : segment;
    if (position === segments.length - 1) {
      if (key in container) throw new CommandError(`key given twice: ${path}`);
      container[key] = value;
      return;
    }
    if (!(key in container)) {
      container[key] = INDEX.test(segments[position + 1]) ? [] : {};
    } else if (container[key] === null || typeof container[key] !== "object") {
      throw new CommandError(
        `key given twice: ${segments.slice(0, position + 1).join(".")} (as a value and as a group)`,
      );
    }
    container = container[key];
  });
}

/**
 * @param {string} segment
 * @param {string} path
 */
function arrayIndex(segment, path) {
  if (!INDEX.test(segment)) throw new CommandError(`"${segment}" in ${path} must be a list position (0, 1, …)`);
  return Number(segment);
}

/**
 * Turn the words after the operation into a request body.
 * @param {string[]} words
 * @param {boolean[]} [quotedValues]
 */
export function buildBody(words, quotedValues = []) {
  /** @type {Record<string, any>} */
  const body = {};
  words.forEach((word, index) => {
    const equals = word.indexOf("=");
    if (equals <= 0) throw new CommandError(`expected key=value, got: ${word}`);
    const key = word.slice(0, equals);
    setPath(body, key, typedValue(word.slice(equals + 1), quotedValues[index]));
  });
  assertNoHoles(body, "");
  return body;
}

/**
 * `participants.1.name=…` without `participants.0…` would send a sparse list; say so instead.
 * @param {unknown} value
 * @param {string} path
 */
function assertNoHoles(value, path) {
  if (Array.isArray(value)) {
    for (let index = 0; index < value.length; index++) {
      if (!(index in value)) throw new CommandError(`${path}.${index} is missing (list positions start at 0)`);
      assertNoHoles(value[index], `${path}.${index}`);
    }
  } else if (value && typeof value === "object") {
    for (const [key, member] of Object.entries(value)) assertNoHoles(member, path ? `${path}.${key}` : key);
  }
}

/** The word that starts a whole encounter (API.md §1.7): `/ww encounter <system> [play | advice] key=value …`. */
export const ENCOUNTER_WORD = "encounter";
const PLAY_WORD = "play";
const ADVICE_WORD = "advice";

/**
 * `/ww encounter paws a.rank=3 b.rank=2` asks `paws.encounter.odds` (can we win?), `/ww encounter paws
 * play …` plays the fight out with `paws.encounter`, `/ww encounter paws advice [side] …` asks
 * `paws.encounter.advice` (which choice wins most often, API.md §1.10) for the side named, else the
 * service's first side; the pairs are the body as everywhere else (`curve_rounds=8` asks for the
 * chances round by round, `advise.choices=["ability"]` for fewer choices).
 * @param {{text: string, quotedValue: boolean}[]} words the words after `encounter`
 * @returns {{operationId: string, pairs: {text: string, quotedValue: boolean}[], side?: string}}
 */
function encounterOperation(words) {
  const system = words[0]?.text;
  if (!system || system.includes("=")) {
    throw new CommandError(`expected a system after ${ENCOUNTER_WORD}: ${COMMAND_PREFIX} ${ENCOUNTER_WORD} paws a.rank=3 b.rank=2`);
  }
  if (!/^[a-z][a-z-]*$/.test(system)) throw new CommandError(`expected a system such as paws, got: ${system}`);
  const mode = words[1] && !words[1].quotedValue ? words[1].text : "";
  if (mode === PLAY_WORD) return { operationId: `${system}.encounter`, pairs: words.slice(2) };
  if (mode === ADVICE_WORD) {
    // The side is the one word without "=" right after `advice` (quoted when its name has spaces).
    const side = words[2] && !words[2].text.includes("=") ? words[2].text : undefined;
    return {
      operationId: `${system}.encounter.advice`,
      pairs: words.slice(side === undefined ? 2 : 3),
      ...(side === undefined ? {} : { side }),
    };
  }
  return { operationId: `${system}.encounter.odds`, pairs: words.slice(1) };
}

/**
 * Parse a whole chat line. `/ww` alone or `/ww help` asks for help.
 * @param {string} line
 * @returns {{help: true} | {help: false, operationId: string, body: Record<string, any>}}
 */
export function parseCommand(line) {
  if (!isWurfwerkCommand(line)) throw new CommandError(`not a ${COMMAND_PREFIX} command: ${line}`);
  const rest = line.trimStart().slice(COMMAND_PREFIX.length);
  const words = tokenize(rest);
  if (words.length === 0 || words[0].text === "help") return { help: true };
  /** @type {{operationId: string, pairs: {text: string, quotedValue: boolean}[], side?: string}} */
  const { operationId, pairs, side } =
    words[0].text === ENCOUNTER_WORD && !words[0].quotedValue
      ? encounterOperation(words.slice(1))
      : { operationId: words[0].text, pairs: words.slice(1) };
  if (!/^[a-z][a-z-]*(\.[a-z][a-z-]*)+$/.test(operationId)) {
    throw new CommandError(`expected an operation such as paws.test first, got: ${operationId}`);
  }
  const body = buildBody(
    pairs.map((word) => word.text),
    pairs.map((word) => word.quotedValue),
  );
  // Both `advice Dieb` and `advise.side=Dieb` name the side; giving both is "key given twice".
  if (side !== undefined) setPath(body, "advise.side", side);
  return { help: false, operationId, body };
}
