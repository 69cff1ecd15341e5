import assert from "node:assert/strict";
import { test } from "node:test";

import { diceGroups, rollData } from "../scripts/dice.js";

test("d6, d8, d10 and dF events become dice groups in order; draws are skipped", () => {
  const events = [
    { kind: "d6", values: [4, 1, 6] },
    { kind: "draw", values: ["red", "white"] },
    { kind: "d8", values: [8] },
    { kind: "d10", values: [10, 3] },
    { kind: "dF", values: [-1, 0, 1, 1] },
  ];
  assert.deepEqual(diceGroups(events), [
    { kind: "d6", denomination: "d", faces: 6, values: [4, 1, 6] },
    { kind: "d8", denomination: "d", faces: 8, values: [8] },
    { kind: "d10", denomination: "d", faces: 10, values: [10, 3] },
    { kind: "dF", denomination: "f", faces: 3, values: [-1, 0, 1, 1] },
  ]);
});

test("sizes Dice So Nice has no model for are not animated", () => {
  assert.deepEqual(
    diceGroups([
      { kind: "d18", values: [17] },
      { kind: "d40", values: [2] },
    ]),
    [],
  );
  assert.equal(diceGroups([{ kind: "d12", values: [12] }]).length, 1);
  assert.deepEqual(diceGroups(undefined), []);
  assert.deepEqual(diceGroups([{ kind: "d6", values: [] }]), []);
});

test("the roll data holds exactly the service's faces as evaluated Die and FateDie terms", () => {
  const data = /** @type {any} */ (
    rollData(
      diceGroups([
        { kind: "d6", values: [4, 1] },
        { kind: "dF", values: [-1, 1, 0, 0] },
      ]),
    )
  );
  assert.equal(data.class, "Roll");
  assert.equal(data.evaluated, true);
  assert.equal(data.formula, "2d6[wurfwerk] + 4dF[wurfwerk]");
  assert.deepEqual(
    data.terms.map((/** @type {any} */ term) => term.class),
    ["Die", "OperatorTerm", "FateDie"],
  );
  const [d6, plus, fudge] = data.terms;
  assert.equal(plus.operator, "+");
  assert.deepEqual([d6.number, d6.faces], [2, 6]);
  assert.deepEqual(d6.results, [
    { result: 4, active: true },
    { result: 1, active: true },
  ]);
  assert.deepEqual([fudge.number, fudge.faces], [4, 3]);
  assert.deepEqual(
    fudge.results.map((/** @type {any} */ result) => result.result),
    [-1, 1, 0, 0],
  );
  assert.equal(data.total, 5);
});
