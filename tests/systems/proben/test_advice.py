"""Proben advice (RULINGS.md "Advice", Proben): retry a failed step with one die fewer or stop
("Möchte ein Spieler eine misslungene Probe wiederholen, wird hierfür ein Würfel entfernt", ruling 3,
E1) and `carry_partial` ("sodass eine weitere Probe nur 1 Erfolg benötigt", E2)."""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest

from service.platform.maths.odds import binomial
from service.systems.proben import advice, encounter
from service.systems.proben.odds import P_SUCCESS
from service.systems.proben.rules import Pool, SuccessRule

TWO_STEPS = {"steps": [{"pool": {"name": "Alrik", "attribute": 3, "skill": 1}, "difficulty": 2},
                       {"pool": {"attribute": 2, "skill": 1}, "difficulty": 2}]}


def _chain(*steps: tuple[int, int], carry: bool = False) -> encounter.Chain:
    return encounter.Chain(tuple(encounter.Step(Pool(attribute=dice), difficulty) for dice, difficulty in steps),
                           SuccessRule.MEET, carry)


def test_hand_worked_retry_and_carry():
    """Two dice against difficulty 1: the first attempt succeeds with 1 − (2/3)² = 5/9, the retry with one
    die fewer with 1/3 (ruling 3), so stopping after one attempt gives 5/9 and retrying 5/9 + 4/9 · 1/3
    = 19/27. Against difficulty 2 the first attempt succeeds with 1/9; carried (E2), its one success
    leaves one more to roll with the last die: 1/9 + 4/9 · 1/3 = 7/27; not carried, one die never
    reaches 2: 1/9."""
    assert advice.solve(_chain((2, 1)), exact=True, carry_choices=(False,)).win == Fraction(19, 27)
    stopped = encounter.odds(encounter.Chain((encounter.Step(Pool(attribute=2), 1, max_attempts=1),)))
    assert stopped.outcomes["success"] == Fraction(5, 9)
    assert advice.solve(_chain((2, 2)), exact=True, carry_choices=(True,)).win == Fraction(7, 27)
    assert advice.solve(_chain((2, 2)), exact=True, carry_choices=(False,)).win == Fraction(1, 9)
    assert advice.solve(_chain((2, 2)), exact=True, carry_choices=(False, True)).carry_partial is True


def _by_policy(dice: int, required: int, carry: bool, retry: dict[tuple[int, int], bool]) -> Fraction:
    """A step's chance when the player retries (True) or stops in each failed state (attempt, carried):
    enumerated attempt by attempt, independent of the solver."""
    def value(attempt: int, carried: int) -> Fraction:
        left = dice - (attempt - 1)
        if left <= 0:
            return Fraction(0)
        total = Fraction(0)
        for successes, chance in enumerate(binomial(left, P_SUCCESS)):
            if carried + successes >= required:
                total += chance
            else:
                state = (attempt + 1, carried + successes if carry else 0)
                total += chance * value(*state) if retry.get(state, True) else 0
        return total
    return value(1, 0)


@pytest.mark.parametrize("dice, required, carry", [(3, 1, False), (3, 2, True), (4, 2, False), (3, 3, True)])
def test_the_adaptive_optimum_is_the_best_of_every_deterministic_policy(dice, required, carry):
    states = [(attempt, carried) for attempt in range(2, dice + 1) for carried in range(required if carry else 1)]
    best = max(_by_policy(dice, required, carry, dict(zip(states, choice, strict=True)))
               for choice in itertools.product((True, False), repeat=len(states)))
    chain = _chain((dice, required), carry=carry)
    assert advice.solve(chain, exact=True, carry_choices=(carry,)).win == best


def test_every_option_is_exactly_the_encounter_odds_and_the_optimum_is_not_below(post):
    status, answer = post("/v1/proben/encounter/advice", TWO_STEPS)
    assert status == 200, answer
    block = answer["advice"]
    assert len(block["options"]) == 4 * 3 * 2  # [null, 1..3] × [null, 1..2] × carry_partial
    for option in block["options"][:5] + block["options"][-3:]:
        policy = option["policy"]
        body = {**TWO_STEPS, "carry_partial": policy["carry_partial"],
                "steps": [{**step, "max_attempts": attempts}
                          for step, attempts in zip(TWO_STEPS["steps"], policy["max_attempts"], strict=True)]}
        _, odds = post("/v1/proben/encounter/odds", body)
        assert option["win"] == {k: v for k, v in odds["odds"]["outcomes"][0].items() if k != "outcome"}
        assert odds["odds"]["outcomes"][0]["outcome"] == "success"
    assert block["best"]["policy"] == {"max_attempts": [None, None], "carry_partial": True}
    assert block["default"]["policy"] == {"max_attempts": [None, None], "carry_partial": False}
    assert Fraction(block["adaptive"]["win"]["exact"]) >= Fraction(block["best"]["win"]["exact"])
    assert block["adaptive"]["gain_over_best_fixed"]["exact"] == "0/1"


def test_the_rules_in_german(post):
    _, answer = post("/v1/proben/encounter/advice?lang=de", TWO_STEPS)
    assert answer["advice"]["adaptive"]["rules"][:2] == [
        "Wiederhole jede misslungene Probe mit einem Würfel weniger, solange Würfel übrig sind: "
        "Aufhören gelingt nie öfter.",
        "Lass Teilerfolge für den nächsten Versuch zählen, wo der Spielleiter es erlaubt."]
    assert answer["summary"].startswith(
        "Rat für Alrik: am besten jeden misslungenen Schritt wiederholen, solange Würfel übrig sind, "
        "Teilerfolge für den nächsten Versuch zählen")


def test_the_side_is_the_chain(post):
    status, problem = post("/v1/proben/encounter/advice", {**TWO_STEPS, "advise": {"side": "Alrik"}})
    assert status == 422 and problem["errors"] == {"advise.side": ["must be one of: chain"]}


COOPERATION = {"leader": {"name": "Alrik", "attribute": 2, "skill": 1},
               "helpers": [{"name": "Mira", "attribute": 2}, {"attribute": 1}], "difficulty": 3}


def test_who_helps_hand_worked(post):
    """Ruling 5 ("each helper with >= 1 success gives the leader one advantage die"): Alrik's 3 dice
    reach difficulty 3 with (1/3)³ = 1/27 alone; Mira helps with 1 − (2/3)² = 5/9, and 4 dice reach 3
    with 4 · (1/3)³ · 2/3 + (1/3)⁴ = 1/9, so with her 4/9 · 1/27 + 5/9 · 1/9 = 19/243."""
    status, answer = post("/v1/proben/cooperation/advice", COOPERATION)
    assert status == 200, answer
    wins = {tuple(o["policy"]["helpers"]): o["win"]["exact"] for o in answer["advice"]["options"]}
    assert wins[()] == "1/27" and wins[("Mira",)] == "19/243"
    assert answer["advice"]["options"][0]["policy"] == {"helpers": ["Mira", "helpers.1"]}
    assert answer["advice"]["default"]["policy"] == {"helpers": ["Mira", "helpers.1"]}
    assert answer["advice"]["adaptive"] is None
    assert answer["summary"].startswith("Advice for Alrik: best with the help of Mira, helpers.1, ")


def test_every_helper_choice_is_exactly_the_cooperation_odds(post):
    _, answer = post("/v1/proben/cooperation/advice", COOPERATION)
    for option in answer["advice"]["options"]:
        chosen = [helper for index, helper in enumerate(COOPERATION["helpers"])
                  if (helper.get("name") or f"helpers.{index}") in option["policy"]["helpers"]]
        if not chosen:
            continue  # the request needs a helper; the option without one is the leader's own test
        _, odds = post("/v1/proben/cooperation/odds", {**COOPERATION, "helpers": chosen})
        assert option["outcomes"] == {p["outcome"]: {"probability": p["probability"], "exact": p["exact"]}
                                      for p in odds["odds"]["outcomes"]}
    alone = next(o for o in answer["advice"]["options"] if o["policy"]["helpers"] == [])
    _, test = post("/v1/proben/test/odds", {**COOPERATION["leader"], "difficulty": 3})
    assert alone["win"]["exact"] == next(p["exact"] for p in test["odds"]["outcomes"] if p["outcome"] == "success")


def test_seven_helpers_are_too_many_options(post):
    helpers = [{"name": f"H{index}", "attribute": 1} for index in range(7)]
    status, problem = post("/v1/proben/cooperation/advice", {**COOPERATION, "helpers": helpers})
    assert status == 422 and problem["errors"] == {
        "advise.choices": ["give 128 fixed options, more than 64: ask for fewer choices"]}


def test_helpers_of_one_name_are_told_apart(post):
    twins = {**COOPERATION, "helpers": [{"name": "Mira", "attribute": 2}, {"name": "Mira", "attribute": 1}]}
    status, answer = post("/v1/proben/cooperation/advice", twins)
    assert status == 200, answer
    assert [o["policy"]["helpers"] for o in answer["advice"]["options"]][0] == ["helpers.0", "helpers.1"]
    assert len({tuple(o["policy"]["helpers"]) for o in answer["advice"]["options"]}) == 4
