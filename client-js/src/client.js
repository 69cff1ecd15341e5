// The client: one transport (`call`) and, built from the generated operation table at run time,
// one method per operation grouped by system. A new operation needs `make js-client`, no hand edit.
import { OPERATIONS } from "./operations.js";
import { WurfwerkError, problemError, problemOf } from "./errors.js";
import { receiptVerdict, verifyReceipt } from "./receipts.js";

const BY_ID = new Map(OPERATIONS.map((operation) => [operation.id, operation]));
const DEFAULT_TIMEOUT_MS = 10000;

/** `beutelschneider.healing-apply` -> `healingApply`, `paws.test.odds` -> `testOdds`. */
export function methodName(operationId) {
  const [first, ...rest] = operationId.slice(operationId.indexOf(".") + 1).split(/[.-]/);
  return first + rest.map((word) => word.charAt(0).toUpperCase() + word.slice(1)).join("");
}

function defaultBaseUrl() {
  const origin = globalThis.location?.origin;
  if (origin && origin !== "null") return origin;
  throw new TypeError("new Client({baseUrl}) needs a baseUrl outside a browser page");
}

export class Client {
  /**
   * @param {{baseUrl?: string, apiKey?: string, lang?: "de"|"en", timeoutMs?: number, fetch?: typeof fetch}} options
   */
  constructor({ baseUrl, apiKey, lang, timeoutMs = DEFAULT_TIMEOUT_MS, fetch: fetchImpl } = {}) {
    this.baseUrl = (baseUrl ?? defaultBaseUrl()).replace(/\/+$/, "");
    this.apiKey = apiKey ?? null;
    this.lang = lang ?? null;
    this.timeoutMs = timeoutMs;
    this._fetch = fetchImpl ?? ((...args) => globalThis.fetch(...args));
    this._keys = null;
    for (const operation of OPERATIONS) {
      if (!operation.system) continue;
      this[operation.system] ??= {};
      this[operation.system][methodName(operation.id)] = (body, options) => this.call(operation.id, body, options);
    }
  }

  /** Every operation the client knows: `{id, method, path, system, body}`. */
  static get operations() {
    return OPERATIONS;
  }

  /**
   * Call an operation by id and resolve to the parsed response. Rejects with `WurfwerkError`.
   * `options.idempotencyKey` is sent as `Idempotency-Key`; `options.signal` aborts the call.
   */
  async call(operationId, body, { idempotencyKey, signal, lang } = {}) {
    const operation = BY_ID.get(operationId);
    if (!operation) throw new TypeError(`unknown operation id ${JSON.stringify(operationId)}`);
    const headers = { Accept: "application/json, application/problem+json" };
    if (this.apiKey) headers.Authorization = `Bearer ${this.apiKey}`;
    if (idempotencyKey) headers["Idempotency-Key"] = idempotencyKey;
    const init = { method: operation.method, headers };
    if (operation.method !== "GET") {
      headers["Content-Type"] = "application/json";
      init.body = JSON.stringify(body ?? {});
    }
    const chosenLang = lang ?? this.lang;
    const url = this.baseUrl + operation.path + (chosenLang ? `?lang=${encodeURIComponent(chosenLang)}` : "");
    const response = await this._send(operationId, url, init, signal);
    if (!response.ok) throw problemError(operationId, response.status, await problemOf(response));
    try {
      return await response.json();
    } catch (error) {
      throw new WurfwerkError(`${operationId}: the server answered ${response.status} with a body that is not JSON`,
        { status: response.status, operation: operationId, cause: error });
    }
  }

  async _send(operationId, url, init, signal) {
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(new Error("timeout")), this.timeoutMs);
    const abort = () => controller.abort(signal.reason);
    signal?.addEventListener("abort", abort, { once: true });
    try {
      return await this._fetch(url, { ...init, signal: controller.signal });
    } catch (error) {
      const timedOut = controller.signal.aborted && !signal?.aborted;
      const message = timedOut
        ? `${operationId}: no answer from ${this.baseUrl} within ${this.timeoutMs} ms`
        : signal?.aborted
          ? `${operationId}: aborted by the caller`
          : `${operationId}: could not reach ${this.baseUrl} (network error, server down or blocked by CORS)`;
      throw new WurfwerkError(message, { status: 0, operation: operationId, cause: error });
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener("abort", abort);
    }
  }

  /** GET /v1/systems: the catalogue. */
  systems(options) {
    return this.call("systems.list", undefined, options);
  }

  /** GET /v1/keys: the JWKS that verifies receipts. */
  keys(options) {
    return this.call("keys.list", undefined, options);
  }

  /** POST /v1/batch with `[{operation, body}, ...]`; resolves to `{results: [{status, body}]}`. */
  batch(items, options) {
    return this.call("batch.run", { requests: items }, options);
  }

  /**
   * Verify a response offline with the server's keys, fetched once and cached; an unknown kid
   * fetches them again once (the server may have rotated keys since).
   */
  async verify(response) {
    const cached = this._keys;
    this._keys ??= this.keys().catch((error) => {
      this._keys = null;
      throw error;
    });
    const verdict = await verifyReceipt(response, await this._keys);
    if (cached && verdict.reason === "unknown key id (kid)") {
      this._keys = null;
      return this.verify(response);
    }
    return verdict;
  }

  /**
   * The verdict for people: resolves to `{state, cause, kid, reason}` with `state` one of
   * `verified`, `not-genuine` and `not-checked` (keys unreachable, no receipt, a key this service
   * does not publish); never rejects. See `receiptVerdict`.
   */
  async check(response) {
    try {
      return receiptVerdict(await this.verify(response));
    } catch (error) {
      return receiptVerdict(undefined, error);
    }
  }
}
