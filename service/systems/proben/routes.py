"""Proben endpoints: load the body, call the rules, write the summary. Nothing else."""

from __future__ import annotations

import copy
import itertools
from collections.abc import Mapping, Sequence
from typing import Any

from service.platform.dice.randomness import RandomSource
from service.platform.http.limits import encounter_precision
from service.platform.maths.luck import Luck
from service.platform.maths.odds import Odds
from service.platform.operations import advice as platform_advice
from service.platform.operations.operations import Body, Operation, System, quoting
from service.platform.words.glossary import api_glossary
from service.systems.proben import advice, encounter, odds, rules, schemas, text

POOL_EXAMPLE = {"name": "Alrik", "attribute": 3, "skill": 1, "advantages": 0, "disadvantages": 0}
TEST_EXAMPLE = {**POOL_EXAMPLE, "difficulty": 2}
OPPOSED_EXAMPLE = {"a": POOL_EXAMPLE, "b": {"name": "Stadtwache", "attribute": 2, "skill": 2}}
COOPERATION_EXAMPLE = {"leader": POOL_EXAMPLE, "helpers": [{"name": "Mira", "attribute": 2}], "difficulty": 3}
EXTENDED_EXAMPLE = {**POOL_EXAMPLE, "required": 4, "interval": {"amount": 1, "unit": "hours"}}

POOL_FIELDS = ("attribute", "skill", "skill_dice", "advantages", "disadvantages", "name")


def pool(body: Body) -> rules.Pool:
    return rules.Pool(**{key: body[key] for key in POOL_FIELDS if key in body})


def rule(body: Body) -> rules.SuccessRule:
    return rules.SuccessRule(body["success_rule"])


def test(body: Body, source: RandomSource, lang: str) -> tuple[rules.TestResult, str]:
    """Roll a simple test (Einfache Probe)

    Dice = attribute + skill_dice (0..skill, default skill) + advantages - disadvantages; each die
    showing 5 or 6 is a success. Rulings: success when successes >= difficulty (`meet`, the default)
    or > difficulty (`exceed`, the literal "Übersteigt"); `attempt` n removes n-1 dice, and with no
    dice left the outcome is `no_dice` and nothing is rolled; `impossible` when the dice cannot reach
    the difficulty (the roll still happens, so a `partial` success, at least one success, can be read);
    `quality` = successes beyond those needed. Ruling 7: the chat line names the difficulty as the text
    does (1 Einfach, 2 Standard, 3 Fordernd, 4 and more Schwer).
    """
    result = rules.test(pool(body), body["difficulty"], source, attempt=body["attempt"], rule=rule(body))
    return result, text.test(result, body["difficulty"], body.get("name"), lang, body["attempt"])


def test_odds(body: Body) -> Odds:
    """Exact odds of a simple test

    Outcomes `success`, `partial` (at least one success, not enough), `failure` (no success), and
    `no_dice` when the attempt leaves no dice; distribution `successes`. Same rulings as `proben.test`.
    """
    return odds.test(pool(body), body["difficulty"], attempt=body["attempt"], rule=rule(body))


def opposed(body: Body, source: RandomSource, lang: str) -> tuple[rules.OpposedResult, str]:
    """Roll an opposed test (Vergleichende Probe)

    Both sides roll their pool; more successes wins (`decided_by: successes`). Ruling 4: equal
    successes are decided by the higher base value, attribute + skill (`base`); with equal bases the
    test is rolled again (each round listed in `rounds`) unless `allow_tie`; after 20 equal rounds
    it is a tie.
    """
    result = rules.opposed(pool(body["a"]), pool(body["b"]), source, allow_tie=body["allow_tie"])
    return result, text.opposed(result, body["a"].get("name"), body["b"].get("name"), lang)


def opposed_odds(body: Body) -> Odds:
    """Exact odds of an opposed test

    Outcomes `a`, `b`, `tie`, including re-rolls of equal rounds (at most 20) per ruling 4.
    """
    return odds.opposed(pool(body["a"]), pool(body["b"]), allow_tie=body["allow_tie"])


def cooperation(body: Body, source: RandomSource, lang: str) -> tuple[rules.CooperationResult, str]:
    """Roll a cooperation (Zusammenarbeiten)

    Ruling 5: every helper rolls the same test first; each helper with at least one success gives the
    leader one advantage (one more die); then the leader rolls the test against the difficulty.
    """
    result = rules.cooperation(pool(body["leader"]), [pool(h) for h in body["helpers"]],
                               body["difficulty"], source, rule=rule(body))
    return result, text.cooperation(result, body["difficulty"], body["leader"].get("name"), lang)


def cooperation_odds(body: Body) -> Odds:
    """Exact odds of a cooperation

    Outcomes of the leader's test (`success`, `partial`, `failure`) over every number of helpers who
    helped; distribution `advantages` (helpers with at least one success).
    """
    return odds.cooperation(pool(body["leader"]), [pool(h) for h in body["helpers"]],
                            body["difficulty"], rule=rule(body))


LEADER = "leader"  # the one side of a cooperation: its leader, who takes the test


def _helper_names(body: Body) -> list[str]:
    """Each helper's name in a policy: its own, or `helpers.<i>` when it has none or shares it."""
    names = [helper.get("name") for helper in body["helpers"]]
    return [name if name and names.count(name) == 1 else f"helpers.{index}" for index, name in enumerate(names)]


def _cooperation_choices(body: Body, side: str) -> dict[str, list[Any]]:
    """RULINGS.md "Advice", Proben: who helps (ruling 5): every subset of the listed helpers, by name
    (an unnamed helper as `helpers.<i>`), from all of them to none."""
    names = _helper_names(body)
    subsets = [combination for size in range(len(names), -1, -1)
               for combination in itertools.combinations(names, size)]
    return {"helpers": [list(subset) for subset in subsets]}


def _cooperation_apply(body: Body, side: str, policy: Mapping[str, Any]) -> dict:
    chosen = set(policy.get("helpers", _helper_names(body)))
    return {**body, "helpers": [helper for name, helper in zip(_helper_names(body), body["helpers"], strict=True)
                                if name in chosen]}


COOPERATION_ADVISOR = platform_advice.Advisor(
    sides=lambda body: [LEADER], choices=_cooperation_choices,
    default=lambda body, side: {"helpers": _helper_names(body)}, apply=_cooperation_apply,
    odds=lambda body: cooperation_odds(body),
    wins=lambda outcome, side: outcome == "success",
    loses=lambda outcome, side: outcome in ("failure", "no_dice"),
    side_name=lambda body, side: body["leader"].get("name") or side, headline=platform_advice.to_succeed,
    describe=advice.helpers_words)


def cooperation_advice(body: Body, lang: str) -> tuple[dict[str, Any], str]:
    """Who should help (advice)

    RULINGS.md "Advice", Proben, and ruling 5 ("each helper with >= 1 success gives the leader one
    advantage die"): every subset of the listed `helpers` is one fixed option (`policy.helpers`: their
    names, an unnamed or twice-named one as `helpers.<i>`), answered exactly as `proben.cooperation.odds` answers the
    body with only those helpers; ranked by the leader's chance of success, then of not failing
    (`partial` is no failure); "gleich gut" within 0.1 percentage points shows who adds nothing. The
    side is `leader`. One roll, nothing decided between dice: no `adaptive` (null). At most 6
    helpers (64 options).
    """
    return platform_advice.answer(COOPERATION_ADVISOR, body, lang)


def extended(body: Body, source: RandomSource, lang: str) -> tuple[rules.ExtendedResult, str]:
    """Roll an extended test (Erweiterte Probe)

    Ruling 6: the first roll uses the full pool, each further roll one die fewer; the test succeeds
    when the cumulative successes reach `required` and fails when the dice run out. `elapsed` is the
    number of rolls times `interval` when an interval is given.
    """
    interval = rules.Elapsed(**body["interval"]) if "interval" in body else None
    result = rules.extended(pool(body), body["required"], source, interval=interval)
    return result, text.extended(result, body["required"], body.get("name"), lang)


def extended_odds(body: Body) -> Odds:
    """Exact odds of an extended test

    Outcomes `success`, `failure`; distribution `rolls_used` (a failure uses every roll).
    """
    return odds.extended(pool(body), body["required"])


# --- encounters ---------------------------------------------------------------------------------

ENCOUNTER_EXAMPLE = {"steps": [{"pool": POOL_EXAMPLE, "difficulty": 2},
                               {"pool": {"name": "Alrik", "attribute": 2, "skill": 2}, "difficulty": 3,
                                "max_attempts": 2}],
                     "carry_partial": True, "curve_rounds": 8}
ENCOUNTER_RULINGS = """A chain of tests ("Manche Aktionen erfordern ggf. mehr als eine Probe"), each a `test`
(rulings 1-3). Rulings "Encounters": E1 a failed step is retried with one die fewer each time ("Mit
jedem weiteren Versuch wird auch ein weiterer Würfel entfernt. Hat der Spieler keinen Würfel mehr
übrig, kann er auch keine weiteren Versuche unternehmen") up to its `max_attempts` or until no dice
are left; a step whose pool has no dice fails without an attempt; the chain succeeds when every step
succeeds, `failure:<i>` (0-based) names the step that failed. E2 `carry_partial` ("sodass eine
weitere Probe nur 1 Erfolg benötigt"): the successes of a failed attempt count toward the next
attempt of the step (the next test's difficulty is the step's less those carried), compared by the
same `success_rule`. `max_rounds` counts attempts."""


def chain(body: Body) -> encounter.Chain:
    steps = tuple(encounter.Step(pool(step["pool"]), step["difficulty"], step["max_attempts"])
                  for step in body["steps"])
    return encounter.Chain(steps, rule(body), body["carry_partial"])


@quoting(ENCOUNTER_RULINGS)
def encounter_play(body: Body, source: RandomSource, lang: str) -> tuple[encounter.EncounterResult, str]:
    """Play a chain of tests out, attempt by attempt

    {rulings}

    `steps` lists every attempt as `proben.test` reports it, `attempts` which step and attempt each
    is (and the difficulty it was rolled against); `end` the attempts and the verdict of every step.
    `curve_rounds` and `exact` are accepted and ignored.
    """
    result = encounter.play(chain(body), source, max_rounds=body["max_rounds"])
    return result, text.encounter(result, lang)


@quoting(ENCOUNTER_RULINGS)
def encounter_odds(body: Body) -> Odds:
    """Exact odds of a chain of tests

    {rulings}

    Outcomes `success`, `failure:<i>` per step and, with `max_rounds`, `undecided`; distribution
    `attempts` (the chain's total, at most `max_rounds`); expected `rounds` (the expected attempts).
    The bound is Σ over steps of attempts × (required successes with `carry_partial`, else 1) plus
    the ends; exact up to WURFWERK_MAX_ENCOUNTER_EXACT_STATES under `exact: auto`, float64 above.
    """
    encounter_chain = chain(body)
    exact = encounter_precision(encounter.state_bound(encounter_chain), body["exact"])
    return encounter.odds(encounter_chain, exact=exact, max_rounds=body["max_rounds"],
                          curve_rounds=body["curve_rounds"])


CHAIN = "chain"  # the one side of a chain of tests: the party that takes it


def _advice_choices(body: Body, side: str) -> dict[str, list[Any]]:
    """RULINGS.md "Advice", Proben: `max_attempts` per step (one value per step: null = until no dice
    are left, or 1.. attempts: retry or stop, ruling 3, E1), `carry_partial` where the GM allows it (E2)."""
    per_step = [[None, *range(1, pool(step["pool"]).dice)] for step in body["steps"]]
    return {"max_attempts": [list(values) for values in platform_advice.combinations(per_step)],
            "carry_partial": [False, True]}


def _advice_default(body: Body, side: str) -> dict[str, Any]:
    """The documented defaults: every step until no dice are left (E1), no partial successes carried (E2)."""
    return {"max_attempts": [None] * len(body["steps"]), "carry_partial": False}


def _advice_apply(body: Body, side: str, policy: Mapping[str, Any]) -> dict:
    changed = copy.deepcopy(dict(body))
    if "max_attempts" in policy:
        for step, attempts in zip(changed["steps"], policy["max_attempts"], strict=True):
            step["max_attempts"] = attempts
    if "carry_partial" in policy:
        changed["carry_partial"] = policy["carry_partial"]
    return changed


def _adaptive(body: Body, side: str, asked: Mapping[str, Sequence[Any]]) -> platform_advice.Adaptive | None:
    """Retry or stop after every failed attempt, in every state; the GM's `carry_partial` if asked."""
    if body["max_rounds"] is not None:  # a cut chain's best play depends on the attempts made as well
        return None
    encounter_chain = chain(body)
    if "max_attempts" in asked:
        encounter_chain = advice.unlimited(encounter_chain)
    exact = encounter_precision(encounter.state_bound(advice.unlimited(encounter_chain)), body["exact"])
    carry = (False, True) if "carry_partial" in asked else (encounter_chain.carry_partial,)
    solved = advice.solve(encounter_chain, exact=exact, carry_choices=carry)
    said = advice.rules(solved, retry="max_attempts" in asked, carry="carry_partial" in asked)
    return platform_advice.Adaptive(solved.win, said, solved.states, 0.0 if exact else solved.states * 2.0 ** -48)


ADVISOR = platform_advice.Advisor(
    sides=lambda body: [CHAIN], choices=_advice_choices, default=_advice_default, apply=_advice_apply,
    odds=lambda body: encounter_odds(body), adaptive=_adaptive,
    wins=lambda outcome, side: outcome == encounter.SUCCESS,
    loses=lambda outcome, side: outcome.startswith("failure:"),
    side_name=lambda body, side: body["steps"][0]["pool"].get("name") or side, headline=platform_advice.to_succeed,
    describe=advice.policy_words)


@quoting(ENCOUNTER_RULINGS)
def encounter_advice(body: Body, lang: str) -> tuple[dict[str, Any], str]:
    """What the choices of a chain of tests are worth (advice)

    {rulings}

    RULINGS.md "Advice", Proben: `max_attempts` per step (a list, one per step: retry with one die
    fewer or stop, ruling 3) and `carry_partial` where the GM allows it; the side is `chain`. Every
    combination is one fixed option, answered exactly as `proben.encounter.odds` answers the body with
    it; ranked by the chance of success, then fewer attempts ("gleich gut" within 0.1 percentage
    points). `adaptive`: retry or stop after every failed attempt, decided anew in every state
    (backward induction over step, attempt and successes carried); null with `max_rounds`.
    """
    return platform_advice.answer(ADVISOR, body, lang)


SYSTEM = System(
    "proben",
    manual_value={"type": "integer", "minimum": 1, "maximum": 6, "description": "A d6 face."},
    title="Proben",
    tagline="attribute pools, 5–6",
    rules_file="003_ff7aef635d957c0a.txt",
    description="Attribute pools of d6, successes on 5–6: tests, opposed tests, cooperation, extended tests.",
    enums={"success_rule": ["meet", "exceed"], "outcome": ["success", "partial", "failure", "no_dice"],
           "winner": ["a", "b", None], "decided_by": ["successes", "base", "tie"]},
    glossary=api_glossary("proben"),  # service/locale/glossary.json, the one glossary
    extra={"difficulties": [  # ruling 7: the text's names; 4 and more are Schwer
        {"difficulty": 1, "de": "Einfach", "en": "easy"}, {"difficulty": 2, "de": "Standard", "en": "standard"},
        {"difficulty": 3, "de": "Fordernd", "en": "demanding"},
        {"difficulty": 4, "de": "Schwer", "en": "hard", "and_above": True}],
        "interval_units": ["minute", "hour", "day", "week", "month", "round"]},
    operations=(
        Operation.rolling("/test", test, operation="test", request=schemas.ProbenTestRequest,
                          result=schemas.ProbenTestResult, example=TEST_EXAMPLE, odds=test_odds,
                          luck=Luck("successes")),
        Operation.rolling("/opposed", opposed, operation="opposed", request=schemas.ProbenOpposedRequest,
                          result=schemas.ProbenOpposedResult, example=OPPOSED_EXAMPLE, odds=opposed_odds,
                          unmeasured="two pools roll until one wins: the winner is no luck of one seat"),
        Operation.rolling("/cooperation", cooperation, operation="cooperation",
                          request=schemas.ProbenCooperationRequest, result=schemas.ProbenCooperationResult,
                          example=COOPERATION_EXAMPLE, odds=cooperation_odds, advice=cooperation_advice,
                          unmeasured="several people's dice in one card: whose luck it is, no quantity says"),
        Operation.rolling("/extended", extended, operation="extended", request=schemas.ProbenExtendedRequest,
                          result=schemas.ProbenExtendedResult, example=EXTENDED_EXAMPLE, odds=extended_odds,
                          luck=Luck("rolls_used", higher=False)),
        Operation.rolling("/encounter", encounter_play, operation="encounter", request=schemas.ProbenEncounterRequest,
                          result=schemas.ProbenEncounterResult, example=ENCOUNTER_EXAMPLE,
                          odds=encounter_odds, encounter=True, advice=encounter_advice),
    ),
)
