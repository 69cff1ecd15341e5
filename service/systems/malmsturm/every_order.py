"""A Malmsturm conflict under ``order: initiative``, every order of action at once (issue 50).
Pure: no Flask, no JSON.

E6 rolls one order for the whole conflict, so the odds mix one chain per order (n! of them, or one
per class of alike orders, ``encounter.alike_orders``). The chains share their states and, per state,
what each attacker's turn does; they differ only in who acts at which turn. So the forward pass of
``encounter._forward`` runs once over the states, in an order every hit raises, with the mass of every
order side by side in numpy arrays (turns × orders): the misses of a turn are gathered by who acts in
each order, the round that changes nothing is divided out in closed form per order, and each
attacker's hits move the mass of the orders where it acts. Float64, for the solves that are not exact.
"""

from __future__ import annotations

import heapq
from collections.abc import Sequence

import numpy as np

from service.platform.maths import chains
from service.platform.maths.odds import Odds, Probability, Solver
from service.platform.maths.time_slicing import cooperate
from service.systems.malmsturm.encounter import FOCUS, Conflict, Order
from service.systems.malmsturm.solver import (
    TurnHits,
    _Codes,
    _gamma,
    _outcome,
    _path_roundings,
    _turn_hits,
    alike_orders,
    orders,
)

Actor = tuple[int, int]  # attacker and its rank among its side (the rank counts under spread only)


def worth_it(conflict: Conflict) -> bool:
    """Whether the orders side by side pay: the 2 or 6 orders of up to three members are walked as
    fast one by one (and their answers stay those of before)."""
    return conflict.order is None and len(conflict.members) > 3


def encounter_odds(conflict: Conflict) -> Odds:
    """``encounter.encounter_odds`` in float64 without ``max_rounds`` or a curve, under initiative."""
    weighted = [(order, float(chance)) for order, chance in alike_orders(conflict, orders(conflict)) if chance]
    sweep = _Sweep(conflict, weighted)
    sweep.run()
    names = [f"wins:{conflict.side_names[0]}", f"wins:{conflict.side_names[1]}", chains.STALEMATE]
    outcomes = {name: sweep.outcomes[name] for name in names if name in sweep.outcomes}
    distributions: dict[str, dict[int, Probability]] = {}
    for index, member in enumerate(conflict.members):
        cooperate()
        consequences: dict[int, float] = {}
        for code, p in sweep.ends.items():
            value = sweep.codes.decode(code)[index][2]
            consequences[value] = consequences.get(value, 0.0) + p
        distributions[f"consequences:{member.name}"] = dict(sorted(consequences.items()))
    expected: dict[str, Probability] = {"rounds": sweep.rounds}
    for name, distribution in distributions.items():
        expected[name] = sum(value * p for value, p in distribution.items())
    # one path's roundings in one order's chain, and the sum over the orders at the end
    roundings = _path_roundings(conflict, len(conflict.members), sweep.amplified) + len(weighted)
    max_error = abs(1.0 - sum(outcomes.values())) + _gamma(roundings)
    return Odds(outcomes=outcomes, distributions=distributions, expected=expected,
                solver=Solver(sweep.visited * len(weighted), "float64", max_error))


class _Sweep:
    """The forward pass over the states (codes, smallest first), each state's mass a turns × orders array."""

    def __init__(self, conflict: Conflict, weighted: Sequence[tuple[Order, float]]) -> None:
        self.conflict = conflict
        self.codes = _Codes(conflict)
        self.per_attack = conflict.per_attack
        self.turns = len(conflict.members)
        actors: dict[Actor, int] = {}
        acting = []
        for order, _ in weighted:
            acting.append([actors.setdefault(self._actor(slot), len(actors)) for slot in conflict.slots(order)])
        self.actors = list(actors)
        who = np.array(acting).T  # turns × orders: the actor of each turn in each order
        self.who = who
        self.acts = [(who == number).astype(float) for number in range(len(self.actors))]
        self.chance = np.array([chance for _, chance in weighted])
        self.lost: dict[tuple[int, int], bool] = {}
        self.hits: dict[tuple[Actor, int], TurnHits] = {}
        self.arrivals: dict[int, np.ndarray] = {}
        self.queue: list[int] = []
        self.outcomes: dict[str, float] = {}
        self.ends: dict[int, float] = {}
        self.rounds = 0.0
        self.amplified = 0.0
        self.visited = 0

    def _actor(self, slot: Actor) -> Actor:
        attacker, rank = slot
        return (attacker, rank if self.conflict.targeting != FOCUS else 0)

    def run(self) -> None:
        start = self.codes.encode(self.conflict.start())
        mass = np.zeros((self.turns, len(self.chance)))
        mass[0] = self.chance
        self._arrive(start, mass)
        while self.queue:
            code = heapq.heappop(self.queue)
            cooperate()
            self._visit(code, self.arrivals.pop(code))

    def _end(self, code: int, mass: float) -> bool:
        name = _outcome(self.conflict, self.codes, code, self.lost)
        if name is None:
            return False
        self.outcomes[name] = self.outcomes.get(name, 0.0) + mass
        self.ends[code] = self.ends.get(code, 0.0) + mass
        return True

    def _arrive(self, code: int, mass: np.ndarray) -> None:
        if self._end(code, float(mass.sum())):
            return
        if code in self.arrivals:
            self.arrivals[code] += mass
        else:
            self.arrivals[code] = mass
            heapq.heappush(self.queue, code)

    def _moves(self, code: int) -> list[TurnHits | None]:
        """Per actor: its misses and hits from this state (None: taken out, its turns pass)."""
        moves: list[TurnHits | None] = []
        state = None
        for attacker, rank in self.actors:
            if self.codes.is_out(code, attacker):
                moves.append(None)
                continue
            key = ((attacker, rank), self.codes.part(code, 1 - self.conflict.members[attacker].side))
            if key not in self.hits:
                state = state or self.codes.decode(code)
                self.hits[key] = _turn_hits(self.conflict, self.codes, attacker, rank, state)
            moves.append(self.hits[key])
        return moves

    def _visit(self, code: int, arrived: np.ndarray) -> None:
        self.visited += 1
        moves = self._moves(code)
        misses = np.array([self.per_attack if move is None else move[0] for move in moves], dtype=float)
        if (misses == self.per_attack).all():  # E4: no turn of the round can hit
            total = float(arrived.sum())
            self.outcomes[chains.STALEMATE] = self.outcomes.get(chains.STALEMATE, 0.0) + total
            self.ends[code] = self.ends.get(code, 0.0) + total
            return
        stays = (misses / self.per_attack)[self.who]  # turns × orders
        around, entering = np.ones(len(self.chance)), arrived[0].copy()
        for turn in range(self.turns - 1, 0, -1):
            around = around * stays[turn]
            entering += arrived[turn] * around
        staying = around * stays[0]
        self.amplified = max(self.amplified, float((staying / (1 - staying)).max()))
        visits = np.empty_like(arrived)
        visits[0] = entering / (1 - staying)
        for turn in range(1, self.turns):
            visits[turn] = arrived[turn] + visits[turn - 1] * stays[turn - 1]
        self.rounds += float(visits[0].sum())  # every visit of the first turn starts a round
        for number, move in enumerate(moves):
            if move is None or not move[1]:
                continue
            cooperate()
            # the mass of the orders where this actor acts, moved on to the next turn
            acted = np.roll(visits * self.acts[number], 1, axis=0)
            for added, ways in move[1]:
                self._arrive(code + added, acted * (ways / self.per_attack))

