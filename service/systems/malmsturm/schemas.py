"""Malmsturm request and result schemas (every class prefixed ``Malm``: apispec names components by
class name)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from marshmallow import ValidationError, fields, validate, validates_schema

from service.platform.http.limits import LengthAtMost
from service.platform.operations.contract import given
from service.platform.operations.fields import Bool, Enum, Int, Name, StrictSchema
from service.platform.operations.schemas import EncounterFields
from service.platform.values.results import ResultSchemas
from service.platform.words.messages import say
from service.systems.malmsturm import encounter, play_out, rules
from service.systems.malmsturm.rules import (
    CONSEQUENCES_TO_TAKE_OUT,
    DICE,
    MAX_DICE,
    AttackType,
)

LEVEL_MIN, LEVEL_MAX = -10, 20
MAX_STRESS = 100


_T = TypeVar("_T")


class LadderRange(validate.Range):
    """Skills, difficulties and modifiers near the ladder (−4..+6, open ends); far beyond it a value
    is a typo, not a character, so it is refused with a message saying why."""

    def __init__(self) -> None:
        super().__init__(min=LEVEL_MIN, max=LEVEL_MAX)

    def __call__(self, value: _T) -> _T:
        assert isinstance(value, int), "LadderRange validates Int fields"  # Range's signature takes any value
        if not LEVEL_MIN <= value <= LEVEL_MAX:
            raise ValidationError(say(
                "must be between %(min)s and +%(max)s: the ladder runs from −4 (hoffnungslos) to +6 "
                "(Weltklasse) and beyond (unvergleichlich); values further out are refused",
                min=LEVEL_MIN, max=LEVEL_MAX))
        return value


def Level(description: str, **kwargs: Any) -> Int:
    return Int(validate=LadderRange(), metadata={"description": description}, **kwargs)


def Modifier() -> Int:
    return Level("Situational bonus or penalty added to the total (default 0).", load_default=0)


def Dice() -> Int:
    """Ruling 7: "verwendet Malmsturm FUDGE-Würfel und zwar meistens 4 davon"."""
    return Int(load_default=DICE, validate=validate.Range(min=1, max=MAX_DICE),
               metadata={"description": f"FUDGE dice each roll uses, 1..{MAX_DICE} (\"meistens 4\", ruling 7)."})


# --- requests ------------------------------------------------------------------------------------

class MalmActionRequest(StrictSchema):
    skill = Level("Skill level on the ladder (Fertigkeit), e.g. 3 = gut.", required=True)
    difficulty = Level("Difficulty to meet or beat (Schwierigkeitsgrad), on the ladder.", required=True)
    modifier = Modifier()
    dice = Dice()


class MalmContenderSchema(StrictSchema):
    name = Name(load_default=None, allow_none=True, metadata={"description": "Who rolls (echoed)."})
    skill = Level("Skill level on the ladder.", required=True)
    modifier = Modifier()


class MalmContestRequest(StrictSchema):
    a = fields.Nested(MalmContenderSchema, required=True)
    b = fields.Nested(MalmContenderSchema, required=True)
    dice = Dice()


class MalmParticipantSchema(StrictSchema):
    name = Name(required=True, metadata={"description": "Unique within the list."})
    intuition = Level("Intuition (Intuition) on the ladder.", required=True)


class MalmInitiativeRequest(StrictSchema):
    participants = fields.List(fields.Nested(MalmParticipantSchema), required=True,
                               validate=LengthAtMost("participants", min=1))
    dice = Dice()

    @validates_schema
    def _unique_names(self, data: dict[str, Any], **kwargs: Any) -> None:
        """Participant names are unique."""
        seen: set[str] = set()
        for index, participant in enumerate(data.get("participants", [])):
            if participant["name"] in seen:
                raise ValidationError({"participants": {index: {"name": [
                    say("duplicate name “%(name)s”: names must be unique", name=participant["name"])]}}})
            seen.add(participant["name"])


class MalmStressTrackSchema(StrictSchema):
    current = Int(required=True, validate=validate.Range(min=0, max=MAX_STRESS),
                  metadata={"description": "Stress points left (Belastungspunkte), 0..max."})
    max = Int(required=True, validate=validate.Range(min=1, max=MAX_STRESS),
              metadata={"description": "Size of the track; it refills to this after a consequence."})

    @validates_schema
    def _current_within_max(self, data: dict[str, Any], **kwargs: Any) -> None:
        """A track's `current` stress is at most its `max`."""
        if "current" in data and "max" in data and data["current"] > data["max"]:
            raise ValidationError(say("must be at most max (%(max)s)", max=data["max"]), field_name="current")


class MalmStressSchema(StrictSchema):
    physical = fields.Nested(MalmStressTrackSchema, required=True,
                             metadata={"description": "Körperliche Belastung."})
    mental = fields.Nested(MalmStressTrackSchema, required=True,
                           metadata={"description": "Mentale Belastung."})


class MalmAttackerSchema(StrictSchema):
    name = Name(load_default=None, allow_none=True)
    skill = Level("The attacking skill (e.g. Nahkampf, Bluffen, Einschüchtern).", required=True)
    attack = Enum([a.value for a in AttackType], required=True,
                  metadata={"description": "harm, push: physical stress; deceive, intimidate, charm, "
                                           "persuade: mental stress."})
    modifier = Modifier()


class MalmDefenderSchema(StrictSchema):
    name = Name(load_default=None, allow_none=True)
    skill = Level("The defending skill (e.g. Ausweichen, Menschenkenntnis, Nerven behalten); required "
                  "unless the attack has `defend: false`.", load_default=None, allow_none=True)
    modifier = Modifier()
    stress = fields.Nested(MalmStressSchema, required=True)
    consequences = Int(load_default=0, validate=validate.Range(min=0, max=CONSEQUENCES_TO_TAKE_OUT),
                       metadata={"description": "Consequences already taken, 0..2 (2 = out of the conflict)."})


class MalmAttackRequest(StrictSchema):
    attacker = fields.Nested(MalmAttackerSchema, required=True)
    defender = fields.Nested(MalmDefenderSchema, required=True)
    take_consequence_early = Bool(
        load_default=False,
        metadata={"description": "On a hit, take a consequence instead of losing the stress."})
    defend = Bool(load_default=True,
                  metadata={"description": "false: the defender does not defend (\"kann sich … verteidigen\", "
                                           "ruling 5); no defense dice are rolled, the attack meets `difficulty`."})
    difficulty = Level("The fixed difficulty an undefended attack meets (default 0, mäßig); only with "
                       "`defend: false`.", load_default=0)
    dice = Dice()

    JSON_SCHEMA_RULES = ({"if": {"required": ["defend"], "properties": {"defend": {"const": False}}},
                          "else": {"properties": {"defender": given("skill"),
                                                  "difficulty": {"enum": [0, None]}}}},)

    @validates_schema
    def _defense_fits(self, data: dict[str, Any], **kwargs: Any) -> None:
        """A defender who defends needs a `skill`; `difficulty` only with `defend: false`."""
        if data.get("defend", True) and (data.get("defender") or {}).get("skill", 0) is None:
            raise ValidationError({"defender": {"skill": [say("a defender who defends needs a skill (or set "
                                                              "defend: false)")]}})
        if data.get("defend", True) and data.get("difficulty"):
            raise ValidationError(say("the difficulty applies only to an attack with defend: false"),
                                  field_name="difficulty")


# --- results: derived from the rules' dataclasses -------------------------------------------------

RESULTS = ResultSchemas("Malm", names={rules.ContestSide: "MalmRollSide", rules.StressTrack: "MalmStressTrackResult",
                                       rules.Stress: "MalmStressResult"})
MalmLadderResult = RESULTS.of(rules.LadderResult)
MalmActionResult = RESULTS.of(rules.ActionResult)
MalmContestResult = RESULTS.of(rules.ContestResult)
MalmInitiativeResult = RESULTS.of(rules.InitiativeResult)
MalmAttackResult = RESULTS.of(rules.AttackResult)


# --- encounters (API.md §1.7, RULINGS.md "Encounters", Malmsturm E1–E5) ----------------------------

ENCOUNTER_MAX_MEMBERS = 4  # per side ("Up to 4 members per side")
ENCOUNTER_MAX_STRESS = 10  # per track ("tracks ≤ 10")
INITIATIVE = "initiative"
SIDE_OUT, FIRST_OUT = encounter.SIDE_OUT, encounter.FIRST_OUT


class MalmOrderField(fields.Field):
    """``initiative`` (1 v 1: the order is rolled, E1) or every member's name once, in order of action."""

    def __init__(self, **kwargs: Any) -> None:
        # null: not given (StrictSchema), so the default `initiative`
        metadata = {"anyOf": [{"type": "string", "enum": [INITIATIVE]},
                              {"type": "array", "items": {"type": "string", "minLength": 1, "maxLength": 64},
                               "maxItems": 2 * ENCOUNTER_MAX_MEMBERS},
                              {"type": "null"}]}
        metadata.update(kwargs.pop("metadata", {}))
        super().__init__(metadata=metadata, **kwargs)

    def _deserialize(self, value: object, attr: str | None, data: Mapping[str, Any] | None,
                     **kwargs: Any) -> str | list[str]:
        if value == INITIATIVE:
            return value
        if (not isinstance(value, list) or len(value) > 2 * ENCOUNTER_MAX_MEMBERS
                or not all(isinstance(name, str) and 1 <= len(name) <= 64 for name in value)):
            raise ValidationError(say("must be “initiative” or a list of the members' names in order of action"))
        return list(value)


class MalmEncounterTrackSchema(StrictSchema):
    current = Int(required=True, validate=validate.Range(min=0, max=ENCOUNTER_MAX_STRESS),
                  metadata={"description": "Stress points left, 0..max."})
    max = Int(required=True, validate=validate.Range(min=1, max=ENCOUNTER_MAX_STRESS),
              metadata={"description": f"Size of the track, 1..{ENCOUNTER_MAX_STRESS}."})

    @validates_schema
    def _current_within_max(self, data: dict[str, Any], **kwargs: Any) -> None:
        if "current" in data and "max" in data and data["current"] > data["max"]:
            raise ValidationError(say("must be at most max (%(max)s)", max=data["max"]), field_name="current")


class MalmEncounterStressSchema(StrictSchema):
    physical = fields.Nested(MalmEncounterTrackSchema, required=True,
                             metadata={"description": "Körperliche Belastung."})
    mental = fields.Nested(MalmEncounterTrackSchema, required=True, metadata={"description": "Mentale Belastung."})


class MalmEncounterAttackSchema(StrictSchema):
    skill = Level("The attacking skill (e.g. Nahkampf, Bluffen).", required=True)
    type = Enum([a.value for a in AttackType], required=True,
                metadata={"description": "harm, push: physical stress; deceive, intimidate, charm, persuade: mental."})


class MalmEncounterMemberSchema(StrictSchema):
    name = Name(required=True, metadata={"description": "Unique among all members of both sides."})
    attack = fields.Nested(MalmEncounterAttackSchema, required=True,
                           metadata={"description": "The attack this member makes every turn (E2)."})
    defense = Level("The defence skill against every attack kind not in `defenses` (e.g. Ausweichen).",
                    required=True)
    defenses = fields.Dict(
        keys=Enum([a.value for a in AttackType]), values=Level("The defence skill against this kind."),
        load_default=dict, metadata={"description": (
            "E7: the defence per attack kind, as the text's table of defending skills has it (Ausweichen "
            "against harm, Menschenkenntnis/Wahrnehmung against deceive, Nerven behalten against intimidate "
            "and charm, Körperbeherrschung against push, Menschenkenntnis against persuade), e.g. "
            "{\"harm\": 2, \"intimidate\": 0}; `defense` holds for every kind not listed. Default {}.")})
    modifier = Level("Added to both its attack and its defence (default 0).", load_default=0)
    stress = fields.Nested(MalmEncounterStressSchema, required=True)
    consequences = Int(load_default=0, validate=validate.Range(min=0, max=CONSEQUENCES_TO_TAKE_OUT - 1),
                       metadata={"description": "Consequences already taken, 0..1 (two take a member out)."})
    intuition = Level("Intuition, for `order: initiative` (default 0).", load_default=0)


class MalmEncounterSideSchema(StrictSchema):
    name = Name(required=True, metadata={"description": "The side's name; outcomes are `wins:<name>`."})
    members = fields.List(fields.Nested(MalmEncounterMemberSchema), required=True,
                          validate=validate.Length(min=1, max=ENCOUNTER_MAX_MEMBERS))


class MalmEncounterPolicySchema(StrictSchema):
    targeting = Enum(["focus", "spread"], load_default="focus", metadata={"description": (
        "focus (default): attack the standing opponent with the most consequences, then the least stress "
        "left on the attack's track, then the first in the body; spread: a side's members, in their order "
        "of action, take its standing opponents in body order in turn (E5).")})
    concede_at_consequences = fields.Dict(
        keys=fields.String(), values=Int(validate=validate.Range(min=1, max=CONSEQUENCES_TO_TAKE_OUT)),
        load_default=dict, metadata={"description": (
            "Per side name: the side concedes (\"eine Partei nachgiebt\", E3) and loses at once as soon as one "
            "of its members holds this many consequences. Default {}: no side concedes.")})
    defend = Bool(load_default=True, metadata={"description": (
        "true (default): every attack meets a defence roll; false: nobody defends, every attack meets the "
        "fixed difficulty 0 (mäßig, ruling 5).")})


def _default_policy() -> dict:
    return {"targeting": "focus", "concede_at_consequences": {}, "defend": True}


class MalmEncounterRequest(EncounterFields):
    """One body for the odds and the rolling twin (which ignores ``curve_rounds`` and ``exact``)."""

    sides = fields.List(fields.Nested(MalmEncounterSideSchema), required=True,
                        validate=validate.Length(equal=2), metadata={"description": "Exactly two sides."})
    order = MalmOrderField(load_default=INITIATIVE, metadata={"description": (
        "initiative (default, sides of any size, E6): every member rolls initiative once (E1, ruling 4: 4dF + "
        "intuition, ties by intuition, then roll-offs) and all act in that order; the odds mix every order by "
        "its exact chance (one solve per order: n! orders of n members count in the state bound); or every "
        "member's name once, in order of action, the same every round.")})
    ends = Enum([SIDE_OUT, FIRST_OUT], load_default=SIDE_OUT, metadata={"description": (
        "E8, when a conflict of groups ends (\"bis einer der Konkurrenten freiwillig oder unfreiwillig "
        "ausscheidet oder eine Partei nachgiebt\"): side_out (default): when every member of a side is out "
        "or the side concedes; first_out: when the first member of any side is taken out, the other side "
        "winning. With one member a side both are the same. Echoed in the answer.")})
    policy = fields.Nested(MalmEncounterPolicySchema, load_default=_default_policy)
    dice = Dice()

    @validates_schema
    def _consistent(self, data: dict[str, Any], **kwargs: Any) -> None:
        sides = data.get("sides") or []
        if len(sides) != 2:
            return
        if sides[0]["name"] == sides[1]["name"]:
            raise ValidationError({"sides": {1: {"name": [say("the two sides need different names")]}}})
        names = [member["name"] for side in sides for member in side["members"]]
        for index, name in enumerate(names):
            if name in names[:index]:
                raise ValidationError(say("duplicate member name “%(name)s”: names must be unique", name=name),
                                      field_name="sides")
        order = data.get("order", INITIATIVE)
        if order != INITIATIVE and sorted(order) != sorted(names):
            raise ValidationError(say("must name every member of both sides exactly once"), field_name="order")
        concede = (data.get("policy") or {}).get("concede_at_consequences", {})
        side_names = [side["name"] for side in sides]
        for key, threshold in concede.items():
            if key not in side_names:
                raise ValidationError({"policy": {"concede_at_consequences": [
                    say("unknown side “%(name)s”: keys are side names", name=key)]}})
            side = sides[side_names.index(key)]
            if any(member["consequences"] >= threshold for member in side["members"]):
                raise ValidationError({"policy": {"concede_at_consequences": [
                    say("a member of “%(name)s” already holds %(count)s consequences: the side would concede "
                        "before the conflict starts", name=key, count=threshold)]}})


# The rolling encounter's result, from its dataclasses as every result (steps are malmsturm.attack's).
MalmEncounterResult = RESULTS.of(play_out.EncounterResult)
