// An advice's fixed choices in words (API.md §1.10): the policy fields the five systems' advice answers
// carry, said as the service's chat line says them (its catalog's words, here in lang/de.json and
// lang/en.json), never as the API's fields. Pure: node tests it.

/**
 * @typedef {(key: string, data?: Record<string, string | number>) => string} Translate
 */

/**
 * The singular or plural of a counted phrase (`….one` / `….other`; German and English agree on 1).
 * @param {string} key
 * @param {number} count
 * @param {Translate} t
 * @param {Record<string, string | number>} [data]
 */
function counted(key, count, t, data = {}) {
  return t(`${key}.${count === 1 ? "one" : "other"}`, { ...data, count });
}

/** @param {unknown} value */
function isRecord(value) {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/**
 * A field the module has no words for (a newer service's choice): as the API names it, so it is
 * still there to read.
 * @param {string} name
 * @param {unknown} value
 */
function asGiven(name, value) {
  return `${name} = ${typeof value === "string" ? value : JSON.stringify(value)}`;
}

const ABILITIES = ["combat", "skill", "magic"];

/**
 * @param {unknown} ability
 * @param {Translate} t
 */
function abilityWords(ability, t) {
  return ABILITIES.includes(String(ability)) ? t(`WURFWERK.Advice.ability.${ability}`) : String(ability);
}

/**
 * Each system's fields, in the order of the service's chat line; each gives its phrases.
 * @type {Record<string, Record<string, (value: any, t: Translate) => string[]>>}
 */
const FIELDS = {
  beutelschneider: {
    ability: (value, t) =>
      isRecord(value)
        ? Object.entries(value).map(([name, ability]) =>
            t("WURFWERK.Advice.memberChoice", { name, choice: abilityWords(ability, t) }),
          )
        : [abilityWords(value, t)],
    pairs: (value, t) => {
      if (!Array.isArray(value)) return [t("WURFWERK.Advice.pairsAsGiven")];
      const met = [...new Set(value.map((pair) => (Array.isArray(pair) ? String(pair[1]) : String(pair))))];
      return [t("WURFWERK.Advice.pairsOrder", { names: met.join(", ") })];
    },
  },
  paws: {
    one_shot_rescue: (value, t) =>
      [Number(value) > 0 ? counted("WURFWERK.Advice.rescueSpend", Number(value), t) : t("WURFWERK.Advice.rescueKeep")],
    give_up_at_wounds: (value, t) =>
      [value === null ? t("WURFWERK.Advice.neverGiveUp") : counted("WURFWERK.Advice.giveUpAt", Number(value), t)],
  },
  weltenbuch: {
    hold_hero_points: (value, t) => {
      const held = Object.entries(isRecord(value) ? value : {}).filter(([, count]) => Number(count) > 0);
      return held.length
        ? held.map(([name, count]) => counted("WURFWERK.Advice.holdBack", Number(count), t, { name }))
        : [t("WURFWERK.Advice.spendHeroPoints")];
    },
    targeting: (value, t) =>
      ["weakest", "strongest", "spread"].includes(value)
        ? [t(`WURFWERK.Advice.aim.${value}`)]
        : [asGiven("targeting", value)],
  },
  proben: {
    max_attempts: (value, t) => {
      const limits = Array.isArray(value) ? value : [value];
      if (limits.every((limit) => limit === null)) return [t("WURFWERK.Advice.retryAll")];
      return limits.map((limit, index) => {
        const what =
          limit === null ? t("WURFWERK.Advice.retryWhileDice") : counted("WURFWERK.Advice.atMost", Number(limit), t);
        return limits.length > 1 ? t("WURFWERK.Advice.step", { step: index + 1, what }) : what;
      });
    },
    carry_partial: (value, t) => [t(value ? "WURFWERK.Advice.carryPartial" : "WURFWERK.Advice.noCarryPartial")],
    helpers: (value, t) =>
      Array.isArray(value) && value.length
        ? [t("WURFWERK.Advice.helpers", { names: value.map(String).join(", ") })]
        : [t("WURFWERK.Advice.noHelpers")],
  },
  malmsturm: {
    concede_at_consequences: (value, t) =>
      [value === null ? t("WURFWERK.Advice.neverConcede") : counted("WURFWERK.Advice.concedeAt", Number(value), t)],
    defend: (value, t) => [t(value ? "WURFWERK.Advice.defend" : "WURFWERK.Advice.noDefend")],
    targeting: (value, t) =>
      value === "focus" || value === "spread" ? [t(`WURFWERK.Advice.attacks.${value}`)] : [asGiven("targeting", value)],
  },
};

/**
 * A fixed policy of an advice in words: `{one_shot_rescue: 0, give_up_at_wounds: null}` of Paws is
 * "keep the one-shot rescue dice, never give up" („die einmaligen Rettungswürfel behalten, nie
 * aufgeben“). A field the module does not know is shown as the API names it.
 * @param {string} system the operation's first part (`paws` of `paws.encounter.advice`)
 * @param {Record<string, unknown>} policy
 * @param {Translate} t
 */
export function policyWords(system, policy, t) {
  const fields = FIELDS[system] ?? {};
  const phrases = Object.entries(policy ?? {}).flatMap(([name, value]) =>
    Object.hasOwn(fields, name) ? fields[name](value, t) : [asGiven(name, value)],
  );
  return phrases.join(", ") || "–";
}

/**
 * The same policy whatever order its keys came in (the answer's `default` lists the system's default
 * fields in their own order, the options in the order of the asked choices).
 * @param {unknown} value
 * @returns {string}
 */
export function samePolicyKey(value) {
  if (Array.isArray(value)) return `[${value.map(samePolicyKey).join(",")}]`;
  if (isRecord(value)) {
    const record = /** @type {Record<string, unknown>} */ (value);
    return `{${Object.keys(record)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${samePolicyKey(record[key])}`)
      .join(",")}}`;
  }
  return JSON.stringify(value ?? null);
}
