// A small fake of exactly the Foundry globals the module touches (the README lists them), installed on
// globalThis before the module is imported. It records what the module did, so tests can look.
// Runs in node and, unchanged, in the browser page of the screenshot test.

/**
 * @param {{lang?: "de" | "en", translations: Record<string, string>, dialogAnswers?: Array<string | null>, document?: any}} options
 */
export function installFakeFoundry({ lang = "en", translations, dialogAnswers = [], document: fakeDocument }) {
  /** @type {Map<string, Function[]>} */
  const hooks = new Map();
  /** @type {Map<string, {config: Record<string, any>, value: unknown}>} */
  const settings = new Map();
  /** @type {any[]} */
  const messages = [];
  /** @type {{content: string, title: string}[]} */
  const dialogs = [];
  /** @type {{roll: any, user: any, synchronize: boolean}[]} */
  const animations = [];
  const modules = new Map([["wurfwerk", /** @type {any} */ ({ id: "wurfwerk", active: true })]]);
  /** Each user's flags, by user id (a user's flags follow the user, not the browser). */
  const userFlags = new Map();
  /**
   * A user with Foundry's getFlag and setFlag, stored by the user's id.
   * @template {{id: string}} T
   * @param {T} props
   */
  function withUserFlags(props) {
    return Object.assign(props, {
      /** @param {string} scope @param {string} key */
      getFlag(scope, key) {
        return userFlags.get(this.id)?.[`${scope}.${key}`];
      },
      /** @param {string} scope @param {string} key @param {unknown} value */
      async setFlag(scope, key, value) {
        userFlags.set(this.id, { ...userFlags.get(this.id), [`${scope}.${key}`]: value });
        return this;
      },
    });
  }
  const user = withUserFlags({ id: "user-1", name: "Gamemaster", isGM: true });
  /** The world's users (a session gives each a seat); tests add players (with `withUserFlags`). */
  const users = [user];
  /** @type {{data: string, type: string, filename: string}[]} */
  const downloads = [];

  const Hooks = {
    /** @param {string} name @param {Function} handler */
    on(name, handler) {
      hooks.set(name, [...(hooks.get(name) ?? []), handler]);
    },
    /** @param {string} name @param {Function} handler */
    once(name, handler) {
      const wrapper = (/** @type {unknown[]} */ ...args) => {
        hooks.set(
          name,
          (hooks.get(name) ?? []).filter((registered) => registered !== wrapper),
        );
        return handler(...args);
      };
      Hooks.on(name, wrapper);
    },
    /** Like Foundry's Hooks.call: stops at and returns false when a handler returns false. */
    call(/** @type {string} */ name, /** @type {unknown[]} */ ...args) {
      for (const handler of [...(hooks.get(name) ?? [])]) if (handler(...args) === false) return false;
      return true;
    },
    callAll(/** @type {string} */ name, /** @type {unknown[]} */ ...args) {
      for (const handler of [...(hooks.get(name) ?? [])]) handler(...args);
      return true;
    },
  };

  const ChatMessage = {
    /** @param {Record<string, any>} data */
    async create(data) {
      const message = {
        id: `message-${messages.length + 1}`,
        ...structuredClone(data),
        /** @param {string} scope @param {string} key */
        getFlag(scope, key) {
          return this.flags?.[scope]?.[key];
        },
      };
      messages.push(message);
      return message;
    },
    getSpeaker() {
      return { alias: user.name };
    },
  };

  /** What Foundry's Roll.fromData builds, as far as Dice So Nice reads it: `dice` with faces and results. */
  const Roll = {
    /** @param {any} data */
    fromData(data) {
      if (data.class !== "Roll" || !data.evaluated) throw new Error("Roll.fromData: not an evaluated Roll");
      const dice = data.terms
        .filter((/** @type {any} */ term) => term.class === "Die" || term.class === "FateDie")
        .map((/** @type {any} */ term) => {
          if (term.results.length !== term.number) throw new Error("Roll.fromData: results do not match number");
          return { denomination: term.class === "FateDie" ? "f" : "d", faces: term.faces, results: term.results };
        });
      return { formula: data.formula, dice, total: data.total };
    },
  };

  const game = {
    release: { generation: 13 },
    user,
    i18n: {
      lang,
      /** @param {string} key */
      localize(key) {
        return translations[key] ?? key;
      },
      /** @param {string} key @param {Record<string, string>} data */
      format(key, data) {
        return (translations[key] ?? key).replace(/\{(\w+)\}/g, (_, name) => data[name] ?? `{${name}}`);
      },
    },
    settings: {
      /** @param {string} scope @param {string} key @param {Record<string, any>} config */
      register(scope, key, config) {
        settings.set(`${scope}.${key}`, { config, value: config.default });
      },
      /** @param {string} scope @param {string} key */
      get(scope, key) {
        const setting = settings.get(`${scope}.${key}`);
        if (!setting) throw new Error(`setting ${scope}.${key} is not registered`);
        return setting.value;
      },
      /** @param {string} scope @param {string} key @param {unknown} value */
      async set(scope, key, value) {
        const setting = settings.get(`${scope}.${key}`);
        if (!setting) throw new Error(`setting ${scope}.${key} is not registered`);
        setting.value = value;
        return value;
      },
    },
    modules,
    users,
    messages: {
      /** @param {string} id */
      get(id) {
        return messages.find((message) => message.id === id);
      },
      /** Foundry's collection: the messages this client can see (the fake sees them all). */
      get contents() {
        return [...messages];
      },
    },
    /** @type {any} */
    dice3d: undefined,
  };

  const DialogV2 = {
    /** Answers with the next scripted value by calling the module's own ok callback on a fake form. */
    async prompt(/** @type {any} */ config) {
      dialogs.push({ content: config.content, title: config.window?.title });
      if (dialogAnswers.length === 0) throw new Error("the test scripted no answer for this dialog");
      const answer = dialogAnswers.shift();
      if (answer === null || answer === undefined) return null;
      const button = {
        form: {
          elements: { namedItem: (/** @type {string} */ name) => (name === "faces" ? { value: answer } : null) },
        },
      };
      return config.ok.callback(new Event("submit"), button, {});
    },
  };

  /** @type {((event: any) => void)[]} */
  const clickListeners = [];
  const documentFake = fakeDocument ?? {
    /** @param {string} type @param {(event: any) => void} listener */
    addEventListener(type, listener) {
      if (type === "click") clickListeners.push(listener);
    },
  };

  settings.set("core.rollMode", { config: { default: "publicroll" }, value: "publicroll" });
  Object.assign(globalThis, {
    /** Foundry's download of a generated file. */
    saveDataToFile(/** @type {string} */ data, /** @type {string} */ type, /** @type {string} */ filename) {
      downloads.push({ data, type, filename });
    },
    Hooks,
    ChatMessage,
    Roll,
    game,
    foundry: { applications: { api: { DialogV2 } } },
  });
  if (!fakeDocument) Object.assign(globalThis, { document: documentFake });

  return {
    hooks,
    settings,
    messages,
    dialogs,
    animations,
    modules,
    user,
    clickListeners,
    dialogAnswers,
    users,
    withUserFlags,
    downloads,
    /** Turn Dice So Nice on: game.dice3d records each showForRoll call. */
    enableDiceSoNice() {
      modules.set("dice-so-nice", { id: "dice-so-nice", active: true });
      game.dice3d = {
        /** @param {any} roll @param {any} rollUser @param {boolean} synchronize */
        async showForRoll(roll, rollUser, synchronize) {
          animations.push({ roll, user: rollUser, synchronize });
          return true;
        },
      };
    },
    disableDiceSoNice() {
      modules.delete("dice-so-nice");
      game.dice3d = undefined;
    },
  };
}

/**
 * Wait until `condition()` holds (the module's chat command runs asynchronously after the hook returns).
 * @param {() => boolean} condition
 * @param {number} [timeoutMs]
 */
export async function waitFor(condition, timeoutMs = 30000) {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error("timed out waiting for the module");
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
