// Suites that need what only the project's `make test` sets up: a live wurfwerk, a second one with an
// API key, the release zip extracted. tests/integrations/test_foundry_vtt.py starts them, sets these
// variables and requires "# skipped 0"; a bare `npm test` here runs the pure suites and skips the
// others, each with the reason and what to set.
import * as nodeTest from "node:test";

const WHAT = {
  WURFWERK_URL: "a running wurfwerk, e.g. `make run` at the repository root, then WURFWERK_URL=http://localhost:8000",
  WURFWERK_KEYED_URL: "a second wurfwerk started with WURFWERK_API_KEYS=table-key",
  WURFWERK_FOUNDRY_RELEASE: "the folder where the zip of `make foundry` (dist/foundry/) is extracted",
};

/** Why a test cannot run here (the variables not set), or false when all are set.
 * @param {...keyof typeof WHAT} variables @returns {string | false} */
export function missing(...variables) {
  const absent = variables.filter((name) => !process.env[name]);
  if (absent.length === 0) return false;
  return `needs ${absent.map((name) => `${name}: ${WHAT[name]}`).join("; ")} (make test sets it)`;
}

/** node:test's test and hooks for a suite that needs the variables: without them every test is
 * skipped with the reason and no hook runs.
 * @param {...keyof typeof WHAT} variables */
export function needing(...variables) {
  const skip = missing(...variables);
  /** @param {string} name @param {...any} rest an optional options object, then the test */
  const test = (name, ...rest) => {
    const fn = rest.pop();
    const options = rest[0] ?? {};
    return nodeTest.test(name, { ...options, skip: skip || options.skip }, fn);
  };
  /** @param {(fn: () => unknown) => void} register */
  const hook = (register) => (/** @type {() => unknown} */ fn) => (skip ? undefined : register(fn));
  return {
    skip,
    test,
    before: hook(nodeTest.before),
    after: hook(nodeTest.after),
    beforeEach: hook(nodeTest.beforeEach),
  };
}
