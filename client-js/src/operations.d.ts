// Generated from openapi.yaml by `make js-client` (client-js/scripts/generate_operations.py). Do not edit.
import type { CallOptions, RequestBody, ResponseBody } from "../index.js";

export type OperationId =
  | "batch.run"
  | "beutelschneider.challenge"
  | "beutelschneider.challenge.odds"
  | "beutelschneider.combat"
  | "beutelschneider.combat.odds"
  | "beutelschneider.contest"
  | "beutelschneider.contest.odds"
  | "beutelschneider.encounter"
  | "beutelschneider.encounter.advice"
  | "beutelschneider.encounter.odds"
  | "beutelschneider.experience"
  | "beutelschneider.experience-apply"
  | "beutelschneider.experience.odds"
  | "beutelschneider.first-aid"
  | "beutelschneider.first-aid.odds"
  | "beutelschneider.healing"
  | "beutelschneider.healing-apply"
  | "beutelschneider.healing.odds"
  | "beutelschneider.injury"
  | "beutelschneider.injury.odds"
  | "beutelschneider.mortal-danger"
  | "beutelschneider.mortal-danger.odds"
  | "beutelschneider.validate-bag"
  | "health.live"
  | "health.ready"
  | "keys.list"
  | "malmsturm.action"
  | "malmsturm.action.odds"
  | "malmsturm.attack"
  | "malmsturm.attack.odds"
  | "malmsturm.contest"
  | "malmsturm.contest.odds"
  | "malmsturm.encounter"
  | "malmsturm.encounter.advice"
  | "malmsturm.encounter.odds"
  | "malmsturm.initiative"
  | "malmsturm.initiative.odds"
  | "malmsturm.ladder"
  | "paws.comparison"
  | "paws.comparison.advice"
  | "paws.comparison.odds"
  | "paws.encounter"
  | "paws.encounter.advice"
  | "paws.encounter.odds"
  | "paws.rescue"
  | "paws.rescue.odds"
  | "paws.test"
  | "paws.test.advice"
  | "paws.test.odds"
  | "paws.validate-character"
  | "proben.cooperation"
  | "proben.cooperation.advice"
  | "proben.cooperation.odds"
  | "proben.encounter"
  | "proben.encounter.advice"
  | "proben.encounter.odds"
  | "proben.extended"
  | "proben.extended.odds"
  | "proben.opposed"
  | "proben.opposed.odds"
  | "proben.test"
  | "proben.test.odds"
  | "receipts.verify"
  | "sessions.open"
  | "sessions.report"
  | "sessions.reveal"
  | "systems.list"
  | "tickets.issue"
  | "weltenbuch.conflict"
  | "weltenbuch.conflict.odds"
  | "weltenbuch.encounter"
  | "weltenbuch.encounter.advice"
  | "weltenbuch.encounter.odds"
  | "weltenbuch.narration"
  | "weltenbuch.resurrection"
  | "weltenbuch.resurrection.odds";

/** One namespace per system, one method per operation. */
export interface SystemMethods {
  beutelschneider: {
    /** POST /v1/beutelschneider/challenge: Draw for a challenge (Herausforderung) */
    challenge(body: RequestBody<"beutelschneider.challenge">, options?: CallOptions): Promise<ResponseBody<"beutelschneider.challenge">>;
    /** POST /v1/beutelschneider/challenge/odds: Exact odds of a challenge */
    challengeOdds(body: RequestBody<"beutelschneider.challenge.odds">, options?: CallOptions): Promise<ResponseBody<"beutelschneider.challenge.odds">>;
    /** POST /v1/beutelschneider/combat: One exchange of blows (Schlagabtausch), or an uneven contest */
    combat(body: RequestBody<"beutelschneider.combat">, options?: CallOptions): Promise<ResponseBody<"beutelschneider.combat">>;
    /** POST /v1/beutelschneider/combat/odds: Exact odds of an exchange of blows */
    combatOdds(body: RequestBody<"beutelschneider.combat.odds">, options?: CallOptions): Promise<ResponseBody<"beutelschneider.combat.odds">>;
    /** POST /v1/beutelschneider/contest: Draw for a contest (Auseinandersetzung) */
    contest(body: RequestBody<"beutelschneider.contest">, options?: CallOptions): Promise<ResponseBody<"beutelschneider.contest">>;
    /** POST /v1/beutelschneider/contest/odds: Exact odds of a contest */
    contestOdds(body: RequestBody<"beutelschneider.contest.odds">, options?: CallOptions): Promise<ResponseBody<"beutelschneider.contest.odds">>;
    /** POST /v1/beutelschneider/encounter: Play a whole fight out, exchange by exchange */
    encounter(body: RequestBody<"beutelschneider.encounter">, options?: CallOptions): Promise<ResponseBody<"beutelschneider.encounter">>;
    /** POST /v1/beutelschneider/encounter/advice: What a side's choices in a whole fight are worth (advice) */
    encounterAdvice(body: RequestBody<"beutelschneider.encounter.advice">, options?: CallOptions): Promise<ResponseBody<"beutelschneider.encounter.advice">>;
    /** POST /v1/beutelschneider/encounter/odds: Chances of a whole fight, in float64 */
    encounterOdds(body: RequestBody<"beutelschneider.encounter.odds">, options?: CallOptions): Promise<ResponseBody<"beutelschneider.encounter.odds">>;
    /** POST /v1/beutelschneider/experience: Draw for experience (Erfahrung) */
    experience(body: RequestBody<"beutelschneider.experience">, options?: CallOptions): Promise<ResponseBody<"beutelschneider.experience">>;
    /** POST /v1/beutelschneider/experience/apply: Apply the experience choices to a signed draw */
    experienceApply(body: RequestBody<"beutelschneider.experience-apply">, options?: CallOptions): Promise<ResponseBody<"beutelschneider.experience-apply">>;
    /** POST /v1/beutelschneider/experience/odds: Exact odds of an experience draw */
    experienceOdds(body: RequestBody<"beutelschneider.experience.odds">, options?: CallOptions): Promise<ResponseBody<"beutelschneider.experience.odds">>;
    /** POST /v1/beutelschneider/first-aid: Tend a wounded character (Versorgung von Verletzungen) */
    firstAid(body: RequestBody<"beutelschneider.first-aid">, options?: CallOptions): Promise<ResponseBody<"beutelschneider.first-aid">>;
    /** POST /v1/beutelschneider/first-aid/odds: Exact odds of first aid */
    firstAidOdds(body: RequestBody<"beutelschneider.first-aid.odds">, options?: CallOptions): Promise<ResponseBody<"beutelschneider.first-aid.odds">>;
    /** POST /v1/beutelschneider/healing: Draw for healing (Heilung) */
    healing(body: RequestBody<"beutelschneider.healing">, options?: CallOptions): Promise<ResponseBody<"beutelschneider.healing">>;
    /** POST /v1/beutelschneider/healing/apply: Apply the healing choices to a signed draw */
    healingApply(body: RequestBody<"beutelschneider.healing-apply">, options?: CallOptions): Promise<ResponseBody<"beutelschneider.healing-apply">>;
    /** POST /v1/beutelschneider/healing/odds: Exact odds of a healing draw */
    healingOdds(body: RequestBody<"beutelschneider.healing.odds">, options?: CallOptions): Promise<ResponseBody<"beutelschneider.healing.odds">>;
    /** POST /v1/beutelschneider/injury: Suffer an injury (Verletzung) */
    injury(body: RequestBody<"beutelschneider.injury">, options?: CallOptions): Promise<ResponseBody<"beutelschneider.injury">>;
    /** POST /v1/beutelschneider/injury/odds: Exact odds of an injury */
    injuryOdds(body: RequestBody<"beutelschneider.injury.odds">, options?: CallOptions): Promise<ResponseBody<"beutelschneider.injury.odds">>;
    /** POST /v1/beutelschneider/mortal-danger: Face mortal danger (Lebensgefahr) */
    mortalDanger(body: RequestBody<"beutelschneider.mortal-danger">, options?: CallOptions): Promise<ResponseBody<"beutelschneider.mortal-danger">>;
    /** POST /v1/beutelschneider/mortal-danger/odds: Exact odds of mortal danger */
    mortalDangerOdds(body: RequestBody<"beutelschneider.mortal-danger.odds">, options?: CallOptions): Promise<ResponseBody<"beutelschneider.mortal-danger.odds">>;
    /** POST /v1/beutelschneider/validate-bag: Check a starting bag (Charaktererschaffung) */
    validateBag(body: RequestBody<"beutelschneider.validate-bag">, options?: CallOptions): Promise<ResponseBody<"beutelschneider.validate-bag">>;
  };
  malmsturm: {
    /** POST /v1/malmsturm/action: Roll a simple action (Einfache Aktion) */
    action(body: RequestBody<"malmsturm.action">, options?: CallOptions): Promise<ResponseBody<"malmsturm.action">>;
    /** POST /v1/malmsturm/action/odds: Exact odds of a simple action */
    actionOdds(body: RequestBody<"malmsturm.action.odds">, options?: CallOptions): Promise<ResponseBody<"malmsturm.action.odds">>;
    /** POST /v1/malmsturm/attack: Roll an attack in a conflict (Angriff) */
    attack(body: RequestBody<"malmsturm.attack">, options?: CallOptions): Promise<ResponseBody<"malmsturm.attack">>;
    /** POST /v1/malmsturm/attack/odds: Exact odds of an attack */
    attackOdds(body: RequestBody<"malmsturm.attack.odds">, options?: CallOptions): Promise<ResponseBody<"malmsturm.attack.odds">>;
    /** POST /v1/malmsturm/contest: Roll a contest (Wettstreit) */
    contest(body: RequestBody<"malmsturm.contest">, options?: CallOptions): Promise<ResponseBody<"malmsturm.contest">>;
    /** POST /v1/malmsturm/contest/odds: Exact odds of a contest */
    contestOdds(body: RequestBody<"malmsturm.contest.odds">, options?: CallOptions): Promise<ResponseBody<"malmsturm.contest.odds">>;
    /** POST /v1/malmsturm/encounter: Play out a whole conflict (Konflikt), turn by turn */
    encounter(body: RequestBody<"malmsturm.encounter">, options?: CallOptions): Promise<ResponseBody<"malmsturm.encounter">>;
    /** POST /v1/malmsturm/encounter/advice: What a side's choices in a whole conflict are worth (advice) */
    encounterAdvice(body: RequestBody<"malmsturm.encounter.advice">, options?: CallOptions): Promise<ResponseBody<"malmsturm.encounter.advice">>;
    /** POST /v1/malmsturm/encounter/odds: Exact odds of a whole conflict (Konflikt) */
    encounterOdds(body: RequestBody<"malmsturm.encounter.odds">, options?: CallOptions): Promise<ResponseBody<"malmsturm.encounter.odds">>;
    /** POST /v1/malmsturm/initiative: Roll the order of a conflict (Reihenfolge) */
    initiative(body: RequestBody<"malmsturm.initiative">, options?: CallOptions): Promise<ResponseBody<"malmsturm.initiative">>;
    /** POST /v1/malmsturm/initiative/odds: Exact odds of the order of a conflict */
    initiativeOdds(body: RequestBody<"malmsturm.initiative.odds">, options?: CallOptions): Promise<ResponseBody<"malmsturm.initiative.odds">>;
    /** GET /v1/malmsturm/ladder: The ladder (Stufenleiter) with its labels */
    ladder(options?: CallOptions): Promise<ResponseBody<"malmsturm.ladder">>;
  };
  paws: {
    /** POST /v1/paws/comparison: Roll a comparison (Vergleich) */
    comparison(body: RequestBody<"paws.comparison">, options?: CallOptions): Promise<ResponseBody<"paws.comparison">>;
    /** POST /v1/paws/comparison/advice: Spend the group's one-shot rescue dice on this lost comparison, or keep them (advice) */
    comparisonAdvice(body: RequestBody<"paws.comparison.advice">, options?: CallOptions): Promise<ResponseBody<"paws.comparison.advice">>;
    /** POST /v1/paws/comparison/odds: Exact odds of a comparison */
    comparisonOdds(body: RequestBody<"paws.comparison.odds">, options?: CallOptions): Promise<ResponseBody<"paws.comparison.odds">>;
    /** POST /v1/paws/encounter: Play out a whole duel (Zweikampf), round by round */
    encounter(body: RequestBody<"paws.encounter">, options?: CallOptions): Promise<ResponseBody<"paws.encounter">>;
    /** POST /v1/paws/encounter/advice: What a side's choices in a whole duel are worth (advice) */
    encounterAdvice(body: RequestBody<"paws.encounter.advice">, options?: CallOptions): Promise<ResponseBody<"paws.encounter.advice">>;
    /** POST /v1/paws/encounter/odds: Exact odds of a whole duel (Zweikampf) */
    encounterOdds(body: RequestBody<"paws.encounter.odds">, options?: CallOptions): Promise<ResponseBody<"paws.encounter.odds">>;
    /** POST /v1/paws/rescue: Roll the group's rescue dice (Rettungswürfel) */
    rescue(body: RequestBody<"paws.rescue">, options?: CallOptions): Promise<ResponseBody<"paws.rescue">>;
    /** POST /v1/paws/rescue/odds: Exact odds of the group's rescue dice */
    rescueOdds(body: RequestBody<"paws.rescue.odds">, options?: CallOptions): Promise<ResponseBody<"paws.rescue.odds">>;
    /** POST /v1/paws/test: Roll a test (Probe) */
    test(body: RequestBody<"paws.test">, options?: CallOptions): Promise<ResponseBody<"paws.test">>;
    /** POST /v1/paws/test/advice: Spend the group's one-shot rescue dice on this failed test, or keep them (advice) */
    testAdvice(body: RequestBody<"paws.test.advice">, options?: CallOptions): Promise<ResponseBody<"paws.test.advice">>;
    /** POST /v1/paws/test/odds: Exact odds of a test */
    testOdds(body: RequestBody<"paws.test.odds">, options?: CallOptions): Promise<ResponseBody<"paws.test.odds">>;
    /** POST /v1/paws/validate-character: Validate a character (Potenzial und Macht) */
    validateCharacter(body: RequestBody<"paws.validate-character">, options?: CallOptions): Promise<ResponseBody<"paws.validate-character">>;
  };
  proben: {
    /** POST /v1/proben/cooperation: Roll a cooperation (Zusammenarbeiten) */
    cooperation(body: RequestBody<"proben.cooperation">, options?: CallOptions): Promise<ResponseBody<"proben.cooperation">>;
    /** POST /v1/proben/cooperation/advice: Who should help (advice) */
    cooperationAdvice(body: RequestBody<"proben.cooperation.advice">, options?: CallOptions): Promise<ResponseBody<"proben.cooperation.advice">>;
    /** POST /v1/proben/cooperation/odds: Exact odds of a cooperation */
    cooperationOdds(body: RequestBody<"proben.cooperation.odds">, options?: CallOptions): Promise<ResponseBody<"proben.cooperation.odds">>;
    /** POST /v1/proben/encounter: Play a chain of tests out, attempt by attempt */
    encounter(body: RequestBody<"proben.encounter">, options?: CallOptions): Promise<ResponseBody<"proben.encounter">>;
    /** POST /v1/proben/encounter/advice: What the choices of a chain of tests are worth (advice) */
    encounterAdvice(body: RequestBody<"proben.encounter.advice">, options?: CallOptions): Promise<ResponseBody<"proben.encounter.advice">>;
    /** POST /v1/proben/encounter/odds: Exact odds of a chain of tests */
    encounterOdds(body: RequestBody<"proben.encounter.odds">, options?: CallOptions): Promise<ResponseBody<"proben.encounter.odds">>;
    /** POST /v1/proben/extended: Roll an extended test (Erweiterte Probe) */
    extended(body: RequestBody<"proben.extended">, options?: CallOptions): Promise<ResponseBody<"proben.extended">>;
    /** POST /v1/proben/extended/odds: Exact odds of an extended test */
    extendedOdds(body: RequestBody<"proben.extended.odds">, options?: CallOptions): Promise<ResponseBody<"proben.extended.odds">>;
    /** POST /v1/proben/opposed: Roll an opposed test (Vergleichende Probe) */
    opposed(body: RequestBody<"proben.opposed">, options?: CallOptions): Promise<ResponseBody<"proben.opposed">>;
    /** POST /v1/proben/opposed/odds: Exact odds of an opposed test */
    opposedOdds(body: RequestBody<"proben.opposed.odds">, options?: CallOptions): Promise<ResponseBody<"proben.opposed.odds">>;
    /** POST /v1/proben/test: Roll a simple test (Einfache Probe) */
    test(body: RequestBody<"proben.test">, options?: CallOptions): Promise<ResponseBody<"proben.test">>;
    /** POST /v1/proben/test/odds: Exact odds of a simple test */
    testOdds(body: RequestBody<"proben.test.odds">, options?: CallOptions): Promise<ResponseBody<"proben.test.odds">>;
  };
  weltenbuch: {
    /** POST /v1/weltenbuch/conflict: Roll a conflict scene (Konfliktszene) */
    conflict(body: RequestBody<"weltenbuch.conflict">, options?: CallOptions): Promise<ResponseBody<"weltenbuch.conflict">>;
    /** POST /v1/weltenbuch/conflict/odds: Exact odds of a conflict scene */
    conflictOdds(body: RequestBody<"weltenbuch.conflict.odds">, options?: CallOptions): Promise<ResponseBody<"weltenbuch.conflict.odds">>;
    /** POST /v1/weltenbuch/encounter: Play a conflict scene out: the roll and the policy's narration */
    encounter(body: RequestBody<"weltenbuch.encounter">, options?: CallOptions): Promise<ResponseBody<"weltenbuch.encounter">>;
    /** POST /v1/weltenbuch/encounter/advice: What a party's choices in a conflict scene are worth (advice) */
    encounterAdvice(body: RequestBody<"weltenbuch.encounter.advice">, options?: CallOptions): Promise<ResponseBody<"weltenbuch.encounter.advice">>;
    /** POST /v1/weltenbuch/encounter/odds: Exact odds of a conflict scene and its consequences */
    encounterOdds(body: RequestBody<"weltenbuch.encounter.odds">, options?: CallOptions): Promise<ResponseBody<"weltenbuch.encounter.odds">>;
    /** POST /v1/weltenbuch/narration: Apply the dice spent in the narration (Was genau ist geschehen?) */
    narration(body: RequestBody<"weltenbuch.narration">, options?: CallOptions): Promise<ResponseBody<"weltenbuch.narration">>;
    /** POST /v1/weltenbuch/resurrection: Find the god who brought a character back (Wiederauferstehung) */
    resurrection(body: RequestBody<"weltenbuch.resurrection">, options?: CallOptions): Promise<ResponseBody<"weltenbuch.resurrection">>;
    /** POST /v1/weltenbuch/resurrection/odds: Exact odds of a resurrection */
    resurrectionOdds(body: RequestBody<"weltenbuch.resurrection.odds">, options?: CallOptions): Promise<ResponseBody<"weltenbuch.resurrection.odds">>;
  };
}
