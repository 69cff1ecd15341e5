"""Exact odds: against icepool (an independent implementation of drawing without replacement),
against seeded sampling (a 5-sigma band, which a correct implementation leaves with probability
below 1e-6 per check), and at the limits (their speed: bench/odds_speed.py)."""

from __future__ import annotations

import math
import random
from fractions import Fraction

import icepool
import pytest

from oracles.beutelschneider import LARGEST_CONTEST_BODY, largest_contenders
from service.platform.dice.randomness import GeneratorSource
from service.systems.beutelschneider import odds, rules
from service.systems.beutelschneider.rules import Ability, Amount, Bag, Colour, Contender, Danger, Difficulty, Severity

MATTHAEUS = Bag(red=9, green=6, white=5)
LEGIONARY = Bag(red=8, green=4, white=5, black=3)
SICK = Bag(red=2, green=1, blue=1, white=2, black=6)
MAGE = Bag(red=1, green=3, blue=11, white=4, black=1)
BAGS = [MATTHAEUS, LEGIONARY, SICK, MAGE]


def deck(bag: Bag) -> icepool.Deck:
    return icepool.Deck({colour: count for colour, count in bag.counts().items() if count})


def colour_count(bag: Bag, colour: Colour, draws: int) -> icepool.Die:
    """icepool's distribution of how many marbles of ``colour`` a draw of ``draws`` holds."""
    return deck(bag).deal(draws).keep_outcomes([colour.value]).size()


def probabilities(die: icepool.Die) -> dict:
    return {outcome: die.probability(outcome) for outcome in die.outcomes()}


def nonzero(distribution: dict) -> dict:
    return {key: value for key, value in distribution.items() if value}


# --- icepool ------------------------------------------------------------------------------------

@pytest.mark.parametrize("bag", BAGS)
@pytest.mark.parametrize("ability", list(Ability))
@pytest.mark.parametrize("difficulty", list(Difficulty))
def test_challenge_agrees_with_icepool(bag, ability, difficulty):
    k = difficulty.draws
    matching = colour_count(bag, ability.colour, k)
    blacks = colour_count(bag, Colour.BLACK, k)
    result = odds.challenge(bag, ability, difficulty)
    assert nonzero(result.distributions["matching"]) == probabilities(matching)
    assert result.outcomes["success"] == matching.probability(">=", 1)
    assert result.outcomes["unconscious"] == blacks.probability(k)


@pytest.mark.parametrize("bag", BAGS)
@pytest.mark.parametrize("danger", list(Danger))
def test_mortal_danger_agrees_with_icepool(bag, danger):
    blacks = colour_count(bag, Colour.BLACK, danger.draws)
    assert odds.mortal_danger(bag, danger.draws).outcomes["dies"] == blacks.probability(">=", 1)


@pytest.mark.parametrize("bag", BAGS)
@pytest.mark.parametrize("severity", list(Severity))
def test_injury_agrees_with_icepool(bag, severity):
    k = severity.draws
    black_after = colour_count(bag, Colour.BLACK, k).map(lambda drawn: bag.black + k - drawn)
    assert nonzero(odds.injury(bag, severity).distributions["black_after"]) == probabilities(black_after)


@pytest.mark.parametrize("bag", BAGS)
@pytest.mark.parametrize("draws", [1, 2, 3, 7])
def test_healing_and_experience_agree_with_icepool(bag, draws):
    assert nonzero(odds.healing(bag, draws).distributions["black_drawn"]) == \
        probabilities(colour_count(bag, Colour.BLACK, draws))
    if draws <= 3:
        for colour in Colour:
            assert nonzero(odds.experience(bag, draws).distributions[f"drawn:{colour.value}"]) == \
                probabilities(colour_count(bag, colour, draws))


def _contest_die(contenders) -> icepool.Die:
    """The contest outcome over all joint draws, by icepool's own convolution."""
    dice = [colour_count(c.bag, c.ability.colour, c.difficulty.draws) for c in contenders]

    def outcome(*scores):
        best, margin = rules.decide(list(scores))
        return "tie" if best is None else f"wins:{contenders[best].name}/{margin}"

    return icepool.map(outcome, *dice)


CONTESTS = [
    (Contender("Matthäus", MATTHAEUS, Ability.SKILL, Difficulty.NORMAL),
     Contender("Bartholomäus", LEGIONARY, Ability.SKILL, Difficulty.NORMAL)),
    (Contender("a", MATTHAEUS, Ability.COMBAT, Difficulty.EASY),
     Contender("b", SICK, Ability.COMBAT, Difficulty.HARD),
     Contender("c", MAGE, Ability.MAGIC, Difficulty.NORMAL)),
    (Contender("a", LEGIONARY, Ability.COMBAT, Difficulty.EASY),
     Contender("b", LEGIONARY, Ability.COMBAT, Difficulty.EASY),
     Contender("c", MAGE, Ability.SKILL, Difficulty.EASY),
     Contender("d", MATTHAEUS, Ability.SKILL, Difficulty.HARD)),
]


@pytest.mark.parametrize("contenders", CONTESTS)
def test_contest_agrees_with_icepool(contenders):
    expected = probabilities(_contest_die(contenders))
    result = odds.contest(contenders)
    for c in contenders:
        wins = sum((p for key, p in expected.items() if key.startswith(f"wins:{c.name}/")), Fraction(0))
        assert result.outcomes[f"wins:{c.name}"] == wins
    assert result.outcomes["tie"] == expected.get("tie", 0)
    for margin in (1, 2, 3):
        assert result.distributions["margin"][margin] == sum(
            (p for key, p in expected.items() if key.endswith(f"/{margin}")), Fraction(0))


@pytest.mark.parametrize("attacker, defender", [
    (Contender("Legionär", LEGIONARY, Ability.COMBAT, Difficulty.EASY),
     Contender("Affenmensch", Bag(red=10, green=5, white=5), Ability.COMBAT, Difficulty.EASY)),
    (Contender("Priester", Bag(red=12, green=2, white=6), Ability.COMBAT, Difficulty.NORMAL),
     Contender("Dieb", Bag(red=3, green=12, white=5), Ability.SKILL, Difficulty.EASY)),
])
def test_combat_agrees_with_icepool(attacker, defender):
    expected = probabilities(_contest_die((attacker, defender)))
    result = odds.combat(attacker, defender)
    for winner, loser in ((attacker, defender), (defender, attacker)):
        for margin in (1, 2, 3):
            p = expected.get(f"wins:{winner.name}/{margin}", 0)
            if winner.ability is Ability.COMBAT:
                assert result.outcomes[f"injury:{loser.name}:{Severity.of_margin(margin).value}"] == p
        total = sum((p for key, p in expected.items() if key.startswith(f"wins:{winner.name}/")), Fraction(0))
        injuries = sum((p for key, p in result.outcomes.items() if key.startswith(f"injury:{loser.name}:")),
                       Fraction(0))
        assert result.outcomes[f"wins:{winner.name}"] + injuries == total
    assert result.outcomes["tie"] == expected.get("tie", 0)


def test_every_odds_sums_to_one():
    """API §1.3: outcomes and each distribution sum to exactly 1 (``check`` raises otherwise)."""
    for bag in BAGS:
        for difficulty in Difficulty:
            odds.challenge(bag, Ability.COMBAT, difficulty).check()
            odds.first_aid(bag, difficulty).check()
        odds.experience(bag, 3).check()
        odds.healing(bag, 5).check()
    for contenders in CONTESTS:
        odds.contest(contenders).check()
        odds.combat(*contenders[:2]).check()


def test_a_known_value_by_hand():
    """Matthäus, hard skill challenge: 6 green of 20 marbles -> success 6/20 = 3/10."""
    assert odds.challenge(MATTHAEUS, Ability.SKILL, Difficulty.HARD).outcomes == {
        "success": Fraction(3, 10), "failure": Fraction(7, 10), "unconscious": Fraction(0)}


# --- seeded sampling ----------------------------------------------------------------------------

SAMPLES = 20_000


def within_five_sigma(hits: int, p: Fraction) -> bool:
    sigma = math.sqrt(SAMPLES * float(p) * (1 - float(p)))
    return abs(hits - SAMPLES * float(p)) <= 5 * sigma + 1e-9


def test_challenge_sampling_matches_odds():
    source = GeneratorSource(random.Random(20261129), "seeded")
    counts = {"success": 0, "failure": 0, "unconscious": 0}
    for _ in range(SAMPLES):
        result = rules.challenge(SICK, Ability.COMBAT, Difficulty.NORMAL, source)
        counts["success" if result.success else "unconscious" if result.unconscious else "failure"] += 1
    exact = odds.challenge(SICK, Ability.COMBAT, Difficulty.NORMAL).outcomes
    assert all(within_five_sigma(counts[name], p) for name, p in exact.items()), counts


def test_contest_sampling_matches_odds():
    contenders = CONTESTS[1]
    source = GeneratorSource(random.Random(42), "seeded")
    counts: dict[str, int] = {}
    for _ in range(SAMPLES):
        winner = rules.contest(contenders, source).winner
        key = "tie" if winner is None else f"wins:{winner}"
        counts[key] = counts.get(key, 0) + 1
    exact = odds.contest(contenders).outcomes
    assert all(within_five_sigma(counts.get(name, 0), p) for name, p in exact.items()), counts


def test_combat_injury_sampling_matches_odds():
    attacker = Contender("Priester", Bag(red=12, green=2, white=6), Ability.COMBAT, Difficulty.NORMAL)
    defender = Contender("Dieb", Bag(red=3, green=12, white=5), Ability.SKILL, Difficulty.NORMAL)
    source = GeneratorSource(random.Random(7), "seeded")
    counts: dict[str, int] = {}
    for _ in range(SAMPLES):
        result = rules.combat(attacker, defender, source)
        if result.injury:
            key = f"injury:{result.injury.target}:{result.injury.severity.value}"
        else:
            key = "tie" if result.winner is None else f"wins:{result.winner}"
        counts[key] = counts.get(key, 0) + 1
    exact = odds.combat(attacker, defender).outcomes
    assert all(within_five_sigma(counts.get(name, 0), p) for name, p in exact.items()), counts


def test_healing_sampling_matches_odds():
    source = GeneratorSource(random.Random(99), "seeded")
    counts: dict[int, int] = {}
    for _ in range(SAMPLES):
        blacks = rules.healing(LEGIONARY, 3, source).black_drawn
        counts[blacks] = counts.get(blacks, 0) + 1
    exact = odds.healing(LEGIONARY, 3).distributions["black_drawn"]
    assert all(within_five_sigma(counts.get(k, 0), p) for k, p in exact.items()), counts


# --- the limits ---------------------------------------------------------------------------------

def _clear_caches():
    for function in (odds.contest, odds.contest_table, odds._counts, odds.combat, odds.drawn_count):
        function.cache_clear()


def test_largest_contest_odds_sum_to_one():
    """Cold caches; its speed is a case of bench/odds_speed.py."""
    _clear_caches()
    result = odds.contest(largest_contenders())
    assert sum(result.outcomes.values()) == 1


def test_largest_contest_odds_over_http_answer_and_sum_to_one(post):
    """Its speed is a case of bench/odds_speed.py."""
    _clear_caches()
    status, body = post("/v1/beutelschneider/contest/odds", LARGEST_CONTEST_BODY)
    assert status == 200
    assert sum(Fraction(o["exact"]) for o in body["odds"]["outcomes"]) == 1


def test_odds_over_http_have_the_documented_outcomes(post):
    status, body = post("/v1/beutelschneider/mortal-danger/odds", {"bag": {"white": 3, "black": 1}, "danger": "low"})
    assert status == 200
    assert body["odds"]["outcomes"] == [
        {"outcome": "dies", "probability": 0.25, "exact": "1/4"},
        {"outcome": "survives", "probability": 0.75, "exact": "3/4"}]
    status, body = post("/v1/beutelschneider/first-aid/odds", {"bag": {"green": 1, "white": 1}, "difficulty": "normal"})
    assert [point for point in body["odds"]["distributions"]["healing_draws"] if point["exact"] != "0/1"] == [
        {"value": 1, "probability": 1.0, "exact": "1/1"}]
    status, body = post("/v1/beutelschneider/experience/odds", {"bag": {"green": 1, "white": 1}, "amount": "little"})
    assert set(body["odds"]["distributions"]) == {f"drawn:{c.value}" for c in Colour}
    status, body = post("/v1/beutelschneider/injury/odds", {"bag": {"red": 2}, "severity": "serious"})
    assert [point for point in body["odds"]["distributions"]["black_after"] if point["exact"] != "0/1"] == [
        {"value": 2, "probability": 1.0, "exact": "1/1"}]
    assert body["odds"]["outcomes"] == []
    status, body = post("/v1/beutelschneider/healing/odds", {"bag": {"red": 2, "black": 2}, "chances": "poor"})
    assert body["odds"]["expected"] == {"black_drawn": 0.5}


def test_amount_and_severity_tables():
    assert [a.draws for a in Amount] == [1, 2, 3]
    assert [s.draws for s in Severity] == [1, 2, 3]
