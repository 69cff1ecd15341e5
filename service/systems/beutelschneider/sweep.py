"""The odds of a Beutelschneider fight of groups on its reduced space, one level at a time (issue 50).
Pure: no Flask, no JSON. The rules are those of service/systems/beutelschneider/groups.py (E7: each
round every pairing of standing opponents is one exchange, in order, an injury applied at once).

The reduced space:
- lumping: a member's bag is (marbles of its ability's colour, other non-black marbles), the rest is
  black; no rule of the fight tells the other colours apart (an injury turns any drawn marble black);
- a member who falls unconscious takes part in no further exchange, so its bag is final: it leaves the
  state at once, counted into its own distribution at the end. The fight's state is a *block* (the
  members still standing) and a point of each standing member's grid;
- order: an exchange only turns marbles black or fells members, so within a block every move goes to
  a higher *level* (marbles turned black so far) and a fall goes to a smaller block. The blocks are
  solved largest first, each level by level, every level at once with numpy. A whole round that
  changes nothing is the only cycle: it is divided out in closed form (the chance of a round that
  changes something is summed from non-negative terms, never taken as 1 - p).

Float64 only (exact fractions grow about a digit per state): every term is a product or sum of
non-negative numbers, so the relative error of each probability is bounded by the operations along
its longest path (``max_error``).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from math import comb, prod

import numpy as np

from service.platform.maths.odds import Odds, Solver
from service.platform.maths.time_slicing import cooperate
from service.systems.beutelschneider.encounter import (
    BOTH_OUT,
    ESCAPES,
    STALEMATE,
    UNIT_ROUNDOFF,
    WINS,
    Side,
)
from service.systems.beutelschneider.rules import Danger

Block = tuple[int, ...]  # the standing members, in body order
# Roundings one probability meets per level it passes: a move's chance (each draw's chance counted
# in integer ways and divided once, their products and sums over the margins) and the chance that
# the round changes something (a sum of every such term), then per pairing of the round the
# closed form's steps and the sums that gather the moves arriving at a state.
OPERATIONS_PER_LEVEL = 50
OPERATIONS_PER_TURN = 22


# --- one member -----------------------------------------------------------------------------------

def _comb(population: np.ndarray, chosen: int) -> np.ndarray:
    """C(population, chosen) elementwise in integers (0 where population < chosen)."""
    result = np.ones_like(population, dtype=np.int64)
    for i in range(chosen):
        result = result * np.maximum(population - i, 0) // (i + 1)
    return result


@dataclass(frozen=True)
class _Member:
    """A member's grid, flattened: point = matching × (others + 1) + other. Every chance of a draw
    is its ways counted in integers and divided once: one rounding."""

    side: Side
    team: int  # 0: the first side, 1: the other

    @property
    def size(self) -> int:
        return (self.side.matching + 1) * (self.side.others + 1)

    @property
    def width(self) -> int:
        return self.side.others + 1

    @cached_property
    def _points(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        matching, other = np.divmod(np.arange(self.size, dtype=np.int64), self.width)
        return matching, other, self.side.bag.total - matching - other

    @cached_property
    def lost(self) -> np.ndarray:
        """Marbles turned black so far, per point: the member's share of a state's level."""
        matching, other, _ = self._points
        return self.side.matching - matching + self.side.others - other

    @property
    def black(self) -> np.ndarray:
        return self._points[2]

    def _ways(self, count: int, matching: int, other: int) -> np.ndarray:
        """Ways to draw ``matching`` of the ability's colour and ``other`` others in ``count`` marbles."""
        black = count - matching - other
        if black < 0:
            return np.zeros(self.size, dtype=np.int64)
        points = self._points
        return _comb(points[0], matching) * _comb(points[1], other) * _comb(points[2], black)

    def _chance(self, ways: np.ndarray, count: int) -> np.ndarray:
        return ways / comb(self.side.bag.total, count)

    def conscious(self, matching: int) -> np.ndarray:
        """P(``matching`` marbles of the colour drawn, and not all black)."""
        draws = self.side.difficulty.draws
        ways = sum((self._ways(draws, matching, other) for other in range(0 if matching else 1, draws - matching + 1)),
                   np.zeros(self.size, dtype=np.int64))
        return self._chance(ways, draws)

    def unconscious(self) -> np.ndarray:
        """Ruling 1: every marble drawn is black."""
        return self._chance(self._ways(self.side.difficulty.draws, 0, 0), self.side.difficulty.draws)

    def injuries(self, margin: int) -> list[tuple[tuple[int, int], np.ndarray]]:
        """(matching, other) turned black by an injury of ``margin`` marbles, with its chance per point
        ("Alle gezogenen Murmeln werden ... durch schwarze ersetzt"; a bag smaller than the severity
        has all of its marbles drawn)."""
        count = min(margin, self.side.bag.total)
        return [((matching, other), self._chance(self._ways(count, matching, other), count))
                for matching in range(count + 1) for other in range(count - matching + 1)]

    def shift(self, offset: tuple[int, int]) -> int:
        """How far down the flattened grid ``offset`` marbles turned black move a point."""
        return offset[0] * self.width + offset[1]

    def injured(self, chance: np.ndarray, margin: int) -> np.ndarray:
        """The points after an injury of ``margin`` marbles (margin 0: none), from mass per point."""
        if margin == 0:
            return chance
        after = np.zeros(self.size)
        for offset, injury in self.injuries(margin):
            step = self.shift(offset)
            if step >= self.size:
                continue  # no point has that many marbles to lose (its chance is 0 everywhere)
            moved = chance * injury
            after[:self.size - step] += moved[step:]  # the chance is 0 where the offset does not fit
        return after


# --- one pairing's exchange -----------------------------------------------------------------------

@dataclass
class _Exchange:
    """One pairing (a, b) over every pair of their points, arrays of shape (points of a, points of b).

    ``moves``: (member hurt, offset, chance): both stay standing and the loser's marbles turn black;
    ``falls``: (who falls, member hurt or None, margin, chance): someone falls unconscious;
    ``escapes``: per team, the chance that a member winning with an ability that does not injure gets
    its side away (E6); ``leave``: the chance that the exchange changes anything (a sum of the rest)."""

    pair: tuple[int, int]
    moves: list[tuple[int, tuple[int, int], np.ndarray]] = field(default_factory=list)
    falls: list[tuple[frozenset[int], int | None, int, np.ndarray]] = field(default_factory=list)
    escapes: dict[int, np.ndarray] = field(default_factory=dict)
    leave: np.ndarray = field(default_factory=lambda: np.zeros(0))


def _exchange(members: Sequence[_Member], pair: tuple[int, int]) -> _Exchange:
    """Ruling 1 (all black: unconscious), ruling 3 (the loser injured by the margin, drawn at once,
    also when someone falls, E1), E6 (a winner whose ability does not injure gets away)."""
    a, b = (members[i] for i in pair)
    draws = (a.side.difficulty.draws, b.side.difficulty.draws)
    conscious = ([a.conscious(i) for i in range(draws[0] + 1)], [b.conscious(i) for i in range(draws[1] + 1)])
    unconscious = (a.unconscious(), b.unconscious())
    exchange = _Exchange(pair)

    def joint(first: np.ndarray, second: np.ndarray) -> np.ndarray:
        return np.multiply.outer(first, second)

    def as_pair(winner: int, winner_chance: np.ndarray, loser_chance: np.ndarray) -> np.ndarray:
        return joint(winner_chance, loser_chance) if winner == 0 else joint(loser_chance, winner_chance)

    moved: dict[tuple[int, tuple[int, int]], np.ndarray] = {}
    for winner in (0, 1):
        loser = 1 - winner
        hurts = (a, b)[winner].side.injures
        loser_member = (a, b)[loser]
        for margin in range(1, draws[winner] + 1):
            cooperate()
            standing = sum((as_pair(winner, conscious[winner][i + margin], conscious[loser][i])
                            for i in range(draws[loser] + 1) if i + margin <= draws[winner]),
                           np.zeros((a.size, b.size)))
            fallen = as_pair(winner, conscious[winner][margin], unconscious[loser])
            exchange.falls.append((frozenset({pair[loser]}), pair[loser] if hurts else None,
                                   margin if hurts else 0, fallen))
            if not hurts:
                team = (a, b)[winner].team
                exchange.escapes[team] = exchange.escapes.get(team, 0) + standing
                continue
            for offset, injury in loser_member.injuries(margin):
                cooperate()
                if offset == (0, 0):
                    continue  # only black drawn: nothing changes
                spread = injury[:, None] if loser == 0 else injury[None, :]
                key = (pair[loser], offset)
                moved[key] = moved[key] + standing * spread if key in moved else standing * spread
        # the loser all black, the other conscious with no marble of its colour: a fall, no winner
        exchange.falls.append((frozenset({pair[loser]}), None, 0,
                               as_pair(winner, conscious[winner][0], unconscious[loser])))
    exchange.falls.append((frozenset(pair), None, 0, joint(*unconscious)))
    exchange.moves = [(hurt, offset, chance) for (hurt, offset), chance in moved.items()]
    parts = [chance for _, _, chance in exchange.moves] + [chance for *_, chance in exchange.falls]
    exchange.leave = sum(parts + list(exchange.escapes.values()), np.zeros((a.size, b.size)))
    return exchange


# --- the fight ----------------------------------------------------------------------------------

@dataclass
class _Tally:
    """What the fight's ends add up to: outcomes, and per member its points at the end (standing or not)."""

    outcomes: dict[str, float]
    standing: list[np.ndarray]
    fallen: list[np.ndarray]
    left: list[np.ndarray]  # of ``fallen``: the points of falls after which the member's side loses (E5)
    exchanges: float = 0.0
    states: int = 0


@dataclass
class _BlockMass:
    """Mass arriving at each state of a block, one array per turn of the round (padded in front so
    that a move that does not fit lands harmlessly in range, with chance 0)."""

    block: Block
    shape: tuple[int, ...]
    pad: int
    arrived: list[np.ndarray]


class _Sweep:
    def __init__(self, members: Sequence[_Member], pairs: Sequence[tuple[int, int]], names: dict[str, str],
                 *, losing: bool = False) -> None:
        self.members = members
        self.pairs = tuple(pairs)
        self.turns = len(pairs)
        self.names = names  # outcome name per key: "0", "1" (that team out), "both", "escape:<team>"
        self.exchanges = {pair: _exchange(members, pair) for pair in dict.fromkeys(pairs)}
        self.blocks: dict[Block, _BlockMass] = {}
        self.moves: dict[tuple[Block, int], tuple[np.ndarray, np.ndarray]] = {}
        # E5 as amended: with ``losing``, each fall is weighed by the chance that the fallen's side
        # loses from the state after it (the backward pass, ``_losing``).
        self.losing: dict[Block, list[np.ndarray]] | None = {} if losing else None
        self.tally = _Tally(outcomes=dict.fromkeys([*names.values(), STALEMATE], 0.0),
                            standing=[np.zeros(m.size) for m in members],
                            fallen=[np.zeros(m.size) for m in members],
                            left=[np.zeros(m.size) for m in members])

    def run(self) -> _Tally:
        start = tuple(range(len(self.members)))
        mass = self._mass(start)
        mass.arrived[0][-1] = 1.0  # every member with its whole bag: the last point of the block
        while self.blocks:
            block = max(self.blocks, key=len)  # a fall only ever leads to a smaller block
            self._solve(self.blocks.pop(block))
        return self.tally

    # -- blocks --

    def _shape(self, block: Block) -> tuple[tuple[int, ...], int]:
        """The block's grid and the padding in front of its flat arrays (the furthest move down)."""
        shape = tuple(self.members[i].size for i in block)
        return shape, max(self.members[i].shift((3, 3)) * _strides(shape)[k] for k, i in enumerate(block))

    def _mass(self, block: Block) -> _BlockMass:
        if block not in self.blocks:
            shape, pad = self._shape(block)
            self.blocks[block] = _BlockMass(block, shape, pad,
                                            [np.zeros(pad + prod(shape)) for _ in range(self.turns)])
        return self.blocks[block]

    def _end_key(self, block: Block) -> str | None:
        """The end's key when only ``block`` stands ("0"/"1": that team out, "both"), None while both
        sides have someone standing."""
        teams = {self.members[i].team for i in block}
        if teams == {0, 1}:
            return None
        return "both" if not teams else str(1 - teams.pop())

    def _ended(self, block: Block) -> str | None:
        """The outcome when only ``block`` stands, None while both sides have someone standing."""
        key = self._end_key(block)
        return None if key is None else self.names[key]

    # -- one block, level by level --

    def _solve(self, mass: _BlockMass) -> None:
        block, shape, pad = mass.block, mass.shape, mass.pad
        position = {member: k for k, member in enumerate(block)}
        strides = _strides(shape)
        active = [k for k, pair in enumerate(self.pairs) if pair[0] in position and pair[1] in position]
        stuck_at: list[tuple[np.ndarray, np.ndarray]] = []
        for index in _levels(self.members, block, shape):
            cooperate()
            arrived = [turn[pad + index] for turn in mass.arrived]
            total = sum(arrived[1:], arrived[0])
            reached = total > 0
            if not reached.any():
                continue
            index, arrived, total = index[reached], [turn[reached] for turn in arrived], total[reached]
            self.tally.states += len(index)
            coords = {member: (index // strides[k]) % shape[k] for k, member in enumerate(block)}
            points = {k: coords[self.pairs[k][0]] * self.members[self.pairs[k][1]].size + coords[self.pairs[k][1]]
                      for k in active}
            leave = [self.exchanges[self.pairs[k]].leave.ravel().take(points[k]) if k in points else None
                     for k in range(self.turns)]
            cooperate()
            visits, stuck = _round_visits(arrived, leave)
            cooperate()
            if stuck.any():
                stuck_at.append((index[stuck], total[stuck]))
            for k in range(self.turns):
                mass.arrived[k][pad + index] = visits[k]  # the level is done: its slots hold its visits
            for k in active:
                cooperate()
                self.tally.exchanges += float(visits[k].sum())
                steps, chances = self._moves(block, k)
                # every move of the turn at once: the targets and flows of each move, one row each
                np.add.at(mass.arrived[(k + 1) % self.turns], (pad + index - steps[:, None]).ravel(),
                          (chances.take(points[k], axis=1) * visits[k]).ravel())
        visits_of = [turn[pad:].reshape(shape) for turn in mass.arrived]
        for k in active:
            self._leave_block(block, k, visits_of[k])
        if stuck_at:
            stuck = np.zeros(prod(shape))
            for index, total in stuck_at:
                stuck[index] = total
            self.tally.outcomes[STALEMATE] += float(stuck.sum())
            for rows in _chunks(shape):
                cooperate()
                self._stand(block, stuck.reshape(shape)[rows], rows)

    def _moves(self, block: Block, turn: int) -> tuple[np.ndarray, np.ndarray]:
        """The turn's moves in the block: how far each moves a state's flat index, and its chance per
        pair of points (a row each)."""
        key = (block, turn)
        if key not in self.moves:
            shape = tuple(self.members[i].size for i in block)
            strides = _strides(shape)
            moves = self.exchanges[self.pairs[turn]].moves
            steps = np.array([self.members[hurt].shift(offset) * strides[block.index(hurt)]
                              for hurt, offset, _ in moves], dtype=np.int64)
            chances = np.array([chance.ravel() for _, _, chance in moves]).reshape(len(moves), -1)
            self.moves[key] = (steps, chances)
        return self.moves[key]

    def _leave_block(self, block: Block, turn: int, visits: np.ndarray) -> None:
        """The exchange ``turn`` of every visit of the block: falls (to a smaller block, or the end)
        and escapes, over the whole block a slice of its first member's points at a time."""
        exchange = self.exchanges[self.pairs[turn]]
        a, b = (block.index(member) for member in exchange.pair)
        falls = [(fallen, hurt, margin, _on_axes(chance, a, b, len(block))) for fallen, hurt, margin, chance
                 in exchange.falls]
        escapes = [(team, _on_axes(chance, a, b, len(block))) for team, chance in exchange.escapes.items()]
        for rows in _chunks(visits.shape):
            part = visits[rows]
            for fallen, hurt, margin, chance in falls:
                cooperate()
                self._fall(block, turn, fallen, hurt, margin, part * _rows_of(chance, rows), rows)
            for team, chance in escapes:
                cooperate()
                flow = part * _rows_of(chance, rows)
                self.tally.outcomes[self.names[f"escape:{team}"]] += float(flow.sum())
                self._stand(block, flow, rows)

    def _fall(self, block: Block, turn: int, fallen: frozenset[int], hurt: int | None, margin: int,
              flow: np.ndarray, rows: slice) -> None:
        """``flow``: over the block's axes, the first one cut to ``rows``. The fallen leave the block
        with their points (the injured after its injury); the rest go on in the smaller block, or the
        fight ends."""
        remaining = tuple(member for member in block if member not in fallen)
        for member in fallen:
            axis = block.index(member)
            severity = margin if member == hurt else 0
            points = np.zeros(self.members[member].size)
            points[rows if axis == 0 else slice(None)] = flow.sum(axis=_except(axis, flow.ndim))
            self.tally.fallen[member] += self.members[member].injured(points, severity)
            if self.losing is not None:
                weighed = flow * self._losing_after(block, remaining, self.members[member].team, turn, rows)
                points = np.zeros(self.members[member].size)
                points[rows if axis == 0 else slice(None)] = weighed.sum(axis=_except(axis, flow.ndim))
                self.tally.left[member] += self.members[member].injured(points, severity)
        rest = flow.sum(axis=tuple(block.index(member) for member in fallen))  # axes: the remaining, in order
        kept_rows = rows if block[0] in remaining else slice(None)
        outcome = self._ended(remaining)
        if outcome is not None:
            self.tally.outcomes[outcome] += float(rest.sum())
            self._stand(remaining, rest, kept_rows)
            return
        smaller = self._mass(remaining)
        smaller.arrived[(turn + 1) % self.turns][smaller.pad:].reshape(smaller.shape)[kept_rows] += rest

    def _stand(self, block: Block, ended: np.ndarray, rows: slice) -> None:
        """The fight ended with ``block`` standing, ``ended`` the mass per state (its first axis cut
        to ``rows``): each member's points."""
        for axis, member in enumerate(block):
            self.tally.standing[member][rows if axis == 0 else slice(None)] += ended.sum(axis=_except(axis, ended.ndim))

    # -- the backward pass: who loses, from every state (E5 as amended) --

    def _losing_after(self, block: Block, remaining: Block, team: int, turn: int, rows: slice) -> np.ndarray | float:
        """The chance that ``team`` loses once ``remaining`` of ``block`` stand before the next turn
        after ``turn``: a number when the fight has ended, else an array over ``block``'s axes (size 1
        on the fallen's, the first cut to ``rows`` when its member still stands)."""
        key = self._end_key(remaining)
        if key is not None:
            return float(_left_behind(key)[team])
        shape, pad = self._shape(remaining)
        values = self._losing(remaining)[(turn + 1) % self.turns][pad:, team].reshape(shape)
        if block[0] in remaining:
            values = values[rows]
        return np.expand_dims(values, tuple(k for k, member in enumerate(block) if member not in remaining))

    def _losing(self, block: Block) -> list[np.ndarray]:
        """Per turn of the round, per state of ``block`` (padded in front as the forward arrays), per
        team: the chance that the fight ends with that team left behind (``_left_behind``). Backward
        over the same levels: every move goes to a higher level or a smaller block, solved before;
        the round that changes nothing divided out in closed form as in ``_round_visits``."""
        assert self.losing is not None
        if block in self.losing:
            return self.losing[block]
        shape, pad = self._shape(block)
        strides = _strides(shape)
        values = [np.zeros((pad + prod(shape), 2)) for _ in range(self.turns)]
        position = {member: k for k, member in enumerate(block)}
        active = [k for k, pair in enumerate(self.pairs) if pair[0] in position and pair[1] in position]
        for index in reversed(list(_levels(self.members, block, shape))):
            cooperate()
            coords = {member: (index // strides[k]) % shape[k] for k, member in enumerate(block)}
            points = {k: coords[self.pairs[k][0]] * self.members[self.pairs[k][1]].size + coords[self.pairs[k][1]]
                      for k in active}
            gains = [self._gain(block, k, index, points[k], coords, values, pad) if k in points
                     else np.zeros((len(index), 2)) for k in range(self.turns)]
            leave = [self.exchanges[self.pairs[k]].leave.ravel().take(points[k]) if k in points else None
                     for k in range(self.turns)]
            for k, value in enumerate(_round_values(gains, leave)):
                values[k][pad + index] = value
        self.losing[block] = values
        return values

    def _gain(self, block: Block, turn: int, index: np.ndarray, points: np.ndarray,
              coords: dict[int, np.ndarray], values: list[np.ndarray], pad: int) -> np.ndarray:
        """Per state of ``index`` and team: the exchange ``turn``'s chance to change something, each
        change weighed by the chance to lose after it (a higher level of the block, a smaller block
        after a fall, or the end)."""
        cooperate()
        following = values[(turn + 1) % self.turns]
        gain = np.zeros((len(index), 2))
        steps, chances = self._moves(block, turn)
        if len(steps):
            gain += np.einsum("mn,mnr->nr", chances.take(points, axis=1), following[pad + index - steps[:, None]])
        exchange = self.exchanges[self.pairs[turn]]
        for fallen, _, _, chance in exchange.falls:
            remaining = tuple(member for member in block if member not in fallen)
            gain += chance.ravel().take(points)[:, None] * self._losing_at(remaining, coords, turn)
        for team, chance in exchange.escapes.items():
            gain += chance.ravel().take(points)[:, None] * _left_behind(f"escape:{team}")
        return gain

    def _losing_at(self, remaining: Block, coords: dict[int, np.ndarray], turn: int) -> np.ndarray:
        """Per state (``coords`` of the block's members) and team: the chance to lose once only
        ``remaining`` stand, before the turn after ``turn``."""
        key = self._end_key(remaining)
        if key is not None:
            return _left_behind(key)[None, :]
        shape, pad = self._shape(remaining)
        strides = _strides(shape)
        flat = sum((coords[member] * strides[k] for k, member in enumerate(remaining)),
                   np.zeros_like(coords[remaining[0]]))
        return self._losing(remaining)[(turn + 1) % self.turns][pad + flat]


def _left_behind(key: str) -> np.ndarray:
    """Per team, 1 when the end ``key`` leaves that team's unconscious "auf dem Schlachtfeld
    zurückgelassen" (E5 as amended, ``encounter.left_behind``): it is out, both are, or it got away."""
    if key == "both":
        return np.ones(2)
    team = int(key.removeprefix("escape:"))
    return np.eye(2)[team]


def _round_values(gains: list[np.ndarray], leave: list[np.ndarray | None]) -> list[np.ndarray]:
    """The backward twin of ``_round_visits``: value_k = gain_k + stay_k value_(k+1), the round
    closing on itself, so value_0 = (gain_0 + s_0 gain_1 + s_0 s_1 gain_2 + ...) / P(the round
    changes something), both sums of non-negative terms; a state where nothing can change (E3,
    a stalemate) is nobody's loss."""
    turns = len(gains)
    stay = [np.ones(len(gains[0])) if chance is None else 1.0 - chance for chance in leave]
    changes, gathered, staying = np.zeros(len(gains[0])), np.zeros_like(gains[0]), np.ones(len(gains[0]))
    for k, chance in enumerate(leave):
        if chance is not None:
            changes = changes + staying * chance
        gathered = gathered + staying[:, None] * gains[k]
        staying = staying * stay[k]
    stuck = changes == 0
    first = np.divide(gathered, changes[:, None], out=np.zeros_like(gathered), where=~stuck[:, None])
    values = [first] * turns
    following = first
    for k in range(turns - 1, 0, -1):
        values[k] = np.where(stuck[:, None], 0.0, gains[k] + stay[k][:, None] * following)
        following = values[k]
    return values


# A dense step over a block touches at most about this many states between two turns of the worker,
# a step of a level's moves at most this many (each has a few dozen moves to add).
CHUNK_STATES = 1 << 16
LEVEL_PART = 1 << 14


def _chunks(shape: tuple[int, ...]) -> Iterator[slice]:
    """Slices of the first axis, each about ``CHUNK_STATES`` states of the block."""
    per_row = max(1, prod(shape[1:]))
    step = max(1, CHUNK_STATES // per_row)
    for start in range(0, shape[0], step):
        yield slice(start, start + step)


def _on_axes(chance: np.ndarray, a: int, b: int, ndim: int) -> np.ndarray:
    """A pairing's chance per (point of a, point of b) laid on the block's axes ``a`` and ``b``."""
    shape = [1] * ndim
    shape[a], shape[b] = chance.shape
    return (chance if a < b else chance.T).reshape(shape)


def _rows_of(spread: np.ndarray, rows: slice) -> np.ndarray:
    return spread[rows] if spread.shape[0] > 1 else spread


def _except(axis: int, ndim: int) -> tuple[int, ...]:
    return tuple(k for k in range(ndim) if k != axis)


def _strides(shape: tuple[int, ...]) -> list[int]:
    return [prod(shape[k + 1:]) for k in range(len(shape))]


def _levels(members: Sequence[_Member], block: Block, shape: tuple[int, ...]) -> Iterator[np.ndarray]:
    """The block's flat indices, level by level (marbles its members have lost), a turn between
    parts of a level (its states are independent: every move goes to a higher level)."""
    level = np.zeros((), dtype=np.int16)
    for member in block:
        cooperate()
        level = np.add.outer(level, members[member].lost.astype(np.int16))
    flat = level.ravel()
    for value in range(int(sum(members[member].lost.max() for member in block)) + 1):
        cooperate()
        index = np.flatnonzero(flat == value)
        for start in range(0, len(index), LEVEL_PART):
            yield index[start:start + LEVEL_PART]


def _round_visits(arrived: list[np.ndarray], leave: list[np.ndarray | None]) -> tuple[list[np.ndarray], np.ndarray]:
    """Expected visits of each turn of the round, from the mass arriving at each turn (from other
    states) and each turn's chance to change something (None: the pairing does not fight). The round
    that changes nothing repeats: visits_0 = (what enters before turn 0 comes round) / P(the round
    changes something), P summed as l_0 + s_0 l_1 + s_0 s_1 l_2 + ... (no cancellation)."""
    turns = len(arrived)
    stay = [np.ones_like(arrived[0]) if chance is None else 1.0 - chance for chance in leave]
    changes, staying = np.zeros_like(arrived[0]), np.ones_like(arrived[0])
    for k in range(turns):
        if leave[k] is not None:
            changes = changes + staying * leave[k]
        staying = staying * stay[k]
    entering, around = arrived[0].copy(), np.ones_like(arrived[0])
    for k in range(turns - 1, 0, -1):
        around = around * stay[k]
        entering = entering + arrived[k] * around
    stuck = changes == 0  # E3: no exchange of the round can change anything
    visits = [np.divide(entering, changes, out=np.zeros_like(entering), where=~stuck)]
    for k in range(1, turns):
        visits.append(np.where(stuck, 0.0, arrived[k] + visits[k - 1] * stay[k - 1]))
    return visits, stuck


# --- the answer -----------------------------------------------------------------------------------

def reduced_states(sides: Sequence[Sequence[Side]]) -> int:
    """States of the reduced space: per block of standing members (someone on each side), the
    product of their grids, (matching + 1)(other + 1) each."""
    first, second = (prod(1 + (m.matching + 1) * (m.others + 1) for m in side) - 1 for side in sides)
    return first * second


def odds(sides: Sequence[Sequence[Side]], side_names: tuple[str, str], pairs: Sequence[tuple[int, int]], *,
         aftermath: Danger | None = None, winners_draw: bool = False) -> Odds:
    """The fight's odds as ``groups.odds`` answers them without ``max_rounds``. E5 as amended: a
    member's ``dies`` counts its falls after which its side loses (weighed by the backward pass),
    every fall with ``winners_draw``."""
    members = [_Member(side, team) for team, group in enumerate(sides) for side in group]
    names = {"1": WINS.format(side_names[0]), "0": WINS.format(side_names[1]), "both": BOTH_OUT}
    for team, group in enumerate(sides):
        if any(not member.injures for member in group):
            names[f"escape:{team}"] = ESCAPES.format(side_names[team])
    tally = _Sweep(members, pairs, names, losing=aftermath is not None and not winners_draw).run()
    falls = tally.fallen if winners_draw else tally.left
    distributions: dict[str, dict[int, float]] = {}
    expected: dict[str, float] = {"exchanges": tally.exchanges}
    for index, member in enumerate(members):
        name = member.side.name
        black: dict[int, float] = {}
        for count, p in zip(member.black, tally.standing[index] + tally.fallen[index]):
            if p > 0:
                black[int(count)] = black.get(int(count), 0.0) + float(p)
        distributions[f"black_after:{name}"] = dict(sorted(black.items()))
        expected[f"black_after:{name}"] = sum(k * p for k, p in black.items())
        if aftermath is not None:
            total = member.side.bag.total
            expected[f"dies:{name}"] = float(sum(p * _dies(total, int(count), aftermath.draws)
                                                 for count, p in zip(member.black, falls[index]) if p > 0))
    operations = OPERATIONS_PER_LEVEL + OPERATIONS_PER_TURN * len(pairs)
    path = (_longest_path(members) + 2) * operations
    max_error = abs(1.0 - sum(tally.outcomes.values())) + path * UNIT_ROUNDOFF / (1 - path * UNIT_ROUNDOFF)
    return Odds(outcomes=tally.outcomes, distributions=distributions, expected=expected,
                solver=Solver(states=tally.states, precision="float64", max_error=max_error))


def _longest_path(members: Sequence[_Member]) -> int:
    """Levels one probability can pass, over every block: each marble turned black and each fall
    at most once."""
    return sum(m.side.matching + m.side.others + 1 for m in members)


def _dies(total: int, black: int, draws: int) -> float:
    """"Wenn mindestens eine der gezogenen Murmeln schwarz ist, so stirbt der Charakter"."""
    count = min(draws, total)
    return 1.0 - comb(total - black, count) / comb(total, count)
