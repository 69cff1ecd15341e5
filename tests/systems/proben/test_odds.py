"""Proben odds against icepool and against seeded sampling."""

from __future__ import annotations

import random
from fractions import Fraction

import icepool
import pytest

from service.platform.dice.randomness import GeneratorSource
from service.systems.proben import odds, rules
from service.systems.proben.rules import Pool

HIT = icepool.Die([0, 0, 0, 0, 1, 1])  # a d6 counted as success on 5-6


def successes_die(dice: int):
    return dice @ HIT


@pytest.mark.parametrize("attribute,difficulty,attempt", [(1, 1, 1), (3, 2, 1), (5, 3, 2), (8, 4, 1), (2, 3, 1)])
def test_test_odds_match_icepool(attribute, difficulty, attempt):
    ours = odds.test(Pool(attribute=attribute), difficulty, attempt=attempt)
    die = successes_die(attribute - attempt + 1)
    assert ours.outcomes["success"] == die.probability(">=", difficulty)
    assert ours.outcomes["failure"] == die.probability(0)
    for value, probability in ours.distributions["successes"].items():
        assert probability == die.probability(value)


@pytest.mark.parametrize("a,b,allow_tie", [(3, 3, True), (2, 4, True), (3, 2, True)])
def test_opposed_single_round_matches_icepool(a, b, allow_tie):
    ours = odds.opposed(Pool(attribute=a), Pool(attribute=b), allow_tie=allow_tie)
    difference = successes_die(a) - successes_die(b)
    if a == b:
        assert ours.outcomes["a"] == difference.probability(">", 0)
        assert ours.outcomes["tie"] == difference.probability(0)
    else:  # bases differ: an equal round goes to the higher base
        stronger = "a" if a > b else "b"
        strict = difference.probability(">", 0) if stronger == "a" else difference.probability("<", 0)
        assert ours.outcomes[stronger] == strict + difference.probability(0)


def test_opposed_rerolls_form_a_geometric_series():
    ours = odds.opposed(Pool(attribute=2), Pool(attribute=2))
    difference = successes_die(2) - successes_die(2)
    equal = difference.probability(0)
    assert ours.outcomes["tie"] == equal**20
    assert ours.outcomes["a"] == ours.outcomes["b"] == (1 - equal**20) / 2


def test_cooperation_matches_icepool():
    # Leader 2 dice, helpers with 1 and 2 dice; each helper adds a die when it rolls a success.
    helper_one = (successes_die(1) >= 1).map({True: 1, False: 0})
    helper_two = (successes_die(2) >= 1).map({True: 1, False: 0})
    leader = (helper_one + helper_two).map(lambda extra: successes_die(2 + extra))
    ours = odds.cooperation(Pool(attribute=2), [Pool(attribute=1), Pool(attribute=2)], 2)
    assert ours.outcomes["success"] == leader.probability(">=", 2)
    assert ours.outcomes["failure"] == leader.probability(0)


def test_extended_matches_a_direct_recursion():
    """The closed form (cumulative successes are binomial in the dice rolled so far) against a
    step-by-step recursion over the rolls."""
    pool, required = Pool(attribute=5), 4
    states = {0: Fraction(1)}
    success_by_roll = {}
    for roll, dice in enumerate(range(5, 0, -1), start=1):
        die = successes_die(dice)
        new_states: dict[int, Fraction] = {}
        done = Fraction(0)
        for total, p in states.items():
            for k in die.outcomes():
                q = p * die.probability(k)
                if total + k >= required:
                    done += q
                else:
                    new_states[total + k] = new_states.get(total + k, Fraction(0)) + q
        success_by_roll[roll] = done
        states = new_states
    ours = odds.extended(pool, required)
    assert ours.outcomes["success"] == sum(success_by_roll.values())
    for roll in range(1, 5):
        assert ours.distributions["rolls_used"][roll] == success_by_roll[roll]


def _sample(run, seed: int, trials: int) -> dict:
    counts: dict = {}
    rng = random.Random(seed)
    for _ in range(trials):
        outcome = run(GeneratorSource(random.Random(rng.getrandbits(64)), "seeded"))
        counts[outcome] = counts.get(outcome, 0) + 1
    return counts


def _assert_within_five_sigma(counts: dict, exact: dict, trials: int):
    for outcome, probability in exact.items():
        p = float(probability)
        sigma = (trials * p * (1 - p)) ** 0.5
        assert abs(counts.get(outcome, 0) - trials * p) <= 5 * sigma + 1e-9, (outcome, counts, p)


@pytest.mark.parametrize("name,run,exact", [
    ("test", lambda s: rules.test(Pool(attribute=4), 2, s).outcome.value,
     lambda: odds.test(Pool(attribute=4), 2).outcomes),
    ("opposed", lambda s: rules.opposed(Pool(attribute=3), Pool(attribute=3), s).winner or "tie",
     lambda: odds.opposed(Pool(attribute=3), Pool(attribute=3)).outcomes),
    ("cooperation", lambda s: rules.cooperation(Pool(attribute=2), [Pool(attribute=2)], 2, s).leader.outcome.value,
     lambda: odds.cooperation(Pool(attribute=2), [Pool(attribute=2)], 2).outcomes),
    ("extended", lambda s: "success" if rules.extended(Pool(attribute=4), 4, s).success else "failure",
     lambda: odds.extended(Pool(attribute=4), 4).outcomes),
])
def test_seeded_sampling_agrees_with_exact_odds(name, run, exact):
    trials = 4000
    _assert_within_five_sigma(_sample(run, seed=7, trials=trials), exact(), trials)


def test_odds_at_the_limits_sum_to_one():
    big = Pool(attribute=100)
    assert sum(odds.test(big, 50).outcomes.values()) == 1
    assert sum(odds.opposed(big, big).outcomes.values()) == 1
    assert sum(odds.extended(big, 100).outcomes.values()) == 1
