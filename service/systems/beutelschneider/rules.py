"""Beutelschneider rules (rules file 000_617633d4e2bd3e3f.txt and RULINGS.md "Beutelschneider").

Pure: no Flask, no JSON. Bags are frozen values; every change returns a new bag.

"Wenn mehrere Murmeln gezogen werden, dann werden alle Murmeln auf einmal aus dem Beutel genommen
(also ohne die zuerst gezogenen Murmeln wieder zurückzulegen)."
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import Enum

from service.platform.dice.randomness import RandomSource
from service.platform.values.errors import InputError, RuleViolation
from service.platform.values.results import described
from service.platform.words.messages import say, say_n


class Colour(str, Enum):
    RED = "red"
    GREEN = "green"
    BLUE = "blue"
    WHITE = "white"
    BLACK = "black"


# The colours' names in the order of Bag's fields, read once: a bag is taken apart and put together on
# every draw, and dataclasses.fields and each member's ``value`` are calls.
COLOUR_NAMES = tuple(colour.value for colour in Colour)


class Ability(str, Enum):
    COMBAT = "combat"
    SKILL = "skill"
    MAGIC = "magic"

    @property
    def colour(self) -> Colour:
        """"rot für Kampf, grün für Geschick, blau für Magie"."""
        return ABILITY_COLOUR[self]


ABILITY_COLOUR = {Ability.COMBAT: Colour.RED, Ability.SKILL: Colour.GREEN, Ability.MAGIC: Colour.BLUE}


class Difficulty(str, Enum):
    """"Bei einer gewöhnlichen Herausforderung zieht der Spieler ... zwei Murmeln ... Bei einer
    besonders einfachen Herausforderung zieht er drei Murmeln, und bei einer besonders schweren eine"."""

    EASY = "easy"
    NORMAL = "normal"
    HARD = "hard"

    @property
    def draws(self) -> int:
        return {"easy": 3, "normal": 2, "hard": 1}[self.value]


class Severity(str, Enum):
    """"Bei einer ernsthaften Verletzung zieht der Spieler zwei Murmeln ..., bei einer weniger schweren
    nur eine Murmel, und bei einer sehr schweren sogar drei Murmeln"."""

    LIGHT = "light"
    SERIOUS = "serious"
    GRAVE = "grave"

    @property
    def draws(self) -> int:
        return {"light": 1, "serious": 2, "grave": 3}[self.value]

    @classmethod
    def of_margin(cls, margin: int) -> Severity:
        """"Deren Schwere entspricht der Zahl an roten Murmeln, die der Sieger mehr gezogen hat"."""
        return {1: cls.LIGHT, 2: cls.SERIOUS, 3: cls.GRAVE}[margin]


class Danger(str, Enum):
    """"Gibt es eine deutliche Lebensgefahr, so muss der Spieler zwei Murmeln ... ziehen. Ist die
    Lebensgefahr vorhanden, aber eher gering, ... nur eine Murmel, ... besonders groß, ... drei"."""

    LOW = "low"
    CLEAR = "clear"
    GRAVE = "grave"

    @property
    def draws(self) -> int:
        return {"low": 1, "clear": 2, "grave": 3}[self.value]


class Chances(str, Enum):
    """"Hat er zufriedenstellende Chancen, so zieht sein Spieler zwei Murmeln ..., sind sie eher
    schlecht nur eine Murmel, doch sind sie besonders gut, dann sogar drei"."""

    POOR = "poor"
    FAIR = "fair"
    GOOD = "good"

    @property
    def draws(self) -> int:
        return {"poor": 1, "fair": 2, "good": 3}[self.value]


class Amount(str, Enum):
    """"Hat der Charakter etwas lernen können, so zieht der Spieler zwei Murmeln, hat er besonders
    viel erlebt, drei Murmeln, und war seine Chance zu wachsen ... eher gering, dann nur eine"."""

    LITTLE = "little"
    SOME = "some"
    MUCH = "much"

    @property
    def draws(self) -> int:
        return {"little": 1, "some": 2, "much": 3}[self.value]


# Ruling 4: "eine beliebige farbige Murmel" = one of the three ability colours.
HEALING_COLOURS = frozenset({Colour.RED, Colour.GREEN, Colour.BLUE})
# Ruling 5: any colour but black ("durch eine Murmel in einer anderen Farbe ausgetauscht").
EXPERIENCE_COLOURS = frozenset({Colour.RED, Colour.GREEN, Colour.BLUE, Colour.WHITE})


@dataclass(frozen=True)
class Bag:
    """A character bag: how many marbles of each colour (serialises to the API's bag object)."""

    red: int = 0
    green: int = 0
    blue: int = 0
    white: int = 0
    black: int = 0

    @classmethod
    def of(cls, counts: Mapping[str, int]) -> Bag:
        return cls(*(counts.get(name, 0) for name in COLOUR_NAMES))

    @property
    def total(self) -> int:
        return self.red + self.green + self.blue + self.white + self.black

    def count(self, colour: Colour) -> int:
        return getattr(self, colour.value)

    def counts(self) -> dict[str, int]:
        return {name: getattr(self, name) for name in COLOUR_NAMES}

    def exchanged(self, removed: Iterable[Colour], added: Iterable[Colour]) -> Bag:
        """A new bag with ``removed`` taken out and ``added`` put in."""
        counts = Counter(self.counts())
        counts.subtract(colour.value for colour in removed)
        counts.update(colour.value for colour in added)
        return Bag.of(counts)


def draw(bag: Bag, count: int, source: RandomSource) -> tuple[Colour, ...]:
    """``count`` marbles at once, without replacement, from the bag as it is now."""
    if count > bag.total:
        raise InputError("bag", say_n("holds %(count)d marble, but %(draws)d must be drawn",
                                      "holds %(count)d marbles, but %(draws)d must be drawn", bag.total, draws=count))
    return tuple(Colour(value) for value in source.draw(bag.counts(), count))


def is_unconscious(drawn: Sequence[Colour]) -> bool:
    """Ruling 1: "Wenn ein Spieler ... jemals nur schwarze Murmeln ziehen sollte ..., dann wird der
    Charakter vorübergehend handlungsunfähig" (at least one marble drawn, all black)."""
    return bool(drawn) and all(colour is Colour.BLACK for colour in drawn)


def matching(drawn: Sequence[Colour], ability: Ability) -> int:
    return sum(1 for colour in drawn if colour is ability.colour)


# --- challenges ---------------------------------------------------------------------------------

@dataclass(frozen=True)
class ChallengeResult:
    drawn: tuple[Colour, ...] = field(metadata=described("The marbles drawn, in order."))
    matching: int = field(metadata=described("Marbles of the ability's colour."))
    success: bool
    unconscious: bool = field(metadata=described("Ruling 1: every marble drawn is black."))


def challenge(bag: Bag, ability: Ability, difficulty: Difficulty, source: RandomSource) -> ChallengeResult:
    """"Wenn mindestens eine der gezogenen Murmeln die Farbe der passenden Fähigkeit hat ..., dann hat
    der Charakter die Herausforderung bestanden.\""""
    drawn = draw(bag, difficulty.draws, source)
    hits = matching(drawn, ability)
    return ChallengeResult(drawn, hits, hits >= 1, is_unconscious(drawn))


@dataclass(frozen=True)
class FirstAidResult:
    drawn: tuple[Colour, ...] = field(metadata=described("The marbles drawn, in order."))
    matching: int = field(metadata=described("Marbles of the ability's colour."))
    success: bool
    unconscious: bool = field(metadata=described("Ruling 1: every marble drawn is black."))
    healing_draws: int = field(metadata=described("Green marbles drawn on a success."))


def first_aid(bag: Bag, difficulty: Difficulty, source: RandomSource) -> FirstAidResult:
    """Ruling 6: "Dies ist eine Herausforderung, die bei Erfolg dem Versorgten die Chance zu Heilung
    ... gewährt, wobei für jede bei der Versorgung gezogene grüne Murmel dann entsprechend eine Murmel
    bei der Heilung gezogen werden darf.\""""
    result = challenge(bag, Ability.SKILL, difficulty, source)
    healing_draws = result.matching if result.success else 0
    return FirstAidResult(result.drawn, result.matching, result.success, result.unconscious, healing_draws)


# --- contests and combat ------------------------------------------------------------------------

@dataclass(frozen=True)
class Contender:
    name: str
    bag: Bag
    ability: Ability
    difficulty: Difficulty
    side: str | None = None  # ruling 8: "nur eine Seite"; None: the participant is a side of its own

    @property
    def side_name(self) -> str:
        return self.side or self.name


@dataclass(frozen=True)
class ContestantResult:
    name: str
    ability: Ability
    drawn: tuple[Colour, ...] = field(metadata=described("The marbles drawn, in order."))
    matching: int
    unconscious: bool
    side: str | None = field(default=None, metadata=described("The side given in the request (ruling 8), else null."))


@dataclass(frozen=True)
class ContestResult:
    participants: tuple[ContestantResult, ...]
    winner: str | None = field(metadata=described("null on a tie at the top."))
    margin: int = field(metadata=described("Winner's matching minus the next best (of another side, ruling 8); "
                                           "0 on a tie."))
    winning_side: str | None = field(default=None, metadata=described(
        "Ruling 8: the winner's side (its name when it gave none); null on a tie at the top."))


def decide(scores: Sequence[int]) -> tuple[int | None, int]:
    """Ruling 2: index of the single best score (None on a tie at the top) and the margin over the
    next best. "Wer die meisten passenden Murmeln gezogen hat, der konnte sich durchsetzen, und zwar
    umso deutlicher, je größer die Differenz ...\""""
    ranked = sorted(scores, reverse=True)
    if len(ranked) > 1 and ranked[0] == ranked[1]:
        return None, 0
    return scores.index(ranked[0]), ranked[0] - (ranked[1] if len(ranked) > 1 else 0)


def _contend(contender: Contender, source: RandomSource) -> ContestantResult:
    drawn = draw(contender.bag, contender.difficulty.draws, source)
    return ContestantResult(contender.name, contender.ability, drawn,
                            matching(drawn, contender.ability), is_unconscious(drawn), contender.side)


def sides(contenders: Sequence[Contender]) -> dict[str, list[int]]:
    """Ruling 8: the indexes of each side's members, sides in the order they first appear."""
    grouped: dict[str, list[int]] = {}
    for index, contender in enumerate(contenders):
        grouped.setdefault(contender.side_name, []).append(index)
    return grouped


def contest(contenders: Sequence[Contender], source: RandomSource) -> ContestResult:
    """Each participant draws for their own ability, in the order given; "Danach werden die Murmeln
    in den Beutel zurückgelegt". Ruling 8: the side of the participant with the most matching
    marbles wins ("nur einer von ihnen – beziehungsweise nur eine Seite"); a tie at the top within
    one side is that side's win; the margin is over the best of any other side."""
    results = tuple(_contend(contender, source) for contender in contenders)
    grouped = sides(contenders)
    best_of = [max(results[i].matching for i in members) for members in grouped.values()]
    best, margin = decide(best_of)
    if best is None:
        return ContestResult(results, None, 0, None)
    side, members = list(grouped.items())[best]
    winner = next(results[i].name for i in members if results[i].matching == best_of[best])
    return ContestResult(results, winner, margin, side)


@dataclass(frozen=True)
class InjuryResult:
    drawn: tuple[Colour, ...] = field(metadata=described("Marbles drawn, each replaced by a black one."))
    bag_after: Bag


def injury(bag: Bag, severity: Severity, source: RandomSource) -> InjuryResult:
    """"Alle gezogenen Murmeln werden vom Spieler entfernt, und stattdessen eine gleiche Zahl an
    schwarzen Murmeln in den Beutel gelegt.\""""
    drawn = draw(bag, severity.draws, source)
    return InjuryResult(drawn, blackened(bag, drawn))


def blackened(bag: Bag, drawn: Sequence[Colour]) -> Bag:
    return bag.exchanged(drawn, [Colour.BLACK] * len(drawn))


@dataclass(frozen=True)
class CombatInjury:
    target: str
    severity: Severity
    drawn: tuple[Colour, ...] = field(metadata=described(
        "Marbles drawn from the loser's bag, each replaced by a black one."))
    bag_after: Bag


@dataclass(frozen=True)
class CombatResult:
    participants: tuple[ContestantResult, ...]  # the attacker's, then the defender's
    winner: str | None = field(metadata=described("null on a tie at the top."))
    margin: int = field(metadata=described("Winner's matching minus the next best; 0 on a tie."))
    injury: CombatInjury | None


DEFAULT_INJURING = frozenset({Ability.COMBAT})


def combat(attacker: Contender, defender: Contender, source: RandomSource,
           injuring: frozenset[Ability] = DEFAULT_INJURING) -> CombatResult:
    """"Wer bei einer solchen Auseinandersetzung verliert, erleidet eine Verletzung. Deren Schwere
    entspricht der Zahl an roten Murmeln, die der Sieger mehr gezogen hat." Ruling 3: only a winner
    using combat inflicts it; it is drawn from the loser's bag at once. A loser whose bag holds fewer
    marbles than the severity has all of them drawn. Ruling 9: ``injuring`` are the abilities that
    injure ("welche Effekte wie Verletzung ... durch Magie hervorgerufen werden können": the
    group's decision), combat by default."""
    result = contest((attacker, defender), source)
    if result.winner is None:
        return CombatResult(result.participants, None, 0, None)
    winner, loser = (attacker, defender) if result.winner == attacker.name else (defender, attacker)
    if winner.ability not in injuring:
        return CombatResult(result.participants, result.winner, result.margin, None)
    severity = Severity.of_margin(result.margin)
    drawn = draw(loser.bag, min(severity.draws, loser.bag.total), source)
    wound = CombatInjury(loser.name, severity, drawn, blackened(loser.bag, drawn))
    return CombatResult(result.participants, result.winner, result.margin, wound)


# --- death --------------------------------------------------------------------------------------

@dataclass(frozen=True)
class MortalDangerResult:
    drawn: tuple[Colour, ...] = field(metadata=described("The marbles drawn."))
    dies: bool


def mortal_danger(bag: Bag, danger: Danger, source: RandomSource) -> MortalDangerResult:
    """"Wenn mindestens eine der gezogenen Murmeln schwarz ist, so stirbt der Charakter.\""""
    drawn = draw(bag, danger.draws, source)
    return MortalDangerResult(drawn, Colour.BLACK in drawn)


# --- healing ------------------------------------------------------------------------------------

@dataclass(frozen=True)
class HealingResult:
    drawn: tuple[Colour, ...] = field(metadata=described("The marbles drawn."))
    black_drawn: int
    choices_required: int = field(metadata=described(
        "Colours `/healing/apply` needs (one per black marble); 0 when given up front."))
    bag_after: Bag | None = field(metadata=described("The healed bag when `replacements` were given, else null."))


def healing(bag: Bag, draws: int, source: RandomSource,
            replacements: Sequence[Colour] | None = None) -> HealingResult:
    """"Jede schwarze Murmel, die gezogen wird, darf vom Spieler abgelegt werden und statt ihrer eine
    beliebige farbige Murmel zurück in den Beutel gelegt werden." Up front, ``replacements`` names one
    colour per marble drawn (the number of black ones is not known yet); the k-th black marble drawn
    takes the k-th colour, the rest are unused."""
    if replacements is not None:
        _check_count(replacements, draws, say("one healing colour per marble drawn (ruling 4, given up front)"))
        _check_healing_colours(replacements)
    drawn = draw(bag, draws, source)
    blacks = drawn.count(Colour.BLACK)
    if replacements is None:
        return HealingResult(drawn, blacks, blacks, None)
    return HealingResult(drawn, blacks, 0, healed(bag, drawn, replacements[:blacks]))


def healed(bag: Bag, drawn: Sequence[Colour], replacements: Sequence[Colour]) -> Bag:
    """Ruling 4: exactly one colour among red, green and blue per black marble drawn."""
    blacks = list(drawn).count(Colour.BLACK)
    _check_count(replacements, blacks, say("one healing colour per black marble drawn (ruling 4)"))
    _check_healing_colours(replacements)
    return bag.exchanged([Colour.BLACK] * blacks, replacements)


def _check_healing_colours(replacements: Sequence[Colour]) -> None:
    for index, colour in enumerate(replacements):
        if colour not in HEALING_COLOURS:
            raise RuleViolation(
                f"replacements.{index}",
                say("ruling 4: a black marble drawn in healing is replaced by a coloured marble "
                    "(red, green or blue), not %(colour)s (“eine beliebige farbige Murmel”)", colour=colour.value))


def _check_count(replacements: Sequence, expected: int, what: str) -> None:
    if len(replacements) != expected:
        raise RuleViolation("replacements", say("needs %(what)s: %(expected)s expected, %(given)s given",
                                                what=what, expected=expected, given=len(replacements)))


# --- experience ---------------------------------------------------------------------------------

@dataclass(frozen=True)
class ExperienceResult:
    drawn: tuple[Colour, ...] = field(metadata=described("The marbles drawn."))
    choices_required: int = field(metadata=described("Entries `/experience/apply` needs (one per marble drawn); 0 when "
                                                     "given up front."))
    bag_after: Bag | None = field(metadata=described("The new bag when `replacements` were given, else null."))


def experience(bag: Bag, draws: int, source: RandomSource,
               replacements: Sequence[Colour | None] | None = None) -> ExperienceResult:
    """"Jede hierbei gezogene Murmel, egal welcher Farbe, darf vom Spieler abgelegt und durch eine
    Murmel in einer anderen Farbe ausgetauscht werden, wenn er das möchte. Dies gilt auch für weiße
    und schwarze Murmeln." Up front, ``replacements`` has one entry per marble drawn (null keeps it)."""
    if replacements is not None:
        _check_count(replacements, draws, say("one entry per marble drawn (ruling 5)"))
        _check_experience_colours(replacements)
    drawn = draw(bag, draws, source)
    if replacements is None:
        return ExperienceResult(drawn, len(drawn), None)
    return ExperienceResult(drawn, 0, experienced(bag, drawn, replacements))


def experienced(bag: Bag, drawn: Sequence[Colour], replacements: Sequence[Colour | None]) -> Bag:
    """Ruling 5: each drawn marble is kept (null) or exchanged for a different colour, never black."""
    _check_count(replacements, len(drawn), say("one entry per marble drawn (ruling 5)"))
    _check_experience_colours(replacements)
    for index, (old, new) in enumerate(zip(drawn, replacements)):
        if new is old:
            raise RuleViolation(
                f"replacements.{index}",
                say("ruling 5: a drawn marble is exchanged for one “in einer anderen Farbe”; marble "
                    "%(index)s is already %(colour)s (use null to keep it)", index=index, colour=old.value))
    changes = [(old, new) for old, new in zip(drawn, replacements) if new is not None]
    return bag.exchanged([old for old, _ in changes], [new for _, new in changes])


def _check_experience_colours(replacements: Sequence[Colour | None]) -> None:
    for index, colour in enumerate(replacements):
        if colour is not None and colour not in EXPERIENCE_COLOURS:
            raise RuleViolation(
                f"replacements.{index}",
                say("ruling 5: experience never puts a black marble into the bag "
                    "(red, green, blue or white, or null to keep the marble)"))


# --- character creation -------------------------------------------------------------------------

@dataclass(frozen=True)
class CreationRules:
    """"Ein neuer Charakter ... wird erschaffen, indem ein leerer Beutel mit insgesamt 20 Murmeln
    gefüllt wird. 5 dieser Murmeln müssen weiß sein. Die übrigen 15 Murmeln können beliebig auf die
    drei Fähigkeiten ... verteilt werden.\""""

    size: int = 20
    white: int = 5
    free: int = 15


class BagProblem(str, Enum):
    SIZE = "size"
    WHITE = "white"
    FREE = "free"
    BLACK = "black"


@dataclass(frozen=True)
class Finding:
    problem: BagProblem
    expected: int
    actual: int


def check_creation(bag: Bag, rules: CreationRules) -> tuple[Finding, ...]:
    """Ruling 7: what keeps ``bag`` from being a starting bag under ``rules`` (empty: valid)."""
    free = bag.red + bag.green + bag.blue
    checks = ((BagProblem.SIZE, rules.size, bag.total), (BagProblem.WHITE, rules.white, bag.white),
              (BagProblem.FREE, rules.free, free), (BagProblem.BLACK, 0, bag.black))
    return tuple(Finding(problem, expected, actual) for problem, expected, actual in checks
                 if expected != actual)


@dataclass(frozen=True)
class BagCheck:
    """The answer of ``validate-bag``: ``problems`` in words, ``codes`` for programs."""

    valid: bool
    problems: tuple[str, ...] = field(metadata=described("In the requested language."))
    codes: tuple[BagProblem, ...] = field(metadata=described("Machine-readable kind of each problem, same order."))


@dataclass(frozen=True)
class Applied:
    """The bag after a choice was applied to a signed draw."""

    bag_after: Bag
