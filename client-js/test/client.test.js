// The client against a live server: tests/web/test_client_js.py starts one and sets WURFWERK_URL
// (and WURFWERK_KEYED_URL + WURFWERK_API_KEY for a server that requires API keys).
import assert from "node:assert/strict";
import net from "node:net";
import { after, before, describe, test } from "node:test";

import { Client, OPERATIONS, WurfwerkError, methodName, verifyReceipt } from "../src/index.js";
import * as noble from "../src/vendor/noble-ed25519.js";

const baseUrl = process.env.WURFWERK_URL;
if (!baseUrl) throw new Error("WURFWERK_URL is not set: run these tests through tests/web/test_client_js.py");

const client = new Client({ baseUrl, lang: "en" });

function base64urlBytes(text) {
  return new Uint8Array(Buffer.from(text, "base64url"));
}

describe("methods", () => {
  test("one method per system operation, named as the issue states", () => {
    assert.equal(typeof client.paws.test, "function");
    assert.equal(typeof client.paws.testOdds, "function");
    assert.equal(typeof client.beutelschneider.healingApply, "function");
    assert.equal(typeof client.beutelschneider.mortalDangerOdds, "function");
    for (const operation of OPERATIONS.filter((o) => o.system)) {
      assert.equal(typeof client[operation.system][methodName(operation.id)], "function", operation.id);
    }
    const names = OPERATIONS.filter((o) => o.system).map((o) => `${o.system}.${methodName(o.id)}`);
    assert.equal(new Set(names).size, names.length, "two operations share a method name");
  });

  test("the table lists every operation the server's catalogue names", async () => {
    const { systems } = await client.systems();
    const served = systems.flatMap((system) => system.operations.map((operation) => operation.id));
    const known = new Set(OPERATIONS.map((operation) => operation.id));
    assert.ok(served.length > 40);
    for (const id of served) assert.ok(known.has(id), `${id} is missing: run make js-client`);
  });
});

describe("calls", () => {
  test("paws.test with a seed is repeatable and summarised in the chosen language", async () => {
    const body = { rank: 3, seed: 7 };
    const first = await client.paws.test(body);
    const second = await client.call("paws.test", body);
    assert.equal(first.operation, "paws.test");
    assert.deepEqual(first.result, second.result);
    assert.equal(first.lang, "en");
    const german = await new Client({ baseUrl, lang: "de" }).paws.test(body);
    assert.equal(german.lang, "de");
    assert.notEqual(german.summary, first.summary);
  });

  test("odds twins return exact fractions that sum to one", async () => {
    const { odds } = await client.paws.testOdds({ rank: 3 });
    const total = odds.outcomes.reduce((sum, outcome) => sum + outcome.probability, 0);
    assert.ok(Math.abs(total - 1) < 1e-9);
    assert.match(odds.outcomes[0].exact, /^\d+(\/\d+)?$/);
  });

  test("GET operations without a body: the Malmsturm ladder", async () => {
    const ladder = await client.malmsturm.ladder();
    assert.ok(ladder.result.levels.length > 5);
  });

  test("keys, batch and a healing draw applied", async () => {
    const jwks = await client.keys();
    assert.equal(jwks.keys[0].crv, "Ed25519");
    const { results } = await client.batch([
      { operation: "proben.test", body: { attribute: 3, difficulty: 2, seed: 1 } },
      { operation: "proben.test", body: { attribute: "three" } },
    ]);
    assert.deepEqual(results.map((item) => item.status), [200, 422]);
    const bag = { red: 3, green: 3, blue: 3, white: 5, black: 6 };
    const draw = await client.beutelschneider.healing({ bag, chances: "good", seed: 3 });
    const replacements = Array(draw.result.choices_required).fill("white");
    const applied = await client.beutelschneider.healingApply({ draw, replacements });
    assert.equal(applied.operation, "beutelschneider.healing-apply");
    assert.ok(applied.result.bag_after);
  });

  test("null for an optional field means not given", async () => {
    const withNull = await client.paws.test({ rank: 2, name: null, seed: 5 });
    const without = await client.paws.test({ rank: 2, seed: 5 });
    assert.deepEqual(withNull.result, without.result);
  });

  test("the Idempotency-Key option is sent as a header", async () => {
    const seen = [];
    const recording = new Client({
      baseUrl,
      fetch: (url, init) => {
        seen.push(init.headers);
        return fetch(url, init);
      },
    });
    await recording.call("paws.rescue", { dice: 1 }, { idempotencyKey: "abc-123" });
    assert.equal(seen[0]["Idempotency-Key"], "abc-123");
  });
});

describe("errors", () => {
  test("a 422 rejects with WurfwerkError carrying the problem and its field messages", async () => {
    await assert.rejects(client.paws.test({ rank: 99 }), (error) => {
      assert.ok(error instanceof WurfwerkError);
      assert.equal(error.status, 422);
      assert.equal(error.problem.status, 422);
      assert.ok(error.errors.rank.length > 0);
      return true;
    });
  });

  test("an unknown operation id is a TypeError before any request", async () => {
    await assert.rejects(client.call("paws.nothing", {}), TypeError);
  });

  test("an unreachable server rejects with status 0", async () => {
    const closed = net.createServer();
    await new Promise((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const { port } = closed.address();
    await new Promise((resolve) => closed.close(resolve));
    const offline = new Client({ baseUrl: `http://127.0.0.1:${port}` });
    await assert.rejects(offline.paws.test({ rank: 1 }), (error) => {
      assert.ok(error instanceof WurfwerkError);
      assert.equal(error.status, 0);
      assert.match(error.message, /could not reach/);
      return true;
    });
  });

  describe("a server that never answers", () => {
    let silent;
    const sockets = new Set();
    before(async () => {
      silent = net.createServer((socket) => sockets.add(socket));
      await new Promise((resolve) => silent.listen(0, "127.0.0.1", resolve));
    });
    after(() => {
      for (const socket of sockets) socket.destroy();
      silent.close();
    });

    test("times out with status 0 after timeoutMs", async () => {
      const slow = new Client({ baseUrl: `http://127.0.0.1:${silent.address().port}`, timeoutMs: 200 });
      const started = Date.now();
      await assert.rejects(slow.paws.test({ rank: 1 }), (error) => {
        assert.equal(error.status, 0);
        assert.match(error.message, /within 200 ms/);
        return true;
      });
      assert.ok(Date.now() - started < 5000);
    });
  });

  test("API keys: 401 without, success with", { skip: !process.env.WURFWERK_KEYED_URL }, async () => {
    const anonymous = new Client({ baseUrl: process.env.WURFWERK_KEYED_URL });
    await assert.rejects(anonymous.paws.test({ rank: 1 }), (error) => error.status === 401 && error.problem.status === 401);
    const keyed = new Client({ baseUrl: process.env.WURFWERK_KEYED_URL, apiKey: process.env.WURFWERK_API_KEY });
    const response = await keyed.paws.test({ rank: 1 });
    assert.equal((await keyed.verify(response)).valid, true);
  });
});

describe("receipts", () => {
  test("verifyReceipt accepts a signed response and names what is wrong with a changed one", async () => {
    const response = await client.proben.test({ attribute: 4, skill: 2, difficulty: 2 });
    const jwks = await client.keys();
    assert.deepEqual(await verifyReceipt(response, jwks),
      { valid: true, kid: response.receipt.kid, reason: "the signature matches the document" });
    const changed = structuredClone(response);
    changed.result.successes += 1;
    assert.deepEqual(await verifyReceipt(changed, jwks),
      { valid: false, kid: response.receipt.kid, reason: "the signature does not match the document" });
    assert.equal((await verifyReceipt({ operation: "x" }, jwks)).reason, "the document has no receipt object");
    assert.equal((await verifyReceipt(response, { keys: [] })).reason, "unknown key id (kid)");
  });

  test("client.verify fetches the keys once and agrees with POST /v1/receipts/verify", async () => {
    let keyFetches = 0;
    const counting = new Client({
      baseUrl,
      fetch: (url, init) => {
        if (url.endsWith("/v1/keys")) keyFetches += 1;
        return fetch(url, init);
      },
    });
    const response = await counting.malmsturm.action({ skill: 2, difficulty: 1 });
    for (let i = 0; i < 3; i += 1) assert.equal((await counting.verify(response)).valid, true);
    assert.equal(keyFetches, 1);
    const changed = { ...response, summary: `${response.summary}!` };
    assert.deepEqual(await counting.verify(changed), await counting.call("receipts.verify", changed));
  });

  test("the vendored noble fallback verifies the same signature as WebCrypto", async () => {
    const response = await client.weltenbuch.resurrection({});
    const jwk = (await client.keys()).keys.find((key) => key.kid === response.receipt.kid);
    const { signingPayload } = await import("../src/index.js");
    const valid = await noble.verifyAsync(base64urlBytes(response.receipt.signature), signingPayload(response),
      base64urlBytes(jwk.x));
    assert.equal(valid, true);
  });
});
