"""Exact Weltenbuch odds against icepool (an independent dice-probability library) and against
seeded sampling of the rules (fixed seeds: the counts are deterministic, the test cannot flake)."""

from __future__ import annotations

import random
from fractions import Fraction

import icepool
import pytest

from service.platform.dice.randomness import GeneratorSource
from service.systems.weltenbuch import odds, rules
from service.systems.weltenbuch.rules import Member, Party, Role


def party(name, *pools):
    return Party(name, tuple(Member(f"{name}{i}", Role.NPC, dice) for i, dice in enumerate(pools)))


def icepool_party(pools, die):
    """A party's successes from icepool's own d<die> (so the 1/2 per die is checked, not assumed)."""
    success = icepool.d(die).map(lambda face: 1 if face % 2 == 0 else 0)
    total = icepool.Die([0])
    for dice in pools:
        total = total + dice @ success if dice else total
    return total


def icepool_outcomes(parties_pools, die):
    names = [f"p{i}" for i in range(len(parties_pools))]

    def verdict(*successes):
        best = max(successes)
        leaders = [name for name, s in zip(names, successes) if s == best]
        return f"wins:{leaders[0]}" if len(leaders) == 1 else "tie"

    dice = [icepool_party(pools, die) for pools in parties_pools]
    joint = icepool.map(verdict, *dice)
    return {outcome: Fraction(joint.quantity(outcome), joint.denominator()) for outcome in joint.outcomes()}, dice


CASES = [
    ([[3], [2]], 10),
    ([[7, 3], [3, 3, 3]], 10),  # the orc ambush
    ([[2, 1], [4], [0, 3]], 6),
    ([[5], [5], [5]], 4),
    ([[1], [2], [3], [4]], 20),
    ([[0], [1]], 10),
    ([[6, 6], [12], [3, 9]], 100),
]


@pytest.mark.parametrize("pools, die", CASES)
def test_outcomes_and_distributions_agree_with_icepool(pools, die):
    exact = odds.conflict([party(f"p{i}", *p) for i, p in enumerate(pools)])
    expected, dice = icepool_outcomes(pools, die)
    assert {k: v for k, v in exact.outcomes.items() if v} == expected
    for i, icepool_die in enumerate(dice):
        distribution = exact.distributions[f"successes:p{i}"]
        assert distribution == {k: Fraction(icepool_die.quantity(k), icepool_die.denominator())
                                for k in icepool_die.outcomes()}
        assert exact.expected[f"successes:p{i}"] == icepool_die.mean()
    exact.check()


def test_eight_parties_agree_with_sampling():
    """Seeded sampling of the real rules: every frequency within 4.5 standard errors of the exact
    value (deterministic counts; this bound is far outside what a correct implementation misses by)."""
    parties = [party(f"p{i}", *[1 + (i + j) % 3 for j in range(3)]) for i in range(8)]
    exact = odds.conflict(parties)
    trials = 6000
    source = GeneratorSource(random.Random(20261129), "seeded")
    counts = dict.fromkeys(exact.outcomes, 0)
    for _ in range(trials):
        winner = rules.conflict(parties, source).winner
        counts["tie" if winner is None else f"wins:{winner}"] += 1
    for outcome, p in exact.outcomes.items():
        error = (float(p) * (1 - float(p)) / trials) ** 0.5
        assert abs(counts[outcome] / trials - float(p)) <= 4.5 * error + 1e-9, outcome


def test_two_parties_against_sampling_on_a_d6():
    parties = [party("a", 4, 2), party("b", 5)]
    exact = odds.conflict(parties)
    trials = 20000
    source = GeneratorSource(random.Random(7), "seeded")
    counts = {"wins:a": 0, "wins:b": 0, "tie": 0}
    for _ in range(trials):
        winner = rules.conflict(parties, source, die=6).winner
        counts["tie" if winner is None else f"wins:{winner}"] += 1
    for outcome, p in exact.outcomes.items():
        error = (float(p) * (1 - float(p)) / trials) ** 0.5
        assert abs(counts[outcome] / trials - float(p)) <= 4.5 * error


def test_outcomes_sum_to_one_exactly():
    exact = odds.conflict([party("a", 100, 100), party("b", 100, 99, 1), party("c", 3)])
    assert sum(exact.outcomes.values()) == 1
    assert exact.outcomes["wins:a"] == exact.outcomes["wins:b"]  # same dice, same chance


def test_win_counts_match_a_direct_sum():
    """The grouped, prefix/suffix computation against the plain definition."""
    dice = [5, 3, 5, 0, 4]
    counts = [odds._counts(n) for n in dice]
    below = [lambda k, c=c: sum(c[:max(0, k)]) for c in counts]
    direct = []
    for p, n in enumerate(dice):
        total = 0
        for k in range(1, n + 1):
            others = 1
            for q, m in enumerate(dice):
                others *= 2**m if q == p else below[q](k)
            total += counts[p][k] * others // 2**n
        direct.append(total)
    assert odds.win_counts(dice) == direct


def test_largest_conflict_odds_are_exact_and_sum_to_one():
    """8 parties, 20 members, 18 to 25 dice each (4000, all parties different); its speed is a case
    of bench/odds_speed.py."""
    parties = [party(f"p{i}", *[25 - i] * 20) for i in range(8)]
    odds.conflict(parties).check()


def test_resurrection_odds_are_one_eighth_each():
    exact = odds.resurrection()
    assert set(exact.outcomes.values()) == {Fraction(1, 8)} and len(exact.outcomes) == 8
