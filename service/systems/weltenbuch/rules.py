"""Weltenbuch rules (rules file 002_610240ae8bf5cc8e.txt and RULINGS.md "Weltenbuch"). Pure: no Flask,
no JSON.

"Zeigt der Würfel eine ungerade Zahl, so handelt es sich um einen Misserfolg, zeigt er eine gerade
Zahl, dann ist dieser Würfel ein Erfolg."
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from enum import Enum
from typing import Literal

from service.platform.dice.randomness import RandomSource
from service.platform.values.errors import RuleViolation
from service.platform.values.results import described
from service.platform.words.messages import say, say_n

DEFAULT_DIE = 10
GM_SEAT = 0
GOD_DIE = 8  # "Welcher Gott es war, kann einfach mit einem achtseitigen Würfel bestimmt werden."
DICE_PER_HERO_POINT = 2  # "Pro investierten Heldenpunkt erhält man 2 Würfel."
HERO_POINT_TOUGHNESS = 3  # "einen Heldenpunkt ausgeben, um die Zähigkeit um drei Punkte zu regenerieren"


class Role(str, Enum):
    PLAYER = "player"
    NPC = "npc"
    OBSTACLE = "obstacle"


class Actor(str, Enum):
    PLAYER = "player"
    GM = "gm"


def is_success(face: int) -> bool:
    """Ruling 1: an even face is a success (a d10's "0" is reported as 10, which is even)."""
    return face % 2 == 0


def count_successes(dice: Sequence[int]) -> int:
    return sum(1 for face in dice if is_success(face))


# --- conflict -----------------------------------------------------------------------------------

@dataclass(frozen=True)
class Member:
    name: str
    role: Role
    profile: int
    seat: int | None = None
    equipment_bonuses: tuple[int, ...] = ()
    magic_bonus: int = 0
    situation_bonus: int = 0
    hero_points: int = 0
    # The member's pool, derived from the fields above once (a conflict reads it several times).
    dice: int = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        # How a frozen dataclass sets a derived field (the dataclasses documentation's idiom).
        object.__setattr__(self, "dice", pool(self.profile, self.equipment_bonuses, self.magic_bonus,
                                              self.situation_bonus, self.hero_points))


def pool(profile: int, equipment_bonuses: Sequence[int] = (), magic_bonus: int = 0, situation_bonus: int = 0,
         hero_points: int = 0) -> int:
    """"Die Summe aus Profilwert und eventuellen Boni ergibt die Anzahl an Würfeln" plus two per hero
    point; never below 0 (ruling 2). Of the equipment, "wird immer nur der Ausrüstungsgegenstand
    berücksichtigt, der den größten Bonus gibt" (it may be negative: "Ausrüstungsgegenstände können
    durchaus negative Boni besitzen")."""
    bonuses = max(equipment_bonuses, default=0) + magic_bonus + situation_bonus
    return max(0, profile + bonuses + DICE_PER_HERO_POINT * hero_points)


@dataclass(frozen=True)
class Party:
    name: str
    members: tuple[Member, ...]

    @property
    def dice(self) -> int:
        return sum(member.dice for member in self.members)


@dataclass(frozen=True)
class MemberRoll:
    name: str
    party: str
    role: Role
    dice_count: int
    dice: list[int] = field(metadata=described("Faces 1..die, in order."))
    successes: int = field(metadata=described("Dice showing an even face."))


@dataclass(frozen=True)
class PartyTotal:
    name: str
    successes: int


@dataclass(frozen=True)
class Turn:
    """One turn of a narration round: a player at their seat, or the GM at seat 0 for all npcs and
    obstacles at once ("Er handelt mit all seinen Charakteren zugleich")."""
    seat: int = field(metadata=described("The player's seat; 0 for the GM."))
    actor: Actor
    members: list[str] = field(metadata=described(
        "Who acts in this turn: the player, or all npcs and obstacles with dice for the GM."))


@dataclass(frozen=True)
class ConflictResult:
    members: list[MemberRoll]
    parties: list[PartyTotal]
    winner: str | None = field(metadata=described("Party name; null on a tie."))
    narration_order: list[Turn] = field(metadata=described("One narration round; repeat it until all dice are spent."))


def conflict(parties: Sequence[Party], source: RandomSource, *, die: int = DEFAULT_DIE) -> ConflictResult:
    """Every member rolls its dice (parties and members in the given order); "Die Anzahl der Erfolge
    einer Partei werden addiert." """
    if die % 2:
        raise RuleViolation("die", say("must have an even number of sides, got %(die)s (“Es können beliebige "
                                       "Würfel mit einer geraden Seitenzahl verwendet werden.”)", die=die))
    rolls: list[MemberRoll] = []
    totals: list[PartyTotal] = []
    for party in parties:
        party_rolls = [_roll_member(member, party.name, die, source) for member in party.members]
        rolls += party_rolls
        totals.append(PartyTotal(party.name, sum(roll.successes for roll in party_rolls)))
    return ConflictResult(rolls, totals, winner(totals), narration_order(parties))


def _roll_member(member: Member, party: str, die: int, source: RandomSource) -> MemberRoll:
    count = member.dice
    # Ruling 1: a d10's ten may be entered as 0, as the text writes it ("(1 2 5 6 8 9 0)").
    dice = source.roll(count, die, zero_is_ten=True) if count else []
    return MemberRoll(member.name, party, member.role, count, dice, count_successes(dice))


def winner(totals: Sequence[PartyTotal]) -> str | None:
    """"Die Partei mit mehr Erfolgen kann die Szene für sich entscheiden. Bei einem Patt gewinnt
    niemand" (ruling 3: equal top totals, no winner)."""
    best = max(total.successes for total in totals)
    leaders = [total.name for total in totals if total.successes == best]
    return leaders[0] if len(leaders) == 1 else None


def _seat(player: Member) -> int:
    """A player's seat: the request schema requires one for every player."""
    if player.seat is None:
        raise RuleViolation("parties", say("the player “%(name)s” needs a seat", name=player.name))
    return player.seat


def narration_order(parties: Sequence[Party]) -> list[Turn]:
    """Ruling 4: "Der Spieler, nie der Spielleiter, mit den meisten geworfenen Würfeln beginnt. Bei
    Gleichstand beginnt der Spieler, der näher beim Spielleiter sitzt (entgegen dem Uhrzeigersinn)",
    i.e. the highest seat; then clockwise (rising seats, wrapping to the GM at seat 0).
    Members without dice have no turn ("Spieler, die keine Würfel mehr vor sich liegen haben, werden
    dabei einfach ausgelassen"); without any player with dice, the GM starts."""
    members = [member for party in parties for member in party.members if member.dice > 0]
    players = sorted((m for m in members if m.role is Role.PLAYER), key=_seat)
    gm_members = [m.name for m in members if m.role is not Role.PLAYER]
    turns = [Turn(GM_SEAT, Actor.GM, gm_members)] if gm_members else []  # seat 0 comes first
    turns += [Turn(_seat(player), Actor.PLAYER, [player.name]) for player in players]
    if not players:
        return turns
    starter = max(players, key=lambda m: (m.dice, m.seat))
    start = turns.index(Turn(_seat(starter), Actor.PLAYER, [starter.name]))  # the round begins there
    return turns[start:] + turns[:start]


# --- narration ----------------------------------------------------------------------------------

@dataclass(frozen=True)
class RolledMember:
    """A member as the signed conflict response reports it."""
    name: str
    party: str
    role: Role
    dice: tuple[int, ...]


@dataclass(frozen=True)
class Toughness:
    current: int
    max: int
    equipment: int = 0  # toughness of equipment in use, lowered first

    def hit(self) -> tuple[Toughness, Literal["equipment", "toughness"] | None]:
        """Ruling 5: one point off, equipment toughness first; nothing below 0."""
        if self.equipment > 0:
            return replace(self, equipment=self.equipment - 1), "equipment"
        if self.current > 0:
            return replace(self, current=self.current - 1), "toughness"
        return self, None

    def healed(self, hero_points: int) -> Toughness:
        return replace(self, current=min(self.max, self.current + HERO_POINT_TOUGHNESS * hero_points))


@dataclass(frozen=True)
class Spend:
    member: str
    die: int  # index into that member's `dice` in the conflict result
    target: str | None = None


@dataclass(frozen=True)
class HeroPointSpend:
    """A hero point spent between dice: "Natürlich kann der Spieler immer einen Heldenpunkt ausgeben,
    um die Zähigkeit um drei Punkte zu regenerieren" (ruling 5: at the moment it is spent)."""
    member: str


@dataclass(frozen=True)
class SpentDie:
    member: str
    die: int
    face: int
    success: bool
    target: str | None
    lowered: Literal["equipment", "toughness"] | None = field(metadata=described(
                       "Which toughness the die lowered; null for narration only or a target already at 0."))


@dataclass(frozen=True)
class DieRef:
    member: str
    die: int


@dataclass(frozen=True)
class HeroPointApplied:
    member: str
    spend: int | None = field(metadata=described(
        "Index of the entry in `spends`; null for a hero point of `hero_points`, given at the end of the scene "
        "(ruling 7)."))
    restored: int = field(metadata=described("Toughness restored: 3, fewer near max."))


@dataclass(frozen=True)
class NarrationResult:
    spent: list[SpentDie] = field(metadata=described("The dice of `spends`, in order (hero point entries are in "
                                                     "`hero_points_spent`)."))
    hero_points_spent: list[HeroPointApplied] = field(metadata=described(
        "The hero point entries of `spends`, each applied when it was spent, then one entry per hero point of "
        "`hero_points` (ruling 7)."))
    toughness_after: dict[str, Toughness]
    consequences: list[str] = field(metadata=described("Members at toughness 0 once every die is spent."))
    unspent: list[DieRef]
    complete: bool
    overcome: list[str] = field(default_factory=list, metadata=described(
        "Ruling 7: obstacles whose toughness reached 0 (overcome; an obstacle suffers no consequence)."))


@dataclass(frozen=True)
class HeroPoints:
    member: str
    count: int


def narration(members: Sequence[RolledMember], toughness: Mapping[str, Toughness],
              spends: Sequence[Spend | HeroPointSpend], hero_points: Sequence[HeroPoints] = ()) -> NarrationResult:
    """Applies the ledger (dice and hero points, in the order spent) to the toughness at the start of
    the scene; then the hero points of ``hero_points`` ("at the end"); then, once every die is spent,
    the consequences (ruling 5)."""
    by_name = {member.name: member for member in members}
    _check_toughness_names(by_name, toughness)
    _unique(spends)
    state = dict(toughness)
    spent, ledger_points = [], []
    for index, spend in enumerate(spends):
        if isinstance(spend, HeroPointSpend):
            ledger_points.append(_ledger_hero_point(index, spend, by_name, state))
        else:
            spent.append(_spend(index, spend, by_name, state))
    for index, spent_points in enumerate(hero_points):  # ruling 7: reported like the ledger's, one per point
        member = spent_points.member
        state[member] = _hero_points(f"hero_points.{index}.member", HeroPoints(member, 0), by_name, state)  # checks it
        for _ in range(spent_points.count):
            before = state[member].current
            state[member] = state[member].healed(1)
            ledger_points.append(HeroPointApplied(member, None, state[member].current - before))
    unspent = _unspent(members, spends)
    complete = not unspent
    # "Beträgt die Zähigkeit eines Profils nach einem Konflikt null, erleidet der Charakter eine
    # Konsequenz": characters only; an obstacle at 0 is simply overcome and stays at 0.
    consequences = [name for name, value in state.items()
                    if complete and value.current == 0 and by_name[name].role is not Role.OBSTACLE]
    overcome = [name for name, value in state.items()
                if value.current == 0 and by_name[name].role is Role.OBSTACLE]
    for name in consequences:
        # "Durch das Erleiden einer Konsequenz wird die Zähigkeit des Profils komplett regeneriert."
        state[name] = replace(state[name], current=state[name].max)
    return NarrationResult(spent, ledger_points, state, consequences, unspent, complete, overcome)


def _check_toughness_names(by_name: Mapping[str, RolledMember], toughness: Mapping[str, Toughness]) -> None:
    for name in toughness:
        if name not in by_name:
            raise RuleViolation(f"toughness.{name}", say("is not a member of the conflict"))


def _unique(spends: Sequence[Spend | HeroPointSpend]) -> None:
    seen: set[tuple[str, int]] = set()
    for index, spend in enumerate(spends):
        if isinstance(spend, HeroPointSpend):
            continue
        if (spend.member, spend.die) in seen:
            raise RuleViolation(f"spends.{index}.die",
                                say("die %(die)s of %(member)s is already in the middle of the table "
                                    "(every die is spent once)", die=spend.die, member=spend.member))
        seen.add((spend.member, spend.die))


def _spend(index: int, spend: Spend, by_name: Mapping[str, RolledMember],
           state: dict[str, Toughness]) -> SpentDie:
    member = by_name.get(spend.member)
    if member is None:
        raise RuleViolation(f"spends.{index}.member", say("“%(name)s” is not a member of the conflict",
                                                              name=spend.member))
    if not 0 <= spend.die < len(member.dice):
        raise RuleViolation(f"spends.{index}.die",
                            say_n("%(member)s rolled %(count)d die (index 0), there is no die %(die)s",
                                  "%(member)s rolled %(count)d dice (indexes 0..%(last)s), there is no die %(die)s",
                                  len(member.dice), member=spend.member, last=len(member.dice) - 1, die=spend.die)
                            if member.dice else
                            say("%(member)s rolled no dice, there is no die %(die)s", member=spend.member,
                                die=spend.die))
    face = member.dice[spend.die]
    lowered: Literal["equipment", "toughness"] | None = None
    if spend.target is not None:
        _check_target(index, spend, member, face, by_name, state)
        state[spend.target], lowered = state[spend.target].hit()
    return SpentDie(spend.member, spend.die, face, is_success(face), spend.target, lowered)


def _check_target(index: int, spend: Spend, member: RolledMember, face: int,
                  by_name: Mapping[str, RolledMember], state: Mapping[str, Toughness]) -> None:
    target = by_name.get(spend.target) if spend.target is not None else None
    if not is_success(face):
        raise RuleViolation(f"spends.{index}.target",
                            say("die %(die)s of %(member)s shows %(face)s, a failure: only a success lowers an "
                                "opponent's toughness (“Würfel zeigt einen Erfolg: ... erleidet dieser einen Abzug "
                                "von eins auf seine Zähigkeit”); spend it without a target",
                                die=spend.die, member=spend.member, face=face))
    if target is None:
        raise RuleViolation(f"spends.{index}.target", say("“%(name)s” is not a member of the conflict",
                                                              name=spend.target))
    if target.name == member.name:  # review 2026-12-03 kind 9: say what is wrong, not "its own party"
        raise RuleViolation(f"spends.{index}.target",
                            say("%(member)s cannot spend a die on itself: the target is an opponent (“Gegner”)",
                                member=member.name))
    if target.party == member.party:
        raise RuleViolation(f"spends.{index}.target",
                            say("%(target)s is in the party of %(member)s, not an opponent (“Gegner”)",
                                target=spend.target, member=member.name))
    if spend.target not in state:
        raise RuleViolation(f"spends.{index}.target", say("%(name)s has no entry in toughness", name=spend.target))


def _ledger_hero_point(index: int, spend: HeroPointSpend, by_name: Mapping[str, RolledMember],
                      state: dict[str, Toughness]) -> HeroPointApplied:
    before = state.get(spend.member)
    state[spend.member] = _hero_points(f"spends.{index}.member", HeroPoints(spend.member, 1), by_name, state)
    return HeroPointApplied(spend.member, index, state[spend.member].current - (before.current if before else 0))


def _hero_points(field: str, spent: HeroPoints, by_name: Mapping[str, RolledMember],
                 state: Mapping[str, Toughness]) -> Toughness:
    member = by_name.get(spent.member)
    if member is None:
        raise RuleViolation(field, say("“%(name)s” is not a member of the conflict", name=spent.member))
    if member.role is not Role.PLAYER:
        raise RuleViolation(field, say(
            "%(name)s is an npc: only a player spends hero points (“kann der Spieler immer einen "
            "Heldenpunkt ausgeben”)", name=spent.member) if member.role is Role.NPC else say(
            "%(name)s is an obstacle: only a player spends hero points (“kann der Spieler immer einen "
            "Heldenpunkt ausgeben”)", name=spent.member))
    if spent.member not in state:
        raise RuleViolation(field, say("%(name)s has no entry in toughness", name=spent.member))
    return state[spent.member].healed(spent.count)


def _unspent(members: Sequence[RolledMember], spends: Sequence[Spend | HeroPointSpend]) -> list[DieRef]:
    spent = {(spend.member, spend.die) for spend in spends if isinstance(spend, Spend)}
    return [DieRef(member.name, index) for member in members for index in range(len(member.dice))
            if (member.name, index) not in spent]


# --- resurrection -------------------------------------------------------------------------------

@dataclass(frozen=True)
class ResurrectionResult:
    god: int = field(metadata=described(minimum=1, maximum=GOD_DIE))
    name: str | None


def resurrection(source: RandomSource, gods: Sequence[str] | None = None) -> ResurrectionResult:
    """Ruling 6: "In diesem Fall hat einer der acht Götter in das Schicksal des Charakters
    eingegriffen. Welcher Gott es war, kann einfach mit einem achtseitigen Würfel bestimmt werden." """
    (god,) = source.roll(1, GOD_DIE)
    return ResurrectionResult(god, gods[god - 1] if gods else None)
