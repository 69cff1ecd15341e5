/**
 * Every failure of a call: a problem the server answered (RFC 9457 body in `problem`, field
 * messages in `errors`) or a call that never got an answer (`status` 0: network, timeout).
 */
export class WurfwerkError extends Error {
  constructor(message, { status = 0, problem = null, errors = {}, operation = null, cause } = {}) {
    super(message, cause === undefined ? undefined : { cause });
    this.name = "WurfwerkError";
    this.status = status;
    this.problem = problem;
    this.errors = errors;
    this.operation = operation;
  }
}

/** The problem body of a failed response; a body that is not a problem becomes a minimal one. */
export async function problemOf(response) {
  const text = await response.text().catch(() => "");
  try {
    const body = JSON.parse(text);
    if (body && typeof body === "object" && !Array.isArray(body)) return body;
  } catch {
    // not JSON (a proxy's HTML page, say): described below without echoing it
  }
  return {
    type: "about:blank",
    title: response.statusText || `HTTP ${response.status}`,
    status: response.status,
    detail: `The server answered ${response.status} without a problem document.`,
  };
}

export function problemError(operation, status, problem) {
  const errors = problem.errors && typeof problem.errors === "object" ? problem.errors : {};
  const message = `${operation}: ${status} ${problem.detail || problem.title || "request failed"}`;
  return new WurfwerkError(message, { status, problem, errors, operation });
}
