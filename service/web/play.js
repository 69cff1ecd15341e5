// /play: choose what to roll, fill a form built from its request schema (the character first, the
// randomness under "Advanced"), roll, and see the chat line, the dice and marbles under each
// participant's name, what changed, the receipt checked here in the browser and the odds of the same
// request. A link to a roll carries the signed response in its fragment: the page shows and checks
// it and never rolls again. Plain ES module on the JavaScript client; nothing from elsewhere.
import { Client, OPERATIONS, WurfwerkError, signatureMatches } from "../client/index.js";
import canonicalize from "../client/vendor/canonicalize.js";
import { followUps } from "./follow-ups.js";
import { LABELS } from "./labels.js";
import { sessionPanel } from "./session.js";

const ADVANCED = ["seed", "manual", "ticket", "idempotency_key"];
// An encounter form's options, shown after its characters (sides, parties, toughness, steps).
const OPTIONS = ["order", "ends", "pairs", "policy", "injuring_abilities", "aftermath", "dice", "die", "max_rounds",
  "curve_rounds", "exact"];
// Set by the session panel (session.js), never typed into the form.
const PANEL_MEMBERS = ["session"];
// The apply steps take a whole signed response; "continue" carries it over from the step before.
const CARRIED = {
  "beutelschneider.healing-apply": { field: "draw", from: "beutelschneider.healing", next: "continueHealing" },
  "beutelschneider.experience-apply": { field: "draw", from: "beutelschneider.experience", next: "continueExperience" },
  "weltenbuch.narration": { field: "conflict", from: "weltenbuch.conflict", next: "continueNarration" },
};
const CONTINUE = {
  "beutelschneider.healing": (response) => response.result?.choices_required > 0 && {
    to: "beutelschneider.healing-apply",
    body: { draw: response, replacements: Array(response.result.choices_required).fill("red") },
  },
  "beutelschneider.experience": (response) => response.result?.choices_required > 0 && {
    to: "beutelschneider.experience-apply",
    body: { draw: response, replacements: Array(response.result.choices_required).fill(null) },
  },
  "weltenbuch.conflict": (response) => ({ to: "weltenbuch.narration", body: { conflict: response, spends: [] } }),
};
const ABILITY_COLOUR = { combat: "red", skill: "green", magic: "blue" };
// Which faces count as successes, as each system's rules text says.
const SUCCESS_FACE = {
  paws: (value) => value >= 4, // "Jede 4, 5 oder 6 ist ein Erfolg"
  proben: (value) => value >= 5, // "Jede 5 oder 6 zählt als Erfolg"
  weltenbuch: (value) => value % 2 === 0, // even faces
};

const $ = (id) => document.getElementById(id);
const params = new URLSearchParams(location.search);
const state = { lang: pickLanguage(), spec: null, operations: new Map(), editor: null, generation: 0, linkProblem: null };

function pickLanguage() {
  const asked = params.get("lang");
  if (asked === "de" || asked === "en") return asked;
  return (navigator.language || "en").toLowerCase().startsWith("de") ? "de" : "en";
}

const words = () => LABELS[state.lang];

function fill(text, values) {
  return text.replace(/\{(\w+)\}/g, (_, name) => values[name] ?? "");
}

function t(key, values = {}) {
  return fill(words().ui[key] ?? LABELS.en.ui[key] ?? key, values);
}

function number(value, options = {}) {
  return new Intl.NumberFormat(state.lang, options).format(value);
}

function percent(probability) {
  const digits = probability > 0 && probability < 0.01 ? 2 : 1;
  return new Intl.NumberFormat(state.lang, { style: "percent", minimumFractionDigits: digits, maximumFractionDigits: digits })
    .format(probability);
}

function element(tag, attributes = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === undefined || value === null || value === false) continue;
    if (name === "text") node.textContent = value;
    else node.setAttribute(name, value === true ? "" : value);
  }
  node.append(...children.filter((child) => child !== null && child !== undefined && child !== false));
  return node;
}

function svgElement(tag, attributes = {}, ...children) {
  const node = document.createElementNS("http://www.w3.org/2000/svg", tag);
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, value);
  node.append(...children);
  return node;
}

// -- words for operations, fields and choices --------------------------------------------------------

function systemOf(operationId) {
  return operationId.split(".")[0];
}

function operationName(operationId) {
  // An operation newer than the catalog: the spec's own summary, in English words.
  return words().operations[operationId]?.[0] ?? LABELS.en.operations[operationId]?.[0]
    ?? state.operations.get(operationId)?.summary ?? operationId;
}

function segments(path) {
  return path.split(".").filter((part) => part !== "" && !/^\d+$/.test(part) && part !== "*");
}

/** [label, help] for a form field, from the most specific entry of the catalog to the general one. */
function fieldWords(operationId, path, description) {
  const names = segments(path);
  const name = names.at(-1);
  const parent = names.at(-2);
  const keys = [`${operationId}.${name}`, parent && `${parent}.${name}`, `${systemOf(operationId)}.${name}`, name];
  for (const key of keys.filter(Boolean)) {
    const entry = words().fields[key];
    if (entry) return [entry[0], entry[1] ?? (key === name ? null : words().fields[name]?.[1]) ?? null];
  }
  // Not in the catalog (a field newer than the page): the name in words, the spec's English help as text.
  return [name.replace(/_/g, " "), state.lang === "en" ? plainText(description) : null, true];
}

function plainText(text) {
  return text ? text.replace(/`([^`]*)`/g, "$1").replace(/\*\*?([^*]+)\*\*?/g, "$1") : null;
}

function choiceWords(operationId, field, value) {
  if (typeof value === "boolean") return t(value ? "yes" : "no");
  const choices = words().choices;
  return choices[`${systemOf(operationId)}.${field}.${value}`] ?? choices[`${field}.${value}`] ?? choices[value] ?? String(value);
}

// -- the spec: operations and their request schemas ------------------------------------------------

function resolve(schema) {
  let current = schema ?? {};
  while (current.$ref) current = state.spec.components.schemas[current.$ref.split("/").pop()];
  if (Array.isArray(current.anyOf)) {
    const concrete = current.anyOf.filter((option) => option.type !== "null");
    if (concrete.length === 1) {
      const { anyOf: _anyOf, ...rest } = current;
      return { ...resolve(concrete[0]), ...rest, nullable: true };
    }
  }
  return current;
}

function typeOf(schema) {
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  return types.find((type) => type && type !== "null");
}

function isNullable(schema) {
  return schema.nullable === true || (Array.isArray(schema.type) && schema.type.includes("null"));
}

function loadOperations(spec) {
  for (const [path, item] of Object.entries(spec.paths)) {
    for (const [method, operation] of Object.entries(item)) {
      if (!operation.operationId) continue;
      const content = operation.requestBody?.content?.["application/json"];
      state.operations.set(operation.operationId, {
        id: operation.operationId, path, method, summary: operation.summary, schema: content?.schema,
        example: content?.example ?? {},
      });
    }
  }
}

// -- the form: one editor per schema node; each knows how to show a value and read it back ------------
//
// An editor is {node, read(), fill(value)}: read() returns the JSON value (null for "not set", as
// the service takes it) or throws a FieldError naming the path. `context` carries the operation and
// whether every enclosing object is required (inside an optional object nothing looks required).

class FieldError extends Error {
  constructor(path, message) {
    super(message);
    this.path = path;
  }
}

function editorFor(schema, path, required, context) {
  const resolved = resolve(schema);
  const type = typeOf(resolved);
  const field = segments(path).at(-1) ?? "";
  if (resolved.enum) {
    const choices = resolved.enum.filter((value) => value !== null);
    return choiceEditor(choices, path, required && !resolved.enum.includes(null), context, field, resolved.default);
  }
  if (type === "boolean") return choiceEditor([true, false], path, required, context, field, resolved.default);
  if (type === "integer" || type === "number") return numberEditor(resolved, path, type);
  if (type === "string") return textEditor(resolved, path);
  if (type === "array") return listEditor(resolved, path, required, context);
  if (type === "object" && resolved.properties) return objectEditor(resolved, path, required, context);
  const values = resolve(resolved.additionalProperties);
  if (type === "object" && values.properties) return mapEditor(values, path, context);
  if (resolved.oneOf) return scalarEditor(path);
  return jsonEditor(path);
}

function choiceEditor(choices, path, required, context, field, fallback) {
  const select = element("select", { name: path, "data-path": path });
  if (!required) {
    const unset = field === "replacements" ? t("keep") : words().choices[`${field}.none`]
      ? words().choices[`${field}.none`]
      : fallback !== undefined && fallback !== null ? t("byDefault", { value: choiceWords(context.operation, field, fallback) })
        : t("notSet");
    select.append(element("option", { value: "", text: unset }));
  }
  for (const choice of choices) {
    select.append(element("option", { value: JSON.stringify(choice), text: choiceWords(context.operation, field, choice) }));
  }
  return {
    node: select,
    read: () => (select.value === "" ? null : JSON.parse(select.value)),
    fill: (value) => { select.value = value === null || value === undefined ? (required ? select.value : "") : JSON.stringify(value); },
  };
}

function numberEditor(schema, path, type) {
  const input = element("input", {
    type: "number", name: path, "data-path": path, min: schema.minimum, max: schema.maximum,
    step: type === "integer" ? 1 : "any", placeholder: schema.default ?? "", inputmode: "numeric",
  });
  return {
    node: input,
    read: () => {
      if (input.value.trim() === "") {
        if (input.validity.badInput) throw new FieldError(path, t("notNumber"));
        return null;
      }
      return Number(input.value);
    },
    fill: (value) => { input.value = value ?? ""; },
  };
}

function textEditor(schema, path) {
  const input = element("input", { type: "text", name: path, "data-path": path, placeholder: schema.default ?? "" });
  return { node: input, read: () => (input.value === "" ? null : input.value), fill: (value) => { input.value = value ?? ""; } };
}

function scalarEditor(path) {
  // A die face or a marble colour: a whole number is a number, anything else a string.
  const input = element("input", { type: "text", name: path, "data-path": path, size: 8 });
  return {
    node: input,
    read: () => {
      const text = input.value.trim();
      if (text === "") return null;
      return /^-?\d+$/.test(text) ? Number(text) : text;
    },
    fill: (value) => { input.value = value ?? ""; },
  };
}

function jsonEditor(path) {
  const area = element("textarea", { name: path, "data-path": path, spellcheck: "false" });
  return {
    node: area,
    read: () => {
      if (area.value.trim() === "") return null;
      try {
        return JSON.parse(area.value);
      } catch {
        throw new FieldError(path, t("notJson"));
      }
    },
    fill: (value) => { area.value = value === undefined || value === null ? "" : JSON.stringify(value, null, 2); },
  };
}

/** A whole signed response carried over from the step before (a draw, a conflict). */
function carriedEditor(path, carried) {
  let value = null;
  const shown = element("p", { class: "carried", "data-testid": "carried" });
  const paste = jsonEditor(`${path}.json`);
  paste.node.removeAttribute("name");
  paste.node.setAttribute("aria-label", t("pasteJson"));
  const node = element("div", {}, shown, element("details", {}, element("summary", { text: t("pasteJson") }), paste.node));
  const show = () => {
    shown.textContent = value
      ? t("carriedFrom", { summary: value.summary ?? operationName(value.operation ?? "") })
      : t("carriedNone", { from: operationName(carried.from), next: t(carried.next) });
  };
  show();
  return {
    node,
    read: () => {
      const pasted = paste.read();
      const chosen = pasted ?? value;
      if (!chosen) throw new FieldError(path, t("needCarried", { from: operationName(carried.from), next: t(carried.next) }));
      return chosen;
    },
    fill: (given) => {
      value = given && typeof given === "object" && given.receipt?.kid !== "example-kid" ? given : null;
      show();
    },
  };
}

function listEditor(schema, path, required, context) {
  const items = [];
  const box = element("div", { class: "items", "data-path": path });
  const add = element("button", { type: "button", class: "small", text: `+ ${t("add")}` });
  const wrapper = element("div", {}, box, add);
  const itemSchema = resolve(schema.items ?? {});
  // An item has no label of its own: a single control is named by the list's label and its number.
  const listLabel = fieldWords(context.operation, path, null)[0];
  const renumber = () => items.forEach((entry, index) => {
    const name = `${listLabel} ${number(index + 1)}`;
    if (entry.editor.node.matches("input, select, textarea")) entry.editor.node.setAttribute("aria-label", name);
    entry.remove.setAttribute("aria-label", `${t("remove")}: ${name}`);
  });
  const append = (value) => {
    const itemPath = `${path}.${items.length}`;
    const editor = editorFor(schema.items ?? {}, itemPath, !isNullable(itemSchema), context);
    const remove = element("button", { type: "button", class: "small", title: t("remove"), "aria-label": t("remove"), text: "−" });
    const row = element("div", { class: "item" }, fieldShell(editor, itemPath, null, false, null), remove);
    const entry = { editor, row, remove };
    remove.addEventListener("click", () => {
      items.splice(items.indexOf(entry), 1);
      row.remove();
      renumber();
    });
    items.push(entry);
    renumber();
    box.append(row);
    if (value !== undefined) editor.fill(value);
  };
  add.addEventListener("click", () => append(undefined));
  return {
    node: wrapper,
    read: () => {
      const values = items.map((entry) => entry.editor.read());
      return values.length === 0 && !required ? null : values;
    },
    fill: (value) => {
      items.splice(0).forEach((entry) => entry.row.remove());
      for (const item of Array.isArray(value) ? value : []) append(item);
    },
  };
}

/** An object keyed by names (toughness by member): one row per name. */
function mapEditor(valueSchema, path, context) {
  const rows = [];
  const box = element("div", { class: "items", "data-path": path });
  const add = element("button", { type: "button", class: "small", text: `+ ${t("add")}` });
  const append = (key, value) => {
    const rowPath = `${path}.${rows.length}`;
    const keyInput = element("input", { type: "text", "aria-label": t("key"), placeholder: t("key"), value: key ?? "" });
    const editor = objectEditor(valueSchema, `${path}.*`, false, { ...context, keyed: rowPath });
    const remove = element("button", { type: "button", class: "small", "aria-label": t("remove"), text: "−" });
    const row = element("fieldset", { class: "map-row" }, element("legend", {}, keyInput), editor.node, remove);
    const entry = { keyInput, editor, row };
    remove.addEventListener("click", () => {
      rows.splice(rows.indexOf(entry), 1);
      row.remove();
    });
    rows.push(entry);
    box.append(row);
    if (value !== undefined) editor.fill(value);
  };
  add.addEventListener("click", () => append("", undefined));
  return {
    node: element("div", {}, box, add),
    read: () => {
      const entries = rows.filter((entry) => entry.keyInput.value.trim() !== "")
        .map((entry) => [entry.keyInput.value.trim(), entry.editor.read()]);
      return entries.length ? Object.fromEntries(entries) : null;
    },
    fill: (value) => {
      rows.splice(0).forEach((entry) => entry.row.remove());
      for (const [key, item] of Object.entries(value ?? {})) append(key, item);
    },
  };
}

function objectEditor(schema, path, required, context) {
  const requiredNames = new Set(schema.required ?? []);
  const root = path === "";
  const carried = root ? CARRIED[context.operation] : null;
  const members = Object.entries(schema.properties).filter(([name]) => !(root && PANEL_MEMBERS.includes(name))).map(([name, property]) => {
    const memberPath = root ? name : `${path}.${name}`;
    const memberRequired = requiredNames.has(name) && (root || required);
    const editor = carried?.field === name ? carriedEditor(memberPath, carried)
      : editorFor(property, memberPath, memberRequired, context);
    const [label, help, fallback] = fieldWords(context.operation, memberPath, resolve(property).description);
    const node = fieldShell(editor, memberPath, label, memberRequired, help);
    if (fallback) node.dataset.fallback = "true"; // the tests look for fields the catalog misses
    return { name, editor, node };
  });
  // Issue 40: the characters first, the options after (an encounter's max_rounds, curve and precision
  // come first in the spec, shared by every encounter).
  if (root && context.operation.endsWith(".encounter")) {
    members.sort((x, y) => Number(OPTIONS.includes(x.name)) - Number(OPTIONS.includes(y.name)));
  }
  const main = members.filter((member) => !(root && ADVANCED.includes(member.name)));
  const advanced = members.filter((member) => root && ADVANCED.includes(member.name));
  let node;
  if (root) {
    node = element("div", {}, ...main.map((member) => member.node));
    if (advanced.length) {
      node.append(element("details", { class: "advanced", "data-testid": "advanced" },
        element("summary", { text: t("advanced") }), element("p", { class: "hint", text: t("advancedHint") }),
        ...advanced.map((member) => member.node)));
    }
  } else {
    node = element("div", { class: "group", "data-path": path }, ...members.map((member) => member.node));
  }
  return {
    node,
    read: () => {
      const value = Object.fromEntries(members.map((member) => [member.name, member.editor.read()]));
      // A nested object left empty is "not set" (e.g. an optional ticket), not an object of nulls.
      return !root && Object.values(value).every((member) => member === null) ? null : value;
    },
    fill: (value) => {
      for (const member of members) member.editor.fill(value?.[member.name] ?? null);
    },
  };
}

function fieldShell(editor, path, label, required, help) {
  const children = [];
  const id = `field-${path}`;
  const nested = editor.node.tagName === "DIV" && editor.node.querySelector(".field, .items");
  if (label !== null) {
    // The star is for the eye; a screen reader hears "required" from the control's aria-required.
    const mark = required ? element("span", { class: "required", "aria-hidden": "true", text: " *" }) : null;
    children.push(nested ? element("div", { class: "legend", id }, label, mark) : element("label", { for: id }, label, mark));
    if (!nested) editor.node.id ||= id;
    if (!nested && required && editor.node.matches("input, select, textarea")) editor.node.setAttribute("aria-required", "true");
    else editor.node.setAttribute("aria-labelledby", id);
  }
  children.push(element("div", { class: "control" }, editor.node));
  if (help) children.push(element("div", { class: "hint", text: help }));
  children.push(element("div", { class: "field-error", "data-error-for": path, "data-testid": `error-${path}` }));
  return element("div", { class: nested ? "field nested" : "field", "data-field": path }, ...children);
}

function showForm(operation, body) {
  const form = $("form");
  form.replaceChildren();
  state.editor = null;
  if (!operation.schema) {
    form.hidden = true;
    return;
  }
  form.hidden = false;
  state.editor = editorFor(operation.schema, "", true, { operation: operation.id });
  form.append(state.editor.node);
  state.editor.fill(body ?? operation.example);
}

// -- errors next to the fields ---------------------------------------------------------------------

function clearErrors() {
  $("error").hidden = true;
  $("error").replaceChildren();
  for (const slot of document.querySelectorAll(".field-error")) slot.textContent = "";
  for (const field of document.querySelectorAll(".field.invalid")) field.classList.remove("invalid");
}

function showFieldErrors(errors) {
  let placed = 0;
  for (const [path, messages] of Object.entries(errors)) {
    let target = path;
    while (target && !document.querySelector(`[data-error-for="${CSS.escape(target)}"]`)) {
      target = target.includes(".") ? target.slice(0, target.lastIndexOf(".")) : "";
    }
    const slot = target && document.querySelector(`[data-error-for="${CSS.escape(target)}"]`);
    if (!slot) continue;
    const prefix = target === path ? "" : `${segments(path.slice(target.length + 1)).join(" · ")}: `;
    slot.textContent = [slot.textContent, ...messages.map((message) => prefix + message)].filter(Boolean).join(" ");
    slot.closest(".field")?.classList.add("invalid");
    placed += 1;
  }
  return placed;
}

function showMessage(text) {
  const box = $("error");
  box.hidden = false;
  box.textContent = text;
}

function showError(error) {
  if (error instanceof FieldError) {
    showFieldErrors({ [error.path]: [error.message] });
    showMessage(`${t("fixFields")} ${error.message}`);
  } else if (error instanceof WurfwerkError && error.status === 0) {
    showMessage(t("network"));
  } else if (error instanceof WurfwerkError && error.status >= 500) {
    showMessage(t("server", { status: error.status }));
  } else if (error instanceof WurfwerkError) {
    const placed = showFieldErrors(error.errors ?? {});
    const detail = error.problem?.detail || error.problem?.title || error.message;
    // Messages that sit next to their fields are not repeated above with the fields' API names.
    const total = Object.keys(error.errors ?? {}).length;
    showMessage(total && placed === total ? t("fixFields") : total ? `${t("fixFields")} ${detail}` : detail);
  } else {
    console.error(error);
    showMessage(t("server", { status: "?" }));
  }
}

// -- results: dice under names, what changed, events, receipt ---------------------------------------

const PIPS = { 1: [[2, 2]], 2: [[1, 1], [3, 3]], 3: [[1, 1], [2, 2], [3, 3]], 4: [[1, 1], [3, 1], [1, 3], [3, 3]],
  5: [[1, 1], [3, 1], [2, 2], [1, 3], [3, 3]], 6: [[1, 1], [3, 1], [1, 2], [3, 2], [1, 3], [3, 3]] };
const MARBLES = { red: "#d33a2c", green: "#2f9e44", blue: "#2f6fdf", white: "#f4f4f4", black: "#222" };
// The letter's ink on each marble, the darker or lighter one that stands out from its colour.
const MARBLE_INK = { red: "#fff", green: "#000", blue: "#fff", white: "#000", black: "#fff" };

function kindWords(kind) {
  if (/^d\d+$/.test(kind)) return state.lang === "de" ? `W${kind.slice(1)}` : kind;
  return t(`kind.${kind}`);
}

function valueWords(kind, value) {
  if (kind === "draw") return choiceWords("", "", value);
  if (kind === "dF") return t({ 1: "plus", 0: "blank", "-1": "minus" }[value] ?? "blank");
  return number(value);
}

function facePicture(kind, value, success) {
  const spoken = `${kindWords(kind)} ${valueWords(kind, value)}${success ? `, ${t(kind === "draw" ? "matching" : "success")}` : ""}`;
  const svg = svgElement("svg", { viewBox: "0 0 40 40", role: "img", "aria-label": spoken, "data-kind": kind,
    "data-value": value, class: success ? "face success" : "face", "data-success": success ? "true" : "false" },
  svgElement("title", {}, spoken));
  if (kind === "draw") {
    // The colour's letter on the marble: told apart without seeing colours (WCAG 1.4.1).
    svg.append(svgElement("circle", { cx: 20, cy: 20, r: 16, fill: MARBLES[value] ?? "#999", stroke: "#555", "stroke-width": 1.5 }),
      svgElement("text", { x: 20, y: 25.5, "text-anchor": "middle", "font-size": 15, "font-weight": 700, class: "marble-letter",
        fill: MARBLE_INK[value] ?? "#000", "aria-hidden": "true" }, t(`marble.${value}`)));
    return svg;
  }
  svg.append(svgElement("rect", { x: 3, y: 3, width: 34, height: 34, rx: 7, class: "die-body" }));
  if (kind === "d6" && PIPS[value]) {
    for (const [x, y] of PIPS[value]) svg.append(svgElement("circle", { cx: x * 10, cy: y * 10, r: 3.5, class: "pip" }));
  } else {
    const text = kind === "dF" ? { 1: "+", 0: " ", "-1": "−" }[value] : String(value);
    svg.append(svgElement("text", { x: 20, y: 26, "text-anchor": "middle", "font-size": 16, "font-weight": 700, class: "pip" }, text));
  }
  return svg;
}

function at(object, path) {
  return path.reduce((value, key) => (value === null || value === undefined ? undefined : value[key]), object);
}

/** Every place in the result that holds dice or drawn marbles, with whose they are. */
function diceGroups(response) {
  const groups = [];
  const request = response.request ?? {};
  const numericKind = response.randomness?.events?.find((event) => event.kind !== "draw")?.kind ?? "d6";
  const walk = (node, path) => {
    if (Array.isArray(node)) {
      node.forEach((item, index) => walk(item, [...path, index]));
      return;
    }
    if (!node || typeof node !== "object") return;
    const dice = Array.isArray(node.dice) && node.dice.every((value) => typeof value === "number") ? node.dice : null;
    const drawn = Array.isArray(node.drawn) ? node.drawn : null;
    if (dice || drawn) groups.push(describeGroup(node, path, response, drawn ? "draw" : numericKind, drawn ?? dice));
    for (const [key, value] of Object.entries(node)) {
      if (key !== "dice" && key !== "drawn" && value && typeof value === "object") walk(value, [...path, key]);
    }
  };
  walk(response.result, []);
  return groups;
}

function describeGroup(node, path, response, kind, values) {
  const request = response.request ?? {};
  const sideKey = [...path].reverse().find((key) => typeof key === "string");
  const echoed = at(request, path) ?? (sideKey ? request[sideKey] : undefined);
  const name = node.name ?? echoed?.name ?? (path.length === 0 ? request.name : null);
  const title = groupTitle(node, path, response, sideKey, name);
  const ability = node.ability ?? echoed?.ability ?? (path.length === 0 ? request.ability : null);
  return { title: node.party ? `${title} (${node.party})` : title, kind, values,
    success: successTest(kind, ability, sideKey === "injury") };
}

/** Whose dice these are: a name where the result or the request has one, else what they are for. */
function groupTitle(node, path, response, sideKey, name) {
  if (sideKey === "injury") return t("injuryOf", { name: node.target });
  if (sideKey === "rescue") {
    const parent = path.slice(0, -1);
    const owner = parent.length ? (at(response.result, parent)?.name ?? at(response.request, parent)?.name) : null;
    return owner ? `${t("rescue")}: ${owner}` : t("rescue");
  }
  if (path[0] === "rolls") return t("roll_n", { n: number(path[1] + 1) });
  if (path[0] === "rounds" || path[0] === "steps") return `${t("round_n", { n: number(path[1] + 1) })}: ${name ?? sideKey}`;
  if (sideKey === "roll_offs") return `${t("rollOffs")}: ${name ?? ""}`;
  return name ?? words().fields[sideKey]?.[0] ?? operationName(state.shownOperation ?? "");
}

/** Which faces are successes: the system's rule for dice, the ability's colour for marbles. */
function successTest(kind, ability, injury) {
  if (kind === "draw") return (value) => !injury && Boolean(ability) && ABILITY_COLOUR[ability] === value;
  const rule = SUCCESS_FACE[systemOf(state.shownOperation ?? "")];
  return (value) => Boolean(rule?.(value));
}

function showDice(response) {
  const box = $("faces");
  box.replaceChildren();
  const groups = diceGroups(response);
  if (groups.length === 0) {
    // No dice in the result (a single d8, say): the events themselves, by kind.
    for (const event of response.randomness?.events ?? []) {
      groups.push({ title: kindWords(event.kind), kind: event.kind, values: event.values, success: () => false });
    }
  }
  for (const group of groups) {
    const faces = group.values.map((value) => facePicture(group.kind, value, group.success(value)));
    const hits = group.values.filter(group.success).length;
    box.append(element("div", { class: "dice-group", role: "group", "aria-label": group.title, "data-testid": "dice-group" },
      element("div", { class: "dice-owner", text: group.title }),
      element("div", { class: "dice-row" }, ...faces),
      hits ? element("span", { class: "visually-hidden", text: `${number(hits)} × ${t(group.kind === "draw" ? "matching" : "success")}` }) : null));
  }
  box.hidden = groups.length === 0;
}

function bagWords(bag) {
  const parts = Object.entries(bag ?? {}).filter(([, count]) => count > 0)
    .map(([colour, count]) => `${number(count)} ${choiceWords("", "", colour)}`);
  return parts.length ? parts.join(", ") : t("noChange");
}

function trackWords(stress) {
  return Object.entries(stress ?? {})
    .map(([track, value]) => `${choiceWords("", "track", track)} ${t("of", { current: number(value.current), max: number(value.max) })}`)
    .join(", ");
}

/** The state a roll changed, as sentences: the README's promise, not only in the JSON. */
function changedState(response) {
  const result = response.result ?? {};
  const request = response.request ?? {};
  const lines = [];
  const owner = request.name ?? request.draw?.request?.name;
  if (result.bag_after) lines.push(owner ? t("bagAfter", { name: owner, bag: bagWords(result.bag_after) }) : t("bagAfterPlain", { bag: bagWords(result.bag_after) }));
  if (result.injury?.bag_after) lines.push(t("bagAfter", { name: result.injury.target, bag: bagWords(result.injury.bag_after) }));
  const defender = result.defender?.name ?? request.defender?.name;
  if (result.stress_after) lines.push(t("stressAfter", { name: defender, stress: trackWords(result.stress_after) }));
  if (typeof result.consequences_after === "number") lines.push(t("consequencesAfter", { name: defender, count: number(result.consequences_after) }));
  if (result.toughness_after && typeof result.toughness_after === "object" && Object.keys(result.toughness_after).length) {
    const list = Object.entries(result.toughness_after)
      .map(([name, value]) => `${name} ${typeof value === "object" ? t("of", { current: number(value.current), max: number(value.max) }) : number(value)}`);
    lines.push(t("toughnessAfter", { list: list.join(", ") }));
  }
  if (result.end && typeof result.end === "object") lines.push(...endStateLines(result.end));
  return lines;
}

const COLOURS = new Set(["red", "green", "blue", "white", "black"]);
const isBag = (value) => value && typeof value === "object" && !Array.isArray(value)
  && Object.keys(value).length > 0 && Object.entries(value).every(([key, count]) => COLOURS.has(key) && typeof count === "number");

/** An encounter's end state (API.md §1.7): every bag in it, under the name it is filed by. */
function endStateLines(end, owner = null) {
  const lines = [];
  for (const [key, value] of Object.entries(end)) {
    const name = value?.name ?? (Array.isArray(end) ? owner : key);
    if (isBag(value)) lines.push(t("bagAfter", { name: owner ?? key, bag: bagWords(value) }));
    else if (isBag(value?.bag)) lines.push(t("bagAfter", { name, bag: bagWords(value.bag) }));
    else if (value && typeof value === "object") lines.push(...endStateLines(value, name === "bags" ? null : name));
  }
  return lines;
}

function showState(response) {
  const lines = changedState(response);
  $("state").replaceChildren(...lines.map((line) => element("li", { text: line })));
  $("state-box").hidden = lines.length === 0;
}

function showEvents(randomness) {
  const events = $("events");
  events.replaceChildren();
  if (!randomness) return;
  const known = ["secure", "seeded", "manual", "ticket", "session"];
  events.append(element("li", { text: known.includes(randomness.source) ? t(`source.${randomness.source}`) : t("source.other", { source: randomness.source }) }));
  for (const event of randomness.events) {
    events.append(element("li", { text: `${kindWords(event.kind)}: ${event.values.map((value) => valueWords(event.kind, value)).join(", ")}` }));
  }
}

async function showReceipt(client, response, generation) {
  const receipt = $("receipt");
  receipt.removeAttribute("data-state");
  receipt.textContent = t("checking");
  const verdict = await client.check(response);
  if (generation !== state.generation) return;
  receipt.dataset.state = verdict.state;
  const text = verdict.state === "verified" ? t("verified") : verdict.state === "not-genuine" ? t("notGenuine")
    : t("notChecked", { why: t(`why.${verdict.cause}`, { reason: verdict.reason }) });
  receipt.replaceChildren(element("span", { class: "verdict", text }),
    verdict.kid ? element("span", { class: "kid", text: ` · ${t("keyId", { kid: verdict.kid })}` }) : null);
}

// -- odds: bars for outcomes and distributions, a line chart for a per-round curve ------------------

function sideName(request, side) {
  return request?.[side]?.name ?? words().fields[side]?.[0] ?? side;
}

function outcomeWords(key, request) {
  const outcomes = words().outcomes;
  const [kind, ...args] = String(key).split(":");
  // Paws' encounter names its sides a and b ("wins:a"); every other wins:<name> carries the name itself.
  const side = args.length === 1 && (args[0] === "a" || args[0] === "b") && request?.[args[0]] ? args[0] : null;
  if (kind === "wins") return fill(outcomes.wins, { name: side ? sideName(request, side) : args.join(":") });
  if (kind === "first") return fill(outcomes.first, { name: args.join(":") });
  if (kind === "escapes") return fill(outcomes.escapes, { name: args.join(":") });
  if (kind === "injury") return fill(outcomes.injury, { name: args.slice(0, -1).join(":"), severity: outcomes[`severity.${args.at(-1)}`] ?? args.at(-1) });
  if (kind === "god") {  // without the table's gods only the number: never "3 (Gott 3)" (review row 19)
    const god = request?.gods?.[Number(args[0]) - 1];
    return fill(god ? outcomes.god : outcomes.god_unnamed, { name: god, n: number(Number(args[0])) });
  }
  if ((kind === "a" || kind === "b") && args.length === 0) return fill(outcomes.wins, { name: sideName(request, kind) });
  if (kind === "failure" && args.length) return fill(outcomes.failure_at, { n: number(Number(args[0]) + 1) });
  return outcomes[kind] ?? kind.replace(/_/g, " ");
}

function distributionWords(key, request) {
  const names = words().distributions;
  const [kind, ...args] = key.split(":");
  if (kind === "drawn" && args.length) return fill(names.drawn, { colour: choiceWords("", "", args[0]) });
  if (kind === "successes" && args.length) return fill(names.successes_of, { name: args.join(":") });
  if (args.length && names[`${kind}_of`]) {
    const side = args.length === 1 && (args[0] === "a" || args[0] === "b") && request?.[args[0]] ? args[0] : null;
    return fill(names[`${kind}_of`], { name: side ? sideName(request, side) : args.join(":") });
  }
  const side = /^(.*)_(a|b)$/.exec(kind);
  if (side && names[`${side[1]}_side`]) return fill(names[`${side[1]}_side`], { name: sideName(request, side[2]) });
  const label = names[kind] ?? kind.replace(/_/g, " ");
  return args.length ? `${label}: ${args.join(":")}` : label;
}

const possible = (entry) => entry.probability > 0 && !/^0(\/|$)/.test(String(entry.exact ?? ""));

function barTable(heading, entries) {
  const rows = entries.map((entry) => element("tr", { "data-exact": entry.exact },
    element("th", { scope: "row", text: entry.label }),
    element("td", { class: "bar-cell" },
      element("span", { class: "bar", style: `width: ${Math.max(0.5, entry.probability * 100)}%`, title: `${entry.exact ?? ""} ≈ ${percent(entry.probability)}` })),
    element("td", { class: "bar-value", title: entry.exact ?? null, text: percent(entry.probability) })));
  return element("table", { class: "bars" }, element("caption", { text: heading }), element("tbody", {}, ...rows));
}

function oddsChart(odds, request, operationId) {
  const chart = element("div", { class: "chart", "data-testid": "odds-chart" });
  const outcomes = (odds.outcomes ?? []).filter(possible).map((entry) => ({ ...entry, label: outcomeWords(entry.outcome, request) }));
  if (outcomes.length) chart.append(barTable(t("outcomes"), outcomes));
  for (const [name, points] of Object.entries(odds.distributions ?? {})) {
    const shown = points.filter(possible).map((point) => ({
      ...point, label: typeof point.value === "number" ? number(point.value) : choiceWords(operationId, name, point.value),
    }));
    if (!shown.length) continue;
    const mean = odds.expected?.[name];
    const heading = distributionWords(name, request) + (typeof mean === "number" ? ` (${t("expected", { value: number(mean, { maximumFractionDigits: 3 }) })})` : "");
    chart.append(barTable(heading, shown));
  }
  const alone = Object.entries(odds.expected ?? {}).filter(([name, value]) => !(name in (odds.distributions ?? {})) && typeof value === "number");
  if (alone.length) {
    chart.append(element("h3", { class: "chart-heading", text: words().distributions.expectedValues }),
      element("ul", { class: "expected" }, ...alone.map(([name, value]) =>
        element("li", { text: `${distributionWords(name, request)}: ${number(value, { maximumFractionDigits: 3 })}` }))));
  }
  if (Array.isArray(odds.curve) && odds.curve.length) chart.append(curveChart(odds.curve, request));
  return chart;
}

const CURVE_COLOURS = ["var(--accent)", "var(--bad)", "var(--good)", "#b8860b", "#8e44ad", "#16a085"];

/**
 * `odds.curve`: [{round, running, <outcome>: cumulative p}] (API.md §1.7) as lines over the rounds.
 * The SVG is drawn at the box's own pixel width, so its text keeps its CSS size on a phone.
 */
function curveChart(curve, request) {
  const keys = [...new Set(curve.flatMap((point) => Object.keys(point)))].filter((key) => key !== "round");
  const width = Math.max(260, Math.min(720, $("odds-chart-box").clientWidth || 320));
  const height = 200;
  const pad = { left: 48, right: 10, top: 10, bottom: 30 };
  const rounds = curve.map((point) => point.round);
  const [first, last] = [Math.min(...rounds), Math.max(...rounds)];
  const x = (round) => pad.left + ((round - first) / Math.max(1, last - first)) * (width - pad.left - pad.right);
  const y = (p) => pad.top + (1 - p) * (height - pad.top - pad.bottom);
  const svg = svgElement("svg", { width, height, viewBox: `0 0 ${width} ${height}`, class: "curve", role: "img",
    "aria-label": t("curve"), "data-testid": "odds-curve" });
  for (const tick of [0, 0.5, 1]) {
    svg.append(svgElement("line", { x1: pad.left, x2: width - pad.right, y1: y(tick), y2: y(tick), class: "grid" }),
      svgElement("text", { x: pad.left - 4, y: y(tick) + 4, "text-anchor": "end" },
        new Intl.NumberFormat(state.lang, { style: "percent" }).format(tick)));
  }
  for (const round of rounds.filter((_, index) => rounds.length <= 8 || index % Math.ceil(rounds.length / 8) === 0)) {
    svg.append(svgElement("text", { x: x(round), y: height - pad.bottom + 16, "text-anchor": "middle" }, number(round)));
  }
  svg.append(svgElement("text", { x: width - pad.right, y: height - 2, "text-anchor": "end" }, t("round")));
  const legend = element("ul", { class: "curve-legend" });
  keys.forEach((key, index) => {
    const colour = CURVE_COLOURS[index % CURVE_COLOURS.length];
    const points = curve.filter((point) => typeof point[key] === "number").map((point) => `${x(point.round)},${y(point[key])}`);
    svg.append(svgElement("polyline", { points: points.join(" "), fill: "none", stroke: colour, "stroke-width": 2.5,
      "stroke-dasharray": key === "running" ? "5 4" : "none", "data-key": key }));
    const lastPoint = curve.at(-1);
    legend.append(element("li", {}, element("span", { class: "swatch", style: `background: ${colour}` }),
      `${key === "running" ? words().distributions.running : outcomeWords(key, request)}: ${percent(lastPoint[key] ?? 0)}`));
  });
  return element("figure", { class: "curve-box" }, element("figcaption", { text: t("curve") }), svg, legend);
}

/** The request without its randomness: what the odds and the advice of the same request take. */
function withoutRandomness(request) {
  const { seed: _seed, manual: _manual, ticket: _ticket, idempotency_key: _key, session: _session, ...body } = request ?? {};
  return body;
}

async function showOdds(client, operationId, request, generation) {
  const twin = `${operationId}.odds`;
  const section = $("odds");
  const box = $("odds-chart-box");
  if (!state.operations.has(twin)) {
    section.hidden = true;
    return;
  }
  const oddsBody = withoutRandomness(request);
  section.hidden = false;
  box.replaceChildren(element("p", { text: t("loading"), "data-testid": "odds-loading" }));
  try {
    const { odds } = await client.call(twin, oddsBody);
    if (generation === state.generation) box.replaceChildren(oddsChart(odds, request, operationId));
  } catch (error) {
    if (generation !== state.generation) return;
    const detail = error.problem?.detail || error.message;
    box.replaceChildren(element("p", { class: "field-error", text: t("oddsFailed", { detail }) }));
  }
}

// -- advice: "Was lohnt sich?" under a fight's odds (API.md §1.10) ----------------------------------
//
// `<operation>.advice` is no operation to pick: its answer is a section of the roll it belongs to. It
// is asked for the same body as the odds, for the side chosen above it (the first by default), in the
// page's language (the client's `lang`); the service ranks the options, marks the "gleich gut" ones and
// says the adaptive optimum's rules. A 422 (too large, too many options) is a line, not an error page.

const ADVICE_FOR_SUCCESS = new Set(["proben"]); // the side takes tests: a chance of success, not to win
// The single rolls whose advice weighs the group's one-shot rescue dice after a loss (RULINGS.md
// "Advice", Paws): asked only after a lost roll, for the side that lost, by the comparison's net.
const RESCUE_ADVICE = new Set(["paws.test", "paws.comparison"]);

/** Who lost a Paws test or comparison (`player`, `a` or `b`), or null when nobody did. */
function pawsLoser(response) {
  const result = response.result ?? {};
  if (response.operation === "paws.test") return result.success && !result.catastrophe ? null : "player";
  if (response.operation === "paws.comparison" && ["a", "b"].includes(result.winner)) return result.winner === "a" ? "b" : "a";
  return null;
}

/** The sides the advice may be for, as `advise.side` names them, with the names the page shows. */
function adviceSides(request) {
  if (Array.isArray(request?.sides)) return request.sides.map((side) => ({ value: side.name, label: side.name }));
  if (Array.isArray(request?.parties)) return request.parties.map((party) => ({ value: party.name, label: party.name }));
  if (request?.a && request?.b) return ["a", "b"].map((side) => ({ value: side, label: sideName(request, side) }));
  return []; // one side only (a chain of tests, a leader and helpers): the service's own
}

function plural(key, count, values = {}) {
  const table = words().advice;
  const form = new Intl.PluralRules(state.lang).select(count);
  return fill(table[`${key}.${form}`] ?? table[`${key}.other`], { ...values, count: number(count) });
}

const nameList = (names) => names.join(", ");

/** One choice of an option's policy in the words the service's chat line uses (labels.js `advice`). */
function policyFieldWords(system, field, value) {
  const table = words().advice;
  switch (field) {
    case "one_shot_rescue":
      return [value ? plural("one_shot_rescue", value) : table["one_shot_rescue.keep"]];
    case "spend":
      return [value ? plural("spend", value) : table["spend.keep"]];
    case "give_up_at_wounds":
    case "concede_at_consequences":
      return [value === null ? table[`${field}.never`] : plural(field, value)];
    case "ability":
      if (value && typeof value === "object") {
        return Object.entries(value).map(([name, ability]) => fill(table["ability.member"], { name, ability: table[`ability.${ability}`] ?? ability }));
      }
      return [table[`ability.${value}`] ?? String(value)];
    case "pairs":
      return [value === null ? table["pairs.given"] : fill(table["pairs.order"], { names: nameList([...new Set(value.map((pair) => pair[1]))]) })];
    case "hold_hero_points": {
      const held = Object.entries(value ?? {}).filter(([, count]) => count);
      return held.length ? held.map(([name, count]) => plural("hold_hero_points", count, { name })) : [table["hold_hero_points.none"]];
    }
    case "targeting":
      return [table[`${system}.targeting.${value}`] ?? choiceWords(`${system}.encounter`, "targeting", value)];
    case "max_attempts": {
      if (value.every((limit) => limit === null)) return [table["max_attempts.all"]];
      return value.map((limit, index) => {
        const what = limit === null ? table["max_attempts.while_dice"] : plural("max_attempts", limit);
        return value.length > 1 ? fill(table["max_attempts.step"], { step: number(index + 1), what }) : what;
      });
    }
    case "carry_partial":
    case "defend":
      return [table[`${field}.${value}`]];
    case "helpers":
      return [value.length ? fill(table["helpers.some"], { names: nameList(value) }) : table["helpers.none"]];
    default: // a choice newer than the page: its field's label and the value
      return [`${fieldWords(`${system}.encounter`, field, null)[0]}: ${typeof value === "object" ? JSON.stringify(value) : choiceWords("", field, value)}`];
  }
}

function policyWords(system, policy) {
  return Object.entries(policy).flatMap(([field, value]) => policyFieldWords(system, field, value)).join(", ");
}

/** Percentage points with one decimal (two below 0.1), in the page's language. */
function points(probability) {
  const value = Math.abs(probability) * 100;
  const digits = value > 0 && value < 0.1 ? 2 : 1;
  return number(value, { minimumFractionDigits: digits, maximumFractionDigits: digits });
}

function adviceOption(option, index, { system, defaultKey }) {
  const best = index === 0;
  const equal = !best && option.vs_best?.equal === true;
  const isDefault = canonicalize(option.policy) === defaultKey;
  const marks = [];
  if (best) marks.push(element("span", { class: "advice-mark best", "data-testid": "advice-best", text: t("adviceBest") }));
  if (equal) marks.push(element("span", { class: "advice-mark equal", "data-testid": "advice-equal", text: t("adviceEqual") }));
  if (isDefault) marks.push(element("span", { class: "advice-mark default", "data-testid": "advice-default", text: t("adviceDefault") }));
  const behind = -(option.vs_best?.probability ?? 0);
  const distance = behind > 0 ? element("span", { class: "advice-distance", "data-testid": "advice-distance",
    title: option.vs_best.exact ?? null, text: t("adviceBehind", { points: points(behind) }) }) : null;
  const win = option.win.probability;
  return element("li", { class: "advice-option", value: index + 1, "data-testid": "advice-option", "data-best": best ? "true" : "false",
    "data-equal": equal ? "true" : "false", "data-default": isDefault ? "true" : "false", "data-exact": option.win.exact ?? "" },
  element("div", { class: "advice-policy", text: policyWords(system, option.policy) }),
  element("div", { class: "advice-line" },
    element("span", { class: "advice-track", "aria-hidden": "true" },
      element("span", { class: "bar", style: `width: ${Math.max(0.5, win * 100)}%` })),
    element("span", { class: "advice-value", title: option.win.exact ?? null, text: percent(win) }),
    ...marks, distance));
}

/** How many options show at once; the rest (the default stays in view) fold under "the other n". */
const ADVICE_SHOWN = 6;

function adviceView(answer, operationId) {
  const advice = answer.advice;
  const system = systemOf(operationId);
  const defaultKey = canonicalize(advice.default.policy);
  const rows = advice.options.map((option, index) => adviceOption(option, index, { system, defaultKey }));
  const shown = rows.length > ADVICE_SHOWN + 2
    ? rows.filter((row, index) => index < ADVICE_SHOWN || row.dataset.default === "true") : rows;
  const rest = rows.filter((row) => !shown.includes(row));
  const view = element("div", { class: "advice-view", "data-testid": "advice-view" },
    answer.summary ? element("p", { class: "advice-summary", "data-testid": "advice-summary", text: answer.summary }) : null,
    element("p", { class: "advice-caption", id: "advice-caption",
      text: t(RESCUE_ADVICE.has(operationId) ? "adviceCaptionAverted"
        : ADVICE_FOR_SUCCESS.has(system) ? "adviceCaptionSuccess" : "adviceCaptionWin") }),
    element("ol", { class: "advice-options", "aria-labelledby": "advice-caption" }, ...shown),
    rest.length ? element("details", { class: "advice-more", "data-testid": "advice-more" },
      element("summary", { text: t("adviceMore", { n: number(rest.length) }) }),
      element("ol", { class: "advice-options" }, ...rest)) : null);
  const adaptive = advice.adaptive;
  if (adaptive) {
    const gain = adaptive.gain_over_best_fixed.probability;
    view.append(element("p", { class: "advice-adaptive", "data-testid": "advice-adaptive",
      text: t(gain >= 0.001 ? "adviceAdaptive" : "adviceAdaptiveNoGain", { win: percent(adaptive.win.probability), gain: points(gain) }) }),
    element("ul", { class: "advice-rules", "data-testid": "advice-rules" },
      ...adaptive.rules.map((rule) => element("li", { text: rule }))));
  } else {
    const fight = operationId.endsWith(".encounter");
    view.append(element("p", { class: "advice-adaptive", "data-testid": "advice-adaptive",
      text: t(fight ? "adviceNoAdaptive" : "adviceOneRoll") }));
  }
  const approximate = advice.solver?.precision === "float64" || advice.options.some((option) => option.win.exact === null);
  if (approximate) {
    const error = new Intl.NumberFormat(state.lang, { notation: "scientific", maximumSignificantDigits: 2 })
      .format(advice.solver?.max_error || Number.EPSILON);
    view.append(element("p", { class: "advice-float", "data-testid": "advice-float", text: t("adviceFloat", { error }) }));
  }
  view.append(element("p", { class: "advice-honest", "data-testid": "advice-honest", text: t("adviceHonest") }));
  return view;
}

/** A refusal as one line in the section: too large in words, anything else with the service's detail. */
function adviceRefusal(error) {
  const problem = error?.problem ?? {};
  const text = error?.status === 422 && String(problem.type ?? "").endsWith("/encounter-too-large")
    && typeof problem.states === "number" && problem.limit?.value
    ? t("adviceTooLarge", { states: number(problem.states), limit: number(problem.limit.value) })
    : t("adviceFailed", { detail: error?.status === 0 ? t("network") : problem.detail || problem.title || error?.message });
  return element("p", { class: "advice-refused", "data-testid": "advice-refused", text });
}

/** The section under the odds of an operation that has an advice twin: the side picker and the answer.
 * A Paws test or comparison has it only after a loss: then the group's one-shot rescue die, one at hand
 * and one more loss to come (the body's defaults), for the side that lost, by the comparison's net. */
function showAdvice(client, operationId, response, generation) {
  const twin = `${operationId}.advice`;
  const section = $("advice");
  const rescue = RESCUE_ADVICE.has(operationId);
  const loser = rescue ? pawsLoser(response) : null;
  if (!state.operations.has(twin) || (rescue && loser === null)) {
    section.hidden = true;
    return Promise.resolve();
  }
  const request = rescue && loser !== "player" ? { ...response.request, lost_by: response.result.net } : response.request;
  const sides = rescue ? [] : adviceSides(request);
  if (rescue) state.adviceSide = loser === "player" ? null : loser;
  else if (!sides.some((side) => side.value === state.adviceSide)) state.adviceSide = sides[0]?.value ?? null;
  const picker = $("advice-side");
  picker.replaceChildren(...sides.map((side) => element("option", { value: side.value, text: side.label })));
  if (state.adviceSide !== null) picker.value = state.adviceSide;
  $("advice-side-box").hidden = sides.length < 2;
  picker.onchange = () => {
    state.adviceSide = picker.value;
    askAdvice(client, twin, operationId, request, generation);
  };
  section.hidden = false;
  return askAdvice(client, twin, operationId, request, generation);
}

async function askAdvice(client, twin, operationId, request, generation) {
  const box = $("advice-box");
  const asked = (state.adviceAsked = (state.adviceAsked ?? 0) + 1);
  const current = () => generation === state.generation && asked === state.adviceAsked;
  const body = withoutRandomness(request);
  if (state.adviceSide !== null) body.advise = { side: state.adviceSide };
  box.replaceChildren(element("p", { text: t("loading"), "data-testid": "advice-loading" }));
  try {
    const answer = await client.call(twin, body);
    if (current()) box.replaceChildren(adviceView(answer, operationId));
  } catch (error) {
    if (current()) box.replaceChildren(adviceRefusal(error));
  }
}

// -- links: the roll itself (signed response in the fragment) and the request ------------------------

function base64url(bytes) {
  let binary = "";
  for (let index = 0; index < bytes.length; index += 0x8000) binary += String.fromCharCode(...bytes.subarray(index, index + 0x8000));
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

function fromBase64url(text) {
  const base64 = text.replace(/-/g, "+").replace(/_/g, "/");
  return Uint8Array.from(atob(base64 + "=".repeat((4 - (base64.length % 4)) % 4)), (character) => character.charCodeAt(0));
}

async function packRoll(response) {
  const stream = new Blob([JSON.stringify(response)]).stream().pipeThrough(new CompressionStream("deflate-raw"));
  return base64url(new Uint8Array(await new Response(stream).arrayBuffer()));
}

async function unpackRoll(packed) {
  const stream = new Blob([fromBase64url(packed)]).stream().pipeThrough(new DecompressionStream("deflate-raw"));
  return JSON.parse(await new Response(stream).text());
}

function compact(value) {
  if (Array.isArray(value)) return value.map(compact);
  if (!value || typeof value !== "object") return value;
  return Object.fromEntries(Object.entries(value).filter(([, member]) => member !== null).map(([key, member]) => [key, compact(member)]));
}

function updateRequestLink() {
  const link = new URL("/play", location.origin);
  link.searchParams.set("operation", $("operation").value);
  try {
    const body = state.editor ? state.editor.read() : undefined;
    if (body !== undefined && !CARRIED[$("operation").value]) link.searchParams.set("body", JSON.stringify(compact(body)));
  } catch {
    // a field that does not parse yet: the link keeps the operation only
  }
  link.searchParams.set("lang", state.lang);
  $("share-request").href = link.pathname + link.search;
}

/** What a roll's link carries: the whole signed response, or for a hidden roll only its public part
 * (the seat, the slot and the signed commitment: what the table may see before the reveal). */
function sharedPart(response) {
  return response.request?.session?.hidden && response.public ? response.public : response;
}

const isPublicPart = (document) => Boolean(document) && typeof document === "object" && !document.receipt
  && typeof document.commitment === "string" && typeof document.signature === "string" && document.session?.seat !== undefined;

async function updateRollLink(response, generation) {
  const link = $("share-roll");
  link.hidden = true;
  $("share").hidden = true;
  const packed = await packRoll(sharedPart(response));
  if (generation !== state.generation) return;
  link.href = `/play?lang=${state.lang}#roll=${packed}`;
  link.hidden = false;
  $("share").hidden = false;
}

/** Web Share where the browser has it (phones), else the link copied to the clipboard, said visibly. */
async function shareRoll() {
  const url = new URL($("share-roll").getAttribute("href"), location.origin).href;
  const status = $("share-status");
  status.textContent = "";
  if (navigator.share) {
    try {
      await navigator.share({ title: t("title"), text: $("summary").textContent, url });
      return;
    } catch (error) {
      if (error?.name === "AbortError") return; // the player closed the share sheet
    }
  }
  status.textContent = (await copyText(url)) ? t("copied") : t("shareFailed");
}

async function copyText(text) {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    // No Clipboard API on a page over plain http (a GM's laptop on the LAN): the older copy command.
    const area = element("textarea", { readonly: true, class: "visually-hidden", "aria-hidden": "true" });
    area.value = text;
    document.body.append(area);
    area.select();
    const copied = document.execCommand("copy");
    area.remove();
    $("share").focus();
    return copied;
  }
}

// -- wiring ----------------------------------------------------------------------------------------

function currentOperation() {
  return state.operations.get($("operation").value);
}

function fillSystems() {
  const systems = [...new Set(OPERATIONS.map((operation) => operation.system).filter(Boolean))];
  $("system").replaceChildren(...systems.map((system) => element("option", { value: system, text: words().systems[system] ?? system })));
  return systems;
}

/** An odds or advice twin: shown with its operation's roll (the odds chart, "Was lohnt sich?"), never picked. */
const TWINS = [".odds", ".advice"];
const isTwin = (operationId) => TWINS.some((suffix) => operationId.endsWith(suffix));

function fillOperations(system, chosen) {
  const select = $("operation");
  select.replaceChildren();
  for (const operation of OPERATIONS) {
    if (operation.system !== system || isTwin(operation.id) || !state.operations.has(operation.id)) continue;
    select.append(element("option", { value: operation.id, text: operationName(operation.id) }));
  }
  if (chosen) select.value = chosen;
}

function hideResult() {
  state.generation += 1;
  state.shown = null;
  $("result").hidden = true;
  $("odds").hidden = true;
  $("advice").hidden = true;
  $("continue").hidden = true;
  $("next").hidden = true;
  $("share-roll").hidden = true;
  $("share").hidden = true;
  $("share-status").textContent = "";
  $("shared-note").hidden = true;
}

function selectOperation(body) {
  const operation = currentOperation();
  $("description").textContent = words().operations[operation.id]?.[1] ?? "";
  $("roll").textContent = operation.method === "get" ? t("lookUp") : t("roll");
  hideResult();
  clearErrors();
  showForm(operation, body);
  if (body === undefined) fillSeatName();
  updateRequestLink();
}

/** In a session, the seat that rolls is the character on the card: its name fills the form's name. */
function fillSeatName() {
  const seat = state.sessions?.seat();
  const input = document.querySelector('#form [name="name"]');
  if (!seat || !input) return;
  input.value = seat;
  updateRequestLink();
}

function chooseOperation(operationId, body) {
  $("system").value = systemOf(operationId);
  fillOperations($("system").value, operationId);
  selectOperation(body);
}

function newClient() {
  return new Client({ baseUrl: location.origin, lang: state.lang, apiKey: $("api-key").value || undefined });
}

/** The roll in view and in focus, on every width, and said once by the live region of the page. */
function presentResult(spoken) {
  const summary = $("summary");
  summary.focus({ preventScroll: true });
  $("result").scrollIntoView({ block: "start" });
  const announce = $("announce");
  announce.textContent = "";
  // A new text in the next frame: read out even when it equals the last roll's.
  requestAnimationFrame(() => { announce.textContent = spoken; });
}

/** "What next": the follow-ups the rules offer (follow-ups.js, as the Discord app's buttons), each rolls
 * at once; and the apply steps, which open their form first. A shared roll is someone else's: none. */
function showNext(response, shared) {
  const buttons = shared ? [] : followUps(response).map((offer) => {
    const label = t(offer.words, { ...offer.values, n: number(offer.choice ?? 0),
      choice: offer.field ? choiceWords(offer.to, offer.field, offer.choice) : "" });
    const button = element("button", { type: "button", class: `next-${offer.style}`, "data-testid": "next-step",
      "data-operation": offer.to, text: label });
    button.addEventListener("click", () => {
      chooseOperation(offer.to, offer.body);
      roll();
    });
    return button;
  });
  const carried = shared ? null : CONTINUE[response.operation]?.(response);
  const button = $("continue");
  button.hidden = !carried;
  if (carried) {
    button.textContent = t(CARRIED[carried.to].next);
    button.onclick = () => {
      leaveSharedView();
      chooseOperation(carried.to, carried.body);
      $("form").scrollIntoView({ block: "start" });
      $("form").querySelector("input, select, textarea, button")?.focus({ preventScroll: true });
    };
  }
  $("next-buttons").replaceChildren(button, ...buttons);
  $("next").hidden = !carried && buttons.length === 0;
}

function showResponse(client, response, { shared = false } = {}) {
  const generation = state.generation;
  state.shownOperation = response.operation;
  state.shown = { response, shared };
  $("result").hidden = false;
  $("shared-note").hidden = !shared;
  $("summary").textContent = response.summary ?? "";
  $("hidden-note").hidden = !response.request?.session?.hidden;
  $("raw").textContent = JSON.stringify(response, null, 2);
  showDice(response);
  showState(response);
  showEvents(response.randomness);
  showNext(response, shared);
  const work = [];
  if (response.receipt) {
    work.push(showReceipt(client, response, generation));
    if (!shared) work.push(updateRollLink(response, generation)); // a shared roll's link is the address itself
  } else {
    $("receipt").replaceChildren();
  }
  work.push(showOdds(client, response.operation, response.request, generation));
  work.push(showAdvice(client, response.operation, response, generation));
  return Promise.all(work);
}

async function roll() {
  const operation = currentOperation();
  const button = $("roll");
  clearErrors();
  hideResult();
  let body;
  try {
    body = state.editor ? state.editor.read() : undefined;
  } catch (error) {
    showError(error);
    return;
  }
  const client = newClient();
  const rolls = !operation.id.endsWith(".odds") && Boolean(operation.schema && resolve(operation.schema).properties?.session);
  const session = rolls && body ? state.sessions?.member() : null;
  if (session) { // a roll in the session: the seat's roll number decides the dice, nothing else may
    for (const member of ADVANCED) delete body[member];
    body.session = session;
  }
  button.disabled = true;
  const generation = state.generation;
  try {
    const response = await client.call(operation.id, body);
    if (session) state.sessions.record(response);
    if (generation !== state.generation) return;
    const shown = showResponse(client, response);
    presentResult(response.summary ?? "");
    await shown;
  } catch (error) {
    if (generation === state.generation && !(session && state.sessions.refuseRoll(error))) {
      showError(error);
      $("error").scrollIntoView({ block: "nearest" });
    }
  } finally {
    button.disabled = false;
  }
}

/** Another language: the page's words change; the form keeps what was typed and the roll stays
 * shown (its chat line is signed, so it stays in the language it was rolled in). */
function switchLanguage() {
  let body;
  try {
    body = state.editor?.read();
  } catch {
    body = undefined;
  }
  const shown = state.shown;
  state.lang = $("lang").value;
  applyLanguage();
  state.sessions?.render();
  const chosen = $("operation").value;
  fillSystems();
  chooseOperation(chosen, body ?? undefined);
  const address = new URL(location.href);
  address.searchParams.set("lang", state.lang);
  history.replaceState(null, "", address.pathname + address.search + address.hash);
  if (!shown) return;
  if (shown.hidden) showHiddenCard(newClient(), shown.response);
  else showResponse(newClient(), shown.response, { shared: shown.shared });
}

function applyLanguage() {
  document.documentElement.lang = state.lang;
  document.title = t("title");
  $("lang").value = state.lang;
  for (const node of document.querySelectorAll("[data-text]")) node.textContent = t(node.dataset.text);
}

function distance(a, b) {
  const row = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i += 1) {
    let previous = row[0];
    row[0] = i;
    for (let j = 1; j <= b.length; j += 1) {
      const current = row[j];
      row[j] = Math.min(row[j] + 1, row[j - 1] + 1, previous + (a[i - 1] === b[j - 1] ? 0 : 1));
      previous = current;
    }
  }
  return row[b.length];
}

/** What the query asks for, or what is wrong with it (said, never silently replaced). */
function readRequestLink() {
  const named = params.get("operation");
  if (named === null) return { problem: null };
  // An odds or advice twin (listed by /v1/systems) opens its operation's form: the page shows the odds
  // beside every roll, and "Was lohnt sich?" under them.
  const suffix = TWINS.find((twin) => named.endsWith(twin));
  const twinOf = suffix ? named.slice(0, -suffix.length) : null;
  const asked = twinOf && state.operations.has(twinOf) ? twinOf : named;
  const known = OPERATIONS.filter((operation) => operation.system && !isTwin(operation.id) && state.operations.has(operation.id));
  if (!known.some((operation) => operation.id === asked)) {
    const [best] = known.map((operation) => [distance(asked, operation.id), operation.id]).sort((x, y) => x[0] - y[0]);
    const problem = t("unknownOperation", { operation: asked }) + (best && best[0] <= 3 ? ` ${t("didYouMean", { suggestion: best[1] })}` : "");
    return { problem };
  }
  if (!params.has("body")) return { operation: asked, problem: null };
  try {
    return { operation: asked, body: JSON.parse(params.get("body")), problem: null };
  } catch {
    return { operation: asked, problem: t("badBody") };
  }
}

function leaveSharedView() {
  document.body.classList.remove("shared-view");
  if (location.hash) history.replaceState(null, "", location.pathname + location.search);
}

/** A shared roll from the link's fragment, or what is wrong with the link, in words. */
async function openSharedRoll(packed) {
  let response;
  try {
    response = await unpackRoll(packed);
  } catch {
    return t("badRollLink", { why: t("linkWhy.broken") }); // not base64url, not deflated, or not JSON
  }
  if (!response || typeof response !== "object" || !state.operations.has(response.operation)) {
    return t("badRollLink", { why: t("linkWhy.operation") });
  }
  chooseOperation(response.operation, isPublicPart(response) ? undefined : response.request);
  document.body.classList.add("shared-view");
  const client = newClient();
  if (isPublicPart(response)) showHiddenCard(client, response);
  else showResponse(client, response, { shared: true });
  return null;
}

/** A hidden roll's public part: whose slot it is and that the service signed its commitment; no dice. */
function showHiddenCard(client, part) {
  const generation = state.generation;
  state.shown = { response: part, shared: true, hidden: true };
  $("result").hidden = false;
  $("shared-note").hidden = false;
  $("hidden-note").hidden = false;
  $("summary").textContent = t("hiddenCard", { seat: part.session.seat, n: number(Number(part.session.index) + 1),
    operation: operationName(part.operation) });
  $("raw").textContent = JSON.stringify(part, null, 2);
  $("faces").replaceChildren();
  $("state-box").hidden = true;
  $("events").replaceChildren();
  $("next").hidden = true;
  $("odds").hidden = true;
  $("advice").hidden = true;
  const receipt = $("receipt");
  receipt.removeAttribute("data-state");
  receipt.textContent = t("checking");
  const { signature, ...unsigned } = part;
  return client.keys()
    .then((jwks) => signatureMatches(jwks, part.kid, new TextEncoder().encode(canonicalize(unsigned)), signature))
    .then((matches) => ({ state: matches ? "verified" : "not-genuine", text: t(matches ? "hiddenVerified" : "hiddenNotGenuine") }),
      (error) => ({ state: "not-checked", text: t("notChecked", { why: t("why.keys-unreachable", { reason: String(error) }) }) }))
    .then(({ state: verdict, text }) => {
      if (generation !== state.generation) return;
      receipt.dataset.state = verdict;
      receipt.replaceChildren(element("span", { class: "verdict", text }),
        element("span", { class: "kid", text: ` · ${t("keyId", { kid: part.kid })}` }));
    });
}

async function start() {
  applyLanguage();
  const response = await fetch("/openapi.json");
  state.spec = await response.json();
  loadOperations(state.spec);
  const systems = fillSystems();

  const link = readRequestLink();
  chooseOperation(link.operation ?? OPERATIONS.find((operation) => operation.system === systems[0] && state.operations.has(operation.id)).id,
    link.body);
  let problem = link.problem;
  if (location.hash.startsWith("#roll=")) problem = (await openSharedRoll(location.hash.slice("#roll=".length))) ?? problem;
  if (problem) showMessage(problem);

  $("system").addEventListener("change", () => {
    leaveSharedView();
    fillOperations($("system").value);
    selectOperation();
  });
  $("operation").addEventListener("change", () => {
    leaveSharedView();
    selectOperation();
  });
  $("form").addEventListener("input", updateRequestLink);
  $("form").addEventListener("click", () => setTimeout(updateRequestLink));
  $("form").addEventListener("submit", (event) => {
    event.preventDefault();
    roll();
  });
  $("form").addEventListener("keydown", (event) => {
    if (event.key === "Enter" && !event.isComposing && event.target.matches("input, select")) {
      event.preventDefault();
      roll();
    }
  });
  $("roll").addEventListener("click", roll);
  $("roll-yourself").addEventListener("click", () => {
    leaveSharedView();
    hideResult();
  });
  $("lang").addEventListener("change", switchLanguage);
  $("share").addEventListener("click", shareRoll);
  $("session-seat").addEventListener("change", fillSeatName);
  state.sessions = sessionPanel({ t, element, client: newClient, lang: () => state.lang, seatChanged: fillSeatName });
  fillSeatName();
  document.body.dataset.ready = "true";
}

start().catch((error) => showError(error));
