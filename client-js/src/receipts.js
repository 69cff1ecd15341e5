// Receipt verification, offline: Ed25519 over the RFC 8785 canonical JSON of the response without
// `receipt.signature`. The answers are those of POST /v1/receipts/verify, reason texts included, so
// a caller can switch between the two without changing its checks.
// WebCrypto does the work where it can; where it is missing (a page on plain http from a LAN name,
// self-hosted Foundry) or lacks Ed25519, @noble/ed25519 with @noble/hashes' SHA-512 does the same
// check in plain JavaScript, so a genuine receipt is never called invalid for want of WebCrypto.
// The vendored modules are byte-for-byte copies of the npm packages (make js-client; a test
// compares them), so this file loads in a browser without a build step or an import map.
import canonicalize from "./vendor/canonicalize.js";

const ALGORITHM = "Ed25519";
const UNKNOWN_KID = "unknown key id (kid)";

function answer(valid, kid, reason) {
  return { valid, kid: typeof kid === "string" ? kid : null, reason };
}

function isObject(value) {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

function base64urlBytes(text) {
  const base64 = text.replace(/-/g, "+").replace(/_/g, "/");
  const binary = atob(base64 + "=".repeat((4 - (base64.length % 4)) % 4));
  return Uint8Array.from(binary, (character) => character.charCodeAt(0));
}

/** The bytes that are signed: the document without `receipt.signature`, canonicalized. */
export function signingPayload(document) {
  const { signature: _signature, ...receipt } = document.receipt;
  return new TextEncoder().encode(canonicalize({ ...document, receipt }));
}

let pureJavaScript = null;

/** @noble/ed25519 with @noble/hashes' SHA-512 plugged in: needs no WebCrypto at all. */
function pureEd25519() {
  pureJavaScript ??= Promise.all([import("./vendor/noble-ed25519.js"), import("./vendor/noble-hashes/sha2.js")])
    .then(([noble, { sha512 }]) => {
      noble.hashes.sha512 = sha512;
      return noble;
    });
  return pureJavaScript;
}

async function ed25519Verify(publicKey, signature, message) {
  const subtle = globalThis.crypto?.subtle;
  if (subtle) {
    try {
      const key = await subtle.importKey("raw", publicKey, { name: ALGORITHM }, false, ["verify"]);
      return await subtle.verify({ name: ALGORITHM }, key, signature, message);
    } catch (error) {
      if (error?.name !== "NotSupportedError") throw error; // an engine without WebCrypto Ed25519
    }
  }
  const noble = await pureEd25519();
  return noble.verify(signature, message, publicKey); // synchronous: SHA-512 from @noble/hashes
}

/**
 * Check a signed response against a JWKS (`GET /v1/keys`). Resolves to `{valid, kid, reason}`
 * exactly like `POST /v1/receipts/verify`; never rejects for a bad document.
 */
export async function verifyReceipt(response, jwks) {
  const receipt = isObject(response) ? response.receipt : undefined;
  if (!isObject(receipt)) return answer(false, null, "the document has no receipt object");
  const { kid, signature } = receipt;
  if (receipt.alg !== ALGORITHM) return answer(false, kid, "receipt.alg is not Ed25519");
  const jwk = (jwks?.keys ?? []).find((key) => key.kid === kid && key.kty === "OKP" && key.crv === ALGORITHM);
  if (typeof kid !== "string" || !jwk) return answer(false, kid, UNKNOWN_KID);
  if (typeof signature !== "string") return answer(false, kid, "receipt.signature is missing");
  let payload;
  try {
    payload = signingPayload(response);
  } catch {
    return answer(false, kid, "the document cannot be canonicalized (RFC 8785)");
  }
  let matches;
  try {
    matches = await ed25519Verify(base64urlBytes(jwk.x), base64urlBytes(signature), payload);
  } catch {
    matches = false; // not base64url, or not 64 bytes: it cannot be this document's signature
  }
  return matches
    ? answer(true, kid, "the signature matches the document")
    : answer(false, kid, "the signature does not match the document");
}

/**
 * Whether `signature` (base64url) is the Ed25519 signature of `payload` (bytes) by the JWKS key
 * `kid`: for the other signed objects of the service (tickets, sessions, their public parts and
 * reveals), whose payload is the RFC 8785 JSON of the object without its `signature` member.
 */
export async function signatureMatches(jwks, kid, payload, signature) {
  const jwk = (jwks?.keys ?? []).find((key) => key.kid === kid && key.kty === "OKP" && key.crv === ALGORITHM);
  if (typeof kid !== "string" || !jwk || typeof signature !== "string") return false;
  try {
    return await ed25519Verify(base64urlBytes(jwk.x), base64urlBytes(signature), payload);
  } catch {
    return false;
  }
}

/**
 * The three verdicts a person should see, from a `verifyReceipt` answer or from the error that kept
 * the check from running: `verified` (✓), `not-genuine` (✗: the signature does not fit the
 * document) and `not-checked` (the keys could not be fetched, the response has no receipt, or it was
 * signed with a key this service does not publish). "Could not check" is never "not genuine".
 * `cause` names why, for a caller's own words: one of `signature`, `no-receipt`, `unknown-key`,
 * `keys-unreachable`, `error`.
 */
export function receiptVerdict(check, error) {
  if (error !== undefined) {
    const keys = error?.status !== undefined || error?.name === "WurfwerkError";
    return { state: "not-checked", cause: keys ? "keys-unreachable" : "error", kid: null,
      reason: String(error?.message ?? error) };
  }
  const base = { kid: check.kid, reason: check.reason };
  if (check.valid) return { state: "verified", cause: "signature", ...base };
  if (check.reason === "the document has no receipt object") return { state: "not-checked", cause: "no-receipt", ...base };
  if (check.reason === UNKNOWN_KID) return { state: "not-checked", cause: "unknown-key", ...base };
  return { state: "not-genuine", cause: "signature", ...base };
}
