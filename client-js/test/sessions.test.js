// verifySession against the session vectors shared with the Python SDK and the report
// (tests/platform/dice/vectors.json): every case gets the verdict written there, computed offline.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { describe, test } from "node:test";

import { RevealError, makeSeed, seedCommit, verifySession } from "../src/index.js";

const VECTORS = JSON.parse(readFileSync(new URL("../../tests/platform/dice/vectors.json", import.meta.url), "utf8"));

function inputs(testCase) {
  const cards = testCase.cards.map((card) => (Number.isInteger(card) ? VECTORS.log[card] : card));
  const reveal = (testCase.reveal ?? "reveal") === "reveal" ? VECTORS.reveal : testCase.reveal;
  return [cards, reveal, { seeds: testCase.seeds ?? VECTORS.seeds }];
}

describe("verifySession on the shared vectors", () => {
  for (const testCase of VECTORS.cases) {
    test(`${testCase.name}: ${testCase.note}`, async () => {
      const [cards, reveal, options] = inputs(testCase);
      if (testCase.expect_error) {
        await assert.rejects(verifySession(cards, reveal, VECTORS.jwks, options),
          (error) => error instanceof RevealError && error.reason === testCase.expect_error);
      } else {
        assert.deepEqual(await verifySession(cards, reveal, VECTORS.jwks, options), testCase.expect);
      }
    });
  }

  test("the reveal as the service answered it ({reveal}) is taken too", async () => {
    const [cards, reveal, options] = inputs(VECTORS.cases.find((testCase) => testCase.name === "complete"));
    assert.equal((await verifySession(cards, { reveal }, VECTORS.jwks, options)).complete, true);
  });

  test("a die changed in any card is found", async () => {
    const [cards, reveal, options] = inputs(VECTORS.cases.find((testCase) => testCase.name === "complete"));
    for (const [position, card] of cards.entries()) {
      if (!card.receipt) continue;
      const changed = structuredClone(card);
      changed.randomness.events[0].values[0] = { d6: 7, d10: 11, dF: 2 }[changed.randomness.events[0].kind] ?? "gold";
      const verdict = await verifySession(cards.with(position, changed), reveal, VECTORS.jwks, options);
      assert.deepEqual(verdict.invalid.find((entry) => entry.card === position), { card: position, reason: "signature" });
    }
  });
});

describe("a seat's seed", () => {
  test("seedCommit gives the commitment the session header holds for it", () => {
    for (const [seat, seed] of Object.entries(VECTORS.seeds)) {
      assert.equal(seedCommit(seed), VECTORS.session.seat_commits[seat]);
    }
  });

  test("makeSeed makes 32 fresh bytes in canonical base64url, never the same twice", () => {
    const seeds = new Set(Array.from({ length: 50 }, () => makeSeed()));
    assert.equal(seeds.size, 50);
    for (const seed of seeds) assert.match(seed, /^[A-Za-z0-9_-]{43}$/);
    assert.throws(() => seedCommit(`${makeSeed()}=`), TypeError);
  });
});
