"""Proben rules (rules file 003_ff7aef635d957c0a.txt and RULINGS.md "Proben"). Pure: no Flask, no JSON.

"Jeder Würfel, der eine 5 oder 6 zeigt, wird als Erfolg gewertet."
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from typing import Literal

from service.platform.dice.randomness import RandomSource
from service.platform.values.results import described

SIDES = 6
SUCCESS_FACES = frozenset({5, 6})
MAX_OPPOSED_ROUNDS = 20  # ruling 4: after 20 equal rounds the contest is a tie


class SuccessRule(str, Enum):
    MEET = "meet"  # ruling 1 (default): successes >= difficulty
    EXCEED = "exceed"  # the literal "Übersteigt die Anzahl der Erfolge die Schwierigkeit"


class Outcome(str, Enum):
    SUCCESS = "success"
    PARTIAL = "partial"
    FAILURE = "failure"
    NO_DICE = "no_dice"


@dataclass(frozen=True)
class Pool:
    attribute: int
    skill: int = 0
    skill_dice: int | None = None  # the part of the skill the GM allows; None = all of it
    advantages: int = 0
    disadvantages: int = 0
    name: str | None = None

    @property
    def allowed_skill_dice(self) -> int:
        return self.skill if self.skill_dice is None else self.skill_dice

    @property
    def dice(self) -> int:
        """"Für jeden Vorteil erhält der Spieler einen Bonuswürfel ... für jeden Nachteil wird ein
        Würfel abgezogen"; never below 0."""
        return max(0, self.attribute + self.allowed_skill_dice + self.advantages - self.disadvantages)

    @property
    def base(self) -> int:
        """"Bei Gleichstand entscheidet der höhere Basiswert (Attribut + Fertigkeit)"."""
        return self.attribute + self.skill

    def with_extra_advantages(self, extra: int) -> Pool:
        return Pool(self.attribute, self.skill, self.skill_dice, self.advantages + extra,
                    self.disadvantages, self.name)


def required_successes(difficulty: int, rule: SuccessRule) -> int:
    return difficulty if rule is SuccessRule.MEET else difficulty + 1


def dice_for_attempt(pool_dice: int, attempt: int) -> int:
    """"Möchte ein Spieler eine misslungene Probe wiederholen, wird hierfür ein Würfel entfernt.
    Mit jedem weiteren Versuch wird auch ein weiterer Würfel entfernt." (ruling 3)"""
    return max(0, pool_dice - (attempt - 1))


def count_successes(dice: list[int]) -> int:
    return sum(1 for face in dice if face in SUCCESS_FACES)


def classify(successes: int, dice_count: int, required: int) -> Outcome:
    if dice_count == 0:
        return Outcome.NO_DICE
    if successes >= required:
        return Outcome.SUCCESS
    # "Solange mindestens ein Erfolg erzielt wurde, kann der Spielleiter Teilerfolge werten."
    return Outcome.PARTIAL if successes >= 1 else Outcome.FAILURE


@dataclass(frozen=True)
class TestResult:
    dice_count: int
    dice: list[int]
    successes: int
    outcome: Outcome
    impossible: bool
    quality: int = field(metadata=described("Successes beyond those needed."))


def test(pool: Pool, difficulty: int, source: RandomSource, *, attempt: int = 1,
         rule: SuccessRule = SuccessRule.MEET) -> TestResult:
    dice_count = dice_for_attempt(pool.dice, attempt)
    required = required_successes(difficulty, rule)
    dice = source.roll(dice_count, SIDES) if dice_count else []  # ruling 3: no dice, nothing rolled
    successes = count_successes(dice)
    outcome = classify(successes, dice_count, required)
    return TestResult(
        dice_count=dice_count,
        dice=dice,
        successes=successes,
        outcome=outcome,
        # "Hat ein Spieler nicht genügend Würfel, um eine Schwierigkeit zu erreichen, kann er die
        # Probe nicht schaffen." (ruling 2: the roll still happens)
        impossible=dice_count < required,
        # "Jeder weitere Erfolg könnte jedoch z.B. die Qualität ... erhöhen"
        quality=successes - required if outcome is Outcome.SUCCESS else 0,
    )


@dataclass(frozen=True)
class SideRoll:
    dice: list[int]
    successes: int


@dataclass(frozen=True)
class OpposedRound:
    a: SideRoll
    b: SideRoll


@dataclass(frozen=True)
class OpposedResult:
    rounds: list[OpposedRound]
    winner: Literal["a", "b"] | None
    decided_by: Literal["successes", "base", "tie"]


def _side(pool: Pool, source: RandomSource) -> SideRoll:
    dice = source.roll(pool.dice, SIDES) if pool.dice else []
    return SideRoll(dice, count_successes(dice))


def opposed(a: Pool, b: Pool, source: RandomSource, *, allow_tie: bool = False) -> OpposedResult:
    """"Der Charakter mit den meisten Erfolgen gewinnt ... Bei Gleichstand entscheidet der höhere
    Basiswert (Attribut + Fertigkeit). Ist auch dieser identisch (und ist ein Gleichstand
    erzählerisch nicht möglich), wird die Probe wiederholt." (ruling 4)"""
    rounds = []
    for _ in range(MAX_OPPOSED_ROUNDS):
        round_ = OpposedRound(_side(a, source), _side(b, source))
        rounds.append(round_)
        if round_.a.successes != round_.b.successes:
            winner: Literal["a", "b"] = "a" if round_.a.successes > round_.b.successes else "b"
            return OpposedResult(rounds, winner, "successes")
        if a.base != b.base:
            return OpposedResult(rounds, "a" if a.base > b.base else "b", "base")
        if allow_tie:
            break
    return OpposedResult(rounds, None, "tie")


@dataclass(frozen=True)
class HelperResult:
    name: str | None
    dice: list[int]
    successes: int
    helped: bool


@dataclass(frozen=True)
class CooperationResult:
    helpers: list[HelperResult]
    leader: TestResult


def cooperation(leader: Pool, helpers: list[Pool], difficulty: int, source: RandomSource, *,
                rule: SuccessRule = SuccessRule.MEET) -> CooperationResult:
    """"Jeder Unterstützer würfelt nun zunächst die geforderte Probe. Hat der Unterstützer mindestens
    1 Erfolg erzielt, erhält der Hauptakteur einen Vorteil." (ruling 5)"""
    helper_results = []
    for helper in helpers:
        roll = _side(helper, source)
        helper_results.append(HelperResult(helper.name, roll.dice, roll.successes, roll.successes >= 1))
    bonus = sum(1 for helper in helper_results if helper.helped)
    leader_result = test(leader.with_extra_advantages(bonus), difficulty, source, rule=rule)
    return CooperationResult(helper_results, leader_result)


@dataclass(frozen=True)
class ExtendedRoll:
    dice: list[int]
    successes: int
    cumulative: int


@dataclass(frozen=True)
class Elapsed:
    amount: int = field(metadata=described("rolls_used × interval.amount (0 with no dice)."))
    unit: str


@dataclass(frozen=True)
class ExtendedResult:
    rolls: list[ExtendedRoll]
    success: bool
    rolls_used: int
    elapsed: Elapsed | None


def extended(pool: Pool, required: int, source: RandomSource, *,
             interval: Elapsed | None = None) -> ExtendedResult:
    """"Jede Probe hat dabei eine fixe Dauer und mit jeder weiteren Probe wird ein Würfel aus dem
    Würfelpool des Spielers entfernt. Hat der Spieler die erforderliche Anzahl an Erfolgen erreicht,
    ist die Probe gelungen. Gehen ihm die Würfel aus, misslingt die Probe." (ruling 6)"""
    rolls: list[ExtendedRoll] = []
    cumulative = 0
    for dice_count in range(pool.dice, 0, -1):
        dice = source.roll(dice_count, SIDES)
        cumulative += count_successes(dice)
        rolls.append(ExtendedRoll(dice, count_successes(dice), cumulative))
        if cumulative >= required:
            break
    elapsed = Elapsed(interval.amount * len(rolls), interval.unit) if interval else None
    return ExtendedResult(rolls, cumulative >= required, len(rolls), elapsed)
