"""Advice for a Beutelschneider fight of two characters (RULINGS.md "Advice", Beutelschneider): the
advised side may choose its ability anew before every exchange, given both bags as they stand
("Flucht wird über Geschick abgehandelt": skill is the flight, E6; magic where the world lets it
injure, ruling 9). Pure: no Flask, no JSON.

The adaptive optimum is backward induction on the fight's own chain (service/systems/beutelschneider/
encounter.py): a state is the two bags, the advised side's lumped by the colours of the abilities it
may choose (and the rest non-black), the other's as there (its ability's colour, the rest non-black).
Every exchange only turns marbles black, so the states are solved from the most marbles lost to the
fewest, each level at once with numpy. A state's value under an ability that it keeps while nothing
changes is (what the exchange leads to) / P(the exchange changes something); the best stationary
choice is the best of these (the self-loop repeats the same choice), both sums of non-negative terms.

The aim (RULINGS.md "Advice"): the chance to win (``wins:<side>``), ties broken by the chance not to
lose (an escape, either side's, and a stalemate are no loss; ``both_out`` is). A flight ends the
fight without a win, so fleeing is chosen only where fighting on cannot win more: where every choice
wins equally (within ``TIE``), the one that loses least.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from math import comb, prod
from typing import Any

import numpy as np

from service.platform.maths.time_slicing import cooperate
from service.platform.words.messages import Message, advised, advised_n
from service.systems.beutelschneider.encounter import Side
from service.systems.beutelschneider.rules import Ability, Colour

TIE = 1e-12  # two choices' chances to win closer than this are equal (float64 sums of ~1e2 terms)
UNIT_ROUNDOFF = 2.0**-53
OPERATIONS_PER_LEVEL = 64  # floating operations along one path per level (as encounter.py's passes)


@dataclass(frozen=True, eq=False)
class Solved:
    """The optimum: its chances, and in every state the fight reaches when it plays, the advised
    side's marbles per lump (``mine``, one row per lump), the other's (``theirs``: matching, other
    non-black) and the ability chosen (``chosen``, an index into ``abilities``)."""

    win: float
    not_lose: float
    abilities: tuple[Ability, ...]
    lumps: tuple[Colour | None, ...]  # the advised side's lumps: a colour each, None the rest non-black
    mine: np.ndarray
    theirs: np.ndarray
    chosen: np.ndarray
    states: int
    max_error: float

    def where(self, ability: Ability) -> np.ndarray:
        """Which of the reached states choose ``ability``."""
        return self.chosen == self.abilities.index(ability)


def lumps_of(abilities: Sequence[Ability]) -> tuple[Colour | None, ...]:
    colours = list(dict.fromkeys(ability.colour for ability in abilities))
    return (*colours, None)


def _counts(side: Side, lumps: Sequence[Colour | None]) -> tuple[int, ...]:
    named = [side.bag.count(colour) for colour in lumps if colour is not None]
    return (*named, side.bag.total - side.bag.black - sum(named))


def state_bound(me: Side, them: Side, abilities: Sequence[Ability]) -> int:
    """States of the adaptive solve: Π over the advised side's lumps (count + 1), times the other's
    (matching + 1)(other + 1)."""
    return prod(n + 1 for n in _counts(me, lumps_of(abilities))) * (them.matching + 1) * (them.others + 1)


class _Grid:
    """One side's grid of lumped counts, flattened, and its draws' chances at every point: each
    composition's ways counted in integers and divided once."""

    def __init__(self, total: int, counts: Sequence[int], draws: int) -> None:
        self.total, self.draws = total, draws
        self.shape = tuple(n + 1 for n in counts)
        self.points = [axis.ravel() for axis in np.indices(self.shape)]
        self.black = total - sum(self.points)
        self.strides = [prod(self.shape[k + 1:]) for k in range(len(self.shape))]

    def chance(self, drawn: Sequence[int], count: int) -> np.ndarray:
        """P(exactly ``drawn`` of each lump, the rest black) in a draw of ``count`` marbles."""
        black = count - sum(drawn)
        if black < 0:
            return np.zeros(len(self.black))
        ways = np.ones(len(self.black), dtype=np.int64)
        for points, n in zip((*self.points, self.black), (*drawn, black)):
            ways = ways * _comb(points, n)
        return ways / comb(self.total, count)

    def compositions(self, count: int) -> Iterator[tuple[int, ...]]:
        for drawn in itertools.product(range(count + 1), repeat=len(self.shape)):
            if sum(drawn) <= count:
                yield drawn

    def conscious(self, lump: int) -> list[np.ndarray]:
        """Per number of ``lump``'s marbles drawn: P(that many, and not all black)."""
        result = [np.zeros(len(self.black)) for _ in range(self.draws + 1)]
        for drawn in self.compositions(self.draws):
            if sum(drawn):
                result[drawn[lump]] = result[drawn[lump]] + self.chance(drawn, self.draws)
        return result

    def unconscious(self) -> np.ndarray:
        return self.chance((0,) * len(self.shape), self.draws)

    def injuries(self, margin: int) -> Iterator[tuple[int, np.ndarray]]:
        """(how far down the flat grid, chance) of an injury of ``margin`` marbles (ruling 3; a bag
        smaller than the severity has all of its marbles drawn); only black drawn: no move."""
        count = min(margin, self.total)
        for drawn in self.compositions(count):
            if sum(drawn):
                yield sum(n * stride for n, stride in zip(drawn, self.strides)), self.chance(drawn, count)


def _comb(population: np.ndarray, chosen: int) -> np.ndarray:
    result = np.ones_like(population, dtype=np.int64)
    for i in range(chosen):
        result = result * np.maximum(population - i, 0) // (i + 1)
    return result


@dataclass
class _Action:
    """One ability of the advised side over the product grid (flat: mine major, theirs minor):
    its running moves (step down the flat grid, chance), what the exchange ends in (win, not lose)
    and the chance that it changes anything."""

    ability: Ability
    moves: list[tuple[int, np.ndarray]]
    win: np.ndarray
    not_lose: np.ndarray
    leave: np.ndarray


def _action(ability: Ability, me: Side, them: Side, mine: _Grid, theirs: _Grid, lump: int) -> _Action:
    """Ruling 1 (all black: unconscious), ruling 3 (the loser injured by the margin, when the winner's
    ability injures; an injury drawing only black changes nothing), E1 (a fall ends the fight whatever
    the injury), E2 (both out: a loss), E6 (a winner whose ability does not injure gets away: no win,
    no loss)."""
    injures = (ability in me.injuring, them.injures)
    draws = (mine.draws, theirs.draws)
    conscious = (mine.conscious(lump), theirs.conscious(0))
    unconscious = (mine.unconscious(), theirs.unconscious())
    size = len(mine.black) * len(theirs.black)

    def pair(winner: int, winner_chance: np.ndarray, loser_chance: np.ndarray) -> np.ndarray:
        first, second = (winner_chance, loser_chance) if winner == 0 else (loser_chance, winner_chance)
        return np.multiply.outer(first, second).ravel()

    win, not_lose, ending = np.zeros(size), np.zeros(size), np.zeros(size)
    moves: dict[int, np.ndarray] = {}
    for winner in (0, 1):
        loser = 1 - winner
        for margin in range(draws[winner] + 1):
            cooperate()
            fallen = pair(winner, conscious[winner][margin], unconscious[loser])
            ending = ending + fallen
            if winner == 0:
                win, not_lose = win + fallen, not_lose + fallen
            if margin == 0:
                continue
            standing = sum((pair(winner, conscious[winner][i + margin], conscious[loser][i])
                            for i in range(draws[loser] + 1) if i + margin <= draws[winner]), np.zeros(size))
            if not injures[winner]:
                ending, not_lose = ending + standing, not_lose + standing  # either side's escape is no loss
                continue
            grid = mine if loser == 0 else theirs
            for step, injury in grid.injuries(margin):
                flat_step = step * len(theirs.black) if loser == 0 else step
                spread = np.repeat(injury, len(theirs.black)) if loser == 0 else np.tile(injury, len(mine.black))
                moves[flat_step] = moves.get(flat_step, np.zeros(size)) + standing * spread
    ending = ending + np.multiply.outer(*unconscious).ravel()  # E2: both out, a loss
    leave = sum(moves.values(), ending)
    return _Action(ability, sorted(moves.items()), win, not_lose, leave)


def solve(me: Side, them: Side, abilities: Sequence[Ability]) -> Solved:
    """The advised side ``me``'s best chance to win against ``them`` (its ability kept, E4) when it
    chooses among ``abilities`` before every exchange, and its choice in every state."""
    lumps = lumps_of(abilities)
    start_mine, start_theirs = _counts(me, lumps), (them.matching, them.others)
    mine = _Grid(me.bag.total, start_mine, me.difficulty.draws)
    theirs = _Grid(them.bag.total, start_theirs, them.difficulty.draws)
    actions = [_action(ability, me, them, mine, theirs, lumps.index(ability.colour)) for ability in abilities]
    size = len(mine.black) * len(theirs.black)
    pad = max((step for action in actions for step, _ in action.moves), default=0)
    win, not_lose = np.zeros(pad + size), np.zeros(pad + size)
    chosen = np.zeros(size, dtype=np.int64)
    lost = (np.add.outer(sum(start_mine) - sum(mine.points), sum(start_theirs) - sum(theirs.points))).ravel()
    for level in range(int(lost.max()), -1, -1):
        cooperate()
        index = np.flatnonzero(lost == level)
        best_win, best_safe = np.full(len(index), -1.0), np.full(len(index), -1.0)
        for number, action in enumerate(actions):
            leave = action.leave[index]
            gained_win, gained_safe = action.win[index].copy(), action.not_lose[index].copy()
            for step, chance in action.moves:
                gained_win += chance[index] * win[pad + index - step]
                gained_safe += chance[index] * not_lose[pad + index - step]
            stuck = leave == 0  # E3: nothing can change: a stalemate, no win and no loss
            value_win = np.divide(gained_win, leave, out=np.zeros(len(index)), where=~stuck)
            value_safe = np.divide(gained_safe, leave, out=np.ones(len(index)), where=~stuck)
            better = (value_win > best_win + TIE) | ((np.abs(value_win - best_win) <= TIE) & (value_safe > best_safe))
            best_win = np.where(better, value_win, best_win)
            best_safe = np.where(better, value_safe, best_safe)
            chosen[index] = np.where(better, number, chosen[index])
        win[pad + index], not_lose[pad + index] = best_win, best_safe
    reached = np.flatnonzero(_reached(actions, chosen, lost))
    width = len(theirs.black)
    mine_points = np.array([p[reached // width] for p in mine.points])
    theirs_points = np.array([p[reached % width] for p in theirs.points])
    path = (int(lost.max()) + 2) * OPERATIONS_PER_LEVEL
    return Solved(float(win[-1]), float(not_lose[-1]), tuple(abilities), lumps, mine_points, theirs_points,
                  chosen[reached], len(reached), path * UNIT_ROUNDOFF)


def _reached(actions: Sequence[_Action], chosen: np.ndarray, lost: np.ndarray) -> np.ndarray:
    """The states the fight reaches from the start when the optimum plays, level by level (every
    move goes to a higher level)."""
    reached = np.zeros(len(lost), dtype=bool)
    reached[-1] = True
    for level in range(int(lost.max()) + 1):
        cooperate()
        index = np.flatnonzero((lost == level) & reached)
        for number, action in enumerate(actions):
            playing = index[chosen[index] == number]
            for step, chance in action.moves:
                reached[playing[chance[playing] > 0] - step] = True
    return reached


# --- the optimum in words ---------------------------------------------------------------------------

ABILITY_WORDS = {Ability.COMBAT: advised("combat (red)"), Ability.SKILL: advised("skill (green: the flight)"),
                 Ability.MAGIC: advised("magic (blue)")}


def rules(solved: Solved, kept: Ability) -> tuple[Message, ...]:
    """What the optimum does, against ``kept`` (the ability the body gives the side), as a player reads
    it aloud: never change; change once the kept ability's marbles run down to a count; or how often."""
    keeping = solved.chosen == solved.abilities.index(kept) if kept in solved.abilities else np.zeros(0, bool)
    changed = ~keeping
    if not changed.any():
        return (advised("Keep %(ability)s in every exchange: no other choice wins more or loses less.",
                        ability=ABILITY_WORDS[kept]),)
    others = sorted({solved.abilities[i] for i in solved.chosen[changed]}, key=list(Ability).index)
    if len(others) == 1 and kept.colour in solved.lumps:
        left = solved.mine[solved.lumps.index(kept.colour)]
        below = int(left[changed].max())
        if np.array_equal(changed, left <= below) and below == 0:
            return (advised("Switch to %(other)s as soon as no marble is left for %(ability)s.",
                            other=ABILITY_WORDS[others[0]], ability=ABILITY_WORDS[kept]),)
        if np.array_equal(changed, left <= below):
            return (advised_n("Switch to %(other)s as soon as %(count)d marble or fewer is left for %(ability)s.",
                              "Switch to %(other)s as soon as %(count)d marbles or fewer are left for %(ability)s.",
                              below, other=ABILITY_WORDS[others[0]], ability=ABILITY_WORDS[kept]),)
    return tuple(advised_n("Choose %(other)s in %(count)d of the states the fight can reach, else %(ability)s.",
                           "Choose %(other)s in %(count)d of the states the fight can reach, else %(ability)s.",
                           int((solved.chosen == solved.abilities.index(other)).sum()),
                           other=ABILITY_WORDS[other], ability=ABILITY_WORDS[kept]) for other in others)


def policy_words(policy: Mapping[str, Any]) -> list[Message]:
    """A Beutelschneider policy in the chat line's words: each member's ability, the order the second
    side is met in."""
    words: list[Message] = []
    ability = policy.get("ability")
    if isinstance(ability, Mapping):
        words.extend(advised("%(name)s: %(ability)s", name=name, ability=ABILITY_WORDS[Ability(chosen)])
                     for name, chosen in ability.items())
    elif ability is not None:
        words.append(ABILITY_WORDS[Ability(ability)])
    if "pairs" in policy:
        pairs = policy["pairs"]
        words.append(advised("the pairs as the body gives them") if pairs is None
                     else advised("meet %(names)s in this order", names=list(dict.fromkeys(b for _, b in pairs))))
    return words
