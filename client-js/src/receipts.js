// Receipt verification, offline: Ed25519 (WebCrypto) over the RFC 8785 canonical JSON of the
// response without `receipt.signature`. The answers are those of POST /v1/receipts/verify, reason
// texts included, so a caller can switch between the two without changing its checks.
// The vendored modules are byte-for-byte copies of the npm packages (make js-client; a test
// compares them), so this file loads in a browser without a build step or an import map.
import canonicalize from "./vendor/canonicalize.js";

const ALGORITHM = "Ed25519";

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

let nobleFallback = null;

async function ed25519Verify(publicKey, signature, message) {
  const subtle = globalThis.crypto?.subtle;
  if (!subtle) {
    throw new Error("no WebCrypto here: a page must be served over https or from localhost to verify receipts");
  }
  let key;
  try {
    key = await subtle.importKey("raw", publicKey, { name: ALGORITHM }, false, ["verify"]);
  } catch (error) {
    if (error?.name !== "NotSupportedError") throw error;
    // An engine without WebCrypto Ed25519 (older browsers): the same check in plain JavaScript.
    nobleFallback ??= import("./vendor/noble-ed25519.js");
    const noble = await nobleFallback;
    return noble.verifyAsync(signature, message, publicKey);
  }
  return subtle.verify({ name: ALGORITHM }, key, signature, message);
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
  if (typeof kid !== "string" || !jwk) return answer(false, kid, "unknown key id (kid)");
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
  } catch (error) {
    if (/WebCrypto/.test(error?.message)) throw error;
    matches = false; // not base64url, or not 64 bytes: it cannot be this document's signature
  }
  return matches
    ? answer(true, kid, "the signature matches the document")
    : answer(false, kid, "the signature does not match the document");
}
