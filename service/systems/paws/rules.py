"""Paws rules (rules file 001_d67bcf46ff845203.txt and RULINGS.md "Paws"). Pure: no Flask, no JSON.

"Jeder Würfel, der eine 4, 5 oder 6 zeigt, zählt als Erfolg."
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from typing import Literal

from service.platform.dice.randomness import RandomSource
from service.platform.values.results import described

SIDES = 6
SUCCESS_FACES = frozenset({4, 5, 6})
CATASTROPHE_FACE = 1
ADVANTAGE_CATEGORIES = ("equipment", "personal", "situation")


class Fit(str, Enum):
    """How well the trait fits the action."""

    FALLBACK = "fallback"  # "muss er aber auf einen Würfel verzichten"
    MATCHING = "matching"
    SPECIALIZED = "specialized"  # "bekommt er einen zusätzlichen Würfel"

    @property
    def dice(self) -> int:
        return _FIT_DICE[self]


# Built once: a pool's dice are counted several times per request.
_FIT_DICE = {Fit.FALLBACK: -1, Fit.MATCHING: 0, Fit.SPECIALIZED: 1}


class Advantage(str, Enum):
    """Ruling 1: one advantage per category, either active or passive."""

    ACTIVE = "active"  # "Solche Vorteile gewähren dem Spieler einen Bonuswürfel"
    PASSIVE = "passive"  # "Solche Vorteile gewähren dem Spieler einen Rettungswürfel"


class Mode(str, Enum):
    CONTEST = "contest"  # both sides attack (Gegenangriff); the one with more successes wins
    DEFENSE = "defense"  # b only defends; it can repel the attack but not win


@dataclass(frozen=True)
class Advantages:
    """At most one advantage in each category (ruling 1); None = no advantage there."""

    equipment: Advantage | None = None
    personal: Advantage | None = None
    situation: Advantage | None = None

    def count(self, kind: Advantage) -> int:
        return (self.equipment, self.personal, self.situation).count(kind)  # one per ADVANTAGE_CATEGORIES entry


@dataclass(frozen=True)
class Pool:
    rank: int
    fit: Fit = Fit.MATCHING
    advantages: Advantages = Advantages()
    extra_bonus_dice: int = 0  # the GM's bonus beyond one advantage per category
    extra_rescue_dice: int = 0
    wounds: int = 0  # wounds that apply to this action
    name: str | None = None
    penalty_dice: int = 0  # ruling 9: "Gegner schwächen", dice the GM takes away (not wounds)

    @property
    def dice(self) -> int:
        """"würfelt für jeden Rang in dieser Eigenschaft einen Würfel", one less for a fallback trait,
        one more for a specialized one, one per active advantage and GM bonus; "Wunden ... von jeder
        Probe, die von der Wunde beeinflusst wird, einen Würfel ab ziehen" (ruling 5); "Gegner
        schwächen: ... einen Abzug von einem Würfel" (ruling 9, ``penalty_dice``); never below 0."""
        gross = self.rank + self.fit.dice + self.advantages.count(Advantage.ACTIVE) + self.extra_bonus_dice
        return max(0, gross - self.wounds - self.penalty_dice)

    @property
    def rescue_dice(self) -> int:
        return self.advantages.count(Advantage.PASSIVE) + self.extra_rescue_dice


@dataclass(frozen=True)
class PoolSize:
    dice: int = field(metadata=described("Dice rolled."))
    rescue_dice: int = field(metadata=described("Rescue dice available."))


def count_successes(faces: list[int]) -> int:
    return sum(1 for face in faces if face in SUCCESS_FACES)


def is_catastrophe(faces: list[int]) -> bool:
    """"Fallen nur Einsen, geht der Versuch sogar katastrophal schief." Ruling 2: at least one die."""
    return bool(faces) and all(face == CATASTROPHE_FACE for face in faces)


def effects_for(successes: int) -> int:
    """"darf der Sieger für jedem Erfolg über dem Ersten einen zusätzlichen Effekt bestimmen"."""
    return max(0, successes - 1)


def roll(count: int, source: RandomSource) -> list[int]:
    # A pool of 0 dice rolls nothing (and records no event).
    return source.roll(count, SIDES) if count else []


# Ruling 9: the combat effects of the loose notes and how each is entered ("Die folgenden Arten von
# Effekten stehen im Kampf zur Verfügung"); None: narrative, nothing to enter.
COMBAT_EFFECTS = (
    {"name": "Vorteil", "effect": "advantage", "entered_as": "extra_bonus_dice",
     "note": "one bonus die on the next combat action against one opponent"},
    {"name": "Schutz", "effect": "protection", "entered_as": "extra_rescue_dice",
     "note": "one more rescue die on the next combat action, whoever attacks"},
    {"name": "Gegner schwächen", "effect": "weaken_opponent", "entered_as": "penalty_dice",
     "note": "one die less for one opponent's next test of a kind (not a wound)"},
    {"name": "Gezielter Treffer", "effect": "aimed_hit", "entered_as": None,
     "note": "narrative: a hit on a chosen spot, or a worse wound than the weapon's usual"},
    {"name": "Entwaffnen", "effect": "disarm", "entered_as": None, "note": "narrative: the opponent loses the weapon"},
    {"name": "Vorbereitung", "effect": "preparation", "entered_as": "extra_bonus_dice",
     "note": "one more bonus die on the next test of one skill (\"einen zusätzlichen Bonuswürfel\")"},
)
DODGING = "ausweichen … kostet keine Handlung: defense mode (mode: defense)"


# --- test (Probe) -------------------------------------------------------------------------------

GM = "gm"  # the narrator after a successful test or a tied comparison
UNNAMED_PLAYER = "player"  # the acting character has no name
NARRATOR = ("Who narrates (Erzählrecht, ruling 7): `gm` after a successful test or a tied comparison; the "
            "acting character's `name` after a failed test (`player` when it has none); the loser's `name` "
            "after a lost comparison, the attacker's after a repelled attack (its key `a`/`b` when it has none).")


def narrator_of_test(success: bool, name: str | None) -> str:
    """Ruling 7: "Bei erfolgreichen Proben oder unentschiedenen Vergleichen übernimmt diese Aufgabe der
    Spielleiter"; after a failed test the acting player narrates ("liegt in seiner Entscheidung")."""
    return GM if success else (name or UNNAMED_PLAYER)


@dataclass(frozen=True)
class TestRescue:
    dice: list[int]
    successes: int
    rescued: bool = field(metadata=described("The first success averted a catastrophe."))
    averted: int = field(metadata=described("Negative effects of the failure averted: one per success not spent on a "
                                            "catastrophe."))


@dataclass(frozen=True)
class TestResult:
    pool: PoolSize
    dice: list[int] = field(metadata=described("The faces rolled."))
    successes: int
    success: bool
    effects: int = field(metadata=described("One per success beyond the first."))
    catastrophe: bool = field(metadata=described("Every die showed 1 and no rescue success averted it."))
    rescue: TestRescue | None = field(metadata=described("null unless the test failed and rescue dice were rolled."))
    narrator: str = field(metadata=described(NARRATOR))


def test(pool: Pool, source: RandomSource) -> TestResult:
    """"Um das Ziel zu erreichen, genügt aber schon ein einzelner Erfolg." Rescue dice are rolled only
    after a failed test ("erst dann geworfen werden darf, wenn die normale Probe bereits gescheitert
    ist"); ruling 3: the first rescue success averts a catastrophe, every other one averts one negative
    effect of the failure ("Zeigt er einen Erfolg, kann man damit einen negativen Effekt abwenden");
    never a success."""
    dice, rescue_dice = pool.dice, pool.rescue_dice  # each counted once
    faces = roll(dice, source)
    successes = count_successes(faces)
    all_ones = is_catastrophe(faces)
    rescue = None
    if successes == 0 and rescue_dice:
        rescue_faces = roll(rescue_dice, source)
        rescue_successes = count_successes(rescue_faces)
        rescued = all_ones and rescue_successes >= 1
        rescue = TestRescue(rescue_faces, rescue_successes, rescued, rescue_successes - rescued)
    rescued = rescue is not None and rescue.rescued
    return TestResult(PoolSize(dice, rescue_dice), faces, successes, successes >= 1,
                      effects_for(successes), all_ones and not rescued, rescue,
                      narrator_of_test(successes >= 1, pool.name))


# --- comparison (Vergleich) ---------------------------------------------------------------------

@dataclass(frozen=True)
class ComparisonRescue:
    dice: list[int]
    successes: int
    cancelled: int = field(metadata=described("Net successes of the winner cancelled."))
    rescued: bool = field(metadata=described("The loss became a tie."))
    catastrophe_averted: bool = field(metadata=described(
        "This side's catastrophe is gone: by the tie, or (short of a tie) by the first success."))


@dataclass(frozen=True)
class Side:
    name: str | None
    pool: PoolSize
    dice: list[int]
    successes: int
    catastrophe: bool = field(metadata=described("This side lost, its dice all showed 1 and its rescue dice did not "
                                                 "avert it (rulings 3 and 8: a tie is no catastrophe)."))
    rescue: ComparisonRescue | None = field(metadata=described("null unless this side lost and had rescue dice."))


@dataclass(frozen=True)
class ComparisonResult:
    mode: Mode
    a: Side
    b: Side
    winner: Literal["a", "b"] | None
    net: int = field(metadata=described("The winner's successes left after cancellation and rescue; 0 on a tie."))
    effects: int = field(metadata=described("net - 1, never below 0."))
    attack_lands: bool | None = field(metadata=described("Defense mode: the attack of a lands; null in contest mode."))
    narrator: str = field(metadata=described(NARRATOR))


def _leader(a_successes: int, b_successes: int, mode: Mode) -> tuple[Literal["a", "b"] | None, int]:
    """Winner before rescue and the net successes: "Jeder seiner Erfolge zieht dem Sieger einen
    Erfolg ab." In defense mode "Hat er gleich viele oder sogar mehr Erfolge als der Angreifer, kann
    er den Angriff vollständig abwehren": the defender can repel, never win (ruling 4)."""
    difference = a_successes - b_successes
    if difference > 0:
        return "a", difference
    if difference < 0 and mode is Mode.CONTEST:
        return "b", -difference
    return None, 0


def _rescue_loss(loser: Pool, net: int, catastrophe: bool, source: RandomSource) -> ComparisonRescue | None:
    """Ruling 3: "Durch Rettungswürfel kann eine Katastrophe abgewendet oder ein Vergleich zum
    Unentschieden gerettet, aber niemals ein Sieg erzielt werden." Each rescue success of the loser
    cancels one of the winner's net successes; reaching 0 makes a tie, and a tie is no failure, so the
    loser's catastrophe is gone too. Short of a tie, the first success averts the catastrophe instead
    and the others cancel."""
    if not loser.rescue_dice:
        return None
    faces = roll(loser.rescue_dice, source)
    successes = count_successes(faces)
    if successes >= net:
        return ComparisonRescue(faces, successes, net, True, catastrophe)
    averting = catastrophe and successes >= 1
    return ComparisonRescue(faces, successes, successes - averting, False, averting)


def comparison(a: Pool, b: Pool, source: RandomSource, *, mode: Mode = Mode.CONTEST) -> ComparisonResult:
    """"Beide würfeln eine Probe, wie oben beschrieben. Der Sieger erreicht sein Ziel ... Bei
    Gleichstand gewinnt keiner von Beiden." a rolls first, then b, then the loser's rescue dice."""
    a_faces, b_faces = roll(a.dice, source), roll(b.dice, source)
    a_successes, b_successes = count_successes(a_faces), count_successes(b_faces)
    winner, net = _leader(a_successes, b_successes, mode)
    rescues: dict[str, ComparisonRescue | None] = {"a": None, "b": None}
    if winner is not None:
        loser_key, loser, loser_faces = ("b", b, b_faces) if winner == "a" else ("a", a, a_faces)
        rescue = rescues[loser_key] = _rescue_loss(loser, net, is_catastrophe(loser_faces), source)
        if rescue is not None:
            net -= rescue.cancelled
            winner = winner if net else None
    attack_lands = (winner == "a") if mode is Mode.DEFENSE else None
    losing = loser_of(winner, a_successes, b_successes, mode)
    return ComparisonResult(
        mode,
        _side(a, a_faces, a_successes, rescues["a"], lost=losing == "a"),
        _side(b, b_faces, b_successes, rescues["b"], lost=losing == "b"),
        winner, net, effects_for(net), attack_lands, narrator_of_comparison(winner, a, b, mode),
    )


def sides_that_can_lose(mode: Mode) -> list[str]:
    """Who can lose a comparison (and so suffer its effects): either side in a contest, only the
    defender in defense mode, where b "kann den Angriff vollständig abwehren" but never win (ruling 4)."""
    return ["b"] if mode is Mode.DEFENSE else ["a", "b"]


def loser_of(winner: str | None, a_successes: int, b_successes: int, mode: Mode) -> str | None:
    """The side that lost (after rescue): the other of the winner; in defense mode a repelled attack
    is the attacker's loss when the defender rolled more, a tie when both rolled alike."""
    if winner is not None:
        return "b" if winner == "a" else "a"
    if mode is Mode.DEFENSE and b_successes > a_successes:
        return "a"
    return None


def narrator_of_comparison(winner: str | None, a: Pool, b: Pool, mode: Mode = Mode.CONTEST) -> str:
    """Ruling 7: "Bei Vergleichen hat grundsätzlich der Verlierer das Recht, den Verlauf und die
    Auswirkungen des Konfliktes zu beschreiben", in defense mode too: a repelled attack is narrated by
    the attacker; a tied comparison goes to the GM ("Bei ... unentschiedenen Vergleichen übernimmt
    diese Aufgabe der Spielleiter"). A side without a name is named by its key."""
    if winner is None:
        return (a.name or "a") if mode is Mode.DEFENSE else GM
    return (b.name or "b") if winner == "a" else (a.name or "a")


def _side(pool: Pool, faces: list[int], successes: int, rescue: ComparisonRescue | None, *, lost: bool) -> Side:
    """Ruling 8: only the loser can suffer a catastrophe; a tie is no failure (a 0:0 of ones too)."""
    averted = rescue is not None and rescue.catastrophe_averted
    return Side(pool.name, PoolSize(pool.dice, pool.rescue_dice), faces, successes,
                lost and is_catastrophe(faces) and not averted, rescue)


# --- the group's rescue dice -------------------------------------------------------------------

@dataclass(frozen=True)
class RescueResult:
    dice: list[int]
    successes: int = field(metadata=described("Each averts one negative effect."))


def rescue(dice: int, source: RandomSource) -> RescueResult:
    """"Jeder Rettungswürfel darf nur einmal gewürfelt werden und ist danach verbraucht. Zeigt er
    einen Erfolg, kann man damit einen negativen Effekt abwenden.\""""
    faces = roll(dice, source)
    return RescueResult(faces, count_successes(faces))


# --- character validation ----------------------------------------------------------------------

@dataclass(frozen=True)
class Trait:
    name: str
    rank: int
    bad: bool = False
    category: str | None = None

    @property
    def net_ranks(self) -> int:
        """"Schlechte Eigenschaften zählen dabei entgegengesetzt"."""
        return -self.rank if self.bad else self.rank


@dataclass(frozen=True)
class Category:
    """Ruling 6: "für bestimmte Kategorien ein eigenes Potenzial oder eine eigene Machtstufe fest zu
    legen": either, both or neither (then it only groups traits); None = the character's value."""
    name: str
    potential: int | None = None
    power: int | None = None


@dataclass(frozen=True)
class CategoryUse:
    name: str
    potential: int | None = field(metadata=described("The category's own potential; null: the character's."))
    power: int | None = field(metadata=described("The category's own power; null: its traits count in the character's "
                                                 "`power_used`."))
    power_used: int = field(metadata=described("Good minus bad ranks of its traits."))


class ProblemKind(str, Enum):
    OVER_POTENTIAL = "over_potential"  # a trait's rank is above its potential
    OVER_POWER = "over_power"  # good minus bad ranks above the character's power
    CATEGORY_OVER_POWER = "category_over_power"  # ... above a category's power
    DUPLICATE_TRAIT = "duplicate_trait"  # one trait listed twice


@dataclass(frozen=True)
class Problem:
    """One reason a character is not valid, machine-readable; text.py words it."""

    kind: ProblemKind
    value: int = field(metadata=described("The rank or the power used."))
    limit: int | None = field(metadata=described("The potential or power."))
    trait: str | None = None
    category: str | None = field(default=None, metadata=described(
        "The category whose own limit was exceeded; null: the character's (or a duplicate trait's category)."))
    bad: bool = False


@dataclass(frozen=True)
class CharacterCheck:
    valid: bool
    issues: list[Problem]
    power_used: int  # good minus bad ranks of the traits the character's power governs
    categories: list[CategoryUse]


@dataclass(frozen=True)
class CharacterResult:
    """What validate-character answers: the check with every problem worded in one language."""

    valid: bool
    problems: list[str] = field(metadata=described("Every problem, in `lang`."))
    issues: list[Problem] = field(metadata=described("The same problems, machine-readable, in the same order."))
    power_used: int = field(metadata=described(
        "Good minus bad ranks of the traits the character's power governs: those without a category and those in "
        "categories without their own power (counted against `power`)."))
    categories: list[CategoryUse]
    hints: list[str] = field(default_factory=list, metadata=described(
        "Ruling 10: the text's guidance on potential (\"mit 3 gut bemessen\") and power (\"etwa dem fünffachen\"), "
        "in `lang`; never a problem."))


class Hint(str, Enum):
    """The text's guidance on potential and power (ruling 10): never a problem."""

    POTENTIAL_LOW = "potential_low"  # "Werte darunter führen zu gewöhnlicheren Charakteren"
    POTENTIAL_HIGH = "potential_high"  # "Werte darüber neigen zu einem Spiel mit heroischen Stil"
    POTENTIAL_DIVINE = "potential_divine"  # "Ab einem Potenzial von 5 werden die Charaktere zu Göttern"
    POWER_LOW = "power_low"  # "Ein kleinerer Wert ... führt zu Spezialisten"
    POWER_HIGH = "power_high"  # "Ein höherer Wert lässt vielseitigere Charaktere zu"


MEASURED_POTENTIAL = 3  # "ist mit 3 gut bemessen"
DIVINE_POTENTIAL = 5
POWER_PER_POTENTIAL = 5  # "sollte etwa dem fünffachen des ersten Wertes entsprechen"


def guidance(potential: int, power: int) -> list[Hint]:
    """Ruling 10: the text's guidance as hints. "etwa dem fünffachen": a power within one potential of
    five times the potential (4x..6x) draws no hint."""
    hints = []
    if potential >= DIVINE_POTENTIAL:
        hints.append(Hint.POTENTIAL_DIVINE)
    elif potential > MEASURED_POTENTIAL:
        hints.append(Hint.POTENTIAL_HIGH)
    elif potential < MEASURED_POTENTIAL:
        hints.append(Hint.POTENTIAL_LOW)
    if power < (POWER_PER_POTENTIAL - 1) * potential:
        hints.append(Hint.POWER_LOW)
    elif power > (POWER_PER_POTENTIAL + 1) * potential:
        hints.append(Hint.POWER_HIGH)
    return hints


def validate_character(potential: int, power: int, traits: list[Trait],
                       categories: list[Category] | None = None) -> CharacterCheck:
    """Ruling 6: every trait's rank <= potential (its category's own potential when it sets one),
    good ranks minus bad ranks <= power; a category's own power bounds the traits in it, the
    character's power bounds all the others together. Every problem is listed. Category names of
    traits must be among ``categories`` (the schema checks this)."""
    by_name = {category.name: category for category in categories or []}
    problems = _duplicate_traits(traits)
    for trait in traits:
        own = by_name[trait.category].potential if trait.category else None
        limit = potential if own is None else own
        if trait.rank > limit:
            problems.append(Problem(ProblemKind.OVER_POTENTIAL, trait.rank, limit, trait.name,
                                    trait.category if own is not None else None, trait.bad))
    power_used = sum(trait.net_ranks for trait in traits
                     if trait.category is None or by_name[trait.category].power is None)
    if power_used > power:
        problems.append(Problem(ProblemKind.OVER_POWER, power_used, power))
    uses = [_category_use(category, traits) for category in categories or []]
    problems.extend(Problem(ProblemKind.CATEGORY_OVER_POWER, use.power_used, use.power, category=use.name)
                    for use in uses if use.power is not None and use.power_used > use.power)
    return CharacterCheck(not problems, problems, power_used, uses)


def _duplicate_traits(traits: list[Trait]) -> list[Problem]:
    seen: set[str] = set()
    problems = []
    for trait in traits:
        if trait.name in seen:
            problems.append(Problem(ProblemKind.DUPLICATE_TRAIT, trait.rank, None, trait.name, trait.category,
                                    trait.bad))
        seen.add(trait.name)
    return problems


def _category_use(category: Category, traits: list[Trait]) -> CategoryUse:
    used = sum(trait.net_ranks for trait in traits if trait.category == category.name)
    return CategoryUse(category.name, category.potential, category.power, used)
