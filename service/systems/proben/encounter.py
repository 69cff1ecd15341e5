"""Proben encounters: a chain of tests, each retried with one die fewer (API.md §1.7, RULINGS.md
"Encounters"). Pure: no Flask, no JSON.

"Manche Aktionen erfordern ggf. mehr als eine Probe" and "Möchte ein Spieler eine misslungene Probe
wiederholen, wird hierfür ein Würfel entfernt. Mit jedem weiteren Versuch wird auch ein weiterer
Würfel entfernt. Hat der Spieler keinen Würfel mehr übrig, kann er auch keine weiteren Versuche
unternehmen." E1: a step is retried up to its ``max_attempts`` or until no dice are left; the chain
succeeds when every step succeeds, ``failure:<i>`` names the step that could not. E2
(``carry_partial``): "reicht 1 Erfolg ggf. schon aus, die Tür ... zu beschädigen, sodass eine weitere
Probe nur 1 Erfolg benötigt": the successes of a failed attempt count toward the next.

The state is (step, attempt, successes carried) and every attempt moves forward, so no general solver
is needed: each step's (attempts, success) distribution is one pass over its attempts (the carried
successes convolved with the attempt's binomial), and the chain is those steps one after the other.
Exact in fractions, or float64 (numpy's convolution) above the exact limit.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache

import numpy as np

from service.platform.dice.randomness import RandomSource
from service.platform.maths.chains import UNDECIDED
from service.platform.maths.odds import Odds, Solver, binomial, binomial_weights
from service.platform.maths.time_slicing import cooperate
from service.platform.values.results import described
from service.systems.proben import rules
from service.systems.proben.odds import P_SUCCESS
from service.systems.proben.rules import Pool, SuccessRule, dice_for_attempt, required_successes

SUCCESS = "success"
FAILURE = "failure:{}"
# The rolling twin without max_rounds stops here (the largest max_rounds a body may give).
MAX_ATTEMPTS = 1000


@dataclass(frozen=True)
class Step:
    pool: Pool
    difficulty: int
    max_attempts: int | None = None  # None: until no dice are left

    def attempts(self) -> int:
        """Attempts the step can have: each has at least one die (E1)."""
        return min(self.pool.dice, self.max_attempts or self.pool.dice)


@dataclass(frozen=True)
class Chain:
    steps: tuple[Step, ...]
    rule: SuccessRule = SuccessRule.MEET
    carry_partial: bool = False

    def required(self, index: int) -> int:
        return required_successes(self.steps[index].difficulty, self.rule)


def state_bound(chain: Chain) -> int:
    """States (step, attempt, carried) of every step, plus the ends: success and a failure per step."""
    carried = [chain.required(i) if chain.carry_partial else 1 for i in range(len(chain.steps))]
    return sum(max(1, step.attempts()) * c for step, c in zip(chain.steps, carried)) + len(chain.steps) + 1


# --- one step, then the chain ------------------------------------------------------------------

Number = Fraction | float


@lru_cache(maxsize=512)
def _weights(dice: int) -> tuple[int, ...]:
    """Ways to roll k successes with ``dice`` d6, k = 0..dice, out of 3^dice (a face shows 5 or 6:
    "Jeder Würfel, der eine 5 oder 6 zeigt, wird als Erfolg gewertet.")."""
    return binomial_weights(dice, P_SUCCESS)[0]


def _spread(carried: list, successes: Sequence, exact: bool) -> list:
    """The distribution of carried + successes (a convolution)."""
    if not exact:
        return np.convolve(carried, successes).tolist()
    total = [0] * (len(carried) + len(successes) - 1)
    for c, p in enumerate(carried):
        if p:
            for s, q in enumerate(successes):
                total[c + s] += p * q
    return total


def step_ends(step: Step, required: int, carry_partial: bool,
              exact: bool) -> tuple[list[tuple[int, bool, Number]], Number]:
    """(attempts used, succeeded, weight) of one step, and the weights' denominator. Attempt n rolls
    n - 1 dice fewer (ruling 3); with ``carry_partial`` the successes of a failed attempt are carried
    (E2), else they are lost. Exact weights are integers over 3^(every die the step may roll), so no
    fraction is reduced on the way."""
    dice_per_attempt = [dice_for_attempt(step.pool.dice, n) for n in range(1, step.attempts() + 1)]
    all_dice = sum(dice_per_attempt)
    ends: list[tuple[int, bool, Number]] = []
    carried: list = [1 if exact else 1.0]  # weight of each count of carried successes (below ``required``)
    rolled = 0
    for attempt, dice in enumerate(dice_per_attempt, start=1):
        cooperate()  # the worker's other requests get a turn (service/platform/maths/time_slicing.py)
        rolled += dice
        successes = _weights(dice) if exact else [float(p) for p in binomial(dice, P_SUCCESS)]
        after = _spread(carried, successes, exact)
        scale = 3 ** (all_dice - rolled) if exact else 1.0  # to the step's common denominator
        ends.append((attempt, True, sum(after[required:]) * scale))
        failed = after[:required]
        carried = failed if carry_partial else [sum(failed)]
    ends.append((step.attempts(), False, sum(carried)))
    return ends, (3**all_dice if exact else 1.0)


def chain_ends(chain: Chain, exact: bool) -> dict[tuple[str, int], Number]:
    """Chance of each (outcome, total attempts): the steps one after the other, stopping at the first
    step that fails."""
    running: dict[int, Number] = {0: 1}
    weights: dict[tuple[str, int], Number] = {}
    denominator: Number = 1
    for index, step in enumerate(chain.steps):
        ends, step_denominator = step_ends(step, chain.required(index), chain.carry_partial, exact)
        following: dict[int, Number] = {}
        for attempts, succeeded, weight in ends:
            cooperate()
            for before, mass in running.items():
                total = before + attempts
                if succeeded:
                    following[total] = following.get(total, 0) + mass * weight
                else:
                    key = (FAILURE.format(index), total)
                    weights[key] = weights.get(key, 0) + mass * weight
        # Failures of earlier steps join the common denominator of this one.
        weights = {key: value * (step_denominator if key[0] != FAILURE.format(index) else 1)
                   for key, value in weights.items()}
        running, denominator = following, denominator * step_denominator
    for total, mass in running.items():
        weights[(SUCCESS, total)] = weights.get((SUCCESS, total), 0) + mass
    if exact:  # the weights and the denominator are integers here
        return {key: Fraction(int(weight), int(denominator)) for key, weight in weights.items()}
    return {key: float(weight) for key, weight in weights.items()}


def odds(chain: Chain, *, exact: bool = True, max_rounds: int | None = None, curve_rounds: int = 0) -> Odds:
    """Outcomes ``success`` and ``failure:<i>`` per step (and ``undecided`` with ``max_rounds``, which
    counts attempts); distribution ``attempts`` (the chain's total, at most ``max_rounds``); expected
    ``rounds`` (the expected attempts). Every attempt is one round, so the round an outcome is reached
    in is its total of attempts: the curve and the cut are read off that joint distribution."""
    zero = Fraction(0) if exact else 0.0
    ends = chain_ends(chain, exact)
    names = [SUCCESS, *(FAILURE.format(i) for i in range(len(chain.steps)))]
    outcomes: dict[str, Number] = dict.fromkeys(names, zero)
    attempts: dict[int, Number] = {}
    for (name, total), chance in ends.items():
        if max_rounds is not None and total > max_rounds:
            name, total = UNDECIDED, max_rounds
        outcomes[name] = outcomes.get(name, zero) + chance
        attempts[total] = attempts.get(total, zero) + chance
    if max_rounds is not None:
        outcomes.setdefault(UNDECIDED, zero)
    expected = sum((total * chance for total, chance in attempts.items()), zero)
    horizon = min(curve_rounds, max_rounds) if max_rounds is not None else curve_rounds
    # Terms are non-negative and few: the float sum is off by at most a few units in the last place.
    max_error = 0.0 if exact else abs(1.0 - sum(outcomes.values())) + 4 * len(ends) * 2.0**-53
    return Odds(outcomes=outcomes, distributions={"attempts": attempts}, expected={"rounds": expected},
                solver=Solver(states=_reached(chain), precision="exact" if exact else "float64",
                              max_error=max_error),
                curve=_curve(ends, names, horizon) if horizon else None)


def _curve(ends: dict[tuple[str, int], Number], names: Sequence[str], rounds: int) -> tuple[dict[str, float], ...]:
    points = []
    for round_number in range(1, rounds + 1):
        cooperate()  # each round is a pass over every end: a long curve held the worker for many slices
        point = {"round": round_number,
                 "running": float(sum(chance for (_, total), chance in ends.items() if total > round_number))}
        for name in names:
            point[name] = float(sum(chance for (end, total), chance in ends.items()
                                    if end == name and total <= round_number))
        points.append(point)
    return tuple(points)


def _reached(chain: Chain) -> int:
    """The states of the chain: every (step, attempt, carried) the DP visits, and the ends."""
    return state_bound(chain)


# --- the rolling twin ---------------------------------------------------------------------------

@dataclass(frozen=True)
class Attempt:
    step: int = field(metadata=described("0-based index of the step."))
    attempt: int = field(metadata=described("1 for the first try of the step."))
    difficulty: int = field(metadata=described(
        "The test's difficulty: the step's, less the successes carried (E2)."))


@dataclass(frozen=True)
class StepEnd:
    step: int
    attempts: int
    success: bool | None = field(metadata=described("null: not reached, or cut by max_rounds."))


@dataclass(frozen=True)
class EncounterResult:
    steps: list[rules.TestResult] = field(metadata=described("Every attempt, as `proben.test` reports it."))
    attempts: list[Attempt] = field(metadata=described("Which step and attempt each entry of `steps` is."))
    outcome: str = field(metadata=described("success, failure:<i> or undecided."))
    end: list[StepEnd]


def play(chain: Chain, source: RandomSource, *, max_rounds: int | None = None) -> EncounterResult:
    """The chain played out: every attempt a ``rules.test`` (attempt n with n - 1 dice fewer; with
    ``carry_partial`` against the difficulty less the successes carried, "sodass eine weitere Probe
    nur 1 Erfolg benötigt"), until a step fails, all succeed, or ``max_rounds`` attempts were made."""
    steps: list[rules.TestResult] = []
    attempts: list[Attempt] = []
    end = [StepEnd(index, 0, None) for index in range(len(chain.steps))]
    limit = max_rounds or MAX_ATTEMPTS
    for index, step in enumerate(chain.steps):
        carried, succeeded, used = 0, False, 0
        for attempt in range(1, step.attempts() + 1):
            if len(steps) == limit:
                end[index] = StepEnd(index, used, None)
                return EncounterResult(steps, attempts, UNDECIDED, end)
            difficulty = step.difficulty - carried
            result = rules.test(step.pool, difficulty, source, attempt=attempt, rule=chain.rule)
            steps.append(result)
            attempts.append(Attempt(index, attempt, difficulty))
            used = attempt
            if result.outcome is rules.Outcome.SUCCESS:
                succeeded = True
                break
            if chain.carry_partial:
                carried += result.successes
        end[index] = StepEnd(index, used, succeeded)
        if not succeeded:
            return EncounterResult(steps, attempts, FAILURE.format(index), end)
    return EncounterResult(steps, attempts, SUCCESS, end)
