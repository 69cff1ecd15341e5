"""The exact odds of a whole Malmsturm conflict (the conflict: service/systems/malmsturm/encounter.py):
the orders of action and their chances, and the chain solved turn by turn over states numbered as
ints, exact sums in GMP's rationals (gmpy2), answered as Fractions, or float64. Pure: no Flask, no JSON.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import gmpy2
import numpy as np

from service.platform.maths import chains
from service.platform.maths.odds import Odds, Probability, Solver
from service.platform.maths.time_slicing import cooperate
from service.systems.malmsturm import odds as malm_odds
from service.systems.malmsturm import rules
from service.systems.malmsturm.bounds import hit_on_track, stress_left, tracks_against
from service.systems.malmsturm.encounter import (
    FIRST_OUT,
    OUT,
    Conflict,
    Member,
    MemberState,
    Order,
    State,
    Ways,
    attacker_kind,
)
from service.systems.malmsturm.initiative import initiative_orders

# --- the odds ---------------------------------------------------------------------------------------


def orders(conflict: Conflict) -> list[tuple[Order, Probability]]:
    """The order of action and its chance: as given, or E1 "Die Reihenfolge wird über einen
    Intuitions-Wurf ermittelt", by the exact odds of ``malmsturm.initiative`` (ruling 4): for 1 v 1
    who acts first, for larger sides (E6) every whole order (``initiative_orders``)."""
    if conflict.order is not None:
        return [(conflict.order, Fraction(1))]
    participants = [rules.Participant(member.name, member.intuition) for member in conflict.members]
    if len(participants) > 2:
        return initiative_orders([member.intuition for member in conflict.members], conflict.dice)
    first = malm_odds.initiative(participants, dice=conflict.dice).outcomes
    return [((0, 1), first[f"first:{participants[0].name}"]), ((1, 0), first[f"first:{participants[1].name}"])]


def alike_orders(conflict: Conflict, weighted: list[tuple[Order, Probability]]) -> list[tuple[Order, Probability]]:
    """Orders that make the same chain, solved once with their chances summed (issue 50). Under
    E8 ``first_out`` the conflict ends when the first member is taken out, so every member of a
    running conflict stands and acts, and a turn depends on its attacker only through its side, its
    attack kind and its attack (skill + modifier): two orders that agree on these at every turn make
    the very same chain. (Under ``side_out`` a member taken out misses its turns, so who acts when
    matters, and every order is solved.)"""
    if conflict.ends != FIRST_OUT:
        return weighted
    classes: dict[tuple[tuple[int, str, int], ...], tuple[Order, Probability]] = {}
    for order, chance in weighted:
        key = tuple(attacker_kind(conflict.members[index]) for index in order)
        first, total = classes.get(key, (order, 0))
        classes[key] = (first, total + chance)
    return list(classes.values())


def encounter_odds(conflict: Conflict, *, exact: bool, max_rounds: int | None = None,
                   curve_rounds: int = 0) -> Odds:
    """Outcomes ``wins:<side>`` (and ``stalemate``, ``undecided``); distributions
    ``consequences:<member>`` at the end (2 = taken out); expected rounds and consequences."""
    solved: list[tuple[chains.ChainOdds, Probability]] = []
    for order, chance in alike_orders(conflict, orders(conflict)):
        if not chance:
            continue
        chain = solve_turns(conflict, order, exact=exact, max_rounds=max_rounds, curve_rounds=curve_rounds)
        solved.append((chain, chance if exact else float(chance)))
    mixed = _mixed([(chain.outcomes, chance) for chain, chance in solved])
    names = [f"wins:{conflict.side_names[0]}", f"wins:{conflict.side_names[1]}", chains.STALEMATE, chains.UNDECIDED]
    outcomes = {name: mixed[name] for name in names if name in mixed}  # in this order, whatever the solver met first
    ends = _mixed([(chain.ends, chance) for chain, chance in solved])
    distributions: dict[str, dict[Any, Probability]] = {}
    for index, member in enumerate(conflict.members):
        cooperate()
        consequences = _mixed([({end[index][2]: p}, 1) for end, p in ends.items()])
        distributions[f"consequences:{member.name}"] = dict(sorted(consequences.items()))
    expected: dict[str, Probability] = {"rounds": sum(chain.expected_rounds * chance for chain, chance in solved)}
    for name, distribution in distributions.items():
        expected[name] = sum(value * p for value, p in distribution.items())
    return Odds(outcomes=outcomes, distributions=distributions, expected=expected,
                solver=Solver(sum(chain.states for chain, _ in solved), "exact" if exact else "float64",
                              sum(chain.max_error * float(chance) for chain, chance in solved)),
                curve=_mixed_curve(solved) if curve_rounds else None)


# --- the solver: turn by turn -----------------------------------------------------------------------
#
# A round of N turns expanded as one step has up to (outcomes per attack)^N transitions; the same
# chain turn by turn has N × (outcomes per attack) per state, and the states met within a round are
# shared by every round that passes them. Turn by turn the chain is a DAG plus one cycle per state:
# N misses in a row come back to the same turn of the next round. Its flow is solved in closed form
# (v_0 = (a_0 + Σ_j a_j Π_{i≥j} miss_i) / (1 − Π miss), v_k = a_k + v_{k−1} miss_{k−1}), so one
# forward pass over the states in an order every hit moves forward in is exact; rounds start at each
# visit of turn 0. tests/systems/malmsturm/test_encounter.py holds it against chains.solve over
# ``round_step``.
#
# The solver's states are ints (``_Codes``): every member state numbered so that every hit raises
# its number, and a whole state the mixed-radix number of its members'. A hit is then one addition,
# a state hashes as an int, and the states sorted as ints are that forward order. A turn's target
# and hits depend on the opponents' part of the code only: computed once per part (``TurnHits``,
# what each hit adds to the code) and shared by every state with that part.


class _Codes:
    """Every member's states numbered in an order every hit raises (consequences first, then stress
    lost; taken out last), and a whole state as Σ number_i × place_i over the members (place_0 = 1,
    place_{i+1} = place_i × member i's count of states). Side 0's members come first, so
    ``code % split`` is side 0's part and ``code // split`` side 1's."""

    def __init__(self, conflict: Conflict) -> None:
        if conflict.side_members[0] != tuple(range(len(conflict.side_members[0]))):
            raise ValueError("side 0's members must come first (State)")
        self.tables = tuple(_member_states(member) for member in conflict.members)
        self.numbers = tuple({state: number for number, state in enumerate(table)} for table in self.tables)
        places = [1]
        for table in self.tables:
            places.append(places[-1] * len(table))
        self.places = tuple(places[:-1])
        self.split = places[len(conflict.side_members[0])]

    def encode(self, state: State) -> int:
        return sum(numbers[member] * place for numbers, member, place in zip(self.numbers, state, self.places))

    def decode(self, code: int) -> State:
        return tuple(table[code // place % len(table)] for table, place in zip(self.tables, self.places))

    def is_out(self, code: int, member: int) -> bool:
        table = self.tables[member]
        return code // self.places[member] % len(table) == len(table) - 1  # OUT is numbered last

    def part(self, code: int, side: int) -> int:
        """The part of ``code`` that holds ``side``'s members."""
        return code % self.split if side == 0 else code // self.split


def _member_states(member: Member) -> tuple[MemberState, ...]:
    """Every state the member can be in, in an order every hit raises: more consequences, or the
    same and more stress lost; taken out (OUT) last."""
    tops = (max(member.stress.physical.max, member.stress.physical.current),
            max(member.stress.mental.max, member.stress.mental.current))
    standing = [(p, m, c) for c in range(rules.CONSEQUENCES_TO_TAKE_OUT)
                for p in range(tops[0] + 1) for m in range(tops[1] + 1)]
    standing.sort(key=lambda s: (s[2], tops[0] - s[0] + tops[1] - s[1], s[0]))
    return (*standing, OUT)


TurnHits = tuple[int, tuple[tuple[int, int], ...]]  # ways it misses; per hit, what it adds to the state and its ways


@dataclass
class _Turns:
    codes: _Codes
    order: list[int]  # running states in an order every hit moves forward in
    moves: dict[int, list[TurnHits]]  # per running state and turn (shared by the states alike; attacker out: all miss)
    ended: dict[int, str]
    per_attack: int
    edges: int  # transitions of the chain, misses included


def _explore_turns(conflict: Conflict, order: Order) -> _Turns:
    """Every state reachable turn by turn, with its misses and hits per turn. The other order of a
    1 v 1 reaches the same states with the turns swapped, so it is explored once."""
    if len(order) == 2 and ("turns", order[::-1]) in conflict._memo:
        other = conflict._memo["turns", order[::-1]]
        return _Turns(other.codes, other.order, {state: moves[::-1] for state, moves in other.moves.items()},
                      other.ended, other.per_attack, other.edges)
    turns = conflict._memo["turns", order] = _explore(conflict, order)
    return turns


def _explore(conflict: Conflict, order: Order) -> _Turns:
    codes = _Codes(conflict)
    per_attack = conflict.per_attack
    known: list[dict[int, TurnHits]] = [{} for _ in order]  # per turn, by the opponents' part of the state
    slots = [(attacker, rank, conflict.members[attacker].side, known[turn])
             for turn, (attacker, rank) in enumerate(conflict.slots(order))]
    lost: dict[tuple[int, int], bool] = {}  # per side and side part: lost (cached, E3)
    out: TurnHits = (per_attack, ())  # an attacker taken out: the turn passes
    moves: dict[int, list[TurnHits]] = {}
    ended: dict[int, str] = {}
    edges = 0
    start = codes.encode(conflict.start())
    seen, stack = {start}, [start]
    while stack:
        code = stack.pop()
        cooperate()
        name = _outcome(conflict, codes, code, lost)
        if name is not None:
            ended[code] = name
            continue
        state_moves: list[TurnHits] = []
        for attacker, rank, side, hits_of in slots:
            if codes.is_out(code, attacker):
                state_moves.append(out)
                continue
            opponents = codes.part(code, 1 - side)
            if opponents not in hits_of:
                hits_of[opponents] = _turn_hits(conflict, codes, attacker, rank, codes.decode(code))
            state_moves.append(hits_of[opponents])
            for added, _ in hits_of[opponents][1]:
                following = code + added
                if following not in seen:
                    seen.add(following)
                    stack.append(following)
        moves[code] = state_moves
        edges += sum(len(hits) + 1 for _, hits in state_moves)
    return _Turns(codes, sorted(moves), moves, ended, per_attack, edges)


def _outcome(conflict: Conflict, codes: _Codes, code: int, lost: dict[tuple[int, int], bool]) -> str | None:
    """``Conflict.outcome`` of the state ``code``, each side's part judged once."""
    parts = codes.part(code, 0), codes.part(code, 1)
    for side, part in enumerate(parts):
        if (side, part) not in lost:
            lost[side, part] = conflict.lost(codes.decode(code), side)
    if lost[0, parts[0]]:
        return f"wins:{conflict.side_names[1]}"
    if lost[1, parts[1]]:
        return f"wins:{conflict.side_names[0]}"
    return None


def _turn_hits(conflict: Conflict, codes: _Codes, attacker: int, rank: int, state: State) -> TurnHits:
    """``Conflict.turn_moves`` as additions to the state's code."""
    target, miss, hits = conflict.turn_moves(attacker, rank, state)
    numbers, place = codes.numbers[target], codes.places[target]
    before = numbers[state[target]]
    return miss, tuple(((numbers[after] - before) * place, ways) for after, ways in hits)


def solve_turns(conflict: Conflict, order: Order, *, exact: bool, max_rounds: int | None = None,
                curve_rounds: int = 0) -> chains.ChainOdds:
    """What ``chains.solve`` over ``round_step`` gives, computed turn by turn (see above)."""
    turns = _explore_turns(conflict, order)
    number = _numbers(turns.per_attack, exact)
    horizon = min(curve_rounds, max_rounds) if max_rounds is not None else curve_rounds
    curve: list[dict[str, float]] = []
    roundings = turns.edges * (horizon + 1) * 2  # of 2^-53 each: every transition once per pass
    if max_rounds is None:
        outcomes, ends, expected, amplified = _forward(conflict, turns, number, exact)
        if horizon:  # the curve alone is pushed, in floats: they are what it shows
            curve = _push_rounds(conflict, turns, _numbers(turns.per_attack, False), False, horizon).curve
        else:
            roundings = min(roundings, _path_roundings(conflict, len(order), amplified))
    else:
        pushed = _push_rounds(conflict, turns, number, exact, max_rounds)
        outcomes, ends, expected, curve = pushed.outcomes, pushed.ends, pushed.expected, pushed.curve
    cooperate()
    max_error = 0.0 if exact else abs(1.0 - sum(outcomes.values())) + _gamma(roundings)
    if exact:
        outcomes = {name: _fraction(p) for name, p in outcomes.items()}
        ends, expected = {code: _fraction(p) for code, p in ends.items()}, _fraction(expected)
    by_state = {turns.codes.decode(code): p for code, p in ends.items()}
    return chains.ChainOdds(outcomes=outcomes, ends=by_state, expected_rounds=expected, curve=tuple(curve[:horizon]),
                            states=len(turns.moves) * len(order) + len(turns.ended), max_error=max_error)


def _gamma(roundings: int) -> float:
    """The relative error bound of a value computed with ``roundings`` roundings of 2^-53 each."""
    unit = 2.0 ** -53
    return roundings * unit / (1 - roundings * unit) if roundings * unit < 0.5 else 1.0


def _path_roundings(conflict: Conflict, turns_per_round: int, amplified: float) -> int:
    """Roundings along the longest path of the forward pass (issue 50: every term is a sum or product
    of non-negative numbers, so the relative error of each probability is bounded by the roundings
    of one path). A path passes at most Σ members' longest chains of hits + 1 states; at each: the
    arrivals of one turn summed (at most the opponents' predecessor states, ``_member_hits``), the
    turns' arrivals and misses combined (7 per turn + 6), and ``1 - Π misses``, whose relative error
    is the product's (2 per turn) times ``amplified`` (the largest Π / (1 - Π) met)."""
    longest, incoming = 1, 0
    for side in (0, 1):
        tracks = tracks_against(conflict, side)
        hits = [_member_hits(conflict.members[index], tracks) for index in conflict.side_members[side]]
        longest += sum(chain for chain, _ in hits)
        incoming = max(incoming, sum(before for _, before in hits))
    per_state = incoming + 7 * turns_per_round + 6 + math.ceil(2 * turns_per_round * amplified)
    return longest * per_state


def _member_hits(member: Member, tracks: tuple[int, ...]) -> tuple[int, int]:
    """The longest chain of hits the member can take (to out), and the most states one of its states
    can be reached from by a single hit."""
    maxima = (member.stress.physical.max, member.stress.mental.max)
    following: dict[MemberState, set[MemberState]] = {}
    stack = [member.start()]
    while stack:
        state = stack.pop()
        if state in following:
            continue
        following[state] = set()
        if state == OUT:
            continue
        for track in tracks:
            for shifts in range(1, stress_left(state[track]) + 1):
                reached = hit_on_track(state, track, shifts, maxima[track])
                following[state].add(reached)
                stack.append(reached)
    predecessors: dict[MemberState, int] = {}
    for targets in following.values():
        for reached in targets:
            predecessors[reached] = predecessors.get(reached, 0) + 1

    @functools.cache
    def chain(state: MemberState) -> int:
        return max((1 + chain(reached) for reached in following[state]), default=0)

    return chain(member.start()), max(predecessors.values(), default=0)


def _numbers(per_attack: int, exact: bool) -> Ways:
    """ways -> probability, each distinct count converted once (a rational costs a gcd). Exact
    sums are gmpy2's rationals (GMP's, in C, far cheaper than Fraction's gcd in Python: bench/README.md),
    turned into Fractions once at the end (``_fraction``)."""
    known: dict[int, Probability] = {}

    def number(ways: int) -> Probability:
        if ways not in known:
            known[ways] = gmpy2.mpq(ways, per_attack) if exact else ways / per_attack
        return known[ways]

    return number


def _fraction(value: chains.Number) -> Fraction:
    """A gmpy2 rational as the Fraction the platform writes."""
    return Fraction(int(value.numerator), int(value.denominator))


def _is_stalemate(moves: list[TurnHits], per_attack: int) -> bool:
    """E4: every turn of the round misses for certain."""
    return all(miss == per_attack for miss, _ in moves)


def _add(into: dict[Any, Probability], key: object, value: Probability) -> None:
    into[key] = into[key] + value if key in into else value


# outcomes, ends, expected rounds, and the largest Π misses / (1 - Π misses) of a round met (float64)
Masses = tuple[dict[str, Probability], dict[int, Probability], Probability, float]


def _forward(conflict: Conflict, turns: _Turns, number: Ways, exact: bool) -> Masses:
    one: Probability = gmpy2.mpq(1) if exact else 1.0
    zero = one - one
    turns_per_round = len(next(iter(turns.moves.values()), [None]))
    start = turns.codes.encode(conflict.start())
    arrivals: dict[int, list[Probability]] = {start: [one] + [zero] * (turns_per_round - 1)}
    outcomes: dict[str, Probability] = {}
    ends: dict[int, Probability] = {}
    expected = zero
    amplified = 0.0
    ended = turns.ended
    for index, state in enumerate(turns.order):
        if index % chains.COOPERATE_EVERY == chains.COOPERATE_EVERY - 1:
            cooperate()  # the worker's other requests get a turn (service/platform/maths/time_slicing.py)
        arrived = arrivals.pop(state, None)
        if arrived is None:
            continue
        moves = turns.moves[state]
        if _is_stalemate(moves, turns.per_attack):
            _add(outcomes, chains.STALEMATE, sum(arrived))
            _add(ends, state, sum(arrived))
            continue
        stays = [number(miss) for miss, _ in moves]
        around, entering = one, arrived[0]  # around: Π of the misses from turn j to the last turn
        for turn in range(turns_per_round - 1, 0, -1):
            around = around * stays[turn]
            if arrived[turn]:
                entering += arrived[turn] * around
        staying = around * stays[0]
        if not exact:
            amplified = max(amplified, staying / (1 - staying))
        visits = entering / (1 - staying)
        expected += visits  # every visit of turn 0 starts a round
        for turn, (_, hits) in enumerate(moves):
            if turn:
                visits = arrived[turn] + visits * stays[turn - 1]
            following_turn = (turn + 1) % turns_per_round
            for added, ways in hits:
                following, flow = state + added, visits * number(ways)
                if following in ended:
                    _add(outcomes, ended[following], flow)
                    _add(ends, following, flow)
                else:
                    slots = arrivals.get(following)
                    if slots is None:
                        slots = arrivals[following] = [zero] * turns_per_round
                    slots[following_turn] += flow
    for state in ended:  # the start itself may have ended
        if state in arrivals:
            total = sum(arrivals.pop(state))
            _add(outcomes, ended[state], total)
            _add(ends, state, total)
    return outcomes, ends, expected, amplified


@dataclass
class _Pushed:
    outcomes: dict[str, Probability]
    ends: dict[int, Probability]  # by code
    expected: Probability
    curve: list[dict[str, float]]


def _push_rounds(conflict: Conflict, turns: _Turns, number: Ways, exact: bool, rounds: int) -> _Pushed:
    """The mass pushed turn by turn for ``rounds`` rounds: outcomes and ends (what still runs is
    ``undecided``), expected rounds played, and the curve after each round. The masses are a vector
    over the states (object arrays of rationals when exact): a turn is one scatter of its edges,
    where ended states and stalemates (E4) keep their mass."""
    one: Probability = gmpy2.mpq(1) if exact else 1.0
    chain = _vectors(turns, number, exact)
    mass = np.zeros(len(chain.states), dtype=object if exact else float)
    mass[chain.index[turns.codes.encode(conflict.start())]] = one
    running = slice(0, chain.running)
    expected = one - one
    curve: list[dict[str, float]] = []
    for round_number in range(1, rounds + 1):
        cooperate()
        expected += _sum(mass[running])
        for sources, targets, probabilities in chain.turns:
            mass = _scatter(mass[sources] * probabilities, targets, mass)
        curve.append({"round": round_number, "running": float(_sum(mass[running])),
                      **{name: float(total) for name, total in _totals(chain, mass).items()}})
    outcomes = _totals(chain, mass)
    if mass[running].any():
        outcomes[chains.UNDECIDED] = _sum(mass[running])
    ends = {state: value for state, value in zip(chain.states, mass.tolist(), strict=True) if value}
    return _Pushed(outcomes, ends, expected, curve)


@dataclass
class _Vectors:
    states: list[int]  # the running ones first
    index: dict[int, int]
    running: int  # how many states run (neither ended nor a stalemate)
    ended: dict[str, list[int]]  # per outcome, the states that end in it
    turns: list[tuple[np.ndarray, np.ndarray, np.ndarray]]  # per turn: its edges' sources, targets, probabilities


def _vectors(turns: _Turns, number: Ways, exact: bool) -> _Vectors:
    """The turn-by-turn chain as edge arrays; an ended state or a stalemate keeps its mass."""
    ended, running = dict(turns.ended), []
    for state in turns.order:
        cooperate()
        if _is_stalemate(turns.moves[state], turns.per_attack):
            ended[state] = chains.STALEMATE
        else:
            running.append(state)
    states = running + list(ended)
    index = {state: position for position, state in enumerate(states)}
    outcomes: dict[str, list[int]] = {}
    for state, name in ended.items():
        outcomes.setdefault(name, []).append(index[state])
    edges = []
    for turn in range(len(next(iter(turns.moves.values()), []))):
        sources, targets, probabilities = [], [], []
        for state in running:
            cooperate()
            miss, hits = turns.moves[state][turn]
            moves = [(state + added, ways) for added, ways in hits]
            if miss:
                moves.append((state, miss))
            for reached, ways in moves:
                sources.append(index[state])
                targets.append(index[reached])
                probabilities.append(number(ways))
        kept = list(range(len(running), len(states)))
        edges.append((np.array(sources + kept, dtype=int), np.array(targets + kept, dtype=int),
                      np.array(probabilities + [1] * len(kept), dtype=object if exact else float)))
    return _Vectors(states, index, len(running), outcomes, edges)


def _scatter(flows: np.ndarray, targets: np.ndarray, like: np.ndarray) -> np.ndarray:
    """The sum of ``flows`` into each target (one array of ``like``'s size and type)."""
    into = np.zeros_like(like)
    np.add.at(into, targets, flows)
    return into


def _totals(chain: _Vectors, mass: np.ndarray) -> dict[str, Probability]:
    """The mass in each outcome's ended states, for the outcomes reached so far."""
    totals = {name: _sum(mass[members]) for name, members in chain.ended.items()}
    return {name: total for name, total in totals.items() if total}


def _sum(masses: np.ndarray) -> Probability:
    """The sum as a Python number (a Fraction when exact, else a float), never a numpy scalar,
    which the JSON writer would refuse."""
    total = masses.sum()
    return total.item() if isinstance(total, np.generic) else total


def _mixed(parts: list[tuple[dict[Any, Probability], Probability]]) -> dict[Any, Probability]:
    mixed: dict[Any, Probability] = {}
    for values, weight in parts:
        for key, p in values.items():
            mixed[key] = mixed.get(key, 0) + p * weight
    return mixed


def _mixed_curve(solved: list[tuple[chains.ChainOdds, Probability]]) -> tuple[dict[str, float], ...]:
    points = []
    for round_index in range(len(solved[0][0].curve)):
        point: dict[str, float] = {"round": solved[0][0].curve[round_index]["round"]}
        for chain, chance in solved:
            for name, value in chain.curve[round_index].items():
                if name != "round":
                    point[name] = point.get(name, 0.0) + value * float(chance)
        points.append(point)
    return tuple(points)
