"""A whole Paws duel (rules file 001, RULINGS.md "Encounters", Paws E1–E5): its exact odds and its
play-out. Pure: no Flask, no JSON.

"Der Sieger eines Runde wird durch einen normalen Vergleich ermittelt, in dem beide Kämpfer ihre
Fertigkeiten einbringen können. Der Verlierer erleidet eine neue Wunde die zur Natur des Angriffs
passt und der Sieger bleibt unverletzt. Bei Gleichstand wird niemand verletzt. Der Kampf dauert so
lange an, bis einer der Beteiligten Kampfunfähig ist oder auf gibt."

A state is (wounds of a, wounds of b, one-shot rescue dice left to a, to b): wounds only grow and
one-shot dice only shrink, so the chain only moves forward (a tie stays), and
service/platform/maths/chains.py solves it exactly.
"""

from __future__ import annotations

import dataclasses
import functools
import math
from collections.abc import Iterator
from dataclasses import dataclass
from fractions import Fraction

from service.platform.dice.randomness import RandomSource
from service.platform.maths import chains
from service.platform.maths.odds import Odds, Probability, Solver
from service.systems.paws import odds as paws_odds
from service.systems.paws import rules

SIDES = ("a", "b")
ROLLING_ROUND_CAP = 1000  # a rolled duel without max_rounds stops here (undecided): ties can repeat long
HALF = Fraction(1, 2)

State = tuple[int, int, int, int]  # wounds of a, wounds of b, one-shot rescue dice left to a, to b
Transitions = list[tuple[State, Probability]]


@dataclass(frozen=True)
class Fighter:
    """One side: its fighting pool as in a comparison (its own ``wounds`` count from the start) and
    its policies. ``out_at_wounds``: None = out when no dice are left (E1); ``give_up_at_wounds``:
    None = never gives up (E2); ``one_shot_rescue``: one-shot rescue dice (E3)."""

    pool: rules.Pool
    out_at_wounds: int | None = None
    give_up_at_wounds: int | None = None
    one_shot_rescue: int = 0

    def at(self, wounds: int) -> rules.Pool:
        """The pool after ``wounds`` wounds in all: "Wunden ... einen Würfel ab ziehen" (ruling 5, E5)."""
        return dataclasses.replace(self.pool, wounds=wounds)

    def dice(self, wounds: int) -> int:
        """Dice of the pool after ``wounds`` wounds in all: one die less per wound, never below 0
        (the pool's own rule, ruling 5, E5)."""
        return max(0, self._unwounded_dice - wounds)

    @functools.cached_property
    def _unwounded_dice(self) -> int:
        return self.at(0).dice

    @property
    def rescue_dice(self) -> int:
        return self.pool.rescue_dice  # wounds take no rescue dice away

    def out(self, wounds: int) -> bool:
        """E1: "Kampfunfähig" = no dice left (or ``out_at_wounds``)."""
        return self.dice(wounds) == 0 or (self.out_at_wounds is not None and wounds >= self.out_at_wounds)

    def gives_up(self, wounds: int) -> bool:
        """E2: "oder auf gibt"."""
        return self.give_up_at_wounds is not None and wounds >= self.give_up_at_wounds

    def last_wounds(self) -> int:
        """The most wounds this side can carry in the fight: where it is out or gives up."""
        wounds = self.pool.wounds
        while not (self.out(wounds) or self.gives_up(wounds)):
            wounds += 1
        return wounds


@dataclass(frozen=True)
class Duel:
    a: Fighter
    b: Fighter

    def fighter(self, side: str) -> Fighter:
        return self.a if side == "a" else self.b

    def start(self) -> State:
        return (self.a.pool.wounds, self.b.pool.wounds, self.a.one_shot_rescue, self.b.one_shot_rescue)

    @functools.cached_property
    def down_at(self) -> tuple[int, int]:
        """The wounds (in all) at which each side is out or gives up: both only grow with wounds."""
        return self.a.last_wounds(), self.b.last_wounds()


def state_bound(duel: Duel) -> int:
    """States the chain can reach, bounded before solving, grown by the work of one-shot dice. Per
    side: its one-shot dice left while it has taken no wound yet (a wound comes only after every
    one-shot die failed, E3), then each further wound with none left; a state with ``s`` one-shot
    dice has ``s`` more ways to end a lost round (the die that succeeds), so the ``S + 1`` states
    of ``S`` dice weigh (S + 1)(S + 2) / 2 (else 60 v 60 with 80 one-shot dice, under 20,000
    states, would walk over a million transitions)."""
    bound = 1
    for fighter in (duel.a, duel.b):
        shots = fighter.one_shot_rescue
        bound *= (shots + 1) * (shots + 2) // 2 + (fighter.last_wounds() - fighter.pool.wounds)
    return bound


def exact_digits(duel: Duel) -> int:
    """A rough bound on the digits of the exact answer's denominators: every state's round rolls all
    dice of both pools and their rescue dice, each a d6."""
    dice_per_round = sum(fighter.dice(fighter.pool.wounds) + fighter.rescue_dice + fighter.one_shot_rescue
                         for fighter in (duel.a, duel.b))
    return math.ceil(state_bound(duel) * dice_per_round * math.log10(6))


def outcome(duel: Duel, state: State) -> str | None:
    """The side still standing wins; both down at the start: nothing can change (stalemate)."""
    a_down, b_down = duel.down_at
    if state[0] < a_down:
        return None if state[1] < b_down else "wins:a"
    return "wins:b" if state[1] < b_down else chains.STALEMATE


def _win_chances(duel: Duel, wounds_a: int, wounds_b: int, exact: bool) -> tuple[Probability, Probability]:
    """P(a wins the round), P(b wins it): a contest comparison after the loser's rescue dice
    (``paws.comparison``'s outcomes, ruling 3); floats unless ``exact``."""
    return paws_odds.contest_winner(duel.a.dice(wounds_a), duel.a.rescue_dice, duel.b.dice(wounds_b),
                                    duel.b.rescue_dice, exact=exact)


def _wounded(state: State, loser: int, p_loss: Probability, half: Probability) -> Iterator[tuple[State, Probability]]:
    """E3: after a lost round the loser's one-shot rescue dice are rolled one at a time until one
    averts the wound ("Jeder Rettungswürfel darf nur einmal gewürfelt werden"); 4–6 succeeds."""
    shots = state[2 + loser]
    for spent in range(1, shots + 1):  # the spent-th die is the first success
        yield _after(state, loser, wounds=0, shots_left=shots - spent), p_loss * half**spent
    yield _after(state, loser, wounds=1, shots_left=0), p_loss * half**shots


def _after(state: State, loser: int, *, wounds: int, shots_left: int) -> State:
    """``state`` with the loser's wounds raised by ``wounds`` and its one-shot dice left set."""
    wounds_a, wounds_b, shots_a, shots_b = state
    if loser == 0:
        return wounds_a + wounds, wounds_b, shots_left, shots_b
    return wounds_a, wounds_b + wounds, shots_a, shots_left


def step(duel: Duel, state: State, exact: bool = True) -> Transitions:
    """One round: "Bei Gleichstand wird niemand verletzt"; the loser takes a wound unless a
    one-shot die averts it. Fractions, or floats unless ``exact``."""
    a_wins, b_wins = _win_chances(duel, state[0], state[1], exact)
    half: Probability = HALF if exact else 0.5
    return [(state, 1 - a_wins - b_wins), *_wounded(state, 1, a_wins, half), *_wounded(state, 0, b_wins, half)]


def encounter_odds(duel: Duel, *, exact: bool, max_rounds: int | None = None, curve_rounds: int = 0) -> Odds:
    """Outcomes ``wins:a``, ``wins:b`` (and ``stalemate``, ``undecided``); distributions and expected
    values of the wounds each side takes in the fight; expected rounds."""
    solved = chains.solve(duel.start(), lambda state: step(duel, state, exact), lambda state: outcome(duel, state),
                          exact=exact, max_rounds=max_rounds, curve_rounds=curve_rounds)
    distributions: dict[str, dict[int, Probability]] = {}
    for index, side in enumerate(SIDES):
        taken: dict[int, Probability] = {}
        for end, mass in solved.ends.items():
            wounds = end[index] - duel.start()[index]
            taken[wounds] = taken[wounds] + mass if wounds in taken else mass
        distributions[f"wounds:{side}"] = taken
    expected: dict[str, Probability] = {"rounds": solved.expected_rounds}
    for name, distribution in distributions.items():
        expected[name] = sum(value * p for value, p in distribution.items())
    precision = "exact" if exact else "float64"
    return Odds(outcomes=solved.outcomes, distributions=distributions, expected=expected,
                solver=Solver(solved.states, precision, solved.max_error),
                curve=solved.curve if curve_rounds else None)


# --- the rolling twin -------------------------------------------------------------------------------

@dataclass(frozen=True)
class Round:
    round: int
    comparison: rules.ComparisonResult  # exactly what paws.comparison reports
    one_shot_rescue: list[rules.RescueResult]  # each one-shot die rolled, as paws.rescue reports it
    wounded: str | None  # the side that took a wound this round
    wounds: dict[str, int]  # each side's wounds after the round


@dataclass(frozen=True)
class EndState:
    wounds: dict[str, int]  # in all, the starting wounds included
    wounds_taken: dict[str, int]  # in this fight
    dice: dict[str, int]
    one_shot_rescue: dict[str, int]  # left
    out: dict[str, bool]
    gave_up: dict[str, bool]


@dataclass(frozen=True)
class EncounterResult:
    outcome: str
    winner: str | None
    rounds: int
    steps: list[Round]
    end: EndState


def play(duel: Duel, source: RandomSource, *, max_rounds: int | None = None) -> EncounterResult:
    """One duel rolled round by round with ``rules.comparison`` and ``rules.rescue``."""
    state = list(duel.start())
    steps: list[Round] = []
    cap = ROLLING_ROUND_CAP if max_rounds is None else max_rounds
    while outcome(duel, _as_state(state)) is None and len(steps) < cap:
        result = rules.comparison(duel.a.at(state[0]), duel.b.at(state[1]), source, mode=rules.Mode.CONTEST)
        rescues: list[rules.RescueResult] = []
        wounded = None
        if result.winner is not None:
            loser = 1 if result.winner == "a" else 0
            while state[2 + loser] and not (rescues and rescues[-1].successes):
                rescues.append(rules.rescue(1, source))
                state[2 + loser] -= 1
            if not (rescues and rescues[-1].successes):
                state[loser] += 1
                wounded = SIDES[loser]
        steps.append(Round(len(steps) + 1, result, rescues, wounded, {"a": state[0], "b": state[1]}))
    name = outcome(duel, _as_state(state)) or chains.UNDECIDED
    return EncounterResult(name, name.removeprefix("wins:") if name.startswith("wins:") else None,
                           len(steps), steps, _end(duel, state))


def _as_state(state: list[int]) -> State:
    wounds_a, wounds_b, shots_a, shots_b = state
    return wounds_a, wounds_b, shots_a, shots_b


def _end(duel: Duel, state: list[int]) -> EndState:
    fighters = {"a": duel.a, "b": duel.b}
    wounds = {"a": state[0], "b": state[1]}
    return EndState(
        wounds=wounds,
        wounds_taken={side: wounds[side] - fighters[side].pool.wounds for side in SIDES},
        dice={side: fighters[side].at(wounds[side]).dice for side in SIDES},
        one_shot_rescue={"a": state[2], "b": state[3]},
        out={side: fighters[side].out(wounds[side]) for side in SIDES},
        gave_up={side: not fighters[side].out(wounds[side]) and fighters[side].gives_up(wounds[side])
                 for side in SIDES},
    )
