// The chat card of one wurfwerk response, as an HTML string. Pure: node tests it and headless Chromium
// renders it for the README's screenshot.

import { policyWords, samePolicyKey } from "./advice.js";

/** Where Foundry serves this module's files (relative to the world's origin). */
export const MODULE_PATH = "modules/wurfwerk";

const MARBLE_COLOURS = ["red", "green", "blue", "white", "black"];
const FUDGE_NAMES = { "-1": "minus", 0: "blank", 1: "plus" };

/**
 * @typedef {(key: string, data?: Record<string, string | number>) => string} Translate
 * @typedef {{kind: string, values: Array<number | string>}} RandomnessEvent
 * @typedef {{key: string, tone: "good" | "bad" | "neutral", data?: Record<string, string | number>}} Outcome
 */

/** @param {unknown} value */
export function escapeHtml(value) {
  return String(value)
    .replaceAll("&", "&amp;")
    .replaceAll("<", "&lt;")
    .replaceAll(">", "&gt;")
    .replaceAll('"', "&quot;")
    .replaceAll("'", "&#39;");
}

/**
 * The link that opens the service's /play page with the same request, ready to roll again there.
 * @param {string} serviceUrl
 * @param {string} operationId
 * @param {Record<string, unknown>} body
 * @param {"de" | "en"} [lang] the language /play shows
 */
export function playUrl(serviceUrl, operationId, body, lang) {
  const query = new URLSearchParams({ operation: operationId, body: JSON.stringify(body) });
  if (lang) query.set("lang", lang);
  return `${serviceUrl.replace(/\/+$/, "")}/play?${query}`;
}

/**
 * One picture per random value: d6 faces with pips, FUDGE faces, other dice as an outline with the
 * number on top, marbles in their colour.
 * @param {RandomnessEvent} event
 * @param {string} assets
 */
export function eventPictures(event, assets) {
  return event.values.map((value) => picture(event.kind, value, assets)).join("");
}

/**
 * @param {string} kind
 * @param {number | string} value
 * @param {string} assets
 */
function picture(kind, value, assets) {
  const label = `${kind}: ${value}`;
  if (kind === "draw") {
    const colour = MARBLE_COLOURS.includes(String(value)) ? `marble-${value}` : "marble";
    return `<img class="wurfwerk-marble" src="${assets}/${colour}.svg" alt="${escapeHtml(value)}" title="${escapeHtml(label)}">`;
  }
  if (kind === "d6" && Number.isInteger(value) && Number(value) >= 1 && Number(value) <= 6) {
    return `<img class="wurfwerk-die" src="${assets}/d6-${value}.svg" alt="${value}" title="${label}">`;
  }
  if (kind === "dF" && String(value) in FUDGE_NAMES) {
    const name = FUDGE_NAMES[/** @type {"-1" | "0" | "1"} */ (String(value))];
    return `<img class="wurfwerk-die" src="${assets}/df-${name}.svg" alt="${escapeHtml(value)}" title="${escapeHtml(label)}">`;
  }
  const shape = kind === "d8" || kind === "d10" ? kind : "die";
  return (
    `<span class="wurfwerk-die wurfwerk-numbered" title="${escapeHtml(label)}">` +
    `<img src="${assets}/${shape}.svg" alt=""><span class="wurfwerk-number">${escapeHtml(value)}</span></span>`
  );
}

/**
 * What came out, in words the lang files hold: the fields the five systems share in their results.
 * @param {Record<string, any> | undefined} result
 * @returns {Outcome[]}
 */
export function outcomesOf(result) {
  if (!result || typeof result !== "object") return [];
  /** @type {Outcome[]} */
  const outcomes = [];
  if (typeof result.outcome === "string") {
    const tone = result.outcome === "success" ? "good" : result.outcome === "partial" ? "neutral" : "bad";
    outcomes.push({ key: `WURFWERK.Outcome.${result.outcome}`, tone });
  } else if (typeof result.success === "boolean") {
    outcomes.push(
      result.success
        ? { key: "WURFWERK.Outcome.success", tone: "good" }
        : { key: "WURFWERK.Outcome.failure", tone: "bad" },
    );
  }
  if ("winner" in result) {
    outcomes.push(
      result.winner === null
        ? { key: "WURFWERK.Outcome.tie", tone: "neutral" }
        : { key: "WURFWERK.Outcome.winner", tone: "good", data: { name: winnerName(result) } },
    );
  }
  if (typeof result.hit === "boolean")
    outcomes.push({
      key: result.hit ? "WURFWERK.Outcome.hit" : "WURFWERK.Outcome.miss",
      tone: result.hit ? "good" : "bad",
    });
  if (typeof result.dies === "boolean")
    outcomes.push({
      key: result.dies ? "WURFWERK.Outcome.dies" : "WURFWERK.Outcome.survives",
      tone: result.dies ? "bad" : "good",
    });
  if (typeof result.valid === "boolean")
    outcomes.push({
      key: result.valid ? "WURFWERK.Outcome.valid" : "WURFWERK.Outcome.invalid",
      tone: result.valid ? "good" : "bad",
    });
  if (result.catastrophe === true) outcomes.push({ key: "WURFWERK.Outcome.catastrophe", tone: "bad" });
  if (result.unconscious === true) outcomes.push({ key: "WURFWERK.Outcome.unconscious", tone: "bad" });
  if (result.taken_out === true) outcomes.push({ key: "WURFWERK.Outcome.takenOut", tone: "bad" });
  if (typeof result.successes === "number")
    outcomes.push({ key: "WURFWERK.Outcome.successes", tone: "neutral", data: { count: result.successes } });
  return outcomes;
}

/**
 * Winners are names (contests, conflicts) or the sides `a`/`b`, which read better as the side's name.
 * @param {Record<string, any>} result
 */
function winnerName(result) {
  const winner = result.winner;
  const side = (winner === "a" || winner === "b") && result[winner];
  return side && typeof side === "object" && typeof side.name === "string" ? side.name : String(winner);
}

/** The randomness sources the lang files describe; a newer one is shown by its name. */
const KNOWN_SOURCES = ["secure", "seeded", "manual", "ticket"];

/**
 * @param {string} source
 * @param {Translate} t
 */
function sourceLabel(source, t) {
  return KNOWN_SOURCES.includes(source) ? t(`WURFWERK.Source.${source}`) : t("WURFWERK.Source.other", { source });
}

/**
 * The side `a` or `b` of a two-sided request by the name the request gave it.
 * @param {Record<string, any> | undefined} request
 * @param {string} side
 * @param {Translate} t
 */
function sideName(request, side, t) {
  const name = request?.[side]?.name;
  return typeof name === "string" && name ? name : t(`WURFWERK.Odds.side.${side}`);
}

/** The outcome keys the lang files hold as they are (API.md §1.3 and §1.7). */
const PLAIN_OUTCOMES = [
  "success", "failure", "partial", "no_dice", "unconscious", "tie", "dies", "survives", "hit", "miss",
  "consequence", "taken_out", "catastrophe", "stalemate", "undecided", "both_out",
];

/**
 * An outcome key of the odds, or an encounter's `result.outcome`, in words (the terms /play uses):
 * `wins:<name>` (Paws' `wins:a` by the side's name), `injury:<name>:<severity>`, `failure:<step>`
 * (0-based, said 1-based), `first:<name>`, `god:<n>`, the sides `a`/`b`; an unknown key as it is.
 * @param {string} key
 * @param {Record<string, any> | undefined} request the response's echoed request
 * @param {Translate} t
 */
export function outcomeWords(key, request, t) {
  const [kind, ...args] = String(key).split(":");
  const rest = args.join(":");
  if (kind === "wins" && (rest === "a" || rest === "b") && request?.[rest]) {
    return t("WURFWERK.Odds.wins", { name: sideName(request, rest, t) });
  }
  if (kind === "wins" && args.length) return t("WURFWERK.Odds.wins", { name: rest });
  if (kind === "first" && args.length) return t("WURFWERK.Odds.first", { name: rest });
  if (kind === "injury" && args.length >= 2) {
    const severity = String(args.at(-1));
    const known = ["light", "serious", "grave"].includes(severity);
    return t("WURFWERK.Odds.injury", {
      name: args.slice(0, -1).join(":"),
      severity: known ? t(`WURFWERK.Odds.severity.${severity}`) : severity,
    });
  }
  if (kind === "god" && args.length) {
    const n = Number(args[0]);
    const god = Array.isArray(request?.gods) ? request.gods[n - 1] : undefined;
    return t("WURFWERK.Odds.god", { name: typeof god === "string" ? god : String(n), n });
  }
  if (kind === "failure" && args.length && /^\d+$/.test(rest)) {
    return t("WURFWERK.Odds.failure_at", { n: Number(rest) + 1 });
  }
  if ((kind === "a" || kind === "b") && args.length === 0) {
    return t("WURFWERK.Odds.wins", { name: sideName(request, kind, t) });
  }
  if (args.length === 0 && PLAIN_OUTCOMES.includes(kind)) return t(`WURFWERK.Odds.${kind}`);
  return String(key);
}

/**
 * A chance as the card's language writes it: "70,4 %" in German, "70.4 %" in English (the number
 * format is named in the lang file, WURFWERK.NumberLocale).
 * @param {number} probability
 * @param {Translate} t
 */
function percent(probability, t) {
  const format = new Intl.NumberFormat(t("WURFWERK.NumberLocale"), { minimumFractionDigits: 1, maximumFractionDigits: 1 });
  return `${format.format(probability * 100)} %`;
}

/** Fractions a player can read: none with more than six digits (the exact one stays in the JSON). */
const READABLE_DIGITS = 6;

/**
 * The exact chance as a tooltip when it is short ("19/27"), else nothing.
 * @param {string | null | undefined} exact
 */
export function readableFraction(exact) {
  const match = /^(\d+)\/(\d+)$/.exec(String(exact ?? ""));
  return match && match[1].length <= READABLE_DIGITS && match[2].length <= READABLE_DIGITS ? match[0] : "";
}

/**
 * The odds twins answer with probabilities instead of a roll: show each outcome's chance, in words.
 * @param {Record<string, any>} odds
 * @param {Record<string, any> | undefined} request
 * @param {Translate} t
 */
function oddsList(odds, request, t) {
  const items = (odds.outcomes ?? []).map(
    (/** @type {{outcome: string, probability: number, exact: string | null}} */ entry) =>
      `<li data-outcome="${escapeHtml(entry.outcome)}"><span class="wurfwerk-odds-outcome">${escapeHtml(outcomeWords(entry.outcome, request, t))}</span> ` +
      `<span class="wurfwerk-odds-chance" title="${escapeHtml(readableFraction(entry.exact))}">${percent(entry.probability, t)}</span></li>`,
  );
  return `<p class="wurfwerk-label">${escapeHtml(t("WURFWERK.Card.odds"))}</p><ul class="wurfwerk-odds">${items.join("")}</ul>`;
}

/**
 * An encounter's per-round curve (`odds.curve`, asked with `curve_rounds`): one row per round, one
 * column per outcome with its chance to have happened by then (a missing key: not yet possible), and
 * the chance that the encounter still runs.
 * @param {Array<Record<string, number>>} curve
 * @param {Record<string, any> | undefined} request
 * @param {Translate} t
 */
export function curveTable(curve, request, t) {
  const outcomes = [...new Set(curve.flatMap((point) => Object.keys(point)))].filter(
    (key) => key !== "round" && key !== "running",
  );
  const columns = [...outcomes, "running"];
  const heads = columns.map(
    (key) =>
      `<th scope="col" data-key="${escapeHtml(key)}">${escapeHtml(key === "running" ? t("WURFWERK.Odds.running") : outcomeWords(key, request, t))}</th>`,
  );
  const rows = curve.map(
    (point) =>
      `<tr><th scope="row">${escapeHtml(point.round)}</th>` +
      columns.map((key) => `<td>${percent(point[key] ?? 0, t)}</td>`).join("") +
      `</tr>`,
  );
  return (
    `<table class="wurfwerk-curve"><caption>${escapeHtml(t("WURFWERK.Card.curve"))}</caption>` +
    `<thead><tr><th scope="col">${escapeHtml(t("WURFWERK.Card.round"))}</th>${heads.join("")}</tr></thead>` +
    `<tbody>${rows.join("")}</tbody></table>`
  );
}

/**
 * What a played-out encounter ended in (`result.outcome`, one of its odds outcomes), in words; the
 * single operations' fields (a Paws `winner: "a"`, a Malmsturm `winner` that is null when undecided)
 * would say less or the wrong thing here.
 * @param {Record<string, any>} response
 * @param {Translate} t
 * @returns {{text: string, tone: "good" | "bad" | "neutral"}[]}
 */
function encounterOutcome(response, t) {
  const outcome = response.result?.outcome;
  if (typeof outcome !== "string") return [];
  const tone = outcome.startsWith("wins:") || outcome === "success" ? "good" : outcome.startsWith("failure") ? "bad" : "neutral";
  return [{ text: outcomeWords(outcome, response.request, t), tone }];
}

/**
 * A counted phrase (`….one` / `….other`; German and English agree on 1).
 * @param {string} key
 * @param {number} count
 * @param {Translate} t
 */
function plural(key, count, t) {
  return t(`${key}.${count === 1 ? "one" : "other"}`, { count });
}

/** How many fixed choices an advice card lists (the default is added when it ranks lower). */
export const ADVICE_SHOWN = 8;

/**
 * A difference of two chances in percentage points, as the card's language writes it ("−3.3",
 * German "−3,3"); `signed` writes a plus too ("+1.2"). A difference that rounds to zero has no sign.
 * @param {number} difference
 * @param {Translate} t
 * @param {boolean} [signed]
 */
function points(difference, t, signed = false) {
  // "exceptZero" and "auto", not "negative": that one is newer than some browsers a table plays in.
  const format = new Intl.NumberFormat(t("WURFWERK.NumberLocale"), {
    minimumFractionDigits: 1,
    maximumFractionDigits: 1,
    signDisplay: signed ? "exceptZero" : "auto",
  });
  const text = format.format(difference * 100);
  return text.replace(/^-(?=0[.,]0$)/, "").replace("-", "−"); // no "-0.0"; a minus sign, not a hyphen
}

const SUPERSCRIPT = { "-": "⁻", 0: "⁰", 1: "¹", 2: "²", 3: "³", 4: "⁴", 5: "⁵", 6: "⁶", 7: "⁷", 8: "⁸", 9: "⁹" };

/**
 * A tiny error bound as a player reads it: "2.2 · 10⁻¹³" (German "2,2 · 10⁻¹³"); larger ones plainly.
 * @param {number} value
 * @param {Translate} t
 */
export function smallNumber(value, t) {
  const locale = t("WURFWERK.NumberLocale");
  if (!(value > 0) || value >= 0.001) return new Intl.NumberFormat(locale, { maximumSignificantDigits: 2 }).format(value);
  const [digits, exponent] = value.toExponential(1).split("e"); // "9.96e-14" → "1.0e-13", never "10 · …"
  const mantissa = new Intl.NumberFormat(locale, { maximumFractionDigits: 1 }).format(Number(digits));
  const power = [...String(Number(exponent))].map((char) => SUPERSCRIPT[/** @type {keyof typeof SUPERSCRIPT} */ (char)]).join("");
  return `${mantissa} · 10${power}`;
}

/**
 * The advice answer (API.md §1.10) as the card shows it: the best fixed choices (ADVICE_SHOWN, and the
 * default when it ranks lower), each with its chance and how far it is behind the best, marked best,
 * „gleich gut“ (within 0.1 percentage points of the best, as the service says) and „Voreinstellung“;
 * the adaptive optimum with the service's rules; a note when the chances are float64, not exact; and
 * the sentence that says what advice is and is not.
 * @param {Record<string, any>} advice the answer's `advice` member
 * @param {string} operation e.g. `paws.encounter.advice`
 * @param {Translate} t
 */
export function adviceSection(advice, operation, t) {
  const system = String(operation).split(".")[0];
  /** @type {Array<Record<string, any>>} */
  const options = Array.isArray(advice.options) ? advice.options : [];
  const defaultKey = advice.default ? samePolicyKey(advice.default.policy) : null;
  const defaultAt = options.findIndex((option) => samePolicyKey(option.policy) === defaultKey);
  const shown = options.slice(0, ADVICE_SHOWN).map((option, index) => ({ option, index }));
  if (defaultAt >= ADVICE_SHOWN) shown.push({ option: options[defaultAt], index: defaultAt });
  // Short column heads for Foundry's narrow chat column; the caption says what they measure.
  const caption = system === "proben" ? "WURFWERK.Advice.captionSuccess" : "WURFWERK.Advice.captionWin";
  const rows = [];
  for (const { option, index } of shown) {
    if (index > ADVICE_SHOWN) {
      rows.push(
        `<tr class="wurfwerk-advice-gap"><td colspan="3">${escapeHtml(plural("WURFWERK.Advice.between", index - ADVICE_SHOWN, t))}</td></tr>`,
      );
    }
    const tags = [];
    if (index === 0) tags.push(["best", t("WURFWERK.Advice.best")]);
    else if (option.vs_best?.equal === true) tags.push(["equal", t("WURFWERK.Advice.equal")]);
    if (index === defaultAt) tags.push(["default", t("WURFWERK.Advice.default")]);
    const marks = tags
      .map(([kind, word]) => ` <span class="wurfwerk-tag wurfwerk-tag-${kind}">${escapeHtml(word)}</span>`)
      .join("");
    const attributes = tags.map(([kind]) => ` data-${kind}=""`).join("");
    const win = option.win ?? {};
    rows.push(
      `<tr data-rank="${index + 1}"${attributes}>` +
        `<th scope="row"><span class="wurfwerk-advice-policy">${escapeHtml(policyWords(system, option.policy, t))}</span>${marks}</th>` +
        `<td class="wurfwerk-advice-chance" title="${escapeHtml(readableFraction(win.exact))}">${percent(Number(win.probability), t)}</td>` +
        `<td class="wurfwerk-advice-behind">${points(Number(option.vs_best?.probability ?? 0), t)}</td></tr>`,
    );
  }
  const parts = [
    `<table class="wurfwerk-advice"><caption>${escapeHtml(t(caption))}</caption>` +
      `<thead><tr><th scope="col">${escapeHtml(t("WURFWERK.Advice.choice"))}</th>` +
      `<th scope="col">${escapeHtml(t("WURFWERK.Advice.chance"))}</th>` +
      `<th scope="col">${escapeHtml(t("WURFWERK.Advice.behind"))}</th></tr></thead>` +
      `<tbody>${rows.join("")}</tbody></table>`,
  ];
  const hidden = options.length - shown.length;
  if (hidden > 0) parts.push(`<p class="wurfwerk-advice-more">${escapeHtml(plural("WURFWERK.Advice.more", hidden, t))}</p>`);
  const adaptive = advice.adaptive;
  if (adaptive && typeof adaptive === "object") {
    const rules = (Array.isArray(adaptive.rules) ? adaptive.rules : []).map(
      (/** @type {unknown} */ rule) => `<li>${escapeHtml(rule)}</li>`,
    );
    parts.push(
      `<div class="wurfwerk-adaptive"><p class="wurfwerk-label">${escapeHtml(
        t("WURFWERK.Advice.adaptive", {
          win: percent(Number(adaptive.win?.probability), t),
          gain: points(Number(adaptive.gain_over_best_fixed?.probability ?? 0), t, true),
        }),
      )}</p>${rules.length ? `<ul class="wurfwerk-rules">${rules.join("")}</ul>` : ""}</div>`,
    );
  }
  const solver = advice.solver;
  const inexact = solver ? solver.precision !== "exact" : options.some((option) => option.win?.exact == null);
  if (inexact) {
    const states = new Intl.NumberFormat(t("WURFWERK.NumberLocale")).format(Number(solver?.states ?? 0));
    const error = Number(solver?.max_error ?? 0);
    parts.push(
      `<p class="wurfwerk-advice-float">${escapeHtml(
        solver && error > 0
          ? t("WURFWERK.Advice.float", { states, error: smallNumber(error, t) })
          : t("WURFWERK.Advice.floatNoBound"),
      )}</p>`,
    );
  }
  parts.push(`<p class="wurfwerk-advice-honest">${escapeHtml(t("WURFWERK.Advice.honest"))}</p>`);
  return parts.join("");
}

/** @param {unknown} operation */
function isEncounter(operation) {
  return typeof operation === "string" && operation.endsWith(".encounter");
}

/**
 * The whole card. `link` is the /play URL (or null when no service URL is known); the verify button is
 * only there when the response carries a receipt.
 * @param {Record<string, any>} response the service's parsed response
 * @param {{t: Translate, link: string | null, assets?: string}} options
 */
export function renderCard(response, { t, link, assets = `${MODULE_PATH}/assets` }) {
  const events = /** @type {RandomnessEvent[]} */ (response.randomness?.events ?? []);
  const parts = [`<div class="wurfwerk-card" data-operation="${escapeHtml(response.operation ?? "")}">`];
  parts.push(`<header class="wurfwerk-operation">${escapeHtml(response.operation ?? "")}</header>`);
  if (response.summary) parts.push(`<p class="wurfwerk-summary">${escapeHtml(response.summary)}</p>`);
  if (events.length) {
    parts.push(`<div class="wurfwerk-faces">`);
    for (const event of events) {
      parts.push(
        `<div class="wurfwerk-event" data-kind="${escapeHtml(event.kind)}">${eventPictures(event, assets)}</div>`,
      );
    }
    parts.push(`</div>`);
  }
  const outcomes = isEncounter(response.operation)
    ? encounterOutcome(response, t)
    : outcomesOf(response.result).map((outcome) => ({ text: t(outcome.key, outcome.data), tone: outcome.tone }));
  if (outcomes.length) {
    const items = outcomes.map((outcome) => `<li class="wurfwerk-${outcome.tone}">${escapeHtml(outcome.text)}</li>`);
    parts.push(`<ul class="wurfwerk-outcome">${items.join("")}</ul>`);
  }
  if (response.odds) parts.push(oddsList(response.odds, response.request, t));
  if (response.advice && typeof response.advice === "object") {
    parts.push(adviceSection(response.advice, response.operation ?? "", t));
  }
  if (Array.isArray(response.odds?.curve) && response.odds.curve.length) {
    parts.push(curveTable(response.odds.curve, response.request, t));
  }
  if (response.randomness?.source) {
    parts.push(`<p class="wurfwerk-source">${escapeHtml(sourceLabel(response.randomness.source, t))}</p>`);
  }
  parts.push(`<footer class="wurfwerk-footer">`);
  if (link)
    parts.push(
      `<a class="wurfwerk-play" href="${escapeHtml(link)}" target="_blank" rel="noopener">${escapeHtml(t("WURFWERK.Card.play"))}</a>`,
    );
  if (response.receipt) {
    // No data-action: in Foundry 13 the chat log is an ApplicationV2, which claims data-action clicks.
    parts.push(
      `<button type="button" class="wurfwerk-verify">${escapeHtml(t("WURFWERK.Card.verify"))}</button>` +
        `<span class="wurfwerk-verdict" data-state="unchecked" aria-live="polite"></span>`,
    );
  }
  parts.push(`</footer></div>`);
  return parts.join("");
}

/** What each verdict state looks like: ✓ and ✗ only for a check that ran; "not checked" is neither. */
const VERDICT_LOOKS = {
  verified: { attribute: "valid", mark: "✓", key: "WURFWERK.Card.valid" },
  "not-genuine": { attribute: "invalid", mark: "✗", key: "WURFWERK.Card.invalid" },
  "not-checked": { attribute: "not-checked", mark: "○", key: "WURFWERK.Card.notChecked" },
};

/**
 * Show the browser's check of the receipt on the card: ✓ verified, ✗ not genuine (the signature does
 * not fit the card), or ○ not checked and why (keys unreachable, no receipt, a key the service does not
 * publish). A check that could not run is never shown as ✗.
 * @param {Element} verdict the card's `.wurfwerk-verdict` element
 * @param {{state: "verified" | "not-genuine" | "not-checked", cause: string, reason?: string | null}} check
 * @param {Translate} t
 */
export function showVerdict(verdict, check, t) {
  const looks = VERDICT_LOOKS[check.state] ?? VERDICT_LOOKS["not-checked"];
  verdict.setAttribute("data-state", looks.attribute);
  const why = check.state === "verified" ? "" : t(`WURFWERK.Verdict.${check.cause}`, { reason: check.reason ?? "" });
  verdict.textContent = `${looks.mark} ${t(looks.key)}${why ? `: ${why}` : ""}`;
}
