// What the rules offer after a roll, as data: the follow-ups the Discord app offers as buttons
// (integrations/discord/wurfwerk_discord/buttons.py), by the same conditions, with the same requests.
// tests/web/test_play_next.py feeds both the same signed responses and compares what they offer.
//
// Each declaration: `after` (operation ids), `when(result, request)`, `to` (the operation rolled next),
// `choices` (one button each) and `body(response, choice)`; `words` names the label in labels.js and
// `field` the request field whose choice words fill it (severity, chances).

const RANDOMNESS = ["seed", "manual", "ticket", "idempotency_key", "session"];
const COLOURS = ["red", "green", "blue", "white", "black"];

/** A bag as the follow-up sends it: the five colours, none of them zero. */
function bagOf(bag) {
  return Object.fromEntries(COLOURS.filter((colour) => Number(bag?.[colour]) > 0).map((colour) => [colour, Number(bag[colour])]));
}

function named(body, name) {
  return name ? { ...body, name } : body;
}

function withoutRandomness(request) {
  return Object.fromEntries(Object.entries(request ?? {}).filter(([key, value]) => !RANDOMNESS.includes(key) && value !== null));
}

const isMapping = (value) => value !== null && typeof value === "object" && !Array.isArray(value);

export const FOLLOW_UPS = [
  {
    // Paws: the group's rescue dice after a lost test or comparison.
    after: ["paws.test", "paws.comparison"],
    when: (result, _request, operation) => (operation === "paws.test"
      ? !result.success || Boolean(result.catastrophe)
      : result.winner === "a" || result.winner === "b"),
    to: "paws.rescue", choices: [1, 2, 3], words: "nextRescue", style: "plain",
    body: (_response, dice) => ({ dice }),
  },
  {
    // Proben: a failed or partial test again, with one die fewer (the next attempt), only while the fewer
    // dice can still reach the difficulty ("kann er die Probe nicht schaffen"; issue 53).
    after: ["proben.test"],
    when: (result, request) => ["failure", "partial"].includes(result.outcome)
      && Number(result.dice_count) - 1 >= Math.max(1, Number(request?.difficulty || 1) + (request?.success_rule === "exceed" ? 1 : 0)),
    to: "proben.test", choices: [null], words: "nextRetry", style: "primary",
    body: ({ request }) => ({ ...withoutRandomness(request), attempt: Number(request.attempt || 1) + 1 }),
    values: ({ result }) => ({ dice: Number(result.dice_count) - 1 }),
  },
  {
    // Beutelschneider: an injury draw after a failed challenge or first aid (not when unconscious).
    after: ["beutelschneider.challenge", "beutelschneider.first-aid"],
    when: (result, request) => !result.success && !result.unconscious && isMapping(request.bag),
    to: "beutelschneider.injury", choices: ["light", "serious", "grave"], words: "nextInjury", field: "severity",
    style: "danger",
    body: ({ request }, severity) => named({ bag: bagOf(request.bag), severity }, request.name),
  },
  {
    // Beutelschneider: a healing draw once an injury (alone or in a combat) left black marbles.
    after: ["beutelschneider.injury", "beutelschneider.combat"],
    when: (result, _request, operation) => Number(injuredBag(result, operation)?.bag?.black) > 0,
    to: "beutelschneider.healing", choices: ["poor", "fair", "good"], words: "nextHealing", field: "chances",
    style: "good",
    body: ({ result, request, operation }, chances) => {
      const { bag, name } = injuredBag(result, operation, request);
      return named({ bag: bagOf(bag), chances }, name);
    },
  },
];

function injuredBag(result, operation, request = {}) {
  if (operation === "beutelschneider.injury") return isMapping(result.bag_after) ? { bag: result.bag_after, name: request.name } : null;
  const injury = result.injury;
  return isMapping(injury) && isMapping(injury.bag_after) ? { bag: injury.bag_after, name: injury.target } : null;
}

/** The follow-ups a signed response offers: `[{to, body, words, choice, field, values, style}]`. */
export function followUps(response) {
  const operation = response?.operation;
  const result = response?.result;
  if (typeof operation !== "string" || !isMapping(result)) return [];
  const request = isMapping(response.request) ? response.request : {};
  const offered = [];
  for (const declaration of FOLLOW_UPS) {
    if (!declaration.after.includes(operation) || !declaration.when(result, request, operation)) continue;
    for (const choice of declaration.choices) {
      offered.push({
        to: declaration.to, body: declaration.body({ result, request, operation }, choice), words: declaration.words,
        choice, field: declaration.field ?? null, values: declaration.values?.({ result, request }) ?? {},
        style: declaration.style,
      });
    }
  }
  return offered;
}
