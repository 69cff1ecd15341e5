"""Exact odds for Proben. Every die succeeds with probability 1/3 (faces 5 and 6 of six)."""

from __future__ import annotations

from fractions import Fraction
from math import comb

from service.platform.odds import Odds, binomial, from_pairs
from service.systems.proben.rules import (MAX_OPPOSED_ROUNDS, Pool, SuccessRule, dice_for_attempt,
                                          required_successes)

P_SUCCESS = Fraction(1, 3)


def _outcomes(dice: int, required: int) -> dict[str, Fraction]:
    if dice == 0:
        return {"success": Fraction(0), "partial": Fraction(0), "failure": Fraction(0),
                "no_dice": Fraction(1)}
    distribution = binomial(dice, P_SUCCESS)
    success = sum(distribution[required:], Fraction(0))
    failure = distribution[0] if required > 0 else Fraction(0)
    return {"success": success, "partial": 1 - success - failure, "failure": failure}


def test(pool: Pool, difficulty: int, *, attempt: int = 1, rule: SuccessRule = SuccessRule.MEET) -> Odds:
    dice = dice_for_attempt(pool.dice, attempt)
    return Odds(
        outcomes=_outcomes(dice, required_successes(difficulty, rule)),
        distributions={"successes": dict(enumerate(binomial(dice, P_SUCCESS)))},
        expected={"successes": dice * P_SUCCESS},
    )


def _compare(a_dice: int, b_dice: int) -> tuple[Fraction, Fraction, Fraction]:
    """P(a more successes), P(b more), P(equal) for one round; O(n) with running sums."""
    pa, pb = binomial(a_dice, P_SUCCESS), binomial(b_dice, P_SUCCESS)
    a_wins = equal = Fraction(0)
    b_below = Fraction(0)  # P(b < i) as i grows
    for i, p in enumerate(pa):
        a_wins += p * b_below
        if i < len(pb):
            equal += p * pb[i]
            b_below += pb[i]
    return a_wins, 1 - a_wins - equal, equal


def opposed(a: Pool, b: Pool, *, allow_tie: bool = False) -> Odds:
    a_wins, b_wins, equal = _compare(a.dice, b.dice)
    if a.base != b.base:  # an equal round is decided by the higher base at once
        if a.base > b.base:
            a_wins += equal
        else:
            b_wins += equal
        tie = Fraction(0)
    elif allow_tie or equal == 1:
        tie = equal
    else:
        # Equal rounds are rolled again, at most 20 rounds in all: a geometric series.
        repeat = sum((equal**k for k in range(MAX_OPPOSED_ROUNDS)), Fraction(0))
        a_wins, b_wins, tie = a_wins * repeat, b_wins * repeat, equal**MAX_OPPOSED_ROUNDS
    return Odds(outcomes={"a": a_wins, "b": b_wins, "tie": tie},
                expected={"successes_a": a.dice * P_SUCCESS, "successes_b": b.dice * P_SUCCESS})


def cooperation(leader: Pool, helpers: list[Pool], difficulty: int, *,
                rule: SuccessRule = SuccessRule.MEET) -> Odds:
    helping: dict[int, Fraction] = {0: Fraction(1)}
    for helper in helpers:
        helps = 1 - (1 - P_SUCCESS) ** helper.dice  # at least one success among its dice
        helping = from_pairs(
            pair for count, p in helping.items()
            for pair in ((count + 1, p * helps), (count, p * (1 - helps)))
        )
    required = required_successes(difficulty, rule)
    outcomes = from_pairs(
        (name, p * q)
        for extra, p in helping.items()
        for name, q in _outcomes(leader.dice + extra, required).items()
    )
    outcomes = {name: p for name, p in outcomes.items() if name != "no_dice" or p}
    return Odds(outcomes=outcomes, distributions={"advantages": helping},
                expected={"advantages": sum((k * p for k, p in helping.items()), Fraction(0))})


def _at_least(dice: int, required: int) -> Fraction:
    """P(Bin(dice, 1/3) >= required), exact, with integer arithmetic (dice may be in the thousands)."""
    below = sum(comb(dice, j) * 2 ** (dice - j) for j in range(min(required, dice + 1)))
    return 1 - Fraction(below, 3**dice)


def extended(pool: Pool, required: int) -> Odds:
    """Cumulative successes after k rolls are Bin(dice rolled so far, 1/3), because a sum of
    independent binomials with the same p is binomial; so P(done by roll k) is a binomial tail."""
    rolls_used: dict[int, Fraction] = {}
    done_before = Fraction(0)
    dice_so_far = 0
    for roll, dice in enumerate(range(pool.dice, 0, -1), start=1):
        dice_so_far += dice
        done_by_now = _at_least(dice_so_far, required)
        rolls_used[roll] = done_by_now - done_before
        done_before = done_by_now
    failure = 1 - done_before
    if pool.dice:
        rolls_used[pool.dice] += failure  # a failure uses every roll
    else:
        rolls_used[0] = Fraction(1)
    return Odds(outcomes={"success": done_before, "failure": failure},
                distributions={"rolls_used": rolls_used})
