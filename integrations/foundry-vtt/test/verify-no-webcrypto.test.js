// The card's Verify button in a world without WebCrypto (self-hosted Foundry on plain http): this
// file removes globalThis.crypto before anything loads, then checks the three verdicts against the
// fake Foundry and a live wurfwerk (WURFWERK_URL): ✓ for a genuine card, ✗ for a changed one, and
// "nicht geprüft" (never ✗) when the service's keys cannot be fetched.
import assert from "node:assert/strict";
import { createServer } from "node:net";
import { installFakeFoundry } from "./fake-foundry.js";
import { needing } from "./needs.js";
import { translations } from "./translate.js";

delete globalThis.crypto;

const { test, before } = needing("WURFWERK_URL");
const serviceUrl = process.env.WURFWERK_URL;

const foundry = installFakeFoundry({ lang: "de", translations: translations("de") });
/** @type {any} */
let api;

function verdictElement() {
  return {
    /** @type {Record<string, string>} */
    attributes: {},
    textContent: "",
    /** @param {string} name @param {string} value */
    setAttribute(name, value) {
      this.attributes[name] = value;
    },
  };
}

/** @param {string} key @param {unknown} value */
async function setSetting(key, value) {
  await globalThis.game.settings.set("wurfwerk", key, value);
}

async function closedPortUrl() {
  const server = createServer();
  await new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve(undefined)));
  const { port } = /** @type {import("node:net").AddressInfo} */ (server.address());
  await new Promise((resolve) => server.close(() => resolve(undefined)));
  return `http://127.0.0.1:${port}`;
}

before(async () => {
  assert.equal(globalThis.crypto?.subtle, undefined, "this process must have no WebCrypto");
  await import("../scripts/wurfwerk.js");
  globalThis.Hooks.callAll("init");
  api = foundry.modules.get("wurfwerk").api;
  await setSetting("serviceUrl", serviceUrl);
  await setSetting("language", "de");
});

test("without WebCrypto a genuine card shows ✓ and a changed one ✗", async () => {
  await api.roll("paws.test", { rank: 3, name: "Ryan" });
  const message = foundry.messages[foundry.messages.length - 1];
  const genuine = verdictElement();
  await api.verifyMessage(message.id, genuine);
  assert.equal(genuine.attributes["data-state"], "valid");
  assert.equal(genuine.textContent, "✓ Signatur gültig");

  const changed = JSON.parse(message.flags.wurfwerk.response);
  changed.result.successes += 1;
  message.flags.wurfwerk.response = JSON.stringify(changed);
  const forged = verdictElement();
  await api.verifyMessage(message.id, forged);
  assert.equal(forged.attributes["data-state"], "invalid");
  assert.equal(forged.textContent, "✗ Signatur ungültig: die Signatur passt nicht zum Inhalt der Karte");
});

test("keys that cannot be fetched show 'nicht geprüft', never ✗", async () => {
  await api.roll("proben.test", { attribute: 3, difficulty: 2 });
  const message = foundry.messages[foundry.messages.length - 1];
  await setSetting("serviceUrl", await closedPortUrl());
  const verdict = verdictElement();
  await api.verifyMessage(message.id, verdict);
  assert.equal(verdict.attributes["data-state"], "not-checked");
  assert.equal(verdict.textContent, "○ nicht geprüft: die Schlüssel des Dienstes waren nicht abrufbar");
  assert.doesNotMatch(verdict.textContent, /✗|ungültig/);
});
