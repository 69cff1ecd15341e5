// The release zip as Foundry installs it (extracted into WURFWERK_FOUNDRY_RELEASE by the pytest test,
// which ran `release.sh`, the script behind `make foundry`): complete, self-contained, and working.
import assert from "node:assert/strict";
import { existsSync, readFileSync, readdirSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { pathToFileURL } from "node:url";

import { installFakeFoundry } from "./fake-foundry.js";
import { needing } from "./needs.js";
import { translations } from "./translate.js";

const { test } = needing("WURFWERK_FOUNDRY_RELEASE", "WURFWERK_URL");
const release = process.env.WURFWERK_FOUNDRY_RELEASE ?? "";
const serviceUrl = process.env.WURFWERK_URL;

const manifest = release ? JSON.parse(readFileSync(join(release, "module.json"), "utf8")) : {};

/** @param {string} folder @returns {string[]} */
function filesUnder(folder) {
  return readdirSync(folder).flatMap((name) => {
    const path = join(folder, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

test("module.json: id, compatibility 12 to 13, entry points, languages, release URLs", () => {
  assert.equal(manifest.id, "wurfwerk");
  assert.deepEqual(manifest.compatibility, { minimum: "12", verified: "13" });
  assert.deepEqual(manifest.esmodules, ["scripts/wurfwerk.js"]);
  assert.deepEqual(
    manifest.languages.map((/** @type {any} */ language) => language.lang),
    ["de", "en"],
  );
  for (const path of [
    ...manifest.esmodules,
    ...manifest.styles,
    ...manifest.languages.map((/** @type {any} */ language) => language.path),
  ]) {
    assert.ok(existsSync(join(release, path)), `${path} is in the zip`);
  }
  for (const field of ["url", "manifest", "download"]) assert.match(manifest[field], /^https:\/\//, field);
  assert.ok(manifest.download.endsWith(`/wurfwerk-foundry-${manifest.version}.zip`));
  assert.ok(manifest.manifest.endsWith("/module.json"));
});

test("both languages translate the same keys", () => {
  const german = JSON.parse(readFileSync(join(release, "lang/de.json"), "utf8"));
  const english = JSON.parse(readFileSync(join(release, "lang/en.json"), "utf8"));
  assert.deepEqual(Object.keys(german).sort(), Object.keys(english).sort());
});

test("every picture README.md shows is in the zip", () => {
  const readme = readFileSync(join(release, "README.md"), "utf8");
  const pictures = [...readme.matchAll(/!\[[^\]]*\]\(([^)\s]+)\)/g)].map((match) => match[1]);
  assert.ok(pictures.length >= 2, `the README shows the cards (${pictures})`);
  for (const picture of pictures) {
    assert.ok(!/^[a-z]+:/.test(picture), `${picture}: a file of the module, not a link`);
    assert.ok(existsSync(join(release, picture)), `${picture} is in the zip`);
  }
});

test("every import in the zip resolves to a file inside the zip (the client is bundled)", () => {
  const scripts = filesUnder(release).filter((path) => path.endsWith(".js"));
  assert.ok(
    scripts.some((path) => path.includes("vendor/wurfwerk-client/")),
    "the JavaScript client is bundled",
  );
  let imports = 0;
  for (const script of scripts) {
    // Examples in comments ("import * as ed from '@noble/ed25519'") are not imports.
    const source = readFileSync(script, "utf8")
      .replace(/\/\*[\s\S]*?\*\//g, "")
      .replace(/^\s*\/\/.*$/gm, "");
    for (const match of source.matchAll(/(?:from\s*|import\s*\(\s*)["']([^"']+)["']/g)) {
      const specifier = match[1];
      assert.ok(
        specifier.startsWith("./") || specifier.startsWith("../"),
        `${relative(release, script)} imports ${specifier}: a browser cannot resolve it`,
      );
      const target = resolve(dirname(script), specifier);
      assert.ok(
        !relative(release, target).startsWith(".."),
        `${relative(release, script)} imports ${specifier} from outside the zip`,
      );
      assert.ok(existsSync(target), `${relative(release, script)} imports ${specifier}, which is not in the zip`);
      imports++;
    }
  }
  assert.ok(imports > 10);
});

test("the zipped module loads and rolls a verified card on the live service", async () => {
  const foundry = installFakeFoundry({ translations: translations("en") });
  console.warn = () => {};
  await import(pathToFileURL(join(release, manifest.esmodules[0])).href);
  globalThis.Hooks.callAll("init");
  await globalThis.game.settings.set("wurfwerk", "serviceUrl", serviceUrl);
  const api = foundry.modules.get("wurfwerk").api;
  const response = await api.roll("proben.test", { attribute: 3, skill: 2, difficulty: 2 });
  assert.equal(response?.operation, "proben.test", JSON.stringify(foundry.messages.at(-1)?.content));
  const message = foundry.messages.at(-1);
  const verdict = {
    state: "",
    textContent: "",
    setAttribute(/** @type {string} */ _name, /** @type {string} */ value) {
      this.state = value;
    },
  };
  await api.verifyMessage(message.id, verdict);
  assert.equal(verdict.state, "valid");
});
