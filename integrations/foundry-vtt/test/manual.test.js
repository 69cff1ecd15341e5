import assert from "node:assert/strict";
import { test } from "node:test";

import { facesForm, manualProblems, parseFaces, takesManualValues } from "../scripts/manual.js";
import { closestOperation, editDistance, problemHtml } from "../scripts/problems.js";
import { translator } from "./translate.js";

test("typed faces become the manual list: numbers for dice, colour names for marbles", () => {
  assert.deepEqual(parseFaces("4 1 6"), [4, 1, 6]);
  assert.deepEqual(parseFaces("-1, 0, +1 1"), [-1, 0, 1, 1]);
  assert.deepEqual(parseFaces(" Red  white;black "), ["red", "white", "black"]);
  assert.deepEqual(parseFaces(""), []);
  // The German hint names the glossary's colours, and they are what a German player types.
  assert.deepEqual(parseFaces("Rot grün, weiß schwarz blau"), ["red", "green", "white", "black", "blue"]);
});

test("only operations with randomness take manual values", () => {
  for (const id of [
    "paws.test",
    "beutelschneider.challenge",
    "weltenbuch.conflict",
    "malmsturm.initiative",
    "beutelschneider.first-aid",
  ]) {
    assert.equal(takesManualValues(id), true, id);
  }
  for (const id of [
    "paws.test.odds",
    "paws.encounter.odds",
    "paws.encounter.advice",
    "proben.cooperation.advice",
    "beutelschneider.validate-bag",
    "beutelschneider.healing-apply",
    "paws.validate-character",
    "weltenbuch.narration",
    "malmsturm.ladder",
  ]) {
    assert.equal(takesManualValues(id), false, id);
  }
});

test("a 422 about manual values becomes lines for the dialog; other problems do not", () => {
  const wrong = { status: 422, errors: { "manual.1": ["expected a d6 face 1..6, got 7"] } };
  assert.deepEqual(manualProblems(wrong), ["manual.1: expected a d6 face 1..6, got 7"]);
  const few = {
    status: 422,
    errors: { manual: ["too few values: value 2 is needed (a d6 face 1..6), but only 2 were given"] },
  };
  assert.equal(manualProblems(few).length, 1);
  assert.deepEqual(manualProblems({ status: 422, errors: { rank: ["Unknown field."] } }), []);
  assert.deepEqual(manualProblems({ status: 0, errors: {} }), []);
  assert.deepEqual(manualProblems(null), []);
});

test("the faces form keeps what was typed and shows the objections, escaped", () => {
  const html = facesForm({ hint: "h", label: "Faces", fix: "Fix:", faces: `4 "7"`, problems: ["manual.1: got <7>"] });
  assert.match(html, /value="4 &quot;7&quot;"/);
  assert.match(html, /<li>manual\.1: got &lt;7&gt;<\/li>/);
  assert.doesNotMatch(
    facesForm({ hint: "h", label: "l", fix: "f", faces: "", problems: [] }),
    /wurfwerk-manual-problems/,
  );
});

test("problems read as title, detail and each field's messages", () => {
  const t = translator("en");
  const problem = {
    status: 422,
    problem: { status: 422, title: "Unprocessable Entity", detail: "rnak: Unknown field." },
    errors: { rnak: ["Unknown field."] },
  };
  const html = problemHtml(problem, t);
  assert.match(html, /wurfwerk could not do that/);
  assert.match(html, /422 Unprocessable Entity: rnak: Unknown field\./);
  const two = problemHtml({ ...problem, errors: { a: ["x"], b: ["y <z>"] } }, t);
  assert.match(two, /<li>a: x<\/li><li>b: y &lt;z&gt;<\/li>/);
  assert.match(
    problemHtml({ status: 0, message: "paws.test: could not reach" }, t),
    /The service did not answer: paws\.test: could not reach/,
  );
  assert.match(problemHtml(new Error("boom"), t), /<p>boom<\/p>/);
});

test("a typo in the operation finds the operation meant", () => {
  const known = ["paws.test", "paws.comparison", "proben.test", "beutelschneider.challenge"];
  assert.equal(closestOperation("paws.tset", known), "paws.test");
  assert.equal(closestOperation("beutelschneider.chalenge", known), "beutelschneider.challenge");
  assert.equal(closestOperation("weltenbuch.zzz", known), null);
  assert.equal(editDistance("kitten", "sitting"), 3);
});
