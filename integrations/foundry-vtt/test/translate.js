// Foundry's game.i18n.localize/format over the module's own lang files, for tests without Foundry.
import { readFileSync } from "node:fs";

/** @param {"de" | "en"} lang */
export function translations(lang) {
  return /** @type {Record<string, string>} */ (
    JSON.parse(readFileSync(new URL(`../lang/${lang}.json`, import.meta.url), "utf8"))
  );
}

/**
 * A translate function that fails loudly on a key the lang file lacks (Foundry would show the key).
 * @param {"de" | "en"} lang
 */
export function translator(lang) {
  const strings = translations(lang);
  return (/** @type {string} */ key, /** @type {Record<string, string | number>} */ data = {}) => {
    if (!(key in strings)) throw new Error(`missing translation ${key} in ${lang}.json`);
    return strings[key].replace(/\{(\w+)\}/g, (_, name) => (name in data ? String(data[name]) : `{${name}}`));
  };
}
