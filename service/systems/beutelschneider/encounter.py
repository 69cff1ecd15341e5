"""Beutelschneider encounters: a whole fight of two, exchange after exchange (API.md §1.7, RULINGS.md
"Encounters"). Pure: no Flask, no JSON.

"Im Kampf wird jeweils ein Schlagabtausch zwischen zwei Charakteren als eine Auseinandersetzung
behandelt" and "Danach geht der Kampf gegebenenfalls mit neuerlichen Auseinandersetzungen weiter":
every exchange is one ``combat`` of the two sides, until one falls unconscious ("Wenn ein Spieler bei
einer Herausforderung oder Auseinandersetzung jemals nur schwarze Murmeln ziehen sollte ..., dann wird
der Charakter vorübergehend handlungsunfähig").

The state is the two bags. An exchange only ever turns marbles black, and for a side only two counts
matter: the marbles of its ability's colour (they decide its draws) and the other non-black ones
(an injury may turn them black too); the rest is black. So a side lives on the grid
(matching 0..M, other 0..O), the fight on the product of the two grids, and every move goes down
the grid or ends the fight: a forward-only chain. It is solved here in float64 with numpy (exact
fractions grow about one digit per state, thousands of digits at realistic sizes), every term a
product or sum of non-negative numbers, so no cancellation: the relative error of each probability
is bounded by the number of operations along its longest path (``max_error``).

Two passes over the same transition arrays:
- "jumps" (no round limit): the self-loop of a state is divided out (``leaving = arrived / (1 -
  p_stay)``, also the expected exchanges spent there); every jump then goes strictly down the grid,
  so after at most (M0 + O0 + M1 + O1) jumps all mass has ended;
- "rounds" (``max_rounds`` or a curve): the mass is pushed one exchange at a time.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from math import prod

import numpy as np

from service.platform.dice.randomness import RandomSource
from service.platform.maths.odds import Odds, Solver
from service.platform.maths.time_slicing import cooperate
from service.platform.values.results import described
from service.systems.beutelschneider import rules
from service.systems.beutelschneider.rules import Ability, Bag, Colour, Contender, Danger, Difficulty

WINS = "wins:{}"
ESCAPES = "escapes:{}"
BOTH_OUT = "both_out"
STALEMATE = "stalemate"
UNDECIDED = "undecided"
# Ruling 9: the abilities that injure in combat (the default; E8: a body's `injuring_abilities`).
INJURING = frozenset({Ability.COMBAT})
# The rolling twin without max_rounds stops here (the largest max_rounds a body may give).
MAX_EXCHANGES = 1000
# Rounds pushed after the curve while the running mass is above this; the rest stays undecided and
# counts in max_error.
NEGLIGIBLE = 1e-15
UNIT_ROUNDOFF = 2.0**-53
OPERATIONS_PER_PASS = 48  # floating operations along one path per pass (products, sums, one division)

RUN, OUT_FIRST, OUT_SECOND, OUT_BOTH = "run", "out:0", "out:1", "out:both"
# E6: the side that wins an exchange with an ability that does not injure gets away (side 0, side 1).
ESCAPE_FIRST, ESCAPE_SECOND = "escape:0", "escape:1"


ENDED = (OUT_FIRST, OUT_SECOND, OUT_BOTH, ESCAPE_FIRST, ESCAPE_SECOND)


def left_behind(outcome: str, side: str, other: str) -> bool:
    """E5 as amended 2026-12-04: are the unconscious of ``side`` (fighting ``other``) "auf dem
    Schlachtfeld zurückgelassen" after ``outcome``? Yes when the side lost (the other wins), after
    ``both_out`` and when the side got away: a fleeing side leaves its unconscious behind. After a
    stalemate or an undecided end nobody lost, so nobody's unconscious are left behind. Between two
    characters the unconscious side has always lost, so there E5 reads as before."""
    return outcome in (BOTH_OUT, WINS.format(other), ESCAPES.format(side))


@dataclass(frozen=True)
class Side:
    name: str
    bag: Bag
    ability: Ability = Ability.COMBAT
    difficulty: Difficulty = Difficulty.NORMAL
    injuring: frozenset[Ability] = INJURING  # E8: the fight's `injuring_abilities` (ruling 9)

    @property
    def matching(self) -> int:
        return self.bag.count(self.ability.colour)

    @property
    def others(self) -> int:
        """Non-black marbles of other colours than the ability's."""
        return self.bag.total - self.bag.black - self.matching

    @property
    def injures(self) -> bool:
        return self.ability in self.injuring

    def contender(self, bag: Bag | None = None) -> Contender:
        return Contender(self.name, bag or self.bag, self.ability, self.difficulty)


def state_bound(sides: Sequence[Side]) -> int:
    """API.md §1.7: Π over sides of (red + 1)(other non-black + 1) (red: the ability's colour)."""
    return prod((side.matching + 1) * (side.others + 1) for side in sides)


# --- one side's grid ----------------------------------------------------------------------------

def _comb(population: np.ndarray, chosen: int) -> np.ndarray:
    """C(population, chosen) elementwise (0 where population < chosen), exact for bags of 100."""
    result = np.ones_like(population, dtype=float)
    for i in range(chosen):
        result = result * (population - i) / (i + 1)
    return np.where(population >= chosen, result, 0.0)


class _Grid:
    """Draw probabilities of one side at every (matching, other) point of its grid."""

    def __init__(self, side: Side) -> None:
        self.size = side.bag.total
        self.draws = side.difficulty.draws
        self.matching, self.other = np.meshgrid(np.arange(side.matching + 1), np.arange(side.others + 1),
                                                indexing="ij")
        self.black = self.size - self.matching - self.other
        self.shape = self.matching.shape

    def _draw(self, count: int, matching: int, other: int) -> np.ndarray:
        """P(exactly ``matching`` of the ability's colour, ``other`` others, the rest black)."""
        black = count - matching - other
        if black < 0:
            return np.zeros(self.shape)
        return (_comb(self.matching, matching) * _comb(self.other, other) * _comb(self.black, black)
                / float(_comb(np.array(self.size), count)))

    def conscious(self, matching: int) -> np.ndarray:
        """P(``matching`` marbles of the colour drawn, and not all black)."""
        first_other = 1 if matching == 0 else 0
        return sum((self._draw(self.draws, matching, other) for other in range(first_other, self.draws - matching + 1)),
                   np.zeros(self.shape))

    def unconscious(self) -> np.ndarray:
        """Ruling 1: every marble drawn is black."""
        return self._draw(self.draws, 0, 0)

    def injury(self, margin: int) -> Iterator[tuple[tuple[int, int], np.ndarray]]:
        """(matching, other) marbles turned black by an injury of ``margin`` marbles, and their chance;
        "Alle gezogenen Murmeln werden ... durch schwarze ersetzt" (a bag smaller than the severity
        has all of its marbles drawn, as in ``rules.combat``)."""
        count = min(margin, self.size)
        for matching in range(count + 1):
            for other in range(count - matching + 1):
                yield (matching, other), self._draw(count, matching, other)


# --- the fight's transitions --------------------------------------------------------------------

@dataclass
class _Fight:
    """Per state of the product grid (axes: matching and other of side 0, then of side 1), the chance
    of each kind of exchange: ``moves[(status, side, offset)]``, where ``side`` had ``offset``
    (matching, other) marbles turned black (None: no bag changed) and ``status`` says who is out."""

    sides: tuple[Side, Side]
    grids: tuple[_Grid, _Grid] = field(init=False)
    moves: dict[tuple[str, int | None, tuple[int, int]], np.ndarray] = field(init=False)
    shape: tuple[int, ...] = field(init=False)

    def __post_init__(self) -> None:
        self.grids = (_Grid(self.sides[0]), _Grid(self.sides[1]))
        self.shape = self.grids[0].shape + self.grids[1].shape
        self.moves = {}
        self._exchanges()

    def _joint(self, first: np.ndarray, second: np.ndarray) -> np.ndarray:
        return np.multiply.outer(first, second)

    def _add(self, status: str, side: int | None, offset: tuple[int, int], chance: np.ndarray) -> None:
        cooperate()  # the worker's other requests get a turn (service/platform/maths/time_slicing.py)
        if side is not None and offset == (0, 0):
            side = None  # an injury that drew only black marbles changes nothing
        key = (status, side, offset if side is not None else (0, 0))
        self.moves[key] = self.moves[key] + chance if key in self.moves else chance

    def _exchanges(self) -> None:
        grids = self.grids
        conscious = [[grid.conscious(i) for i in range(grid.draws + 1)] for grid in grids]
        unconscious = [grid.unconscious() for grid in grids]
        # Ties: equal matching counts; at 0 either side may have drawn only black.
        tie = sum((self._joint(conscious[0][i], conscious[1][i])
                   for i in range(min(grids[0].draws, grids[1].draws) + 1)), np.zeros(self.shape))
        self._add(RUN, None, (0, 0), tie)
        self._add(OUT_FIRST, None, (0, 0), self._joint(unconscious[0], conscious[1][0]))
        self._add(OUT_SECOND, None, (0, 0), self._joint(conscious[0][0], unconscious[1]))
        self._add(OUT_BOTH, None, (0, 0), self._joint(unconscious[0], unconscious[1]))
        for winner in (0, 1):
            loser = 1 - winner
            for margin in range(1, grids[winner].draws + 1):
                # The winner drew i + margin of its colour, the loser i (conscious) or nothing but black.
                standing = sum((self._pair(winner, conscious[winner][i + margin], conscious[loser][i])
                                for i in range(grids[loser].draws + 1) if i + margin <= grids[winner].draws),
                               np.zeros(self.shape))
                fallen = self._pair(winner, conscious[winner][margin], unconscious[loser])
                for status, chance in ((RUN, standing), ((OUT_FIRST, OUT_SECOND)[loser], fallen)):
                    self._injure(status, winner, margin, chance)

    def _pair(self, winner: int, winner_chance: np.ndarray, loser_chance: np.ndarray) -> np.ndarray:
        return self._joint(winner_chance, loser_chance) if winner == 0 else self._joint(loser_chance, winner_chance)

    def _injure(self, status: str, winner: int, margin: int, chance: np.ndarray) -> None:
        """Ruling 3: only a winner using an injuring ability (ruling 9, E8) injures, severity = margin,
        drawn from the loser's bag at once; E1: also in the exchange in which someone falls
        unconscious. E6: a winner whose ability does not injure gets away ("Hat ... der Fliehende mehr
        grüne Murmeln ... gezogen als der Angreifer rote, so ist die Flucht gelungen"): the fight ends,
        unless the loser fell unconscious in that exchange (then it is a win, as ever)."""
        loser = 1 - winner
        if not self.sides[winner].injures:
            self._add((ESCAPE_FIRST, ESCAPE_SECOND)[winner] if status == RUN else status, None, (0, 0), chance)
            return
        for offset, injured in self.grids[loser].injury(margin):
            spread = injured[:, :, None, None] if loser == 0 else injured[None, None, :, :]
            self._add(status, loser, offset, chance * spread)

    # -- derived arrays --

    def running_moves(self) -> list[tuple[int, tuple[int, int], np.ndarray]]:
        return [(side, offset, chance) for (status, side, offset), chance in self.moves.items()
                if status == RUN and side is not None]

    def stay(self) -> np.ndarray:
        return self.moves.get((RUN, None, (0, 0)), np.zeros(self.shape))

    def leave(self) -> np.ndarray:
        """P(the exchange changes something): a sum of non-negative terms, never 1 - p_stay."""
        return sum((chance for key, chance in self.moves.items() if key != (RUN, None, (0, 0))),
                   np.zeros(self.shape))


def _shifted_add(target: np.ndarray, mass: np.ndarray, chance: np.ndarray, side: int,
                 offset: tuple[int, int]) -> None:
    """target[state with ``offset`` marbles of ``side`` turned black] += mass * chance at the state
    (only where the offset fits: elsewhere the chance is 0)."""
    cooperate()
    down_matching, down_other = offset
    axes = mass.shape[2 * side:2 * side + 2]
    if down_matching >= axes[0] or down_other >= axes[1]:
        return  # no state of this grid has that many marbles to lose
    if side == 0:
        rows, cols = mass.shape[0] - down_matching, mass.shape[1] - down_other
        target[:rows, :cols] += mass[down_matching:, down_other:] * chance[down_matching:, down_other:]
    else:
        rows, cols = mass.shape[2] - down_matching, mass.shape[3] - down_other
        source = (slice(None), slice(None), slice(down_matching, None), slice(down_other, None))
        target[:, :, :rows, :cols] += mass[source] * chance[source]


# --- solving ------------------------------------------------------------------------------------

@dataclass
class _Solution:
    outcomes: dict[str, float]
    ends: dict[str, np.ndarray]  # per status (incl. stalemate, undecided): mass per end state
    visits: np.ndarray  # expected exchanges played in each running state
    curve: list[dict[str, float]]
    passes: int
    cut: float = 0.0  # mass left undecided by the early stop (part of max_error)


def _outcome_names(sides: Sequence[Side]) -> dict[str, str]:
    """The outcomes of a fight by status; ``escapes:<name>`` only for a side that can get away (E6)."""
    names = {OUT_SECOND: WINS.format(sides[0].name), OUT_FIRST: WINS.format(sides[1].name), OUT_BOTH: BOTH_OUT}
    for status, side in ((ESCAPE_FIRST, sides[0]), (ESCAPE_SECOND, sides[1])):
        if not side.injures:
            names[status] = ESCAPES.format(side.name)
    return names


def _ended(fight: _Fight, visits: np.ndarray) -> dict[str, np.ndarray]:
    """Where the exchanges that end the fight leave the bags, from the expected visits of each state."""
    ends = {status: np.zeros(fight.shape) for status in ENDED}
    for (status, side, offset), chance in fight.moves.items():
        if status == RUN:
            continue
        if side is None:
            ends[status] += visits * chance
        else:
            _shifted_add(ends[status], visits, chance, side, offset)
    return ends


def _start(fight: _Fight) -> np.ndarray:
    mass = np.zeros(fight.shape)
    mass[tuple(n - 1 for n in fight.shape)] = 1.0
    return mass


def _by_jumps(fight: _Fight) -> _Solution:
    leave, moves = fight.leave(), fight.running_moves()
    stuck = leave == 0  # E3: nothing can change any more
    mass, visits, stalemate = _start(fight), np.zeros(fight.shape), np.zeros(fight.shape)
    passes = 0
    while mass.any():
        passes += 1
        cooperate()
        stalemate += np.where(stuck, mass, 0.0)
        leaving = np.divide(mass, leave, out=np.zeros(fight.shape), where=~stuck)
        visits += leaving
        mass = np.zeros(fight.shape)
        for side, offset, chance in moves:
            _shifted_add(mass, leaving, chance, side, offset)
    ends = _ended(fight, visits)
    ends[STALEMATE] = stalemate
    names = _outcome_names(fight.sides)
    outcomes = {names[status]: float(ends[status].sum()) for status in ENDED if status in names}
    outcomes[STALEMATE] = float(stalemate.sum())
    return _Solution(outcomes, ends, visits, [], passes)


def _by_rounds(fight: _Fight, rounds: int, curve_rounds: int) -> _Solution:
    stay, moves = fight.stay(), fight.running_moves()
    stuck = fight.leave() == 0  # E3: a stalemate ends the fight when it is reached (no exchange counted)
    any_stuck = bool(stuck.any())
    # One row per way to end: the chance that the next exchange ends the fight so, from each state.
    names = _outcome_names(fight.sides)
    statuses = [status for status in ENDED if status in names]
    ending = np.stack([sum((chance for (s, _, _), chance in fight.moves.items() if s == status),
                           np.zeros(fight.shape)).ravel() for status in statuses])
    totals = dict.fromkeys([*(names[status] for status in statuses), STALEMATE], 0.0)
    mass, visits, stalemate = _start(fight), np.zeros(fight.shape), np.zeros(fight.shape)
    curve: list[dict[str, float]] = []
    played = 0
    for round_number in range(1, rounds + 1):
        cooperate()
        if any_stuck:
            stalemate += np.where(stuck, mass, 0.0)
            mass = np.where(stuck, 0.0, mass)
        if round_number > curve_rounds and mass.sum() < NEGLIGIBLE:
            break
        played = round_number
        visits += mass
        following = mass * stay
        for side, offset, chance in moves:
            _shifted_add(following, mass, chance, side, offset)
        if round_number <= curve_rounds:
            for status, total in zip(statuses, ending @ visits.ravel()):
                totals[names[status]] = float(total)
            newly_stuck = float(following[stuck].sum()) if any_stuck else 0.0
            totals[STALEMATE] = float(stalemate.sum()) + newly_stuck
            curve.append({"round": round_number, "running": float(following.sum()) - newly_stuck, **totals})
        mass = following
    stalemate += np.where(stuck, mass, 0.0)
    mass = np.where(stuck, 0.0, mass)
    ends = _ended(fight, visits)
    ends[STALEMATE], ends[UNDECIDED] = stalemate, mass
    outcomes = {names[status]: float(ends[status].sum()) for status in ENDED if status in names}
    outcomes[STALEMATE] = float(stalemate.sum())
    outcomes[UNDECIDED] = float(mass.sum())
    cut = outcomes[UNDECIDED] if played < rounds else 0.0
    return _Solution(outcomes, ends, visits, curve, played, cut)


def _black_after(fight: _Fight, ends: dict[str, np.ndarray], side: int) -> dict[int, float]:
    cooperate()  # the passes over the grid after the solve, a turn apart
    total = sum(ends.values(), np.zeros(fight.shape))
    marginal = total.sum(axis=(2, 3)) if side == 0 else total.sum(axis=(0, 1))
    blacks = fight.grids[side].black
    return {int(black): float(marginal[blacks == black].sum()) for black in np.unique(blacks)
            if marginal[blacks == black].sum() > 0}


def _dies(fight: _Fight, ends: dict[str, np.ndarray], side: int, danger: Danger) -> float:
    """E5: one mortal-danger draw of each side unconscious at the end; "Wenn mindestens eine der
    gezogenen Murmeln schwarz ist, so stirbt der Charakter" (summed over the draws with a black one)."""
    grid = fight.grids[side]
    out = ends[(OUT_FIRST, OUT_SECOND)[side]] + ends[OUT_BOTH]
    marginal = out.sum(axis=(2, 3)) if side == 0 else out.sum(axis=(0, 1))
    dies = np.zeros(grid.shape)
    for black in range(1, danger.draws + 1):
        for matching in range(danger.draws - black + 1):
            dies += grid._draw(danger.draws, matching, danger.draws - black - matching)
    return float((marginal * dies).sum())


def _reached(solution: _Solution, visits_shape: tuple[int, ...]) -> int:
    """Grid points (pairs of bags) the fight reached, running or ended."""
    cooperate()
    reached = np.zeros(visits_shape, dtype=bool)
    for mass in (*solution.ends.values(), solution.visits):
        reached |= mass > 0
    return int(np.count_nonzero(reached))


def odds(sides: Sequence[Side], *, aftermath: Danger | None = None, max_rounds: int | None = None,
         curve_rounds: int = 0) -> Odds:
    """The fight's outcomes ``wins:<name>``, ``escapes:<name>`` (E6, a side whose ability does not
    injure), ``both_out`` (E2), ``stalemate`` (E3) and, with
    ``max_rounds``, ``undecided``; distributions ``black_after:<name>``; expected ``exchanges``,
    ``black_after:<name>`` and, with an aftermath, ``dies:<name>`` (E5)."""
    fight = _Fight((sides[0], sides[1]))
    horizon = min(curve_rounds, max_rounds) if max_rounds is not None else curve_rounds
    rounds = _by_rounds(fight, max(horizon, max_rounds or 0), horizon) if (max_rounds or horizon) else None
    solution = rounds if rounds is not None and max_rounds is not None else _by_jumps(fight)
    distributions = {f"black_after:{side.name}": _black_after(fight, solution.ends, index)
                     for index, side in enumerate(sides)}
    expected = {"exchanges": float(solution.visits.sum())}
    for index, side in enumerate(sides):
        distribution = distributions[f"black_after:{side.name}"]
        expected[f"black_after:{side.name}"] = sum(black * p for black, p in distribution.items())
        if aftermath is not None:
            expected[f"dies:{side.name}"] = _dies(fight, solution.ends, index, aftermath)
    passes = solution.passes + (rounds.passes if rounds is not None and rounds is not solution else 0)
    roundoff = OPERATIONS_PER_PASS * (passes + 2) * UNIT_ROUNDOFF
    max_error = abs(1.0 - sum(solution.outcomes.values())) + roundoff + solution.cut
    curve = tuple(rounds.curve) if rounds is not None and horizon else None
    return Odds(outcomes=solution.outcomes, distributions=distributions, expected=expected,
                solver=Solver(states=_reached(solution, fight.shape), precision="float64", max_error=max_error),
                curve=curve)


# --- the rolling twin ---------------------------------------------------------------------------

@dataclass(frozen=True)
class SideEnd:
    name: str
    bag: Bag = field(metadata=described("The bag at the end."))
    unconscious: bool


@dataclass(frozen=True)
class AftermathDraw:
    name: str
    drawn: tuple[Colour, ...] = field(metadata=described("The marbles of the mortal-danger draw."))
    dies: bool


@dataclass(frozen=True)
class EncounterResult:
    steps: list[rules.CombatResult] = field(metadata=described(
        "Every exchange, as `beutelschneider.combat` reports it (the first side attacks)."))
    outcome: str = field(metadata=described(
        "wins:<name>, escapes:<name> (E6), both_out, stalemate or undecided (as in the odds)."))
    exchanges: int
    end: list[SideEnd] = field(metadata=described("The end state, per side."))
    aftermath: list[AftermathDraw] = field(metadata=described(
        "E5: one mortal-danger draw per member unconscious at the end whose side lost (both sides after "
        "both_out; a side that got away leaves its unconscious behind), and per unconscious member of "
        "the other side with `aftermath.winners_draw`."))
    tended: list[str] = field(default_factory=list, metadata=described(
        "E5 as amended: the members unconscious at the end who make no mortal-danger draw, since their "
        "side did not lose (it won, or the fight ended in a stalemate or undecided): tended by their "
        "own. Empty without an aftermath or with `aftermath.winners_draw`."))


@lru_cache(maxsize=64)
def _can_change(sides: tuple[Side, Side]) -> np.ndarray:
    """Per pair of bags: can the next exchange change anything (E3's test, shared with the odds)."""
    return _Fight(sides).leave() > 0


def _grid_point(sides: Sequence[Side], bags: Sequence[Bag]) -> tuple[int, ...]:
    point = []
    for side, bag in zip(sides, bags):
        matching = bag.count(side.ability.colour)
        point += [matching, bag.total - bag.black - matching]
    return tuple(point)


def play(sides: Sequence[Side], source: RandomSource, *, aftermath: Danger | None = None,
         max_rounds: int | None = None) -> EncounterResult:
    """One fight, exchange by exchange, each a ``rules.combat`` of the two (side 0 attacks); stops when
    someone is unconscious, when a side whose ability does not injure wins an exchange (E6), at
    ``max_rounds`` (``undecided``, without it at 1000 exchanges) or when nothing can change any more
    (E3, the same test as the odds')."""
    can_change = _can_change((sides[0], sides[1]))
    bags = [side.bag for side in sides]
    steps: list[rules.CombatResult] = []
    outcome, out = UNDECIDED, [False, False]
    while len(steps) < (max_rounds or MAX_EXCHANGES):
        if not can_change[_grid_point(sides, bags)]:
            outcome = STALEMATE
            break
        result = rules.combat(sides[0].contender(bags[0]), sides[1].contender(bags[1]), source,
                              injuring=sides[0].injuring)
        steps.append(result)
        if result.injury is not None:
            bags[0 if result.injury.target == sides[0].name else 1] = result.injury.bag_after
        out = [participant.unconscious for participant in result.participants]
        if any(out):
            outcome = BOTH_OUT if all(out) else WINS.format(sides[1 if out[0] else 0].name)
            break
        winner = next((side for side in sides if side.name == result.winner), None)
        if winner is not None and not winner.injures:  # E6: the flight (or any way out) succeeds
            outcome = ESCAPES.format(winner.name)
            break
    after = [AftermathDraw(side.name, *_mortal_danger(bag, aftermath, source))
             for side, bag, fallen in zip(sides, bags, out) if fallen and aftermath is not None]
    end = [SideEnd(side.name, bag, fallen) for side, bag, fallen in zip(sides, bags, out)]
    return EncounterResult(steps, outcome, len(steps), end, after)


def _mortal_danger(bag: Bag, danger: Danger, source: RandomSource) -> tuple[tuple[Colour, ...], bool]:
    result = rules.mortal_danger(bag, danger, source)
    return result.drawn, result.dies
