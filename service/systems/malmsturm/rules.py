"""Malmsturm rules (rules file 004_c170d2e352f902aa.txt and RULINGS.md "Malmsturm"). Pure: no Flask,
no JSON.

"Wie erwähnt, verwendet Malmsturm FUDGE-Würfel und zwar meistens 4 davon. Also ergebt sich ein
Spektrum von -4 bis +4 um das Ausgangsniveau."
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from enum import Enum
from typing import Literal

from service.platform.dice.randomness import RandomSource
from service.platform.values.results import described
from service.platform.words.catalogs import Catalog, marked, translations

DICE = 4  # ruling 7: "meistens 4" FUDGE dice; any operation may set 1..8
MAX_DICE = 8
LOWEST = -4  # ruling 1: "below −4 stays hoffnungslos"
HIGHEST = 6  # ruling 1: "above +6 unvergleichlich"
MAX_ROLL_OFF_ROUNDS = 20  # a tie surviving 20 roll-offs (p < 1e-15) keeps the request order


# --- the ladder (Stufenleiter), ruling 1 -------------------------------------------------------

@dataclass(frozen=True)
class Rung:
    value: int
    de: str
    en: str
    open_end: Literal["below", "above"] | None = None  # "below": also every lower total; "above": every higher one


LADDER = (
    Rung(-4, "hoffnungslos", marked("ladder", "hopeless"), "below"),
    Rung(-3, "erbärmlich", marked("ladder", "terrible")),
    Rung(-2, "dilettantisch", marked("ladder", "poor")),
    Rung(-1, "unterdurchschnittlich", marked("ladder", "below average")),
    Rung(0, "mäßig", marked("ladder", "mediocre")),
    Rung(1, "durchschnittlich", marked("ladder", "average")),
    Rung(2, "passabel", marked("ladder", "fair")),
    Rung(3, "gut", marked("ladder", "good")),
    Rung(4, "hervorragend", marked("ladder", "great")),
    Rung(5, "überwältigend", marked("ladder", "superb")),
    Rung(6, "Weltklasse", marked("ladder", "fantastic")),
    Rung(HIGHEST + 1, "unvergleichlich", marked("ladder", "legendary"), "above"),  # "mehr als +6 Unvergleichlich"
)
_RUNGS = {rung.value: rung for rung in LADDER}


def rung(total: int) -> Rung:
    """The rung a total is read on; the ends are open."""
    return _RUNGS[min(max(total, LOWEST), HIGHEST + 1)]


def label(total: int, lang: str) -> str:
    """The rung's label in ``lang``, from the message catalogs (the German ones are the text's)."""
    return label_in(total, translations(lang))


def label_in(total: int, t: Catalog) -> str:
    """The rung's label from the catalog ``t`` (a chat line's, looked up once)."""
    return t.pgettext("ladder", rung(total).en)


@dataclass(frozen=True)
class LadderLevel:
    value: int
    label: str
    open_end: Literal["below", "above"] | None = field(metadata=described(
                       "below/above: the level also covers every lower/higher total."))


@dataclass(frozen=True)
class LadderResult:
    levels: list[LadderLevel]


def ladder(lang: str) -> LadderResult:
    t = translations(lang)
    return LadderResult([LadderLevel(r.value, label_in(r.value, t), r.open_end) for r in LADDER])


# --- rolling -------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Roll:
    dice: list[int]
    total: int
    label: str


def roll(base: int, source: RandomSource, lang: str, dice: int = DICE) -> Roll:
    """``dice`` dF (four unless the table says otherwise) around the starting level (skill + modifier)."""
    faces = source.fudge(dice)
    total = base + sum(faces)
    return Roll(faces, total, label(total, lang))


# --- simple action (Einfache Aktion), ruling 2 ---------------------------------------------------

@dataclass(frozen=True)
class ActionResult:
    dice: list[int]
    total: int
    label: str = field(metadata=described("The total's ladder label in `lang`."))
    success: bool
    shifts: int = field(metadata=described("Erfolge: total − difficulty, 0 on a failure."))
    margin: int = field(metadata=described("total − difficulty (negative on a failure)."))


def action(skill: int, difficulty: int, source: RandomSource, *, modifier: int = 0,
           lang: str = "en", dice: int = DICE) -> ActionResult:
    """"Für einen Erfolg muss man mindestens den DC getroffen haben." "Wenn man höher gewürfelt hat,
    als es für das Gelingen der Aktion erforderlich ist, nennt man die überzähligen Stufen 'Erfolge'.\""""
    rolled = roll(skill + modifier, source, lang, dice)
    margin = rolled.total - difficulty
    return ActionResult(rolled.dice, rolled.total, rolled.label, margin >= 0, max(margin, 0), margin)


# --- contest (Wettstreit), ruling 3 --------------------------------------------------------------

@dataclass(frozen=True)
class Contender:
    skill: int
    modifier: int = 0
    name: str | None = None


@dataclass(frozen=True)
class ContestSide:
    name: str | None
    dice: list[int]
    total: int
    label: str


@dataclass(frozen=True)
class ContestResult:
    a: ContestSide
    b: ContestSide
    winner: Literal["a", "b"] | None
    shifts: int = field(metadata=described("Difference of the totals (0 on a tie)."))


def winner_of(a_total: int, b_total: int) -> Literal["a", "b"] | None:
    """"Um einen Erfolg zu erzielen, muss das eigene Ergebnis mindestens eine Stufe über dem des
    Konkurrenten liegen." Equal totals: nobody wins."""
    if a_total >= b_total + 1:
        return "a"
    if b_total >= a_total + 1:
        return "b"
    return None


def _side(contender: Contender, source: RandomSource, lang: str, dice: int = DICE) -> ContestSide:
    rolled = roll(contender.skill + contender.modifier, source, lang, dice)
    return ContestSide(contender.name, rolled.dice, rolled.total, rolled.label)


def contest(a: Contender, b: Contender, source: RandomSource, *, lang: str = "en",
            dice: int = DICE) -> ContestResult:
    side_a, side_b = _side(a, source, lang, dice), _side(b, source, lang, dice)
    return ContestResult(side_a, side_b, winner_of(side_a.total, side_b.total),
                         abs(side_a.total - side_b.total))


# --- initiative (Reihenfolge), ruling 4 ----------------------------------------------------------

@dataclass(frozen=True)
class Participant:
    name: str
    intuition: int


@dataclass(frozen=True)
class InitiativeEntry:
    name: str
    intuition: int
    dice: list[int]
    total: int
    label: str
    roll_offs: list[list[int]] = field(metadata=described("The 4dF of each roll-off this participant took part in."))


@dataclass(frozen=True)
class InitiativeResult:
    order: list[InitiativeEntry]


def initiative(participants: list[Participant], source: RandomSource, *,
               lang: str = "en", dice: int = DICE) -> InitiativeResult:
    """"Die Reihenfolge wird über einen Intuitions-Wurf ermittelt." Ruling 4: 4dF + intuition, highest
    first; equal totals: higher intuition first; still equal: roll-offs (4dF each, higher first)."""
    # Ruling 7: ``dice`` dF instead of four, for the roll-offs too.
    rolls = [roll(p.intuition, source, lang, dice) for p in participants]
    roll_offs: dict[int, list[list[int]]] = {index: [] for index in range(len(participants))}
    ranked = sorted(range(len(participants)),
                    key=lambda i: (-rolls[i].total, -participants[i].intuition))
    groups = _groups(ranked, lambda i: (rolls[i].total, participants[i].intuition))
    order = [i for group in groups for i in _roll_off(group, source, roll_offs, 0, dice)]
    return InitiativeResult([
        InitiativeEntry(participants[i].name, participants[i].intuition, rolls[i].dice, rolls[i].total,
                        rolls[i].label, roll_offs[i])
        for i in order
    ])


def _groups(ranked: list[int], key: Callable[[int], object]) -> list[list[int]]:
    """Consecutive runs of equal ``key`` in an already ranked list."""
    groups: list[list[int]] = []
    for index in ranked:
        if groups and key(groups[-1][0]) == key(index):
            groups[-1].append(index)
        else:
            groups.append([index])
    return groups


def _roll_off(group: list[int], source: RandomSource, roll_offs: dict[int, list[list[int]]],
              rounds: int, dice: int) -> list[int]:
    """Order a tied group by roll-offs; groups still tied roll again, depth first, so the manual
    values a table enters follow the order of play (members in request order)."""
    if len(group) == 1 or rounds >= MAX_ROLL_OFF_ROUNDS:
        return group
    results = {}
    for index in sorted(group):
        faces = source.fudge(dice)
        roll_offs[index].append(faces)
        results[index] = sum(faces)
    ranked = sorted(sorted(group), key=lambda i: -results[i])
    return [i for tied in _groups(ranked, results.__getitem__)
            for i in _roll_off(tied, source, roll_offs, rounds + 1, dice)]


# --- attacks, stress and consequences (Konflikte), rulings 5 and 6 ------------------------------

class AttackType(str, Enum):
    HARM = "harm"  # jemanden körperlich verletzen
    DECEIVE = "deceive"  # jemanden täuschen
    INTIMIDATE = "intimidate"  # jemanden einschüchtern
    CHARM = "charm"  # jemanden becircen
    PUSH = "push"  # jemanden wegstoßen
    PERSUADE = "persuade"  # jemanden überreden


class Track(str, Enum):
    PHYSICAL = "physical"  # körperliche Belastung
    MENTAL = "mental"  # mentale Belastung


# The attack table of the text, column "Belastung im Falle eines Treffers".
TRACK_OF = {
    AttackType.HARM: Track.PHYSICAL,
    AttackType.PUSH: Track.PHYSICAL,
    AttackType.DECEIVE: Track.MENTAL,
    AttackType.INTIMIDATE: Track.MENTAL,
    AttackType.CHARM: Track.MENTAL,
    AttackType.PERSUADE: Track.MENTAL,
}


@dataclass(frozen=True)
class ConsequenceExample:
    de: str  # as the text writes it
    en: str


def _examples(german: tuple[str, ...], english: tuple[str, ...]) -> tuple[ConsequenceExample, ...]:
    return tuple(ConsequenceExample(de, en) for de, en in zip(german, english, strict=True))


# The attack table of the text, column "Beispiele für Konsequenzen" (ruling 5: suggestions), German
# as the text writes it and English.
# Ruling 9: the text's attack table, per attack kind the attacker's and the defender's skills
# ("jemanden körperlich verletzen | Nahkampf / Fernkampf | Ausweichen | ...").
ATTACK_SKILLS = {
    AttackType.HARM: {"attacker": ["Nahkampf", "Fernkampf"], "defender": ["Ausweichen"]},
    AttackType.DECEIVE: {"attacker": ["Bluffen"], "defender": ["Menschenkenntnis", "Wahrnehmung"]},
    AttackType.INTIMIDATE: {"attacker": ["Einschüchtern"], "defender": ["Nerven behalten"]},
    AttackType.CHARM: {"attacker": ["Charisma", "Überreden"], "defender": ["Nerven behalten"]},
    AttackType.PUSH: {"attacker": ["Körperbeherrschung"], "defender": ["Körperbeherrschung"]},
    AttackType.PERSUADE: {"attacker": ["Überreden"], "defender": ["Menschenkenntnis"]},
}

CONSEQUENCE_EXAMPLES = {
    AttackType.HARM: _examples(("Körperliche Verwundung",), (marked("consequence", "physical wound"),)),
    AttackType.DECEIVE: _examples(
        ("Getäuscht", "Verwirrt", "Verunsichert", "Unkonzentriert"),
        (marked("consequence", "deceived"), marked("consequence", "confused"),
         marked("consequence", "unsettled"), marked("consequence", "distracted"))),
    AttackType.INTIMIDATE: _examples(
        ("Eingeschüchtert", "Verunsichert", "Verängstigt"),
        (marked("consequence", "intimidated"), marked("consequence", "unsettled"),
         marked("consequence", "frightened"))),
    AttackType.CHARM: _examples(("Kooperativ", "Verliebt"),
                                (marked("consequence", "cooperative"), marked("consequence", "smitten"))),
    AttackType.PUSH: _examples(("Aus dem Gleichgewicht gebracht", "Stolpern"),
                               (marked("consequence", "thrown off balance"), marked("consequence", "stumbling"))),
    AttackType.PERSUADE: _examples(("Überredet", "ein Auge zudrücken"),
                                   (marked("consequence", "persuaded"), marked("consequence", "turning a blind eye"))),
}


@dataclass(frozen=True)
class SuggestedConsequence:
    de: str = field(metadata=described("As the rules text writes it, e.g. Getäuscht."))
    en: str
    label: str = field(metadata=described("In `lang`."))


def suggested_consequences(attack: AttackType, lang: str) -> list[SuggestedConsequence]:
    t = translations(lang)
    return [SuggestedConsequence(example.de, example.en, t.pgettext("consequence", example.en))
            for example in CONSEQUENCE_EXAMPLES[attack]]


CONSEQUENCES_TO_TAKE_OUT = 2  # "Wer zwei Konseuenzen hingenommen hat, scheidet aus dem Konflikt aus."


class ConsequenceReason(str, Enum):
    STRESS_SPENT = "stress_spent"
    TAKEN_EARLY = "taken_early"


@dataclass(frozen=True)
class Severity:
    severity: str
    de: str
    examples_de: tuple[str, ...]
    recovery: str
    recovery_de: str


# Ruling 6: "Konsequenzen kurieren nach einer gewissen Zeit aus".
SEVERITIES = (
    Severity("mild", "leichte Konsequenz", ("Verrenkung", "Verunsichert"),
             "after a short breather", "kurze Verschnaufpause"),
    Severity("moderate", "mittlere Konsequenz", ("Bewusstlos", "Beschämt"),
             "after about half a day", "nach etwa einem halben Tag"),
    Severity("severe", "schwere Konsequenz", ("Schußwunde", "Krise"),
             "after several days", "mehrere Tage"),
)


@dataclass(frozen=True)
class StressTrack:
    current: int
    max: int


@dataclass(frozen=True)
class Stress:
    physical: StressTrack
    mental: StressTrack

    def track(self, track: Track) -> StressTrack:
        return getattr(self, track.value)

    def with_track(self, track: Track, value: StressTrack) -> Stress:
        tracks = {"physical": self.physical, "mental": self.mental, track.value: value}
        return Stress(**tracks)


@dataclass(frozen=True)
class Attacker:
    skill: int
    attack: AttackType
    modifier: int = 0
    name: str | None = None


@dataclass(frozen=True)
class Defender:
    skill: int | None  # None: it does not defend, the attack meets a fixed difficulty
    stress: Stress
    consequences: int = 0
    modifier: int = 0
    name: str | None = None


@dataclass(frozen=True)
class AttackResult:
    attacker: ContestSide
    defender: ContestSide
    hit: bool
    shifts: int = field(metadata=described("Attacker's total − defender's, 0 on a miss."))
    track: Track
    stress_after: Stress
    consequence_required: bool
    consequence_reason: ConsequenceReason | None
    consequences_after: int
    taken_out: bool
    defended: bool = field(metadata=described(
        "false: no defense roll (`defend: false`); `defender` shows the difficulty met, no dice."))
    suggested_consequences: list[SuggestedConsequence] = field(metadata=described(
                       "When a consequence is required: the text's examples for this kind of attack (ruling 5), as "
                       "suggestions; else empty."))


@dataclass(frozen=True)
class Damage:
    """What a hit of ``shifts`` does to the defender (no dice involved, so odds reuse it)."""

    stress_after: Stress
    consequence: ConsequenceReason | None
    consequences_after: int

    @property
    def taken_out(self) -> bool:
        return self.consequences_after >= CONSEQUENCES_TO_TAKE_OUT


def damage(defender: Defender, track: Track, shifts: int, *, take_consequence_early: bool) -> Damage:
    """"Der Verteidigende verliert so viele Belastungspunkte, wie der Angreifende Erfolge erzielt hat.
    Wenn seine Belastungspunkte verbraucht sind, dann erleidet er eine Konsequenz und die
    Belastungspunkte werden wieder aufgefüllt (man kann schon vorher eine Konsequenz hinnehmen, wenn
    man will)." A defender who already took two consequences is out: nothing more happens."""
    unchanged = Damage(defender.stress, None, defender.consequences)
    if shifts <= 0 or defender.consequences >= CONSEQUENCES_TO_TAKE_OUT:
        return unchanged
    if take_consequence_early:  # the consequence instead of the stress: the track stays as it is
        return Damage(defender.stress, ConsequenceReason.TAKEN_EARLY, defender.consequences + 1)
    before = defender.stress.track(track)
    left = before.current - shifts
    if left > 0:
        return Damage(defender.stress.with_track(track, StressTrack(left, before.max)), None,
                      defender.consequences)
    refilled = defender.stress.with_track(track, StressTrack(before.max, before.max))
    return Damage(refilled, ConsequenceReason.STRESS_SPENT, defender.consequences + 1)


def attack(attacker: Attacker, defender: Defender, source: RandomSource, *,
           take_consequence_early: bool = False, lang: str = "en", dice: int = DICE,
           defend: bool = True, difficulty: int = 0) -> AttackResult:
    """"Wenn der Angreifende mindestens einen Erfolg hat, dann 'trifft' sein Angriff." The attacker
    rolls first, then the defender; a hit needs a total at least one above the defender's. Ruling 5:
    "der angegriffene kann sich mit einem Fertigkeitswurf verteidigen" – a defender who does not
    (``defend=False``) rolls nothing, and the attack meets the fixed ``difficulty`` instead."""
    attack_roll = _side(Contender(attacker.skill, attacker.modifier, attacker.name), source, lang, dice)
    if defend and defender.skill is not None:
        defence_roll = _side(Contender(defender.skill, defender.modifier, defender.name), source, lang, dice)
    else:
        defence_roll = ContestSide(defender.name, [], difficulty, label(difficulty, lang))
    shifts = max(attack_roll.total - defence_roll.total, 0)
    track = TRACK_OF[attacker.attack]
    outcome = damage(defender, track, shifts, take_consequence_early=take_consequence_early)
    required = outcome.consequence is not None
    return AttackResult(
        attacker=attack_roll, defender=defence_roll, hit=shifts >= 1, shifts=shifts, track=track,
        stress_after=outcome.stress_after, consequence_required=required,
        consequence_reason=outcome.consequence, consequences_after=outcome.consequences_after,
        taken_out=outcome.taken_out, defended=defend,
        suggested_consequences=suggested_consequences(attacker.attack, lang) if required else [],
    )
