// Receipts where WebCrypto is missing, as on a page served over plain http from a LAN name
// (http://gm-laptop:8000/play) or a self-hosted Foundry: this file removes globalThis.crypto before
// anything loads, so every check below runs on @noble/ed25519 with @noble/hashes' SHA-512 alone.
// node --test runs each file in its own process: client.test.js keeps WebCrypto.
import assert from "node:assert/strict";
import { describe, test } from "node:test";

delete globalThis.crypto;

const { Client, receiptVerdict, verifyReceipt } = await import("../src/index.js");

const baseUrl = process.env.WURFWERK_URL;
if (!baseUrl) throw new Error("WURFWERK_URL is not set: run these tests through tests/web/test_client_js.py");
const client = new Client({ baseUrl, lang: "de" });

describe("receipts without WebCrypto", () => {
  test("this process really has no WebCrypto", () => {
    assert.equal(globalThis.crypto?.subtle, undefined);
  });

  test("a genuine response is verified ✓ and a changed one is not genuine ✗", async () => {
    const response = await client.beutelschneider.combat({
      attacker: { name: "Legionär", bag: { red: 8, green: 4, white: 5, black: 3 } },
      defender: { name: "Affenmensch", bag: { red: 10, green: 5, white: 5 } },
    });
    const jwks = await client.keys();
    assert.deepEqual(await verifyReceipt(response, jwks),
      { valid: true, kid: response.receipt.kid, reason: "the signature matches the document" });
    assert.equal((await client.check(response)).state, "verified");
    const changed = structuredClone(response);
    changed.summary = changed.summary.replace("Legionär", "Centurio");
    const verdict = await client.check(changed);
    assert.equal(verdict.state, "not-genuine");
    assert.equal(verdict.reason, "the signature does not match the document");
    // and the service, asked the same question, agrees
    assert.equal((await client.call("receipts.verify", changed)).valid, false);
  });

  test("keys that cannot be fetched give 'not checked', never 'not genuine'", async () => {
    const response = await client.paws.test({ rank: 2 });
    const offline = new Client({ baseUrl, fetch: async () => { throw new TypeError("fetch failed"); } });
    const verdict = await offline.check(response);
    assert.equal(verdict.state, "not-checked");
    assert.equal(verdict.cause, "keys-unreachable");
  });

  test("no receipt or a key this service does not publish: not checked, with the cause", async () => {
    const response = await client.proben.test({ attribute: 3, difficulty: 1 });
    assert.deepEqual(receiptVerdict(await verifyReceipt({ operation: "x" }, await client.keys())).cause, "no-receipt");
    const foreign = receiptVerdict(await verifyReceipt(response, { keys: [] }));
    assert.equal(foreign.state, "not-checked");
    assert.equal(foreign.cause, "unknown-key");
  });
});
