"""Absorbing chains that only move forward: the exact odds of a whole encounter.

An encounter (a fight, a conflict, a chain of tests) is a Markov chain over a small state: bags,
wounds, stress. In every system here a step either leaves the state as it is or moves it towards the
end (black marbles only go in, wounds and consequences only grow), so the chain is a DAG plus
self-loops. One forward pass in topological order is then exact: the mass that reaches a state leaves
it through its other edges in proportion, after dividing by (1 - p_stay).

A system supplies the start, ``step`` (the transitions of a running state, probabilities summing to
1) and ``outcome`` (the outcome of an ended state, None while it runs); ``solve`` does the rest. With
``max_rounds`` or a ``curve``, the mass is pushed round by round instead, which counts rounds.
Nothing here knows a system or Flask.
"""

from __future__ import annotations

import math
from collections import deque
from collections.abc import Callable, Hashable, Iterable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from service.platform.maths.time_slicing import cooperate as cooperate_by_default

State = Hashable
Number = Any  # Fraction when exact, float in float64 precision
Step = Callable[[Any], Iterable[tuple[Any, Number]]]
Outcome = Callable[[Any], "str | None"]

STALEMATE = "stalemate"
UNDECIDED = "undecided"
# A long solve may give the other requests of its worker a turn (service/platform/maths/time_slicing.py) every
# this many states: a handful of states is well below a turn's slice.
COOPERATE_EVERY = 8
RELEASE_EVERY = 128  # states freed between two calls of ``cooperate``: a few of its slices' worth at most


@dataclass(frozen=True)
class ChainOdds:
    """What ``solve`` found; probabilities are Fractions (exact) or floats (float64)."""

    outcomes: dict[str, Number]  # incl. "stalemate" (a state that only stays) and "undecided" (max_rounds)
    ends: dict[Any, Number]  # mass per state the chain ended in (stalemates and undecided states too)
    expected_rounds: Number  # rounds played, counting none in a stalemate and at most max_rounds
    curve: tuple[dict[str, float], ...]  # per round from 1: running, and cumulative mass per outcome
    states: int  # states reached
    max_error: float  # 0 when exact


@dataclass
class _Graph:
    order: list[Any]  # topological: every edge but a self-loop points to a later state
    stay: dict[Any, Number]  # probability of a running state to stay as it is
    moves: dict[Any, list[tuple[Any, Number]]]  # its other transitions
    ended: dict[Any, str]  # outcome of each ended state
    edges: int  # transitions of the running states, each self-loop counted


def solve(start: State, step: Step, outcome: Outcome, *, exact: bool = True, max_rounds: int | None = None,
          curve_rounds: int = 0, cooperate: Callable[[], None] = cooperate_by_default) -> ChainOdds:
    """The outcome distribution of the chain from ``start``.

    ``exact``: transition probabilities are used as given (Fractions); otherwise converted to float.
    ``max_rounds``: the chain is cut after that many rounds; what still runs is ``undecided``.
    ``curve_rounds``: the per-round curve for rounds 1..curve_rounds (not beyond ``max_rounds``).
    ``cooperate`` is called every ``COOPERATE_EVERY`` states and every round (service/platform/maths/time_slicing.py).
    """
    one: Number = Fraction(1) if exact else 1.0
    graph = _explore(start, step, outcome, exact, cooperate)
    horizon = min(curve_rounds, max_rounds) if max_rounds is not None else curve_rounds
    if max_rounds is None and exact and horizon:  # the curve alone is pushed: floats are what it shows
        rounds = _by_rounds(start, _in_floats(graph), 1.0, horizon, cooperate)
    else:
        rounds = _by_rounds(start, graph, one, max(horizon, max_rounds or 0), cooperate)
    if max_rounds is None:
        outcomes, ends, expected = _forward_pass(start, graph, one, cooperate)
    else:
        outcomes, ends, expected = rounds.outcomes, rounds.ends, rounds.expected
    edges, states = graph.edges, len(graph.order)
    _release(graph, cooperate)
    max_error = 0.0 if exact else abs(1.0 - sum(outcomes.values())) + edges * (horizon + 1) * 2.0 ** -52
    return ChainOdds(outcomes=outcomes, ends=ends, expected_rounds=expected, curve=tuple(rounds.curve[:horizon]),
                     states=states, max_error=max_error)


def _explore(start: State, step: Step, outcome: Outcome, exact: bool, cooperate: Callable[[], None]) -> _Graph:
    """Every state reachable from ``start``, with its transitions, in topological order (Kahn)."""
    stay: dict[Any, Number] = {}
    moves: dict[Any, list[tuple[Any, Number]]] = {}
    ended: dict[Any, str] = {}
    incoming: dict[Any, int] = {start: 0}
    edges = 0
    queue = deque([start])
    while queue:
        state = queue.popleft()
        cooperate()  # a step may cost as much as a few states of the passes below
        end = outcome(state)
        if end is not None:
            ended[state] = end
            continue
        merged: dict[Any, Number] = {}
        for following, probability in step(state):
            probability = probability if exact else float(probability)
            # 0 + Fraction would cost a Fraction operation per edge: most edges arrive once
            merged[following] = merged[following] + probability if following in merged else probability
        stay[state] = merged.pop(state, 0)
        merged = {following: probability for following, probability in merged.items() if probability}
        if not merged:  # nothing can change any more
            ended[state] = STALEMATE
            continue
        moves[state] = list(merged.items())
        edges += len(merged) + 1
        for following in merged:
            if following not in incoming:
                incoming[following] = 0
                queue.append(following)
            incoming[following] += 1
    return _Graph(order=_topological(start, moves, incoming), stay=stay, moves=moves, ended=ended, edges=edges)


def _release(graph: _Graph, cooperate: Callable[[], None]) -> None:
    """Free the graph a slice of states at a time: freed in one piece when the solve returns, the
    states and transitions of a solve at the caps held the worker for several slices
    (bench/history/2026-12-01-to-03.md, "Around the solves")."""
    order = graph.order
    while order:
        cooperate()
        for state in order[-RELEASE_EVERY:]:
            graph.moves.pop(state, None)
            graph.stay.pop(state, None)
            graph.ended.pop(state, None)
        del order[-RELEASE_EVERY:]


def _in_floats(graph: _Graph) -> _Graph:
    """The same chain in float64: pushing exact masses round by round grows their digits each round."""
    return _Graph(order=graph.order, stay={state: float(p) for state, p in graph.stay.items()},
                  moves={state: [(following, float(p)) for following, p in moves]
                         for state, moves in graph.moves.items()},
                  ended=graph.ended, edges=graph.edges)


def _topological(start: State, moves: Mapping[Any, list[tuple[Any, Number]]], incoming: dict[Any, int]) -> list[Any]:
    waiting = dict(incoming)
    ready, order = [start], []
    while ready:
        state = ready.pop()
        cooperate_by_default()
        order.append(state)
        for following, _ in moves.get(state, ()):
            waiting[following] -= 1
            if waiting[following] == 0:
                ready.append(following)
    if len(order) != len(incoming):
        raise ValueError("the chain returns to an earlier state: it does not only move forward")
    return order


def _chance_to_leave(graph: _Graph, state: State, one: Number) -> Number:
    """1 − P(stay). In floats, the moves' own sum: when a state is left with a chance below the
    rounding of 1 (pools so large that a tie is all but certain), 1 − stay cancels to 0."""
    if isinstance(one, float):
        return math.fsum(probability for _, probability in graph.moves[state])
    return one - graph.stay[state]


def _forward_pass(start: State, graph: _Graph, one: Number,
                  cooperate: Callable[[], None]) -> tuple[dict[str, Number], dict[Any, Number], Number]:
    mass: dict[Any, Number] = {start: one}
    outcomes: dict[str, Number] = {}
    ends: dict[Any, Number] = {}
    expected: Number = one - one
    for index, state in enumerate(graph.order):
        if index % COOPERATE_EVERY == COOPERATE_EVERY - 1:
            cooperate()
        arrived = mass.pop(state, None)
        if arrived is None:
            continue
        if state in graph.ended:
            name = graph.ended[state]
            outcomes[name] = outcomes.get(name, 0) + arrived
            ends[state] = ends.get(state, 0) + arrived
            continue
        leaving = arrived / _chance_to_leave(graph, state, one)  # also the expected rounds spent here
        expected += leaving
        for following, probability in graph.moves[state]:
            mass[following] = mass.get(following, 0) + leaving * probability
    return outcomes, ends, expected


@dataclass
class _Rounds:
    outcomes: dict[str, Number]
    ends: dict[Any, Number]
    expected: Number
    curve: list[dict[str, float]]


def _by_rounds(start: State, graph: _Graph, one: Number, rounds: int, cooperate: Callable[[], None]) -> _Rounds:
    """Push the mass ``rounds`` times; what still runs after the last round is ``undecided``."""
    outcomes: dict[str, Number] = {}
    ends: dict[Any, Number] = {}
    expected: Number = one - one
    curve: list[dict[str, float]] = []
    running: dict[Any, Number] = _absorb({start: one}, graph, outcomes, ends)
    for round_number in range(1, rounds + 1):
        cooperate()
        expected += sum(running.values())
        pushed: dict[Any, Number] = {}
        for index, (state, mass) in enumerate(running.items()):
            if index % COOPERATE_EVERY == COOPERATE_EVERY - 1:
                cooperate()
            if graph.stay[state]:
                pushed[state] = pushed.get(state, 0) + mass * graph.stay[state]
            for following, probability in graph.moves[state]:
                pushed[following] = pushed.get(following, 0) + mass * probability
        running = _absorb(pushed, graph, outcomes, ends)
        curve.append({"round": round_number, "running": float(sum(running.values())),
                      **{name: float(value) for name, value in outcomes.items()}})
    if running:
        outcomes[UNDECIDED] = sum(running.values())
        for state, mass in running.items():
            ends[state] = ends.get(state, 0) + mass
    return _Rounds(outcomes=outcomes, ends=ends, expected=expected, curve=curve)


def _absorb(masses: dict[Any, Number], graph: _Graph, outcomes: dict[str, Number],
            ends: dict[Any, Number]) -> dict[Any, Number]:
    """Move the mass of ended states into ``outcomes`` and ``ends``; return what still runs."""
    running = {}
    for state, mass in masses.items():
        if state in graph.ended:
            name = graph.ended[state]
            outcomes[name] = outcomes.get(name, 0) + mass
            ends[state] = ends.get(state, 0) + mass
        else:
            running[state] = mass
    return running
