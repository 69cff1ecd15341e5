"""Exact Paws odds: against icepool (an independent dice engine), against seeded sampling, and at the
limits (100-dice pools; their speed: bench/odds_speed.py)."""

from __future__ import annotations

import math
from collections import Counter
from fractions import Fraction

import icepool
import pytest

from oracles.paws import count
from service.platform.dice.randomness import make_source
from service.platform.maths.odds import as_json
from service.systems.paws import odds, rules
from service.systems.paws.rules import Advantage, Advantages, Mode, Pool

PASSIVE = Advantage.PASSIVE


def pool(dice: int, rescue: int = 0) -> Pool:
    """A pool of exactly ``dice`` dice and ``rescue`` rescue dice."""
    return Pool(rank=0, extra_bonus_dice=dice, extra_rescue_dice=rescue)


# --- icepool as the reference -------------------------------------------------------------------

def icepool_test(dice: int, rescue: int) -> icepool.Die:
    """(outcome, negative effects averted) of a test, ruling 3 written out."""
    faces = icepool.d6.pool(dice).expand() if dice else icepool.Die([()])

    def outcome(rolled, rescue_successes):
        if any(face >= 4 for face in rolled):
            return ("success", 0)
        all_ones = bool(rolled) and all(face == 1 for face in rolled)
        if all_ones:
            return ("catastrophe", 0) if rescue_successes == 0 else ("failure", rescue_successes - 1)
        return ("failure", rescue_successes)

    return icepool.map(outcome, faces, count(rescue))


# Per die: (success, showed 1); a side's sum tells its successes and whether every die showed 1.
SUCCESS_AND_ONE = icepool.d6.map(lambda face: icepool.Vector((int(face >= 4), int(face == 1))))


def side(dice: int) -> icepool.Die:
    return dice @ SUCCESS_AND_ONE if dice else icepool.Die([icepool.Vector((0, 0))])


def icepool_comparison(a: int, a_rescue: int, b: int, b_rescue: int, mode: Mode) -> icepool.Die:
    """(winner, net, a ends with a catastrophe, b ends with one), rulings 3 and 8 written out: only the
    loser can suffer a catastrophe (a tie is no failure; a repelled attacker loses to more defender
    successes and rolls no rescue dice)."""
    def rescued(net, all_ones, rescues):
        """The loser's rescue: (net left, catastrophe left)."""
        if rescues >= net:
            return 0, False
        averting = all_ones and rescues >= 1
        return net - (rescues - averting), all_ones and not averting

    def outcome(a_side, b_side, a_rescues, b_rescues):
        (a_successes, a_ones), (b_successes, b_ones) = a_side, b_side
        a_all_ones, b_all_ones = a > 0 and a_ones == a, b > 0 and b_ones == b
        difference = a_successes - b_successes
        if difference > 0:
            net, b_all_ones = rescued(difference, b_all_ones, b_rescues)
            return ("a" if net else "tie", net, a_all_ones, b_all_ones)
        if difference < 0 and mode is Mode.CONTEST:
            net, a_all_ones = rescued(-difference, a_all_ones, a_rescues)
            return ("b" if net else "tie", net, a_all_ones, b_all_ones)
        if difference < 0:  # defense: the attack is repelled, the attacker lost
            return ("tie", 0, a_all_ones, False)
        return ("tie", 0, False, False)

    return icepool.map(outcome, side(a), side(b), count(a_rescue), count(b_rescue))


TEST_CASES = [(0, 0), (0, 2), (1, 0), (1, 1), (2, 0), (2, 1), (3, 2), (4, 0), (5, 3)]


@pytest.mark.parametrize("dice, rescue", TEST_CASES)
def test_test_odds_agree_with_icepool(dice, rescue):
    exact = odds.test(pool(dice, rescue))
    reference = icepool_test(dice, rescue)
    outcomes = reference.map(lambda outcome: outcome[0])
    averted = reference.map(lambda outcome: outcome[1])
    for name in ("success", "failure", "catastrophe"):
        assert exact.outcomes[name] == outcomes.probability(name), name
    assert exact.distributions["averted"] == {k: averted.probability(k) for k in averted.outcomes()}
    for successes, p in exact.distributions["successes"].items():
        assert p == count(dice).probability(successes)


COMPARISON_CASES = [
    (0, 0, 0, 0, Mode.CONTEST), (1, 0, 1, 0, Mode.CONTEST), (3, 0, 2, 0, Mode.CONTEST),
    (4, 0, 2, 2, Mode.CONTEST), (2, 1, 5, 0, Mode.CONTEST), (3, 2, 3, 2, Mode.CONTEST),
    (6, 1, 4, 3, Mode.CONTEST), (3, 0, 2, 0, Mode.DEFENSE), (4, 2, 2, 2, Mode.DEFENSE),
    (2, 0, 6, 1, Mode.DEFENSE), (0, 3, 2, 0, Mode.CONTEST), (7, 0, 0, 3, Mode.CONTEST),
    # one or two dice against rescue dice: catastrophes short of a tie (ruling 3) are frequent
    (4, 0, 1, 2, Mode.CONTEST), (1, 3, 5, 0, Mode.CONTEST), (5, 0, 2, 3, Mode.DEFENSE), (1, 2, 1, 2, Mode.CONTEST),
]


@pytest.mark.parametrize("a, a_rescue, b, b_rescue, mode", COMPARISON_CASES)
def test_comparison_odds_agree_with_icepool(a, a_rescue, b, b_rescue, mode):
    exact = odds.comparison(pool(a, a_rescue), pool(b, b_rescue), mode=mode)
    reference = icepool_comparison(a, a_rescue, b, b_rescue, mode)
    winners = reference.map(lambda outcome: outcome[0])
    nets = reference.map(lambda outcome: outcome[1])
    for name in ("a", "b", "tie"):
        assert exact.outcomes[name] == winners.probability(name), name
    assert exact.distributions["net"] == {net: nets.probability(net) for net in nets.outcomes()}
    for index, key in ((2, "catastrophe_a"), (3, "catastrophe_b")):
        stays = reference.map(lambda outcome, index=index: int(outcome[index]))
        assert exact.distributions[key] == {k: stays.probability(k) for k in (0, 1)}, key


@pytest.mark.parametrize("dice", [1, 2, 5, 17])
def test_rescue_odds_agree_with_icepool(dice):
    exact = odds.rescue(dice)
    assert exact.distributions["successes"] == {k: count(dice).probability(k) for k in range(dice + 1)}
    assert exact.outcomes["success"] == 1 - Fraction(1, 2**dice)


def test_the_text_example_two_dice():
    # 2d6: no success 1/4, all ones 1/36, so failure 1/4 - 1/36 = 2/9.
    exact = odds.test(Pool(rank=2))
    assert exact.outcomes == {"success": Fraction(3, 4), "failure": Fraction(2, 9), "catastrophe": Fraction(1, 36)}


def test_rynns_odds_against_her_protected_opponent():
    rynn = Pool(rank=2, advantages=Advantages(equipment=Advantage.ACTIVE, situation=Advantage.ACTIVE))
    opponent = Pool(rank=2, advantages=Advantages(personal=PASSIVE, equipment=PASSIVE))
    without = odds.comparison(rynn, pool(2))
    protected = odds.comparison(rynn, opponent)
    assert protected.outcomes["a"] < without.outcomes["a"]
    assert protected.outcomes["b"] == without.outcomes["b"]  # rescue dice never win


@pytest.mark.parametrize("make", [
    lambda: odds.test(pool(7, 3)),
    lambda: odds.comparison(pool(6, 2), pool(5, 4)),
    lambda: odds.comparison(pool(6, 2), pool(5, 4), mode=Mode.DEFENSE),
    lambda: odds.rescue(9),
])
def test_outcomes_and_distributions_sum_to_exactly_one(make):
    exact = make().check()
    assert sum(exact.outcomes.values()) == 1
    assert all(isinstance(p, Fraction) for p in exact.outcomes.values())


# --- seeded sampling ----------------------------------------------------------------------------

SAMPLES = 20_000


def _within_five_sigma(frequencies: Counter, exact: dict) -> None:
    for name, p in exact.items():
        sigma = math.sqrt(float(p) * (1 - float(p)) / SAMPLES)
        observed = frequencies[name] / SAMPLES
        assert abs(observed - float(p)) <= 5 * sigma + 1e-12, (name, observed, float(p))


def test_test_sampling_matches_exact_odds():
    armoured = Pool(rank=1, extra_rescue_dice=1)  # one die: catastrophes are frequent enough to see
    source = make_source(seed=20261129)
    frequencies, averted = Counter(), Counter()
    for _ in range(SAMPLES):
        result = rules.test(armoured, source)
        frequencies["success" if result.success else "catastrophe" if result.catastrophe else "failure"] += 1
        averted[result.rescue.averted if result.rescue else 0] += 1
    _within_five_sigma(frequencies, odds.test(armoured).outcomes)
    _within_five_sigma(averted, odds.test(armoured).distributions["averted"])


@pytest.mark.parametrize("mode", list(Mode))
def test_comparison_sampling_matches_exact_odds(mode):
    a, b = pool(3, 1), pool(1, 2)  # b's single die shows 1 often: catastrophes short of a tie happen
    source = make_source(seed=4242)
    frequencies = Counter()
    nets = Counter()
    catastrophes = Counter()
    for _ in range(SAMPLES):
        result = rules.comparison(a, b, source, mode=mode)
        frequencies[result.winner or "tie"] += 1
        nets[result.net] += 1
        catastrophes[int(result.b.catastrophe)] += 1
    exact = odds.comparison(a, b, mode=mode)
    _within_five_sigma(frequencies, exact.outcomes)
    _within_five_sigma(nets, exact.distributions["net"])
    _within_five_sigma(catastrophes, exact.distributions["catastrophe_b"])


# --- the limits ---------------------------------------------------------------------------------

def _clear_caches() -> None:
    for cached in (odds.successes, odds._test, odds._comparison, odds.rescue):
        cached.cache_clear()


@pytest.mark.parametrize("compute", [
    lambda big: odds.test(big),
    lambda big: odds.comparison(big, big),
    lambda big: odds.comparison(big, big, mode=Mode.DEFENSE),
    lambda big: odds.rescue(100),
])
def test_odds_at_the_limits_sum_to_one(compute):
    """100 dice and 100 rescue dice, cold caches; their speed is a case of bench/odds_speed.py."""
    big = Pool(rank=10, extra_bonus_dice=90, advantages=Advantages(PASSIVE, PASSIVE, PASSIVE),
               extra_rescue_dice=97)
    assert (big.dice, big.rescue_dice) == (100, 100)
    _clear_caches()
    document = as_json(compute(big))  # checks the sums, too
    assert document["outcomes"]


def test_big_comparison_is_symmetric():
    big = pool(100, 100)
    exact = odds.comparison(big, big)
    assert exact.outcomes["a"] == exact.outcomes["b"]
