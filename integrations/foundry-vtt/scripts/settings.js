// The module's world settings, registered in the init hook; a GM sets them under Configure Settings.

export const MODULE_ID = "wurfwerk";

/** @typedef {{serviceUrl: string, apiKey: string, language: "de" | "en", physicalDice: boolean}} WurfwerkSettings */

export function registerSettings() {
  const world = /** @type {const} */ ({ scope: "world", config: true });
  game.settings.register(MODULE_ID, "serviceUrl", {
    ...world,
    name: "WURFWERK.Settings.serviceUrl.name",
    hint: "WURFWERK.Settings.serviceUrl.hint",
    type: String,
    default: "",
  });
  game.settings.register(MODULE_ID, "apiKey", {
    ...world,
    name: "WURFWERK.Settings.apiKey.name",
    hint: "WURFWERK.Settings.apiKey.hint",
    type: String,
    default: "",
  });
  game.settings.register(MODULE_ID, "language", {
    ...world,
    name: "WURFWERK.Settings.language.name",
    hint: "WURFWERK.Settings.language.hint",
    type: String,
    choices: {
      auto: "WURFWERK.Settings.language.auto",
      de: "WURFWERK.Settings.language.de",
      en: "WURFWERK.Settings.language.en",
    },
    default: "auto",
  });
  game.settings.register(MODULE_ID, "physicalDice", {
    ...world,
    name: "WURFWERK.Settings.physicalDice.name",
    hint: "WURFWERK.Settings.physicalDice.hint",
    type: Boolean,
    default: false,
  });
  // The world's session (issue 41): set by the GM through the macro API, read by every client.
  game.settings.register(MODULE_ID, "session", {
    scope: "world",
    config: false,
    type: String,
    default: "",
  });
  // Sessions v2 (issue 48), in this browser only: each user's seed (JSON {userId: seed}; only its
  // commitment leaves the browser, as the user's flag), and the open seats' keys of the sessions this
  // game master opened (JSON {sessionId: {seat: key}}).
  game.settings.register(MODULE_ID, "seeds", { scope: "client", config: false, type: String, default: "{}" });
  game.settings.register(MODULE_ID, "seatKeys", { scope: "client", config: false, type: String, default: "{}" });
}

/**
 * The settings as the module uses them: the URL without a trailing slash, the language resolved
 * ("auto" follows Foundry's own language, German or else English).
 * @returns {WurfwerkSettings}
 */
export function readSettings() {
  const chosen = String(game.settings.get(MODULE_ID, "language"));
  const language = chosen === "de" || chosen === "en" ? chosen : game.i18n.lang === "de" ? "de" : "en";
  return {
    serviceUrl: String(game.settings.get(MODULE_ID, "serviceUrl") ?? "")
      .trim()
      .replace(/\/+$/, ""),
    apiKey: String(game.settings.get(MODULE_ID, "apiKey") ?? "").trim(),
    language,
    physicalDice: Boolean(game.settings.get(MODULE_ID, "physicalDice")),
  };
}
