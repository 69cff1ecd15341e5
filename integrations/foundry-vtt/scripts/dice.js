// Randomness events of a wurfwerk response → Foundry dice terms, so Dice So Nice animates the faces the
// service rolled. Pure data here; the glue turns it into a Roll with Roll.fromData.

/** Die sizes Dice So Nice has 3D models for (its DiceNotation skips every other size). */
export const ANIMATED_SIDES = [2, 3, 4, 5, 6, 7, 8, 10, 12, 14, 16, 20, 24, 30, 100];

/**
 * @typedef {{kind: string, values: Array<number | string>}} RandomnessEvent
 * @typedef {{kind: string, denomination: "d" | "f", faces: number, values: number[]}} DiceGroup
 */

/**
 * The dice among the events, in order: `d<N>` events with a size Dice So Nice can show and `dF` events.
 * Marble draws and unusual sizes are not dice on the 3D board; the card still shows them.
 * @param {RandomnessEvent[] | undefined} events
 * @returns {DiceGroup[]}
 */
export function diceGroups(events) {
  /** @type {DiceGroup[]} */
  const groups = [];
  for (const event of events ?? []) {
    const values = event.values.filter((value) => typeof value === "number");
    if (values.length === 0 || values.length !== event.values.length) continue;
    if (event.kind === "dF") {
      groups.push({ kind: "dF", denomination: "f", faces: 3, values: /** @type {number[]} */ (values) });
      continue;
    }
    const sides = /^d(\d+)$/.exec(event.kind);
    if (sides && ANIMATED_SIDES.includes(Number(sides[1]))) {
      groups.push({
        kind: event.kind,
        denomination: "d",
        faces: Number(sides[1]),
        values: /** @type {number[]} */ (values),
      });
    }
  }
  return groups;
}

/**
 * The serialized form of one evaluated Roll holding the groups' faces (the shape `Roll#toJSON` writes and
 * `Roll.fromData` reads in Foundry 12 and 13): one Die or FateDie term per event, joined by "+".
 * @param {DiceGroup[]} groups
 */
export function rollData(groups) {
  /** @type {object[]} */
  const terms = [];
  groups.forEach((group, index) => {
    if (index > 0) terms.push({ class: "OperatorTerm", options: {}, evaluated: true, operator: "+" });
    terms.push({
      class: group.denomination === "f" ? "FateDie" : "Die",
      options: { flavor: "wurfwerk" },
      evaluated: true,
      number: group.values.length,
      faces: group.faces,
      modifiers: [],
      results: group.values.map((result) => ({ result, active: true })),
    });
  });
  const formula = groups.map(termFormula).join(" + ");
  const total = groups.flatMap((group) => group.values).reduce((sum, value) => sum + value, 0);
  return { class: "Roll", options: {}, dice: [], formula, terms, total, evaluated: true };
}

/** @param {DiceGroup} group */
function termFormula(group) {
  return `${group.values.length}d${group.denomination === "f" ? "F" : group.faces}[wurfwerk]`;
}
