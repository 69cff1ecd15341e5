"""Beutelschneider fights of sides with several members (RULINGS.md "Encounters" E7, 2026-12-03).
Pure: no Flask, no JSON.

"Kämpft beispielsweise ein Legionär gegen zwei Affenmenschen, so gibt es zwei Auseinandersetzungen –
einmal der Legionär gegen den einen, und dann der Legionär gegen den anderen Affenmenschen" and
"ein Charakter durchaus Teil mehrerer solcher Paare sein kann": each round every pairing of standing
opponents is one exchange (a ``combat``, the first side's member attacking), in the order of
``pairs`` (by default each member of the first side against each member of the other, in order); an
exchange's injury applies at once, before the next exchange of the round ("Im ersten Durchgang ...
Gegen den zweiten Affenmenschen ..."). A member who falls unconscious takes part in no further
exchange; a side is out when all its members are. E6 holds per exchange: a member winning with an
ability that does not injure gets its side away (``escapes:<side>``), E8 ``injuring_abilities`` in
every exchange. E3: a state in which no exchange of the round can change anything is a stalemate.

Here the state is every member's (marbles of its ability's colour, other non-black marbles,
unconscious), as the rolling twin and the rounds pushed one by one (``max_rounds``, the curve) use
it; a whole fight without ``max_rounds`` is solved on the reduced space of
service/systems/beutelschneider/sweep.py. Float64: every term a product or sum of non-negative numbers.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import lru_cache
from math import comb, prod

from service.platform.dice.randomness import RandomSource
from service.platform.maths.odds import Odds, Solver
from service.platform.maths.time_slicing import cooperate
from service.systems.beutelschneider import rules, sweep
from service.systems.beutelschneider.encounter import (
    BOTH_OUT,
    ESCAPES,
    MAX_EXCHANGES,
    STALEMATE,
    UNDECIDED,
    UNIT_ROUNDOFF,
    WINS,
    AftermathDraw,
    EncounterResult,
    Side,
    SideEnd,
    left_behind,
)
from service.systems.beutelschneider.rules import Bag, Colour, Danger

MemberState = tuple[int, int, bool]  # matching, other non-black, unconscious
State = tuple[MemberState, ...]  # every member, the first side's first
Pair = tuple[int, int]  # member indices: the first side's (attacker), the other side's
Move = tuple[State, float]
End = tuple[str, State]


@dataclass(frozen=True)
class Group:
    """A side: its name and its members (a single character is a side of one)."""

    name: str
    members: tuple[Side, ...]


@dataclass(frozen=True)
class Fight:
    groups: tuple[Group, Group]
    pairs: tuple[Pair, ...]  # the round's exchanges, in order (E7)

    @property
    def members(self) -> tuple[Side, ...]:
        return self.groups[0].members + self.groups[1].members

    @property
    def side_of(self) -> tuple[int, ...]:
        return tuple(0 for _ in self.groups[0].members) + tuple(1 for _ in self.groups[1].members)

    def start(self) -> State:
        return tuple((member.matching, member.others, False) for member in self.members)

    def outcome_names(self) -> list[str]:
        names = [WINS.format(self.groups[0].name), WINS.format(self.groups[1].name), BOTH_OUT]
        names += [ESCAPES.format(group.name) for group in self.groups
                  if any(not member.injures for member in group.members)]
        return names


def default_pairs(first: int, second: int) -> tuple[Pair, ...]:
    """E7's default: each member of the first side against each member of the other, in order."""
    return tuple((a, first + b) for a in range(first) for b in range(second))


def state_bound(fight: Fight) -> int:
    """The states of the reduced space (service/systems/beutelschneider/sweep.py): per set of standing
    members with someone on each side, Π over them of (matching + 1)(other + 1); once per exchange of
    a round."""
    return sweep.reduced_states([group.members for group in fight.groups]) * len(fight.pairs)


def rounds_state_bound(fight: Fight) -> int:
    """The rounds pushed one by one (``max_rounds``, the curve) go over every member's bag, standing or
    not: Π over the members of 2 (matching + 1)(other + 1), once per exchange of a round (per round)."""
    return prod(2 * (m.matching + 1) * (m.others + 1) for m in fight.members) * len(fight.pairs)


# --- one exchange -------------------------------------------------------------------------------

@lru_cache(maxsize=4096)
def _draw(total: int, matching: int, other: int, count: int, drawn_matching: int, drawn_other: int) -> float:
    black = total - matching - other
    drawn_black = count - drawn_matching - drawn_other
    if drawn_black < 0:
        return 0.0
    return (comb(matching, drawn_matching) * comb(other, drawn_other) * comb(black, drawn_black)) / comb(total, count)


@lru_cache(maxsize=4096)
def _results(total: int, matching: int, other: int, count: int) -> tuple[tuple[int, bool, float], ...]:
    """(matching drawn, unconscious, chance) of one draw: ruling 1, all black is unconscious."""
    results = [(0, True, _draw(total, matching, other, count, 0, 0))]
    for drawn in range(count + 1):
        chance = sum(_draw(total, matching, other, count, drawn, o)
                     for o in range(0 if drawn else 1, count - drawn + 1))
        results.append((drawn, False, chance))
    return tuple((d, out, p) for d, out, p in results if p > 0)


@lru_cache(maxsize=4096)
def _injuries(total: int, matching: int, other: int, margin: int) -> tuple[tuple[int, int, float], ...]:
    """(matching, other) turned black by an injury of ``margin`` marbles, and their chance (ruling 3;
    a bag smaller than the severity has all of its marbles drawn)."""
    count = min(margin, total)
    return tuple((x, y, _draw(total, matching, other, count, x, y)) for x in range(count + 1)
                 for y in range(count - x + 1) if _draw(total, matching, other, count, x, y) > 0)


class Exchanges:
    """Per pair and state: the chance that the exchange changes nothing, its moves and its ends."""

    def __init__(self, fight: Fight) -> None:
        self.fight = fight
        self.members = fight.members
        self.side_of = fight.side_of
        self.names = fight.outcome_names()
        self.side_members = tuple(tuple(i for i, side in enumerate(self.side_of) if side == wanted)
                                  for wanted in (0, 1))
        self.outcomes = (WINS.format(fight.groups[1].name), WINS.format(fight.groups[0].name))
        self._known: dict[tuple[int, MemberState, MemberState], tuple] = {}

    def active(self, pair: Pair, state: State) -> bool:
        return not state[pair[0]][2] and not state[pair[1]][2]

    def turn(self, k: int, state: State) -> tuple[float, list[Move], list[tuple[End, float]]]:
        """Exchange ``k`` of the round from ``state``: (stay, moves, ends); a pair with a member out
        changes nothing (stay 1)."""
        pair = self.fight.pairs[k]
        if not self.active(pair, state):
            return 1.0, [], []
        key = (k, state[pair[0]], state[pair[1]])
        if key not in self._known:
            self._known[key] = self._exchange(pair, state[pair[0]], state[pair[1]])
        stay, changes, escapes = self._known[key]
        moves: list[Move] = []
        ends: list[tuple[End, float]] = []
        first, second = pair
        for (after_a, after_b), chance in changes:
            reached = (*state[:first], after_a, *state[first + 1:second], after_b, *state[second + 1:])
            status = self._ended(reached) if after_a[2] or after_b[2] else None
            if status is None:
                moves.append((reached, chance))
            else:
                ends.append(((status, reached), chance))
        for side, chance in escapes:
            ends.append(((ESCAPES.format(self.fight.groups[side].name), state), chance))
        return stay, moves, ends

    def _ended(self, state: State) -> str | None:
        out = [all(state[i][2] for i in members) for members in self.side_members]
        if out[0] and out[1]:
            return BOTH_OUT
        if out[0]:
            return self.outcomes[0]
        if out[1]:
            return self.outcomes[1]
        return None

    def _exchange(self, pair: Pair, a: MemberState, b: MemberState) -> tuple:
        cooperate()
        members = (self.members[pair[0]], self.members[pair[1]])
        points = (a, b)
        draws = [_results(m.bag.total, p[0], p[1], m.difficulty.draws) for m, p in zip(members, points)]
        stay = 0.0
        changes: dict[tuple[MemberState, MemberState], float] = {}
        escapes: dict[int, float] = {}
        for drawn_a, out_a, p_a in draws[0]:
            for drawn_b, out_b, p_b in draws[1]:
                chance = p_a * p_b
                outs = (out_a, out_b)
                after = [(p[0], p[1], out) for p, out in zip(points, outs)]
                if drawn_a == drawn_b:
                    if not any(outs):
                        stay += chance
                    else:
                        key = (after[0], after[1])
                        changes[key] = changes.get(key, 0.0) + chance
                    continue
                winner = 0 if drawn_a > drawn_b else 1
                loser = 1 - winner
                if not members[winner].injures:
                    if outs[loser]:  # E6: a fall in that exchange stays a fall
                        key = (after[0], after[1])
                        changes[key] = changes.get(key, 0.0) + chance
                    else:
                        escapes[self.side_of[pair[winner]]] = escapes.get(self.side_of[pair[winner]], 0.0) + chance
                    continue
                margin = abs(drawn_a - drawn_b)
                lost = points[loser]
                for x, y, q in _injuries(members[loser].bag.total, lost[0], lost[1], margin):
                    hurt = list(after)
                    hurt[loser] = (lost[0] - x, lost[1] - y, outs[loser])
                    key = (hurt[0], hurt[1])
                    if key == (a, b):
                        stay += chance * q
                    else:
                        changes[key] = changes.get(key, 0.0) + chance * q
        return stay, tuple(changes.items()), tuple(escapes.items())


# --- the odds -----------------------------------------------------------------------------------

@dataclass
class _Solved:
    ends: dict[End, float]
    exchanges: float
    states: int
    curve: list[dict[str, float]]
    undecided: dict[State, float]


def _by_rounds(fight: Fight, exchanges: Exchanges, rounds: int, curve_rounds: int,
               names: Sequence[str]) -> _Solved:
    turns = len(fight.pairs)
    mass: dict[State, float] = {fight.start(): 1.0}
    ends: dict[End, float] = {}
    expected = 0.0
    curve: list[dict[str, float]] = []
    states: set[State] = set()
    for round_number in range(1, rounds + 1):
        for k in range(turns):
            cooperate()
            following: dict[State, float] = {}
            for state, held in mass.items():
                states.add(state)
                stay, moves, turn_ends = exchanges.turn(k, state)
                if k == 0 and all(exchanges.turn(j, state)[0] == 1.0 for j in range(turns)):
                    key = (STALEMATE, state)
                    ends[key] = ends.get(key, 0.0) + held
                    continue
                if exchanges.active(fight.pairs[k], state):
                    expected += held
                if stay:
                    following[state] = following.get(state, 0.0) + held * stay
                for reached, chance in moves:
                    following[reached] = following.get(reached, 0.0) + held * chance
                for key, chance in turn_ends:
                    ends[key] = ends.get(key, 0.0) + held * chance
            mass = following
        if round_number <= curve_rounds:
            totals = _totals(ends, names)
            curve.append({"round": round_number, "running": sum(mass.values()), **totals})
    return _Solved(ends, expected, len(states), curve, mass)


def _totals(ends: dict[End, float], names: Sequence[str]) -> dict[str, float]:
    totals = dict.fromkeys([*names, STALEMATE], 0.0)
    for (status, _), p in ends.items():
        totals[status] = totals.get(status, 0.0) + p
    return totals


def odds(fight: Fight, *, aftermath: Danger | None = None, winners_draw: bool = False,
         max_rounds: int | None = None, curve_rounds: int = 0) -> Odds:
    """Outcomes ``wins:<side>``, ``escapes:<side>`` (a side with a member whose ability does not
    injure), ``both_out``, ``stalemate`` and, with ``max_rounds`` (rounds of every pairing),
    ``undecided``; distributions ``black_after:<member>``; expected ``exchanges``,
    ``black_after:<member>`` and, with an aftermath, ``dies:<member>`` (E5 as amended: a member
    unconscious at the end draws when its side is left behind, ``encounter.left_behind``, or with
    ``winners_draw``). Without ``max_rounds`` on the reduced space (service/systems/beutelschneider/sweep.py);
    rounds pushed one by one (``max_rounds``, the curve) over every member's bag."""
    names = fight.outcome_names()
    horizon = min(curve_rounds, max_rounds) if max_rounds is not None else curve_rounds
    if max_rounds is None:
        swept = sweep.odds([group.members for group in fight.groups], (fight.groups[0].name, fight.groups[1].name),
                           fight.pairs, aftermath=aftermath, winners_draw=winners_draw)
        curve = _by_rounds(fight, Exchanges(fight), horizon, horizon, names).curve if horizon else None
        return replace(swept, curve=tuple(curve) if curve is not None else None)
    solved = _by_rounds(fight, Exchanges(fight), max_rounds, horizon, names)
    outcomes = _totals(solved.ends, names)
    outcomes[UNDECIDED] = sum(solved.undecided.values())
    finals: dict[End, float] = dict(solved.ends)
    for state, p in solved.undecided.items():
        finals[(UNDECIDED, state)] = finals.get((UNDECIDED, state), 0.0) + p
    distributions: dict[str, dict[int, float]] = {}
    expected: dict[str, float] = {"exchanges": solved.exchanges}
    for index, member in enumerate(fight.members):
        black: dict[int, float] = {}
        dies = 0.0
        for (status, state), p in finals.items():
            matching, other, out = state[index]
            count = member.bag.total - matching - other
            black[count] = black.get(count, 0.0) + p
            if out and aftermath is not None and (winners_draw or _left_behind(fight, status, index)):
                dies += p * _dies(member.bag.total, count, aftermath.draws)
        distributions[f"black_after:{member.name}"] = dict(sorted(black.items()))
        expected[f"black_after:{member.name}"] = sum(k * p for k, p in black.items())
        if aftermath is not None:
            expected[f"dies:{member.name}"] = dies
    operations = 64 * (solved.states + 2)
    max_error = abs(1.0 - sum(outcomes.values())) + operations * UNIT_ROUNDOFF
    return Odds(outcomes=outcomes, distributions=distributions, expected=expected,
                solver=Solver(states=solved.states, precision="float64", max_error=max_error),
                curve=tuple(solved.curve) if horizon else None)


def _left_behind(fight: Fight, outcome: str, member: int) -> bool:
    """E5 as amended for ``member``'s side: "auf dem Schlachtfeld zurückgelassen" after ``outcome``."""
    side = fight.side_of[member]
    return left_behind(outcome, fight.groups[side].name, fight.groups[1 - side].name)


def _dies(total: int, black: int, draws: int) -> float:
    """"Wenn mindestens eine der gezogenen Murmeln schwarz ist, so stirbt der Charakter"."""
    count = min(draws, total)
    return 1.0 - comb(total - black, count) / comb(total, count)


# --- the rolling twin ---------------------------------------------------------------------------

@lru_cache(maxsize=64)
def _exchanges(fight: Fight) -> Exchanges:
    """E3's test for the rolling twin, shared by the fights of one body (the odds' own)."""
    return Exchanges(fight)


def play(fight: Fight, source: RandomSource, *, aftermath: Danger | None = None, winners_draw: bool = False,
         max_rounds: int | None = None) -> EncounterResult:
    """One fight, round by round, every pairing of standing opponents one ``rules.combat`` in the
    order of ``pairs``; ``max_rounds`` counts rounds (without it the fight stops at 1000 exchanges).
    E5 as amended: with an aftermath, the unconscious whose side is left behind draw
    (``encounter.left_behind``), the others only with ``winners_draw``, else they are ``tended``."""
    members = fight.members
    exchanges = _exchanges(fight)
    bags = [member.bag for member in members]
    out = [False] * len(members)
    steps: list[rules.CombatResult] = []
    outcome, rounds = UNDECIDED, 0
    while outcome == UNDECIDED and rounds < (max_rounds or MAX_EXCHANGES) and len(steps) < MAX_EXCHANGES:
        state = tuple((_matching(m, bag), _others(m, bag), fallen) for m, bag, fallen in zip(members, bags, out))
        if all(exchanges.turn(k, state)[0] == 1.0 for k in range(len(fight.pairs))):
            outcome = STALEMATE
            break
        rounds += 1
        for a, b in fight.pairs:
            if out[a] or out[b]:
                continue
            result = rules.combat(members[a].contender(bags[a]), members[b].contender(bags[b]), source,
                                  injuring=members[a].injuring)
            steps.append(result)
            if result.injury is not None:
                hurt = a if result.injury.target == members[a].name else b
                bags[hurt] = result.injury.bag_after
            out[a], out[b] = (participant.unconscious for participant in result.participants)
            status = exchanges._ended(tuple((0, 0, fallen) for fallen in out))
            if status is not None:
                outcome = status
                break
            winner = next((i for i in (a, b) if members[i].name == result.winner), None)
            if winner is not None and not members[winner].injures:  # E6
                outcome = ESCAPES.format(fight.groups[fight.side_of[winner]].name)
                break
    drawing = [fallen and aftermath is not None and (winners_draw or _left_behind(fight, outcome, index))
               for index, fallen in enumerate(out)]
    after = [AftermathDraw(member.name, *_mortal_danger(bag, aftermath, source))
             for member, bag, draws in zip(members, bags, drawing) if draws and aftermath is not None]
    tended = [member.name for member, fallen, draws in zip(members, out, drawing)
              if fallen and not draws and aftermath is not None]
    end = [SideEnd(member.name, bag, fallen) for member, bag, fallen in zip(members, bags, out)]
    return EncounterResult(steps, outcome, len(steps), end, after, tended)


def _matching(member: Side, bag: Bag) -> int:
    return bag.count(member.ability.colour)


def _others(member: Side, bag: Bag) -> int:
    return bag.total - bag.black - bag.count(member.ability.colour)


def _mortal_danger(bag: Bag, danger: Danger, source: RandomSource) -> tuple[tuple[Colour, ...], bool]:
    result = rules.mortal_danger(bag, danger, source)
    return result.drawn, result.dies
