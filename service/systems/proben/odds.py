"""Exact odds for Proben. Every die succeeds with probability 1/3 (faces 5 and 6 of six)."""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache

from service.platform.maths.odds import Odds, binomial, binomial_weights, from_pairs
from service.systems.proben.rules import MAX_OPPOSED_ROUNDS, Pool, SuccessRule, dice_for_attempt, required_successes

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


@lru_cache(maxsize=1024)
def _compare(a_dice: int, b_dice: int) -> tuple[Fraction, Fraction, Fraction]:
    """P(a more successes), P(b more), P(equal) for one round; O(n) running sums in integers."""
    (a_weights, a_total), (b_weights, b_total) = (binomial_weights(a_dice, P_SUCCESS),
                                                  binomial_weights(b_dice, P_SUCCESS))
    a_wins = equal = b_below = 0  # b_below: weight of b rolling fewer than i successes
    for i, weight in enumerate(a_weights):
        a_wins += weight * b_below
        if i < len(b_weights):
            equal += weight * b_weights[i]
            b_below += b_weights[i]
    total = a_total * b_total
    return Fraction(a_wins, total), Fraction(total - a_wins - equal, total), Fraction(equal, total)


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
        tie = equal**MAX_OPPOSED_ROUNDS
        repeat = (1 - tie) / (1 - equal)
        a_wins, b_wins = a_wins * repeat, b_wins * repeat
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


def _weight_below(dice: int, required: int) -> int:
    """3^dice * P(Bin(dice, 1/3) < required) as an integer: sum of C(dice, j) 2^(dice-j), j < required.
    The common factor 2^(dice-required+1) is shifted in at the end, so the running sum stays small."""
    last = min(required, dice + 1) - 1
    coefficient, total = 1, 0  # C(dice, j)
    for j in range(last + 1):
        total += coefficient << (last - j)
        coefficient = coefficient * (dice - j) // (j + 1)
    return total << (dice - last)


@lru_cache(maxsize=256)
def extended(pool: Pool, required: int) -> Odds:
    """Cumulative successes after k rolls are Bin(dice rolled so far, 1/3), because a sum of
    independent binomials with the same p is binomial; so P(done by roll k) is a binomial tail.
    All rolls share the denominator 3^(all dice) so the sums stay in integers."""
    rolls = list(range(pool.dice, 0, -1))
    if not rolls:
        return Odds(outcomes={"success": Fraction(0), "failure": Fraction(1)},
                    distributions={"rolls_used": {0: Fraction(1)}})
    all_dice = sum(rolls)
    denominator = 3**all_dice
    done_weights: list[int] = []  # weight (over the denominator) of being done by roll k
    dice_so_far = 0
    for dice in rolls:
        dice_so_far += dice
        below = _weight_below(dice_so_far, required) * 3 ** (all_dice - dice_so_far)
        done_weights.append(denominator - below)
    per_roll = [done - before for done, before in zip(done_weights, [0] + done_weights[:-1])]
    per_roll[-1] += denominator - done_weights[-1]  # a failure uses every roll
    rolls_used = {roll: Fraction(weight, denominator) for roll, weight in enumerate(per_roll, start=1)}
    success = Fraction(done_weights[-1], denominator)
    return Odds(outcomes={"success": success, "failure": 1 - success},
                distributions={"rolls_used": rolls_used})
