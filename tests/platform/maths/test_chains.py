"""The forward-only chain solver (service/platform/maths/chains.py) on chains small enough to check by hand."""

from dataclasses import dataclass
from fractions import Fraction
from typing import ClassVar

import pytest

from service.platform.maths.chains import STALEMATE, UNDECIDED, solve

HIT_A, HIT_B, MISS = Fraction(1, 2), Fraction(1, 3), Fraction(1, 6)


def duel_step(state):
    """Two sides with hit points: A hits B, B hits A, or both miss (the state stays)."""
    a, b = state
    return [((a, b - 1), HIT_A), ((a - 1, b), HIT_B), ((a, b), MISS)]


def duel_outcome(state):
    a, b = state
    if b == 0:
        return "wins:a"
    if a == 0:
        return "wins:b"
    return None


def test_one_hit_each_is_the_first_hit():
    odds = solve((1, 1), duel_step, duel_outcome)
    # Misses only delay: A lands the first hit with 1/2 / (1/2 + 1/3) = 3/5.
    assert odds.outcomes == {"wins:a": Fraction(3, 5), "wins:b": Fraction(2, 5)}
    assert odds.expected_rounds == 1 / (1 - MISS)
    assert odds.states == 3


def test_two_hits_each_by_hand():
    odds = solve((2, 2), duel_step, duel_outcome)
    a = Fraction(3, 5)  # A lands a given hit first
    # A wins unless B lands two hits before A does: 1 - P(B gets 2 of the first 3 hits).
    assert odds.outcomes["wins:a"] == a**2 + 2 * a**2 * (1 - a)
    assert sum(odds.outcomes.values()) == 1


def test_rounds_cut_leave_the_running_mass_undecided_and_match_the_curve():
    free = solve((3, 2), duel_step, duel_outcome, curve_rounds=6)
    cut = solve((3, 2), duel_step, duel_outcome, max_rounds=4, curve_rounds=10)
    assert sum(cut.outcomes.values()) == 1
    assert len(cut.curve) == 4  # never beyond max_rounds
    assert float(cut.outcomes[UNDECIDED]) == pytest.approx(cut.curve[-1]["running"], abs=1e-15)
    assert free.curve[3]["running"] == pytest.approx(cut.curve[3]["running"], abs=1e-15)
    # The curve of the uncut chain grows towards its exact outcomes.
    assert free.curve[-1]["wins:a"] <= float(free.outcomes["wins:a"])
    long = solve((3, 2), duel_step, duel_outcome, max_rounds=400)
    assert float(long.outcomes["wins:a"]) == pytest.approx(float(free.outcomes["wins:a"]), abs=1e-12)


def test_float64_agrees_with_exact_within_its_error():
    exact = solve((6, 5), duel_step, duel_outcome)
    floating = solve((6, 5), duel_step, duel_outcome, exact=False)
    assert floating.max_error <= 1e-9
    for name, probability in exact.outcomes.items():
        assert floating.outcomes[name] == pytest.approx(float(probability), abs=floating.max_error)


def test_a_state_that_only_stays_is_a_stalemate():
    def step(state):
        return [(state, Fraction(1))] if state == "stuck" else [("stuck", Fraction(1, 2)), ("done", Fraction(1, 2))]

    odds = solve("start", step, lambda state: "wins:a" if state == "done" else None)
    assert odds.outcomes == {STALEMATE: Fraction(1, 2), "wins:a": Fraction(1, 2)}


def test_a_state_left_with_a_chance_below_float_rounding_is_still_left():
    """Huge Paws pools tie almost surely: in float64, 1 − P(stay) cancels to 0 while the moves still
    carry mass (schemathesis found the 500). The moves' own sum is divided by instead."""
    tiny = 1e-18

    def step(state):
        return [(state, 1.0 - tiny), ("done", tiny)]  # 1.0 - tiny == 1.0 in float64

    odds = solve("start", step, lambda state: "wins:a" if state == "done" else None, exact=False)
    assert odds.outcomes == {"wins:a": pytest.approx(1.0)}


def test_a_move_of_chance_zero_is_no_move():
    def step(state):
        return [(state, Fraction(1)), ("done", Fraction(0))]

    odds = solve("start", step, lambda state: "wins:a" if state == "done" else None)
    assert odds.outcomes == {STALEMATE: Fraction(1)}


def test_a_chain_that_goes_back_is_refused():
    with pytest.raises(ValueError, match="earlier state"):
        solve(0, lambda state: [((state + 1) % 3, Fraction(1))], lambda state: None)


def test_long_solves_give_the_worker_a_turn():
    turns = []
    solve((30, 30), duel_step, duel_outcome, cooperate=lambda: turns.append(1))
    assert turns


@dataclass(frozen=True)
class Counted:
    """A duel's state that counts its live instances (freed by reference counting as it goes)."""

    a: int
    b: int
    alive: ClassVar[int] = 0

    def __post_init__(self):
        type(self).alive += 1

    def __del__(self):
        type(self).alive -= 1


def test_a_solve_frees_its_states_between_turns():
    """Freed in one piece when the solve returns, a graph at the caps held the worker for several slices:
    it is freed a slice at a time, so most states are gone while turns still come."""
    alive_at_turns = []

    def step(state):
        return [(Counted(state.a, state.b - 1), HIT_A), (Counted(state.a - 1, state.b), HIT_B), (state, MISS)]

    odds = solve(Counted(30, 30), step, lambda state: duel_outcome((state.a, state.b)),
                 cooperate=lambda: alive_at_turns.append(Counted.alive))
    assert odds.states > 900
    assert alive_at_turns[-1] < max(alive_at_turns) / 4  # the ended states and the start are still held
