// The pure parts of a session in the world (issues 41 and 48): each user's next roll number and link,
// read off the chat log; the log file (the format /play's "Sitzung prüfen" reads, with the seeds this
// browser may hand over once the session has ended); the verdict in words. The Foundry glue
// (wurfwerk.js) keeps the session's header in a world setting, each user's seed in that user's browser,
// and posts the cards.

import { escapeHtml } from "./card.js";

export const LOG_FORMAT = "wurfwerk-session-log/2";

/** @typedef {Record<string, any>} Json */

/**
 * A card's place in a session: its `session` member (a full card's request, or a public part's), and
 * the link signature the seat's next card names as `prev`.
 * @param {Json} card
 * @returns {{use: Json, link: string} | null}
 */
export function slotOf(card) {
  const full = card?.request?.session;
  if (full && typeof full === "object") {
    const link = full.hidden ? card.public?.signature : card.receipt?.signature;
    return typeof link === "string" ? { use: full, link } : null;
  }
  if (card?.session && typeof card.session === "object" && typeof card.commitment === "string") {
    return typeof card.signature === "string" ? { use: card.session, link: card.signature } : null;
  }
  return null;
}

/**
 * The seat's next roll in the session: one past the highest card of that seat in `cards`, linked to it.
 * @param {Json[]} cards
 * @param {string} sessionId
 * @param {string} seat
 * @returns {{index: number, prev: string | null}}
 */
export function nextSlot(cards, sessionId, seat) {
  /** @type {{index: number, prev: string | null}} */
  let next = { index: 0, prev: null };
  for (const card of cards) {
    const slot = slotOf(card);
    if (!slot || slot.use.header?.id !== sessionId || slot.use.seat !== seat) continue;
    if (slot.use.index + 1 > next.index) next = { index: slot.use.index + 1, prev: slot.link };
  }
  return next;
}

/**
 * The session's cards among `cards` (full cards and public parts, each once), as a log file, with the
 * `seeds` this browser holds for the session's seats (give them only once the session has ended).
 * @param {Json} header
 * @param {Json[]} cards
 * @param {Json | null} reveal
 * @param {Record<string, string>} [seeds]
 */
export function sessionLog(header, cards, reveal, seeds = {}) {
  const seen = new Set();
  const own = [];
  for (const card of cards) {
    const slot = slotOf(card);
    if (!slot || slot.use.header?.id !== header.id) continue;
    const key = JSON.stringify(card);
    if (seen.has(key)) continue;
    seen.add(key);
    own.push(card);
  }
  return { format: LOG_FORMAT, session: header, reveal, seeds, cards: own };
}

/**
 * A log file, `{reveal, seeds, cards}` or a plain list of cards.
 * @param {string | Json} log
 * @returns {{cards: Json[], reveal: Json | null, header: Json | null, seeds: Record<string, string>}}
 */
export function readLog(log) {
  const value = typeof log === "string" ? JSON.parse(log) : log;
  if (Array.isArray(value)) return { cards: value, reveal: null, header: null, seeds: {} };
  if (!Array.isArray(value?.cards)) throw new SyntaxError("not a session log");
  return { cards: value.cards, reveal: value.reveal?.reveal ?? value.reveal ?? null, header: value.session ?? null,
    seeds: value.seeds && typeof value.seeds === "object" ? value.seeds : {} };
}

/**
 * The verdict of verifySession in words, as chat HTML.
 * @param {{complete: boolean, gaps: Json[], duplicates: Json[], invalid: Json[], after_reveal: number[], unshown: Json[], unverified: string[]}} verdict
 * @param {number} count
 * @param {(key: string, data?: Record<string, string | number>) => string} t
 */
export function verdictHtml(verdict, count, t) {
  /** @param {Json} slot */
  const roll = (slot) => t("WURFWERK.Session.seatRoll", { seat: slot.seat, n: slot.index + 1 });
  const lines = [
    ...verdict.gaps.map((gap) => (gap.from === gap.to
      ? t("WURFWERK.Session.gap", { roll: roll({ seat: gap.seat, index: gap.from }) })
      : t("WURFWERK.Session.gapRange", { seat: gap.seat, from: gap.from + 1, to: gap.to + 1 }))),
    ...verdict.duplicates.map((duplicate) => t(duplicate.repeat ? "WURFWERK.Session.repeat" : "WURFWERK.Session.reroll",
      { roll: roll(duplicate), cards: duplicate.cards.map((/** @type {number} */ card) => card + 1).join(", ") })),
    ...verdict.invalid.map((entry) => t("WURFWERK.Session.invalid",
      { card: entry.card + 1, why: t(`WURFWERK.Session.why.${entry.reason}`) })),
    ...verdict.after_reveal.map((card) => t("WURFWERK.Session.afterReveal", { card: card + 1 })),
    ...verdict.unshown.map((slot) => t("WURFWERK.Session.unshown", { roll: roll(slot) })),
    ...verdict.unverified.map((seat) => t("WURFWERK.Session.unverified", { seat })),
    t("WURFWERK.Session.blindSpot"),
  ];
  const head = verdict.complete ? t("WURFWERK.Session.complete", { count }) : t("WURFWERK.Session.incomplete");
  return `<div class="wurfwerk-session-verdict" data-complete="${verdict.complete}"><p>${escapeHtml(head)}</p>` +
    (lines.length ? `<ul>${lines.map((line) => `<li>${escapeHtml(line)}</li>`).join("")}</ul>` : "") + "</div>";
}
