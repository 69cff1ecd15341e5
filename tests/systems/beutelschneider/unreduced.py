"""The group fight's odds over its unreduced space, state by state (issue 50: the reference the
reduced solver, service/systems/beutelschneider/sweep.py, is held to): every member's (matching,
other, unconscious), walked turn by turn in the order of progress, the round that changes nothing
divided out per state. This was the service's own solver before the reduced one."""

from __future__ import annotations

import heapq

from service.platform.maths.odds import Odds, Solver
from service.systems.beutelschneider.encounter import UNIT_ROUNDOFF
from service.systems.beutelschneider.groups import (  # noqa: PLC2701
    STALEMATE,
    End,
    Exchanges,
    Fight,
    State,
    _dies,
    _left_behind,
    _Solved,
    _totals,
)
from service.systems.beutelschneider.rules import Danger


def _progress(fight: Fight, state: State) -> int:
    """Rises with every change: marbles turned black, members fallen."""
    return sum((m.matching - s[0]) + (m.others - s[1]) + (1000 if s[2] else 0)
               for m, s in zip(fight.members, state, strict=True))


def _forward(fight: Fight, exchanges: Exchanges) -> _Solved:
    turns = len(fight.pairs)
    start = fight.start()
    arrivals: dict[State, list[float]] = {start: [1.0] + [0.0] * (turns - 1)}
    queue = [(_progress(fight, start), start)]
    ends: dict[End, float] = {}
    expected, seen = 0.0, 0
    while queue:
        _, state = heapq.heappop(queue)
        arrived = arrivals.pop(state, None)
        if arrived is None:
            continue
        seen += 1
        per_turn = [exchanges.turn(k, state) for k in range(turns)]
        stays = [stay for stay, _, _ in per_turn]
        if all(stay == 1.0 for stay in stays):  # E3
            key = (STALEMATE, state)
            ends[key] = ends.get(key, 0.0) + sum(arrived)
            continue
        around, entering = 1.0, arrived[0]
        for k in range(turns - 1, 0, -1):
            around *= stays[k]
            entering += arrived[k] * around
        visits = entering / (1.0 - around * stays[0])
        for k, (_, moves, turn_ends) in enumerate(per_turn):
            if k:
                visits = arrived[k] + visits * stays[k - 1]
            if exchanges.active(fight.pairs[k], state):
                expected += visits
            for reached, chance in moves:
                slots = arrivals.get(reached)
                if slots is None:
                    slots = arrivals[reached] = [0.0] * turns
                    heapq.heappush(queue, (_progress(fight, reached), reached))
                slots[(k + 1) % turns] += visits * chance
            for key, chance in turn_ends:
                ends[key] = ends.get(key, 0.0) + visits * chance
    return _Solved(ends, expected, seen, [], {})


def odds(fight: Fight, *, aftermath: Danger | None = None, winners_draw: bool = False) -> Odds:
    """E5 as amended: a member unconscious at the end draws when its side is "auf dem Schlachtfeld
    zurückgelassen" (it lost, both are out, it got away), the others only with ``winners_draw``;
    read off each end's full state and status."""
    solved = _forward(fight, Exchanges(fight))
    outcomes = _totals(solved.ends, fight.outcome_names())
    finals: dict[State, float] = {}
    left: dict[tuple[State, int], float] = {}
    for (status, state), p in solved.ends.items():
        finals[state] = finals.get(state, 0.0) + p
        for index in range(len(fight.members)):
            if winners_draw or _left_behind(fight, status, index):
                left[(state, index)] = left.get((state, index), 0.0) + p
    distributions: dict[str, dict[int, float]] = {}
    expected: dict[str, float] = {"exchanges": solved.exchanges}
    for index, member in enumerate(fight.members):
        black: dict[int, float] = {}
        dies = 0.0
        for state, p in finals.items():
            matching, other, out = state[index]
            count = member.bag.total - matching - other
            black[count] = black.get(count, 0.0) + p
            if out and aftermath is not None:
                dies += left.get((state, index), 0.0) * _dies(member.bag.total, count, aftermath.draws)
        distributions[f"black_after:{member.name}"] = dict(sorted(black.items()))
        expected[f"black_after:{member.name}"] = sum(k * p for k, p in black.items())
        if aftermath is not None:
            expected[f"dies:{member.name}"] = dies
    max_error = abs(1.0 - sum(outcomes.values())) + 64 * (solved.states + 2) * UNIT_ROUNDOFF
    return Odds(outcomes=outcomes, distributions=distributions, expected=expected,
                solver=Solver(states=solved.states, precision="float64", max_error=max_error))
