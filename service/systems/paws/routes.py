"""Paws endpoints: load the body, call the rules, write the summary. Nothing else."""

from __future__ import annotations

import copy
import dataclasses
from collections.abc import Callable, Mapping, Sequence
from fractions import Fraction
from typing import Any

from service.platform.dice.randomness import RandomSource
from service.platform.http.limits import encounter_precision
from service.platform.maths.luck import Luck
from service.platform.maths.odds import Odds
from service.platform.operations import advice as platform_advice
from service.platform.operations.operations import Body, Operation, System, quoting
from service.platform.values.errors import InputError
from service.platform.words.glossary import api_glossary
from service.platform.words.messages import advised, say
from service.systems.paws import advice, encounter, odds, rescue_advice, rules, schemas, text

POOL_EXAMPLE = {"name": "Ryan", "rank": 2, "fit": "matching",
                "advantages": {"equipment": None, "personal": None, "situation": "active"}}
COMPARISON_EXAMPLE = {
    "a": {"name": "Rynn", "rank": 2, "advantages": {"equipment": "active", "situation": "active"}},
    "b": {"name": "Gegner", "rank": 2, "advantages": {"equipment": "passive", "personal": "passive"}},
    "mode": "contest",
}
RESCUE_EXAMPLE = {"dice": 2}
CHARACTER_EXAMPLE = {
    "potential": 3, "power": 15,
    "traits": [{"name": "athletisch", "rank": 2}, {"name": "Schlägereien", "rank": 3},
               {"name": "jähzornig", "rank": 1, "bad": True}],
}


def pool(body: Body) -> rules.Pool:
    return schemas.to_pool(body)


def test(body: Body, source: RandomSource, lang: str) -> tuple[rules.TestResult, str]:
    """Roll a test (Probe)

    Dice = rank, -1 for a `fallback` trait, +1 for a `specialized` one, +1 per active advantage and per
    `extra_bonus_dice`, -1 per wound (ruling 5; never below 0); rescue dice = passive advantages +
    `extra_rescue_dice`. Each die showing 4-6 is a success; one success reaches the goal; `effects` =
    successes - 1. Ruling 1: one advantage per category (`equipment`, `personal`, `situation`), active
    or passive; beyond that only the GM's extra dice. Ruling 2: `catastrophe` when every die shows 1
    (at least one die; 0 dice is a plain failure). Ruling 3: rescue dice are rolled only after a
    failed test; the first rescue success averts a catastrophe (`rescue.rescued`, and `catastrophe` is
    then false), every other success averts one negative effect of the failure ("Zeigt er einen
    Erfolg, kann man damit einen negativen Effekt abwenden": `rescue.averted`, a count); they never
    turn a failure into a success. Ruling 7: `narrator` is `gm` after a success, else the acting
    character (`name`, or `player` without one).
    """
    result = rules.test(pool(body), source)
    return result, text.test(result, body.get("name"), lang)


def test_odds(body: Body) -> Odds:
    """Exact odds of a test

    Outcomes `success`, `failure` (no success, no catastrophe) and `catastrophe` (every die 1 and no
    rescue success, ruling 3); distributions `successes`, `effects` and `averted` (negative effects
    averted by rescue successes: all of them after a plain failure, all but the first after a
    catastrophe). Same rulings as `paws.test`.
    """
    return odds.test(pool(body))


def comparison(body: Body, source: RandomSource, lang: str) -> tuple[rules.ComparisonResult, str]:
    """Roll a comparison (Vergleich)

    a rolls, then b (pools as in `paws.test`). Ruling 4: the side with more successes wins; the loser's
    successes cancel the winner's one for one, `net` = the difference, `effects` = net - 1 (never below
    0). Mode `defense`: a attacks, b only defends; the attack lands (`attack_lands`) only with net >= 1
    and b cannot win (more defender successes just repel it). Ruling 3: only the loser rolls its
    rescue dice (after the two pools); each rescue success cancels one of the winner's net successes,
    reaching 0 makes a tie, never a win; a tie is no failure, so the rescued side's catastrophe (every
    die 1) is gone too. Short of a tie, the first rescue success averts the side's catastrophe instead
    and the others cancel (`rescue.catastrophe_averted`). Ruling 8: only the loser can suffer a
    catastrophe: a side's `catastrophe` is its own roll of only ones, on a loss, that no rescue averted
    (a 0:0 tie of ones is none for either side); the chat line says it before any rescue. Ruling 7
    ("Bei Vergleichen hat grundsätzlich der Verlierer das Recht"): `narrator` is the loser (its `name`,
    or `a`/`b`), in defense mode too: a repelled attack is narrated by the attacker; `gm` on a tie.
    Ruling 9: a pool's `penalty_dice` are the dice the GM takes away ("Gegner schwächen").
    """
    result = rules.comparison(pool(body["a"]), pool(body["b"]), source, mode=rules.Mode(body["mode"]))
    return result, text.comparison(result, lang)


def comparison_odds(body: Body) -> Odds:
    """Exact odds of a comparison

    Outcomes `a`, `b` and `tie` after the loser's rescue dice (in defense mode `b` is always 0);
    distributions `net` (0 = tie), `effects`, `successes_a`, `successes_b`, and `catastrophe_a`,
    `catastrophe_b` (1: the side ends with a catastrophe no rescue averted: only on a loss, ruling 8;
    ruling 3: a rescue short of a tie spends its first success on the catastrophe, so `net` counts
    it). Same rulings as
    `paws.comparison`.
    """
    return odds.comparison(pool(body["a"]), pool(body["b"]), mode=rules.Mode(body["mode"]))


# --- advice on the group's one-shot rescue dice after a loss (RULINGS.md "Advice", Paws) -----------

RESCUE_ADVICE_NOTE = """A loss is averted as a whole: a failed test by one success (ruling 3: the first averts the
catastrophe where there is one, else the failure's negative effect), a lost comparison by as many
successes as the winner's net (saved to a tie). Every `spend` from none to all of `one_shot_rescue`
is one fixed option: at most that many dice rolled on this loss, one at a time, until it is averted
or out of reach; the dice kept go to `future_losses` later losses of the same kind, taken as
certain, every die left rolled on each in turn. `win` is the share of these 1 + `future_losses`
losses averted (outcome `averted`; expected `losses_averted`, `averted_now`, `dice_spent_now`);
equal options list fewer dice first, "gleich gut" within 0.1 percentage points. One decision, made
before the dice: no `adaptive` (null)."""


def _rescue_choices(body: Body, side: str) -> dict[str, list[Any]]:
    """How many of the group's one-shot dice the side rolls on this loss at most: none up to all."""
    return {"spend": list(range(body["one_shot_rescue"] + 1))}


def _rescue_apply(body: Body, side: str, policy: Mapping[str, Any]) -> dict:
    """The body with the side's policy, ``advise.side`` kept: a comparison's odds need the loser."""
    return {**body, **policy, "advise": {"side": side}}


def _rescue_worth(body: Body, margin_now: rescue_advice.Margins, later_margins: rescue_advice.Margins) -> Odds:
    loss = rescue_advice.Loss(body["one_shot_rescue"], margin_now, body["future_losses"], later_margins)
    return rescue_advice.worth(loss, body["spend"]).odds()


def test_rescue_odds(body: Body) -> Odds:
    """A failed test: one success averts it, and each later one alike."""
    return _rescue_worth(body, rescue_advice.TEST_LOSS, rescue_advice.TEST_LOSS)


def _comparison_losers(body: Body) -> list[str]:
    return rules.sides_that_can_lose(rules.Mode(body["mode"]))


def comparison_rescue_odds(body: Body) -> Odds:
    """A lost comparison: its net (``lost_by``, or as the comparison makes it), later ones as it makes
    them; refused where the side cannot lose or cannot lose by ``lost_by``."""
    side = (body.get("advise") or {}).get("side") or _comparison_losers(body)[0]
    winner = "b" if side == "a" else "a"
    margins = odds.loss_margins(pool(body[side]), pool(body[winner]))
    if not margins:
        raise InputError("advise.side", say("%(side)s cannot lose this comparison (%(winner)s rolls no dice): "
                                            "nothing to avert", side=side, winner=winner))
    lost_by = body["lost_by"]
    if lost_by is not None and lost_by not in margins:
        raise InputError("lost_by", say("%(side)s can lose this comparison by %(least)s to %(most)s only",
                                        side=side, least=min(margins), most=max(margins)))
    return _rescue_worth(body, margins if lost_by is None else {lost_by: Fraction(1)}, margins)


def _rescue_advisor(sides: Callable[[Body], Sequence[str]], solve: Callable[[Body], Odds],
                    side_name: Callable[[Body, str], str]) -> platform_advice.Advisor:
    return platform_advice.Advisor(
        sides=sides, choices=_rescue_choices, default=lambda body, side: {"spend": body["one_shot_rescue"]},
        apply=_rescue_apply, odds=solve, wins=lambda outcome, side: outcome == "averted",
        loses=lambda outcome, side: outcome == "stands", side_name=side_name,
        headline=rescue_advice.averted_headline, describe=rescue_advice.policy_words)


TEST_RESCUE_ADVISOR = _rescue_advisor(lambda body: [rules.UNNAMED_PLAYER], test_rescue_odds,
                                      lambda body, side: body.get("name") or advised("the character"))
COMPARISON_RESCUE_ADVISOR = _rescue_advisor(_comparison_losers, comparison_rescue_odds,
                                            lambda body, side: body[side].get("name") or side.upper())


@quoting(RESCUE_ADVICE_NOTE)
def test_advice(body: Body, lang: str) -> tuple[dict[str, Any], str]:
    """Spend the group's one-shot rescue dice on this failed test, or keep them (advice)

    RULINGS.md "Advice", Paws: "Jeder Rettungswürfel darf nur einmal gewürfelt werden und ist danach
    verbraucht. Zeigt er einen Erfolg, kann man damit einen negativen Effekt abwenden." The side is
    `player` (named by `name` in the chat line).

    {rulings}
    """
    return platform_advice.answer(TEST_RESCUE_ADVISOR, body, lang)


@quoting(RESCUE_ADVICE_NOTE)
def comparison_advice(body: Body, lang: str) -> tuple[dict[str, Any], str]:
    """Spend the group's one-shot rescue dice on this lost comparison, or keep them (advice)

    RULINGS.md "Advice", Paws, and ruling 3 ("ein Vergleich zum Unentschieden gerettet, aber niemals
    ein Sieg erzielt"): the side (`a` or `b` in a contest, only `b` in defense mode) lost by `lost_by`
    after its own rescue dice; later losses are as likely as this comparison makes them, given it
    loses. 422 where the side cannot lose (the winner rolls no dice) or not by `lost_by`.

    {rulings}
    """
    return platform_advice.answer(COMPARISON_RESCUE_ADVISOR, body, lang)


def rescue(body: Body, source: RandomSource, lang: str) -> tuple[rules.RescueResult, str]:
    """Roll the group's rescue dice (Rettungswürfel)

    The one-shot rescue dice every player starts with: each is rolled once and spent; each success
    (4-6) averts one negative effect of a lost test or comparison, for any character. Ruling 3 and
    encounter ruling E3: rolled only after a loss ("darf nur einmal gewürfelt werden").
    """
    result = rules.rescue(body["dice"], source)
    return result, text.rescue(result, lang)


def rescue_odds(body: Body) -> Odds:
    """Exact odds of the group's rescue dice

    Distribution `successes`; outcomes `success` (at least one success) and `failure` (none).
    """
    return odds.rescue(body["dice"])


def validate_character(body: Body, lang: str) -> tuple[text.CharacterResult, str]:
    """Validate a character (Potenzial und Macht)

    Ruling 6: every trait has rank >= 1 (a rank 0 is refused with 422) and <= potential; good ranks
    minus bad ranks <= power ("jeder Rang in einer schlechten Eigenschaft [gleicht] einen Rang einer
    guten Eigenschaft aus"). A category may set "ein eigenes Potenzial oder eine eigene Machtstufe":
    its own `potential`, its own `power`, both or neither; what it does not set, the character's value
    governs. `power_used` counts the traits the character's power bounds together (those without a
    category and those in categories without their own power), `categories[].power_used` the traits
    of each category. The potential holds
    for bad traits as well. A trait listed twice is a problem. Every problem is listed (`problems` in
    `lang`, `issues` machine-readable), not only the first. Ruling 10: `hints` give the text's guidance,
    never a problem: a potential "mit 3 gut bemessen" (below: more ordinary characters, above: heroic
    style, from 5: gods), a power of "etwa dem fünffachen" of the potential (a hint outside 4x..6x).
    """
    check = rules.validate_character(
        body["potential"], body["power"],
        [rules.Trait(**trait) for trait in body["traits"]],
        [rules.Category(**category) for category in body["categories"]],
    )
    result = text.character_result(check, lang, body["potential"], body["power"])
    return result, text.character(result, body["power"], lang)


ENCOUNTER_EXAMPLE = {
    "a": {"name": "Ryan", "rank": 3},
    "b": {"name": "Jack", "rank": 2},
    "one_shot_rescue": {"a": 0, "b": 0},
}


def duel(body: Body) -> encounter.Duel:
    rescue = body["one_shot_rescue"]
    return encounter.Duel(*(encounter.Fighter(schemas.to_pool(body[side]), body[side]["out_at_wounds"],
                                                body[side]["give_up_at_wounds"], rescue[side])
                             for side in ("a", "b")))


ENCOUNTER_RULINGS = """Ruling Paws E1: "Der Kampf dauert so lange an, bis einer der Beteiligten Kampfunfähig ist oder
auf gibt": each round is one contest comparison (`paws.comparison`, rulings 3 and 4: the loser's
rescue dice of its pool, e.g. armour, every round); "Der Verlierer erleidet eine neue Wunde ...
Bei Gleichstand wird niemand verletzt." "Kampfunfähig" = no dice left in the pool, or
`out_at_wounds` wounds in all (the starting `wounds` count). E2: a side gives up ("oder auf gibt")
at `give_up_at_wounds` wounds in all. E3: one-shot rescue dice (`one_shot_rescue`, "Jeder
Rettungswürfel darf nur einmal gewürfelt werden und ist danach verbraucht") are rolled one at a
time after a lost round until one succeeds (4–6), which averts the wound. E4: effects add no
wounds ("verursachen niemals zusätzliche Wunden") and are not modelled. E5: every wound of the fight
lowers the fighting pool by one die (ruling 5). Both sides down before the first round:
`stalemate`."""


@quoting(ENCOUNTER_RULINGS)
def encounter_play(body: Body, source: RandomSource, lang: str) -> tuple[encounter.EncounterResult, str]:
    """Play out a whole duel (Zweikampf), round by round

    The body of `paws.encounter.odds` (its `curve_rounds` and `exact` are ignored). Every round is one
    `paws.comparison` in contest mode, and `result.steps[].comparison` is exactly that operation's
    `result`; the loser's one-shot rescue dice follow, one `paws.rescue` of one die each
    (`one_shot_rescue`). `result.outcome` is one of the odds' outcomes, `result.end` the wounds, dice
    and one-shot dice left. Without `max_rounds` a duel stops after 1000 rounds (`undecided`).

    {rulings}
    """
    result = encounter.play(duel(body), source, max_rounds=body["max_rounds"])
    names = {side: body[side].get("name") or side.upper() for side in ("a", "b")}
    return result, text.encounter(result, names, lang)


@quoting(ENCOUNTER_RULINGS)
def encounter_odds(body: Body) -> Odds:
    """Exact odds of a whole duel (Zweikampf)

    Outcomes `wins:a`, `wins:b` (and `stalemate`, with `max_rounds` also `undecided`); distributions
    `wounds:a`, `wounds:b` (wounds taken in the fight); expected `rounds`, `wounds:a`, `wounds:b`; with
    `curve_rounds`, the cumulative chances per round. The states, bounded from the body before solving,
    are per side (S + 1)(S + 2) / 2 for its S one-shot dice (all spent before its first wound, each
    state weighed by its ways to end a lost round) plus the wounds it can still take, a's times b's; with
    `max_rounds` or `curve_rounds` the rounds are pushed one by one, and the bound is states × rounds;
    over WURFWERK_MAX_ENCOUNTER_STATES the answer is a 422 `encounter-too-large`. Exact fractions under
    `exact: auto` up to WURFWERK_MAX_ENCOUNTER_EXACT_STATES, float64 above.

    {rulings}
    """
    fight = duel(body)
    rounds = max(body["max_rounds"] or 0, body["curve_rounds"])  # pushed one by one
    exact = encounter_precision(encounter.state_bound(fight), body["exact"], rounds=rounds,
                                digits=encounter.exact_digits(fight))
    return encounter.encounter_odds(fight, exact=exact, max_rounds=body["max_rounds"],
                                     curve_rounds=body["curve_rounds"])


def _advice_choices(body: Body, side: str) -> dict[str, list[Any]]:
    """RULINGS.md "Advice", Paws: how many of the side's one-shot dice it spends in this fight (E3; the
    rest kept), and at how many wounds it gives up (E2; null: never), up to where it is out anyway."""
    fighter = dataclasses.replace(duel(body).fighter(side), give_up_at_wounds=None)
    return {"one_shot_rescue": list(range(body["one_shot_rescue"][side] + 1)),
            "give_up_at_wounds": [None, *range(fighter.pool.wounds + 1, fighter.last_wounds())]}


def _advice_default(body: Body, side: str) -> dict[str, Any]:
    """The documented defaults: every one-shot die the body gives is spent (E3), never give up (E2)."""
    return {"one_shot_rescue": body["one_shot_rescue"][side], "give_up_at_wounds": None}


def _advice_apply(body: Body, side: str, policy: Mapping[str, Any]) -> dict:
    changed = copy.deepcopy(dict(body))
    if "one_shot_rescue" in policy:
        changed["one_shot_rescue"][side] = policy["one_shot_rescue"]
    if "give_up_at_wounds" in policy:
        changed[side]["give_up_at_wounds"] = policy["give_up_at_wounds"]
    return changed


def _adaptive(body: Body, side: str, asked: Mapping[str, Sequence[Any]]) -> platform_advice.Adaptive | None:
    """Spend or keep each one-shot die after every lost round, give up or fight on, in every state."""
    if body["max_rounds"] is not None:  # a cut duel's best play depends on the round as well
        return None
    index = encounter.SIDES.index(side)
    fight = duel(body)
    if "give_up_at_wounds" in asked:
        fight = advice.never_giving_up(fight, index)
    exact = encounter_precision(advice.state_bound(fight, index), body["exact"],
                                digits=encounter.exact_digits(fight))
    solved = advice.solve(fight, index, exact=exact, decide="one_shot_rescue" in asked)
    said = advice.rules(solved, rescue="one_shot_rescue" in asked, give_up="give_up_at_wounds" in asked)
    return platform_advice.Adaptive(solved.win, said, solved.states, 0.0 if exact else solved.states * 2.0 ** -48)


ADVISOR = platform_advice.Advisor(
    sides=lambda body: encounter.SIDES, choices=_advice_choices, default=_advice_default, apply=_advice_apply,
    odds=lambda body: encounter_odds(body), adaptive=_adaptive,
    side_name=lambda body, side: body[side].get("name") or side.upper(), describe=advice.policy_words)


@quoting(ENCOUNTER_RULINGS)
def encounter_advice(body: Body, lang: str) -> tuple[dict[str, Any], str]:
    """What a side's choices in a whole duel are worth (advice)

    RULINGS.md "Advice", Paws: `one_shot_rescue` (how many of the side's one-shot rescue dice it spends
    in this fight, the rest kept: "darf nur einmal gewürfelt werden", E3) and `give_up_at_wounds` ("oder
    auf gibt", E2). Every combination is one fixed option, answered exactly as `paws.encounter.odds`
    answers the body with it; ranked by the chance to win, then not to lose, then fewer rounds ("gleich
    gut" within 0.1 percentage points). `adaptive`: spend or keep each one-shot die after every lost
    round, and give up or fight on, decided anew in every state (backward induction on the duel's
    chain; the other side plays by the body); null with `max_rounds`. The states of every option and
    of the adaptive solve count together against WURFWERK_MAX_ENCOUNTER_STATES (422
    `encounter-too-large` before solving).

    {rulings}
    """
    return platform_advice.answer(ADVISOR, body, lang)


SYSTEM = System(
    "paws",
    manual_value={"type": "integer", "minimum": 1, "maximum": 6, "description": "A d6 face."},
    title="Paws",
    tagline="d6 trait pools, 4–6",
    rules_file="001_d67bcf46ff845203.txt",
    description="Trait pools of d6, successes on 4–6: tests, comparisons with cancellation and rescue "
                "dice, the group's rescue dice, character validation (potential and power).",
    enums={"fit": [fit.value for fit in rules.Fit],
           "advantage": [kind.value for kind in rules.Advantage] + [None],
           "advantage_category": list(rules.ADVANTAGE_CATEGORIES),
           "mode": [mode.value for mode in rules.Mode],
           "winner": ["a", "b", None],
           "problem_kind": [kind.value for kind in rules.ProblemKind]},
    glossary=api_glossary("paws"),  # service/locale/glossary.json, the one glossary
    extra={"combat_effects": [dict(effect) for effect in rules.COMBAT_EFFECTS], "dodging": rules.DODGING},
    operations=(
        Operation.rolling("/test", test, operation="test", request=schemas.PawsTestRequest,
                          result=schemas.PawsTestResult, example=POOL_EXAMPLE, odds=test_odds,
                          luck=Luck("successes"), advice=test_advice, advice_request=schemas.PawsTestAdviceRequest),
        Operation.rolling("/comparison", comparison, operation="comparison",
                          request=schemas.PawsComparisonRequest, result=schemas.PawsComparisonResult,
                          example=COMPARISON_EXAMPLE, odds=comparison_odds,
                          luck=Luck("successes_a", lambda result: result["a"]["successes"]),
                          advice=comparison_advice, advice_request=schemas.PawsComparisonAdviceRequest),
        Operation.rolling("/rescue", rescue, operation="rescue", request=schemas.PawsRescueRequest,
                          result=schemas.PawsRescueResult, example=RESCUE_EXAMPLE, odds=rescue_odds,
                          luck=Luck("successes")),
        Operation.resolving("/validate-character", validate_character, operation="validate-character",
                            request=schemas.PawsValidateCharacterRequest, result=schemas.PawsCharacterResult,
                            example=CHARACTER_EXAMPLE),
        Operation.rolling("/encounter", encounter_play, operation="encounter", request=schemas.PawsEncounterRequest,
                          result=schemas.PawsEncounterResult, example=ENCOUNTER_EXAMPLE,
                          odds=encounter_odds, encounter=True, advice=encounter_advice),
    ),
)
