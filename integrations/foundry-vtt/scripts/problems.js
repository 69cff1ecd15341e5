// Problems as words for a chat whisper: the service's RFC 9457 body, network failures, typos.

import { escapeHtml } from "./card.js";

/**
 * @typedef {(key: string, data?: Record<string, string | number>) => string} Translate
 */

/**
 * The whisper's HTML for anything that went wrong: a WurfwerkError (problem title, detail and each
 * field's messages), a command typo, or any other error's message.
 * @param {unknown} error
 * @param {Translate} t
 */
export function problemHtml(error, t) {
  const failure =
    /** @type {{status?: number, problem?: Record<string, any> | null, errors?: Record<string, string[]> | null, message?: string}} */ (
      error ?? {}
    );
  const lines = [];
  const hint = tooLargeHint(failure, t);
  if (hint) lines.push(hint);
  if (failure.status === 0) {
    lines.push(`${t("WURFWERK.Problem.network")}: ${failure.message ?? ""}`);
  } else if (failure.problem) {
    const { title, detail, status } = failure.problem;
    lines.push([status, title].filter(Boolean).join(" ") + (detail ? `: ${detail}` : ""));
  } else {
    lines.push(String(failure.message ?? error));
  }
  const fieldLines = Object.entries(failure.errors ?? {}).flatMap(([field, messages]) =>
    (Array.isArray(messages) ? messages : [String(messages)]).map((message) => `${field}: ${message}`),
  );
  // The detail already says it when there is a single field message.
  const extra =
    fieldLines.length > 1 ? `<ul>${fieldLines.map((line) => `<li>${escapeHtml(line)}</li>`).join("")}</ul>` : "";
  return (
    `<div class="wurfwerk-problem"><strong>${escapeHtml(t("WURFWERK.Problem.prefix"))}</strong>` +
    `<p>${lines.map(escapeHtml).join("<br>")}</p>${extra}</div>`
  );
}

/**
 * A refusal because the work is too large (422 `encounter-too-large`, or an advice asking for more
 * fixed options than the service compares, `advise.choices`) first says in the table's words what to
 * do about it; the service's own message with its figures follows.
 * @param {{status?: number, problem?: Record<string, any> | null, errors?: Record<string, string[]> | null, operation?: string | null}} failure
 * @param {Translate} t
 */
function tooLargeHint(failure, t) {
  if (failure.status !== 422 || !failure.problem) return null;
  const advice = String(failure.operation ?? failure.problem.instance ?? "").endsWith("advice");
  const tooLarge = String(failure.problem.type ?? "").endsWith("/encounter-too-large");
  const tooManyOptions = advice && Object.hasOwn(failure.errors ?? {}, "advise.choices");
  if (advice && (tooLarge || tooManyOptions)) return t("WURFWERK.Problem.adviceTooLarge");
  return tooLarge ? t("WURFWERK.Problem.tooLarge") : null;
}

/**
 * Edit distance, for "did you mean paws.test?" after a typo in the operation.
 * @param {string} a
 * @param {string} b
 */
export function editDistance(a, b) {
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    previous = current;
  }
  return previous[b.length];
}

/**
 * The known operation closest to a mistyped one, if it is close enough to be what was meant.
 * @param {string} typed
 * @param {string[]} known
 * @returns {string | null}
 */
export function closestOperation(typed, known) {
  let best = null;
  let bestDistance = Infinity;
  for (const candidate of known) {
    const distance = editDistance(typed, candidate);
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return best !== null && bestDistance <= Math.max(2, Math.floor(typed.length / 4)) ? best : null;
}
