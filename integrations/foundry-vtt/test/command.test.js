import assert from "node:assert/strict";
import { test } from "node:test";

import {
  CommandError,
  buildBody,
  isWurfwerkCommand,
  parseCommand,
  setPath,
  tokenize,
  typedValue,
} from "../scripts/command.js";

test("the issue's examples parse into operation and nested body", () => {
  assert.deepEqual(parseCommand("/ww paws.test rank=2 name=Ryan"), {
    help: false,
    operationId: "paws.test",
    body: { rank: 2, name: "Ryan" },
  });
  assert.deepEqual(parseCommand("/ww beutelschneider.challenge bag.red=9 bag.green=6 bag.white=5 ability=combat"), {
    help: false,
    operationId: "beutelschneider.challenge",
    body: { bag: { red: 9, green: 6, white: 5 }, ability: "combat" },
  });
});

test("only /ww lines are commands", () => {
  assert.equal(isWurfwerkCommand("/ww paws.test"), true);
  assert.equal(isWurfwerkCommand("  /ww"), true);
  assert.equal(isWurfwerkCommand("/wwx paws.test"), false);
  assert.equal(isWurfwerkCommand("/roll 1d6"), false);
  assert.equal(isWurfwerkCommand("hello /ww"), false);
});

test("/ww alone and /ww help ask for help", () => {
  assert.deepEqual(parseCommand("/ww"), { help: true });
  assert.deepEqual(parseCommand("/ww help"), { help: true });
});

test("values are typed: numbers, booleans, null, JSON, text", () => {
  assert.equal(typedValue("2"), 2);
  assert.equal(typedValue("-1"), -1);
  assert.equal(typedValue("+1"), 1);
  assert.equal(typedValue("1.5"), 1.5);
  assert.equal(typedValue("true"), true);
  assert.equal(typedValue("false"), false);
  assert.equal(typedValue("null"), null);
  assert.deepEqual(typedValue('["Ares","Hera"]'), ["Ares", "Hera"]);
  assert.deepEqual(typedValue('{"current":2,"max":4}'), { current: 2, max: 4 });
  assert.equal(typedValue("combat"), "combat");
  assert.equal(typedValue("2d6"), "2d6");
  assert.equal(typedValue("42", true), "42", "a quoted value stays text");
});

test("quotes keep spaces and make text; JSON keeps its inner quotes", () => {
  const { body } = /** @type {any} */ (parseCommand(`/ww paws.test name="Ryan the Bold" rank=3 title='42'`));
  assert.deepEqual(body, { name: "Ryan the Bold", rank: 3, title: "42" });
  const gods = /** @type {any} */ (parseCommand(`/ww weltenbuch.resurrection gods=["A","B","C","D","E","F","G","H"]`));
  assert.deepEqual(gods.body.gods, ["A", "B", "C", "D", "E", "F", "G", "H"]);
  const spaced = /** @type {any} */ (parseCommand(`/ww weltenbuch.resurrection gods='["Der Eine", "B"]'`));
  assert.deepEqual(spaced.body.gods, ["Der Eine", "B"]);
  assert.deepEqual(tokenize(`a="x \\" y"`), [{ text: 'a=x " y', quotedValue: true }]);
});

test("numeric path segments build lists", () => {
  const { body } = /** @type {any} */ (
    parseCommand("/ww proben.opposed a.attribute=3 a.skill=2 b.attribute=2 b.skill=2")
  );
  assert.deepEqual(body, { a: { attribute: 3, skill: 2 }, b: { attribute: 2, skill: 2 } });
  const contest = /** @type {any} */ (
    parseCommand(
      "/ww beutelschneider.contest participants.0.name=A participants.0.bag.red=3 participants.1.name=B participants.1.bag.red=4",
    )
  );
  assert.deepEqual(contest.body.participants, [
    { name: "A", bag: { red: 3 } },
    { name: "B", bag: { red: 4 } },
  ]);
});

test("mistakes in the command are CommandErrors with a clear message", () => {
  const cases = [
    ["/ww paws.test rank", /expected key=value, got: rank/],
    ["/ww paws.test =2", /expected key=value/],
    ["/ww paws.test rank=2 rank=3", /key given twice: rank/],
    ["/ww beutelschneider.challenge bag=3 bag.red=9", /key given twice: bag/],
    ["/ww beutelschneider.challenge bag.red=9 bag=3", /key given twice: bag/],
    ['/ww paws.test name="Ryan', /unclosed quote/],
    ["/ww paws.test gods=[1,2", /not valid JSON/],
    ["/ww paws.test bag..red=1", /empty part in key/],
    ["/ww beutelschneider.contest participants.1.name=B", /participants\.0 is missing/],
    ["/ww beutelschneider.contest participants.0.name=A participants.x.name=B", /must be a list position/],
    ["/ww rank=2", /expected an operation such as paws\.test first/],
    ["/ww Paws", /expected an operation/],
  ];
  for (const [line, message] of cases) {
    assert.throws(
      () => parseCommand(/** @type {string} */ (line)),
      (error) => error instanceof CommandError && /** @type {RegExp} */ (message).test(error.message),
      line,
    );
  }
});

test("setPath and buildBody work on their own", () => {
  const body = {};
  setPath(body, "a.b.c", 1);
  assert.deepEqual(body, { a: { b: { c: 1 } } });
  assert.deepEqual(buildBody(["x=1", "y=text"], [false, true]), { x: 1, y: "text" });
});

test("/ww encounter <system> asks the whole encounter's odds; `play` plays it out (API.md §1.7)", () => {
  assert.deepEqual(parseCommand("/ww encounter paws a.rank=3 b.rank=2 curve_rounds=5"), {
    help: false,
    operationId: "paws.encounter.odds",
    body: { a: { rank: 3 }, b: { rank: 2 }, curve_rounds: 5 },
  });
  assert.deepEqual(parseCommand(`/ww encounter malmsturm play sides.0.name=Helden seed=7`), {
    help: false,
    operationId: "malmsturm.encounter",
    body: { sides: [{ name: "Helden" }], seed: 7 },
  });
  assert.throws(() => parseCommand("/ww encounter"), /expected a system after encounter/);
  assert.throws(() => parseCommand("/ww encounter a.rank=3"), /expected a system after encounter/);
  assert.throws(() => parseCommand("/ww encounter Paws!"), /expected a system such as paws/);
  assert.equal(parseCommand("/ww paws.encounter.odds a.rank=1").operationId, "paws.encounter.odds", "the plain form too");
});

test("every /ww example the README shows parses (the advice ones too)", async (context) => {
  const { existsSync, readFileSync } = await import("node:fs");
  const readme = new URL("../README.md", import.meta.url);
  if (!existsSync(readme)) return context.skip("no README.md next to the tests");
  const blocks = [...readFileSync(readme, "utf8").matchAll(/```\n([^`]*)```/g)].map((match) => match[1]);
  const examples = blocks.flatMap((block) => block.split("\n")).filter((line) => line.startsWith("/ww ") && !line.includes("(help"));
  assert.ok(examples.length >= 15, `${examples.length} examples`);
  const advice = examples.map((line) => parseCommand(line)).filter((parsed) => !parsed.help && parsed.operationId.endsWith(".advice"));
  assert.deepEqual(
    advice.map((parsed) => (parsed.help ? "" : `${parsed.operationId} ${parsed.body.advise?.side ?? "(first side)"}`)),
    ["paws.encounter.advice (first side)", "paws.encounter.advice b", "malmsturm.encounter.advice Helden", "beutelschneider.encounter.advice Dieb"],
  );
  const dieb = /** @type {any} */ (advice[3]);
  assert.deepEqual(dieb.body.advise, { choices: ["ability"], side: "Dieb" });
});
