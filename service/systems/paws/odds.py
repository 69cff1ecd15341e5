"""Exact odds for Paws. Every die succeeds with probability 1/2 (faces 4, 5, 6 of six).

With p = 1/2 every count of successes is C(n, k) / 2^n, and a difference of two counts has a closed
form: if A ~ Bin(n, 1/2) and B ~ Bin(m, 1/2) then m - B ~ Bin(m, 1/2) as well, so A - B + m ~
Bin(n + m, 1/2). The loser's rescue successes R ~ Bin(r, 1/2) enter the same way: the winner keeps
net k >= 1 exactly when A - B - R = k, and A - B - R + m + r ~ Bin(n + m + r, 1/2). So every
probability here is one binomial coefficient over a power of two: O(n) integer arithmetic.
"""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache
from math import comb

from service.platform.odds import Odds, mean
from service.systems.paws.rules import Mode, Pool, effects_for

P_SUCCESS = Fraction(1, 2)
P_ONE = Fraction(1, 6)


@lru_cache(maxsize=1024)
def successes(dice: int) -> dict[int, Fraction]:
    """P(k successes) for k = 0..dice."""
    return {k: Fraction(comb(dice, k), 2**dice) for k in range(dice + 1)}


def _effects_of(distribution: dict[int, Fraction]) -> dict[int, Fraction]:
    """The effects distribution of any successes (or net) distribution."""
    out: dict[int, Fraction] = {}
    for value, p in distribution.items():
        out[effects_for(value)] = out.get(effects_for(value), Fraction(0)) + p
    return out


@lru_cache(maxsize=1024)
def _effects(dice: int) -> dict[int, Fraction]:
    """P(e effects) for the successes of ``dice`` dice, summed as integers over 2^dice."""
    counts: dict[int, int] = {}
    for k in range(dice + 1):
        counts[effects_for(k)] = counts.get(effects_for(k), 0) + comb(dice, k)
    return {effects: Fraction(count, 2**dice) for effects, count in counts.items()}


@lru_cache(maxsize=1024)
def _test(dice: int, rescue_dice: int) -> Odds:
    no_success = Fraction(1, 2**dice)
    all_ones = P_ONE**dice if dice else Fraction(0)  # ruling 2: 0 dice is a plain failure
    catastrophe = all_ones / 2**rescue_dice  # ruling 3: one rescue success averts it
    effects = _effects(dice)
    return Odds(
        outcomes={"success": 1 - no_success, "failure": no_success - catastrophe, "catastrophe": catastrophe},
        distributions={"successes": successes(dice), "effects": effects},
        expected={"successes": dice * P_SUCCESS, "effects": mean(effects)},
    )


def test(pool: Pool) -> Odds:
    return _test(pool.dice, pool.rescue_dice)


def _wins_by_net(winner_dice: int, loser_dice: int, loser_rescue: int) -> dict[int, Fraction]:
    """P(the winner keeps net k) for k >= 1, after the loser's rescue dice (closed form above)."""
    trials = winner_dice + loser_dice + loser_rescue
    offset = loser_dice + loser_rescue
    return {k: Fraction(comb(trials, k + offset), 2**trials) for k in range(1, winner_dice + 1)}


@lru_cache(maxsize=1024)
def _comparison(a_dice: int, a_rescue: int, b_dice: int, b_rescue: int, mode: Mode) -> Odds:
    a_wins = _wins_by_net(a_dice, b_dice, b_rescue)
    # Ruling 4: in defense mode the defender never wins, so b "wins" only in a contest.
    b_wins = _wins_by_net(b_dice, a_dice, a_rescue) if mode is Mode.CONTEST else {}
    p_a, p_b = sum(a_wins.values(), Fraction(0)), sum(b_wins.values(), Fraction(0))
    tie = 1 - p_a - p_b
    net = {0: tie}
    for k, p in [*a_wins.items(), *b_wins.items()]:
        net[k] = net.get(k, Fraction(0)) + p
    a_successes, b_successes = successes(a_dice), successes(b_dice)
    return Odds(
        outcomes={"a": p_a, "b": p_b, "tie": tie},
        distributions={"net": net, "effects": _effects_of(net),
                       "successes_a": a_successes, "successes_b": b_successes},
        expected={"net": mean(net), "effects": mean(_effects_of(net)),
                  "successes_a": a_dice * P_SUCCESS, "successes_b": b_dice * P_SUCCESS},
    )


def comparison(a: Pool, b: Pool, *, mode: Mode = Mode.CONTEST) -> Odds:
    return _comparison(a.dice, a.rescue_dice, b.dice, b.rescue_dice, mode)


@lru_cache(maxsize=256)
def rescue(dice: int) -> Odds:
    distribution = successes(dice)
    return Odds(
        outcomes={"success": 1 - distribution[0], "failure": distribution[0]},
        distributions={"successes": distribution},
        expected={"successes": dice * P_SUCCESS},
    )
