"""Proben encounters (API.md §1.7, RULINGS.md "Encounters" E1, E2): chains of tests with retries,
against icepool's absorbing chain (Fraction for Fraction), 100,000 sampled chains, the rolling twin,
properties, the text's door, and the refusals.

"Möchte ein Spieler eine misslungene Probe wiederholen, wird hierfür ein Würfel entfernt. Mit jedem
weiteren Versuch wird auch ein weiterer Würfel entfernt."
"""

from __future__ import annotations

import math
import random
from fractions import Fraction

import icepool
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from service.platform.dice.randomness import GeneratorSource, ManualSource
from service.systems.proben import encounter
from service.systems.proben.encounter import Chain, Step
from service.systems.proben.rules import Pool, SuccessRule, required_successes
from tests.stats import chi_square_sf

HIT = icepool.Die([0, 0, 0, 0, 1, 1])  # "Jeder Würfel, der eine 5 oder 6 zeigt, wird als Erfolg gewertet."


def icepool_chain(chain: Chain, repeat="inf"):
    """The chain as icepool's Markov process: state (step, attempt, carried); (-1, i, 0) is the
    failure of step i and (len(steps), 0, 0) the success, both absorbing."""
    done = len(chain.steps)

    def entering(index):
        if index < done and chain.steps[index].attempts() == 0:
            return (-1, index, 0)  # no dice: fails without an attempt
        return (index, 1, 0) if index < done else (done, 0, 0)

    def next_state(state):
        index, attempt, carried = state
        if index < 0 or index == done:
            return state
        step = chain.steps[index]
        needed = required_successes(step.difficulty, chain.rule)
        dice = step.pool.dice - (attempt - 1)

        def after(successes):
            if carried + successes >= needed:
                return entering(index + 1)
            if attempt == step.attempts():
                return (-1, index, 0)
            return (index, attempt + 1, carried + successes if chain.carry_partial else 0)

        return (dice @ HIT).map(after)

    return icepool.map(next_state, entering(0), repeat=repeat)


def outcome_of(state, steps):
    index, step, _ = state
    return "success" if index == steps else f"failure:{step}" if index < 0 else "undecided"


CHAINS = [
    Chain((Step(Pool(3, 1), 2), Step(Pool(4), 1, 2), Step(Pool(2, 2), 3)), carry_partial=True),
    Chain((Step(Pool(3, 1), 2), Step(Pool(4), 1, 2), Step(Pool(2, 2), 3))),
    Chain((Step(Pool(2), 2), Step(Pool(5), 3, 1)), rule=SuccessRule.EXCEED, carry_partial=True),
    Chain((Step(Pool(1), 1), Step(Pool(0), 1))),
]


@pytest.mark.parametrize("chain", CHAINS)
def test_exact_odds_match_icepool(chain):
    ours = encounter.odds(chain)
    die = icepool_chain(chain)
    theirs: dict[str, Fraction] = {}
    for state in die.outcomes():
        name = outcome_of(state, len(chain.steps))
        theirs[name] = theirs.get(name, Fraction(0)) + die.probability(state)
    assert {name: p for name, p in ours.outcomes.items() if p} == theirs
    assert sum(ours.outcomes.values()) == 1 and ours.solver.precision == "exact"


@pytest.mark.parametrize("rounds", [1, 2, 4])
def test_a_round_cut_matches_icepool_after_that_many_attempts(rounds):
    chain = CHAINS[0]
    ours = encounter.odds(chain, max_rounds=rounds, curve_rounds=rounds)
    die = icepool_chain(chain, repeat=rounds)
    undecided = sum((die.probability(s) for s in die.outcomes() if outcome_of(s, 3) == "undecided"), Fraction(0))
    assert ours.outcomes["undecided"] == undecided
    assert ours.curve[-1]["running"] == pytest.approx(float(undecided), abs=1e-15)


def test_expected_attempts_and_their_distribution_add_up():
    """`attempts` is the chain's total; expected.rounds is its mean (API.md §1.7)."""
    odds = encounter.odds(CHAINS[0])
    attempts = odds.distributions["attempts"]
    assert sum(attempts.values()) == 1
    assert odds.expected["rounds"] == sum(k * p for k, p in attempts.items())


def test_float64_agrees_with_exact_within_its_error():
    exact = encounter.odds(CHAINS[0])
    floating = encounter.odds(CHAINS[0], exact=False)
    assert floating.solver.precision == "float64" and floating.solver.max_error <= 1e-9
    for name, p in exact.outcomes.items():
        assert floating.outcomes[name] == pytest.approx(float(p), abs=floating.solver.max_error)


def test_a_realistic_chain_matches_100000_sampled_chains():
    """Ten dice, three steps, partial successes carried (E2): an independent simulation."""
    chain = Chain((Step(Pool(6, 2), 3), Step(Pool(5, 1, advantages=1), 4, 3), Step(Pool(4, 2), 3)),
                  carry_partial=True)
    rng = np.random.default_rng(20261202)
    runs = 100_000
    counts: dict[str, int] = {}
    for _ in range(runs):
        name = "success"
        for index, step in enumerate(chain.steps):
            carried, dice, left = 0, step.pool.dice, step.attempts()
            while left and carried < step.difficulty:
                carried += int(rng.binomial(dice, 1 / 3))
                dice, left = dice - 1, left - 1
            if carried < step.difficulty:
                name = f"failure:{index}"
                break
        counts[name] = counts.get(name, 0) + 1
    odds = encounter.odds(chain)
    for name, p in odds.outcomes.items():
        p = float(p)
        assert abs(counts.get(name, 0) - runs * p) <= 3 * math.sqrt(runs * p * (1 - p)) + 1e-9, (name, counts)


def test_seeded_rolling_chains_agree_with_the_odds():
    chain = CHAINS[0]
    odds = encounter.odds(chain)
    source = GeneratorSource(random.Random(11), "seeded")
    runs = 4000
    counts: dict[str, int] = {}
    for _ in range(runs):
        name = encounter.play(chain, source).outcome
        counts[name] = counts.get(name, 0) + 1
    names = [name for name, p in odds.outcomes.items() if p]
    statistic = sum((counts.get(n, 0) - runs * float(odds.outcomes[n])) ** 2 / (runs * float(odds.outcomes[n]))
                    for n in names)
    assert chi_square_sf(statistic, len(names) - 1) > 1e-3, counts


def test_the_texts_door_needs_only_one_more_success():
    """"Hat ein Charakter beispielsweise versucht eine Tür einzutreten, für die er 2 Erfolge benötigt
    hätte, reicht 1 Erfolg ggf. schon aus, die Tür (mit viel Lärm) zu beschädigen, sodass eine weitere
    Probe nur 1 Erfolg benötigt.\""""
    chain = Chain((Step(Pool(3), 2),), carry_partial=True)
    played = encounter.play(chain, ManualSource([5, 1, 2, 6, 3]))
    assert [a.difficulty for a in played.attempts] == [2, 1]
    assert [s.outcome.value for s in played.steps] == ["partial", "success"]
    assert [s.dice_count for s in played.steps] == [3, 2]  # one die fewer for the retry
    assert played.outcome == "success"


def test_without_dice_no_further_attempt():
    """"Hat der Spieler keinen Würfel mehr übrig, kann er auch keine weiteren Versuche unternehmen.\""""
    played = encounter.play(Chain((Step(Pool(2), 2),)), ManualSource([1, 2, 3]))
    assert len(played.steps) == 2 and played.outcome == "failure:0"


# --- properties -----------------------------------------------------------------------------------

steps = st.builds(lambda attribute, difficulty, attempts: Step(Pool(attribute), difficulty, attempts),
                  st.integers(0, 5), st.integers(1, 4), st.one_of(st.none(), st.integers(1, 3)))
chains = st.builds(lambda s, carry: Chain(tuple(s), carry_partial=carry), st.lists(steps, min_size=1, max_size=3),
                   st.booleans())


@settings(max_examples=60)
@given(chains, st.data())
def test_a_die_more_never_lowers_the_chance_of_success(chain, data):
    index = data.draw(st.integers(0, len(chain.steps) - 1))
    step = chain.steps[index]
    stronger = Step(Pool(step.pool.attribute + 1), step.difficulty, step.max_attempts)
    better = Chain(chain.steps[:index] + (stronger,) + chain.steps[index + 1:], chain.rule, chain.carry_partial)
    assert encounter.odds(better).outcomes["success"] >= encounter.odds(chain).outcomes["success"]


@settings(max_examples=60)
@given(chains, st.integers(1, 10))
def test_max_rounds_leaves_the_curves_running_mass_undecided(chain, rounds):
    cut = encounter.odds(chain, max_rounds=rounds, curve_rounds=rounds)
    assert float(cut.outcomes["undecided"]) == pytest.approx(cut.curve[rounds - 1]["running"], abs=1e-15)
    assert sum(cut.outcomes.values()) == 1


@settings(max_examples=40)
@given(chains)
def test_the_order_of_the_steps_does_not_change_the_chance_of_success(chain):
    """The steps are independent tests: success is the product of theirs, in any order."""
    reversed_chain = Chain(chain.steps[::-1], chain.rule, chain.carry_partial)
    assert encounter.odds(reversed_chain).outcomes["success"] == encounter.odds(chain).outcomes["success"]


# --- over HTTP -----------------------------------------------------------------------------------

DOOR = {"steps": [{"pool": {"name": "Alrik", "attribute": 3, "skill": 1}, "difficulty": 2},
                  {"pool": {"attribute": 4}, "difficulty": 3, "max_attempts": 2}], "carry_partial": True}


def test_odds_over_http_are_exact_and_echo_the_policies(post):
    status, body = post("/v1/proben/encounter/odds", {**DOOR, "curve_rounds": 3})
    assert status == 200 and body["solver"]["precision"] == "exact" and body["solver"]["max_error"] == 0
    assert body["request"]["success_rule"] == "meet" and body["request"]["steps"][0]["max_attempts"] is None
    assert sum(Fraction(o["exact"]) for o in body["odds"]["outcomes"]) == 1
    assert len(body["odds"]["curve"]) == 3


def test_rolling_chain_over_http(post):
    status, body = post("/v1/proben/encounter?lang=de", {**DOOR, "seed": 5})
    assert status == 200 and body["operation"] == "proben.encounter"
    assert len(body["result"]["steps"]) == len(body["result"]["attempts"])
    assert "Probenkette" in body["summary"]


def test_required_exact_over_the_exact_limit_is_refused_before_solving(post, monkeypatch):
    monkeypatch.setattr(encounter, "odds", lambda *a, **k: pytest.fail("solved"))
    many = {"steps": [{"pool": {"attribute": 40}, "difficulty": 30} for _ in range(3)],
            "carry_partial": True, "exact": "required"}
    status, body = post("/v1/proben/encounter/odds", many)
    assert status == 422 and body["type"].endswith("/encounter-too-large") and body["limit"]["value"] == 300


def test_too_many_states_are_refused_before_solving(post, monkeypatch):
    monkeypatch.setattr(encounter, "odds", lambda *a, **k: pytest.fail("solved"))
    many = {"steps": [{"pool": {"attribute": 100}, "difficulty": 100} for _ in range(5)], "carry_partial": True}
    status, body = post("/v1/proben/encounter/odds", many)
    assert status == 422 and body["states"] > body["limit"]["value"] == 20000
