"""Exact odds for Weltenbuch.

Half the faces of an even-sided die are even, so every die succeeds with probability 1/2 whatever
its size, and a party's successes are Binomial(its dice, 1/2): a sum of binomials with the same p is
binomial. Everything is counted in integers over the common denominator 2^N (N = the party's dice, or
all dice for the winner), because Fractions of 2000-die binomials would be far too slow.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from fractions import Fraction
from functools import lru_cache
from itertools import accumulate
from math import comb
from operator import mul

from service.platform.maths.odds import Odds
from service.platform.values.errors import InputError
from service.platform.words.messages import say
from service.systems.weltenbuch.rules import GOD_DIE, Party

# Exact fractions over 2^N grow with all dice of the conflict: beyond 8000 dice (8 parties of 1000)
# the sum takes too long for the one-second budget, and the exact strings get too long to print.
MAX_ODDS_DICE = 8000


@lru_cache(maxsize=64)
def _counts(dice: int) -> tuple[int, ...]:
    """Ways to roll k successes with ``dice`` dice, k = 0..dice (they sum to 2^dice)."""
    return tuple(comb(dice, k) for k in range(dice + 1))


@lru_cache(maxsize=64)
def successes(dice: int) -> dict[int, Fraction]:
    return {k: Fraction(ways, 2**dice) for k, ways in enumerate(_counts(dice))}


def party_successes(dice: int) -> dict[int, Fraction]:
    return dict(successes(dice))  # a copy: the cached one is shared


@lru_cache(maxsize=64)
def _cumulative(dice: int) -> tuple[int, ...]:
    """Ways to roll at most k successes, k = 0..dice."""
    return tuple(accumulate(_counts(dice)))


def win_counts(dice: Sequence[int]) -> list[int]:
    """For each party (given by its number of dice), the ways out of 2^sum(dice) that it rolls
    strictly more successes than every other party.

    Sum over the winning value k: ways(party rolls k) times the product of the other parties' ways
    to roll below k. Work is shared where it can be: parties with equal dice are one group (raised to
    its multiplicity), a party that cannot reach k is a power of two (a shift, not a product), and the
    products leaving one group out come from prefix and suffix products, so each k costs O(groups).
    """
    groups = Counter(dice)
    sizes = sorted(groups)
    wins = dict.fromkeys(sizes, 0)
    for k in range(1, max(sizes) + 1):
        shift = sum(n * groups[n] for n in sizes if n < k)  # these roll below k in every way
        live = [(n, groups[n], _cumulative(n)[k - 1]) for n in sizes if n >= k]
        powers = [below**count for _, count, below in live]
        prefix = list(accumulate([1, *powers[:-1]], mul))
        suffix = list(accumulate([1, *powers[:0:-1]], mul))[::-1]
        for i, (n, count, below) in enumerate(live):
            others = prefix[i] * suffix[i] * below ** (count - 1)
            wins[n] += (_counts(n)[k] * others) << shift
    return [wins[n] for n in dice]


def conflict(parties: Sequence[Party]) -> Odds:
    dice = [party.dice for party in parties]
    if sum(dice) > MAX_ODDS_DICE:
        raise InputError("parties", say("exact odds are computed for at most %(max)s dice in all "
                                        "(this conflict rolls %(dice)s)", max=MAX_ODDS_DICE, dice=sum(dice)))
    denominator = 2 ** sum(dice)
    wins = {f"wins:{party.name}": Fraction(ways, denominator)
            for party, ways in zip(parties, win_counts(dice))}
    outcomes = {**wins, "tie": 1 - sum(wins.values())}
    return Odds(
        outcomes=outcomes,
        distributions={f"successes:{party.name}": party_successes(party.dice) for party in parties},
        expected={f"successes:{party.name}": Fraction(party.dice, 2) for party in parties},
    )


def resurrection(gods: Sequence[str] | None = None) -> Odds:
    """Every god is equally likely, 1/8 each."""
    each = Fraction(1, GOD_DIE)
    return Odds(outcomes={f"god:{god}": each for god in range(1, GOD_DIE + 1)},
                distributions={"god": {god: each for god in range(1, GOD_DIE + 1)}},
                expected={"god": Fraction(GOD_DIE + 1, 2)})
