// /play: choose an operation, fill a form built from its request schema, roll, and see the chat
// line, the dice and marbles, the events, the receipt checked here in the browser, and the odds of
// the same request. Plain ES module on the JavaScript client; no framework, nothing from elsewhere.
import { Client, OPERATIONS, WurfwerkError } from "../client/index.js";

const TEXT = {
  en: {
    play: "play", language: "Language", docs: "API docs", system: "System", operation: "Operation",
    apiKey: "API key (if the server needs one)", roll: "Roll", lookUp: "Look up", share: "Link to this roll",
    events: "Randomness", raw: "Response (JSON)", odds: "Odds of the same request", outcomes: "Outcomes",
    expected: "expected", valid: "✓ valid", invalid: "✗ invalid", checking: "checking the receipt…",
    notSet: "— not set —", add: "add", remove: "remove", notJson: "not valid JSON",
    fixFields: "Please correct the marked fields.", network: "The service could not be reached. Nothing was rolled; try again.",
    server: "The service failed to answer this request (HTTP {status}). Try again later.",
    noWebCrypto: "cannot be checked here (this page needs https or localhost)", source: "source",
    oddsFailed: "The odds could not be computed: {detail}", loading: "loading…", yes: "true", no: "false",
  },
  de: {
    play: "Spielwiese", language: "Sprache", docs: "API-Doku", system: "System", operation: "Operation",
    apiKey: "API-Schlüssel (falls der Dienst einen verlangt)", roll: "Würfeln", lookUp: "Nachschlagen",
    share: "Link zu diesem Wurf", events: "Zufall", raw: "Antwort (JSON)", odds: "Wahrscheinlichkeiten derselben Anfrage",
    outcomes: "Ergebnisse", expected: "Erwartungswert", valid: "✓ valid (Beleg gültig)", invalid: "✗ invalid (Beleg ungültig)",
    checking: "Beleg wird geprüft…", notSet: "— nicht gesetzt —", add: "hinzufügen", remove: "entfernen",
    notJson: "kein gültiges JSON", fixFields: "Bitte die markierten Felder korrigieren.",
    network: "Der Dienst war nicht erreichbar. Es wurde nichts gewürfelt; bitte erneut versuchen.",
    server: "Der Dienst konnte diese Anfrage nicht beantworten (HTTP {status}). Bitte später erneut versuchen.",
    noWebCrypto: "kann hier nicht geprüft werden (die Seite braucht https oder localhost)", source: "Quelle",
    oddsFailed: "Die Wahrscheinlichkeiten ließen sich nicht berechnen: {detail}", loading: "lädt…", yes: "wahr", no: "falsch",
  },
};

const $ = (id) => document.getElementById(id);
const params = new URLSearchParams(location.search);
const state = { lang: pickLanguage(), spec: null, operations: new Map(), editor: null };

function pickLanguage() {
  const asked = params.get("lang");
  if (asked === "de" || asked === "en") return asked;
  return (navigator.language || "en").toLowerCase().startsWith("de") ? "de" : "en";
}

function t(key, values = {}) {
  return (TEXT[state.lang][key] ?? TEXT.en[key] ?? key).replace(/\{(\w+)\}/g, (_, name) => values[name] ?? "");
}

function element(tag, attributes = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === undefined || value === null || value === false) continue;
    if (name === "text") node.textContent = value;
    else node.setAttribute(name, value === true ? "" : value);
  }
  node.append(...children.filter((child) => child !== null && child !== undefined));
  return node;
}

function svgElement(tag, attributes = {}, ...children) {
  const node = document.createElementNS("http://www.w3.org/2000/svg", tag);
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, value);
  node.append(...children);
  return node;
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

function loadOperations(spec) {
  for (const [path, item] of Object.entries(spec.paths)) {
    for (const [method, operation] of Object.entries(item)) {
      if (!operation.operationId) continue;
      const content = operation.requestBody?.content?.["application/json"];
      state.operations.set(operation.operationId, {
        id: operation.operationId, path, method, summary: operation.summary ?? "",
        description: operation.description ?? "", schema: content?.schema, example: content?.example ?? {},
      });
    }
  }
}

// -- the form: one editor per schema node; each knows how to show a value and read it back ------------
//
// An editor is {node, read(), fill(value)}: read() returns the JSON value (null for "not set", as
// the service takes it) or throws a FieldError naming the path.

class FieldError extends Error {
  constructor(path, message) {
    super(message);
    this.path = path;
  }
}

function editorFor(schema, path, required) {
  const resolved = resolve(schema);
  const type = typeOf(resolved);
  if (resolved.enum) return choiceEditor(resolved.enum.filter((value) => value !== null), path, required);
  if (type === "boolean") return choiceEditor([true, false], path, required);
  if (type === "integer" || type === "number") return numberEditor(resolved, path, type);
  if (type === "string") return textEditor(resolved, path);
  if (type === "array") return listEditor(resolved, path, required);
  if (type === "object" && resolved.properties) return objectEditor(resolved, path);
  if (resolved.oneOf) return scalarEditor(path);
  return jsonEditor(path);
}

function choiceEditor(choices, path, required) {
  const select = element("select", { name: path, "data-path": path });
  if (!required) select.append(element("option", { value: "", text: t("notSet") }));
  for (const choice of choices) {
    const label = typeof choice === "boolean" ? t(choice ? "yes" : "no") : String(choice);
    select.append(element("option", { value: JSON.stringify(choice), text: label }));
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
    step: type === "integer" ? 1 : "any", placeholder: schema.default ?? "",
  });
  return {
    node: input,
    read: () => {
      if (input.value.trim() === "") {
        if (input.validity.badInput) throw new FieldError(path, "not a number");
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

function listEditor(schema, path, required) {
  const items = [];
  const box = element("div", { class: "items", "data-path": path });
  const add = element("button", { type: "button", class: "small", text: `+ ${t("add")}` });
  const wrapper = element("div", {}, box, add);
  const append = (value) => {
    const itemPath = `${path}.${items.length}`;
    const editor = editorFor(schema.items ?? {}, itemPath, true);
    const remove = element("button", { type: "button", class: "small", title: t("remove"), text: "−" });
    const row = element("div", { class: "item" }, fieldShell(editor, itemPath, null, true, null), remove);
    const entry = { editor, row };
    remove.addEventListener("click", () => {
      items.splice(items.indexOf(entry), 1);
      row.remove();
    });
    items.push(entry);
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

function objectEditor(schema, path) {
  const required = new Set(schema.required ?? []);
  const members = Object.entries(schema.properties).map(([name, property]) => {
    const memberPath = path ? `${path}.${name}` : name;
    const editor = editorFor(property, memberPath, required.has(name));
    return { name, editor, node: fieldShell(editor, memberPath, name, required.has(name), resolve(property).description) };
  });
  const node = path ? element("fieldset", { "data-path": path }, ...members.map((member) => member.node))
    : element("div", {}, ...members.map((member) => member.node));
  return {
    node,
    read: () => {
      const value = Object.fromEntries(members.map((member) => [member.name, member.editor.read()]));
      // A nested object left empty is "not set" (e.g. an optional ticket), not an object of nulls.
      return path && Object.values(value).every((member) => member === null) ? null : value;
    },
    fill: (value) => {
      for (const member of members) member.editor.fill(value?.[member.name] ?? null);
    },
  };
}

function fieldShell(editor, path, label, required, description) {
  const control = element("div", { class: "control" }, editor.node);
  const children = [];
  if (label !== null) {
    children.push(element("label", { for: `field-${path}` }, label, required ? element("span", { class: "required", text: " *" }) : null));
    editor.node.id ||= `field-${path}`;
  }
  children.push(control);
  if (description) children.push(element("div", { class: "hint", text: description }));
  children.push(element("div", { class: "field-error", "data-error-for": path, "data-testid": `error-${path}` }));
  return element("div", { class: "field", "data-field": path }, ...children);
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
  state.editor = editorFor(operation.schema, "", true);
  form.append(state.editor.node);
  state.editor.fill(body ?? operation.example);
}

// -- errors next to the fields ---------------------------------------------------------------------

function clearErrors() {
  $("error").hidden = true;
  $("error").textContent = "";
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
    const prefix = target === path ? "" : `${path.slice(target.length + 1)}: `;
    slot.textContent = [slot.textContent, ...messages.map((message) => prefix + message)].filter(Boolean).join(" ");
    slot.closest(".field")?.classList.add("invalid");
    placed += 1;
  }
  return placed;
}

function showError(error) {
  const box = $("error");
  box.hidden = false;
  if (error instanceof FieldError) {
    showFieldErrors({ [error.path]: [error.message] });
    box.textContent = t("fixFields");
  } else if (error instanceof WurfwerkError && error.status === 0) {
    box.textContent = t("network");
  } else if (error instanceof WurfwerkError && error.status >= 500) {
    box.textContent = t("server", { status: error.status });
  } else if (error instanceof WurfwerkError) {
    showFieldErrors(error.errors ?? {});
    const detail = error.problem?.detail || error.problem?.title || error.message;
    box.textContent = Object.keys(error.errors ?? {}).length ? `${t("fixFields")} ${detail}` : detail;
  } else {
    console.error(error);
    box.textContent = t("server", { status: "?" });
  }
}

// -- results: faces, events, receipt, odds -----------------------------------------------------------

const PIPS = { 1: [[2, 2]], 2: [[1, 1], [3, 3]], 3: [[1, 1], [2, 2], [3, 3]], 4: [[1, 1], [3, 1], [1, 3], [3, 3]],
  5: [[1, 1], [3, 1], [2, 2], [1, 3], [3, 3]], 6: [[1, 1], [3, 1], [1, 2], [3, 2], [1, 3], [3, 3]] };
const MARBLES = { red: "#d33a2c", green: "#2f9e44", blue: "#2f6fdf", white: "#f4f4f4", black: "#222" };

function facePicture(kind, value) {
  const label = `${kind}: ${value}`;
  const svg = svgElement("svg", { viewBox: "0 0 40 40", role: "img", "aria-label": label, "data-kind": kind, "data-value": value },
    svgElement("title", {}, label));
  if (kind === "draw") {
    svg.append(svgElement("circle", { cx: 20, cy: 20, r: 16, fill: MARBLES[value] ?? "#999", stroke: "#555", "stroke-width": 1.5 }));
    return svg;
  }
  svg.append(svgElement("rect", { x: 3, y: 3, width: 34, height: 34, rx: 7, fill: "#fff", stroke: "#333", "stroke-width": 2 }));
  if (kind === "d6" && PIPS[value]) {
    for (const [x, y] of PIPS[value]) svg.append(svgElement("circle", { cx: x * 10, cy: y * 10, r: 3.5, fill: "#222" }));
  } else {
    const text = kind === "dF" ? { 1: "+", 0: " ", "-1": "−" }[value] : String(value);
    svg.append(svgElement("text", { x: 20, y: 26, "text-anchor": "middle", "font-size": 16, "font-weight": 700 }, text));
  }
  return svg;
}

function showRandomness(randomness) {
  const faces = $("faces");
  const events = $("events");
  faces.replaceChildren();
  events.replaceChildren();
  if (!randomness) return;
  events.append(element("li", { text: `${t("source")}: ${randomness.source}` }));
  for (const event of randomness.events) {
    events.append(element("li", { text: `${event.kind}: ${event.values.join(", ")}` }));
    for (const value of event.values) faces.append(facePicture(event.kind, value));
  }
}

async function showReceipt(client, response) {
  const receipt = $("receipt");
  receipt.className = "receipt";
  if (!response.receipt) {
    receipt.textContent = "";
    return;
  }
  receipt.textContent = t("checking");
  try {
    const verdict = await client.verify(response);
    receipt.classList.add(verdict.valid ? "valid" : "invalid");
    receipt.textContent = `${verdict.valid ? t("valid") : t("invalid")} · kid ${verdict.kid ?? "?"}${verdict.valid ? "" : ` · ${verdict.reason}`}`;
  } catch (error) {
    receipt.classList.add("invalid");
    receipt.textContent = `${t("invalid")} · ${/WebCrypto/.test(error.message) ? t("noWebCrypto") : error.message}`;
  }
}

function oddsChart(odds) {
  const groups = [[t("outcomes"), odds.outcomes.map((entry) => ({ label: entry.outcome, ...entry }))]];
  for (const [name, points] of Object.entries(odds.distributions)) {
    const mean = odds.expected?.[name];
    const heading = mean === undefined ? name : `${name} (${t("expected")} ${Number(mean.toFixed(3))})`;
    groups.push([heading, points.map((point) => ({ label: String(point.value), ...point }))]);
  }
  const row = 20;
  const labelWidth = 170;
  const barWidth = 420;
  const rows = groups.reduce((count, [, entries]) => count + entries.length + 1.5, 0);
  const svg = svgElement("svg", { viewBox: `0 0 ${labelWidth + barWidth + 90} ${rows * row + 10}`, "data-testid": "odds-chart",
    role: "img", "aria-label": t("odds") });
  let y = 0;
  for (const [heading, entries] of groups) {
    y += row;
    svg.append(svgElement("text", { x: 0, y: y - 4, class: "heading" }, heading));
    for (const entry of entries) {
      const width = Math.max(1, entry.probability * barWidth);
      const percent = `${(entry.probability * 100).toFixed(entry.probability < 0.01 ? 2 : 1)} %`;
      const bar = svgElement("rect", { class: "bar", x: labelWidth, y: y + 3, width, height: row - 6, "data-exact": entry.exact },
        svgElement("title", {}, `${entry.label}: ${entry.exact} ≈ ${percent}`));
      svg.append(svgElement("text", { x: labelWidth - 8, y: y + row - 6, "text-anchor": "end" }, entry.label), bar,
        svgElement("text", { x: labelWidth + width + 6, y: y + row - 6 }, percent));
      y += row;
    }
    y += row / 2;
  }
  return svg;
}

async function showOdds(client, operation, body) {
  const twin = `${operation.id}.odds`;
  const section = $("odds");
  const box = $("odds-chart-box");
  if (!state.operations.has(twin)) {
    section.hidden = true;
    return;
  }
  const { seed: _seed, manual: _manual, ticket: _ticket, ...oddsBody } = body ?? {};
  section.hidden = false;
  box.replaceChildren(element("p", { text: t("loading") }));
  try {
    const { odds } = await client.call(twin, oddsBody);
    box.replaceChildren(oddsChart(odds));
  } catch (error) {
    const detail = error.problem?.detail || error.message;
    box.replaceChildren(element("p", { class: "field-error", text: t("oddsFailed", { detail }) }));
  }
}

// -- wiring ----------------------------------------------------------------------------------------

function currentOperation() {
  return state.operations.get($("operation").value);
}

function fillOperations(system, chosen) {
  const select = $("operation");
  select.replaceChildren();
  for (const operation of OPERATIONS) {
    if (operation.system !== system || operation.id.endsWith(".odds") || !state.operations.has(operation.id)) continue;
    const { summary } = state.operations.get(operation.id);
    select.append(element("option", { value: operation.id, text: `${operation.id} · ${summary}` }));
  }
  if (chosen) select.value = chosen;
}

function selectOperation(body) {
  const operation = currentOperation();
  $("description").textContent = operation.description;
  $("roll").textContent = operation.method === "get" ? t("lookUp") : t("roll");
  clearErrors();
  showForm(operation, body);
  updateShareLink();
}

function readBody() {
  return state.editor ? state.editor.read() : undefined;
}

function updateShareLink() {
  const link = new URL("/play", location.origin);
  link.searchParams.set("operation", $("operation").value);
  try {
    const body = readBody();
    if (body !== undefined) link.searchParams.set("body", JSON.stringify(body));
  } catch {
    // a field that does not parse yet: the link keeps the operation only
  }
  link.searchParams.set("lang", state.lang);
  $("share").href = link.pathname + link.search;
}

function newClient() {
  return new Client({ baseUrl: location.origin, lang: state.lang, apiKey: $("api-key").value || undefined });
}

async function roll() {
  const operation = currentOperation();
  const button = $("roll");
  clearErrors();
  let body;
  try {
    body = readBody();
  } catch (error) {
    showError(error);
    return;
  }
  const client = newClient();
  button.disabled = true;
  try {
    const response = await client.call(operation.id, body);
    $("result").hidden = false;
    $("summary").textContent = response.summary ?? "";
    $("raw").textContent = JSON.stringify(response, null, 2);
    showRandomness(response.randomness);
    await Promise.all([showReceipt(client, response), showOdds(client, operation, body)]);
  } catch (error) {
    showError(error);
  } finally {
    button.disabled = false;
  }
}

function applyLanguage() {
  document.documentElement.lang = state.lang;
  $("lang").value = state.lang;
  for (const node of document.querySelectorAll("[data-text]")) node.textContent = t(node.dataset.text);
}

async function start() {
  applyLanguage();
  const response = await fetch("/openapi.json");
  state.spec = await response.json();
  loadOperations(state.spec);
  const systems = [...new Set(OPERATIONS.map((operation) => operation.system).filter(Boolean))];
  $("system").replaceChildren(...systems.map((system) => element("option", { value: system, text: system })));

  const asked = params.get("operation");
  const askedOperation = OPERATIONS.find((operation) => operation.id === asked && operation.system);
  let body;
  if (askedOperation && params.has("body")) {
    try {
      body = JSON.parse(params.get("body"));
    } catch {
      body = undefined;
    }
  }
  $("system").value = askedOperation?.system ?? systems[0];
  fillOperations($("system").value, askedOperation?.id);
  selectOperation(body);

  $("system").addEventListener("change", () => {
    fillOperations($("system").value);
    selectOperation();
  });
  $("operation").addEventListener("change", () => selectOperation());
  $("form").addEventListener("input", updateShareLink);
  $("form").addEventListener("click", () => setTimeout(updateShareLink));
  $("form").addEventListener("submit", (event) => {
    event.preventDefault();
    roll();
  });
  $("roll").addEventListener("click", roll);
  $("lang").addEventListener("change", () => {
    state.lang = $("lang").value;
    applyLanguage();
    $("roll").textContent = currentOperation().method === "get" ? t("lookUp") : t("roll");
    updateShareLink();
  });
  document.body.dataset.ready = "true";
}

start().catch((error) => showError(error));
