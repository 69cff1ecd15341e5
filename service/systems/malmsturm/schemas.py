"""Malmsturm request and result schemas (every class prefixed ``Malm``: apispec names components by
class name)."""

from __future__ import annotations

import marshmallow as ma
from marshmallow import ValidationError, fields, validate, validates_schema

from service.platform.contract import given
from service.platform.fields import Bool, Enum, Int, Name, StrictSchema
from service.platform.limits import LengthAtMost
from service.systems.malmsturm.rules import (
    CONSEQUENCES_TO_TAKE_OUT,
    DICE,
    MAX_DICE,
    AttackType,
    ConsequenceReason,
    Track,
)

LEVEL_MIN, LEVEL_MAX = -10, 20
MAX_STRESS = 100


class LadderRange(validate.Range):
    """Skills, difficulties and modifiers near the ladder (−4..+6, open ends); far beyond it a value
    is a typo, not a character, so it is refused with a message saying why."""

    def __init__(self):
        super().__init__(min=LEVEL_MIN, max=LEVEL_MAX)

    def __call__(self, value):
        if not LEVEL_MIN <= value <= LEVEL_MAX:
            raise ValidationError(
                f"must be between {LEVEL_MIN} and +{LEVEL_MAX}: the ladder runs from −4 (hoffnungslos) "
                f"to +6 (Weltklasse) and beyond (unvergleichlich); values further out are refused")
        return value


def Level(description: str, **kwargs) -> Int:
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
    def _unique_names(self, data, **kwargs):
        """Participant names are unique."""
        seen: set[str] = set()
        for index, participant in enumerate(data.get("participants", [])):
            if participant["name"] in seen:
                raise ValidationError({"participants": {index: {"name": [
                    f"duplicate name {participant['name']!r}: names must be unique"]}}})
            seen.add(participant["name"])


class MalmStressTrackSchema(StrictSchema):
    current = Int(required=True, validate=validate.Range(min=0, max=MAX_STRESS),
                  metadata={"description": "Stress points left (Belastungspunkte), 0..max."})
    max = Int(required=True, validate=validate.Range(min=1, max=MAX_STRESS),
              metadata={"description": "Size of the track; it refills to this after a consequence."})

    @validates_schema
    def _current_within_max(self, data, **kwargs):
        """A track's `current` stress is at most its `max`."""
        if "current" in data and "max" in data and data["current"] > data["max"]:
            raise ValidationError(f"must be at most max ({data['max']})", field_name="current")


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
    def _defense_fits(self, data, **kwargs):
        """A defender who defends needs a `skill`; `difficulty` only with `defend: false`."""
        if data.get("defend", True) and (data.get("defender") or {}).get("skill", 0) is None:
            raise ValidationError({"defender": {"skill": ["a defender who defends needs a skill (or set "
                                                          "defend: false)"]}})
        if data.get("defend", True) and data.get("difficulty"):
            raise ValidationError("the difficulty applies only to an attack with defend: false",
                                  field_name="difficulty")


# --- results -------------------------------------------------------------------------------------

class MalmLadderLevel(ma.Schema):
    value = fields.Integer(required=True)
    label = fields.String(required=True)
    open_end = fields.String(required=True, allow_none=True, validate=validate.OneOf(["below", "above"]),
                             metadata={"description": "below/above: the level also covers every lower/higher total."})


class MalmLadderResult(ma.Schema):
    levels = fields.List(fields.Nested(MalmLadderLevel), required=True)


class MalmActionResult(ma.Schema):
    dice = fields.List(fields.Integer(), required=True)
    total = fields.Integer(required=True)
    label = fields.String(required=True, metadata={"description": "The total's ladder label in `lang`."})
    success = fields.Boolean(required=True)
    shifts = fields.Integer(required=True, metadata={"description": "Erfolge: total − difficulty, 0 on a failure."})
    margin = fields.Integer(required=True, metadata={"description": "total − difficulty (negative on a failure)."})


class MalmRollSide(ma.Schema):
    name = fields.String(required=True, allow_none=True)
    dice = fields.List(fields.Integer(), required=True)
    total = fields.Integer(required=True)
    label = fields.String(required=True)


class MalmContestResult(ma.Schema):
    a = fields.Nested(MalmRollSide, required=True)
    b = fields.Nested(MalmRollSide, required=True)
    winner = fields.String(required=True, allow_none=True, validate=validate.OneOf(["a", "b"]))
    shifts = fields.Integer(required=True, metadata={"description": "Difference of the totals (0 on a tie)."})


class MalmInitiativeEntry(ma.Schema):
    name = fields.String(required=True)
    intuition = fields.Integer(required=True)
    dice = fields.List(fields.Integer(), required=True)
    total = fields.Integer(required=True)
    label = fields.String(required=True)
    roll_offs = fields.List(fields.List(fields.Integer()), required=True,
                            metadata={"description": "The 4dF of each roll-off this participant took part in."})


class MalmInitiativeResult(ma.Schema):
    order = fields.List(fields.Nested(MalmInitiativeEntry), required=True)


class MalmStressTrackResult(ma.Schema):
    current = fields.Integer(required=True)
    max = fields.Integer(required=True)


class MalmStressResult(ma.Schema):
    physical = fields.Nested(MalmStressTrackResult, required=True)
    mental = fields.Nested(MalmStressTrackResult, required=True)


class MalmSuggestedConsequence(ma.Schema):
    de = fields.String(required=True, metadata={"description": "As the rules text writes it, e.g. Getäuscht."})
    en = fields.String(required=True)
    label = fields.String(required=True, metadata={"description": "In `lang`."})


class MalmAttackResult(ma.Schema):
    attacker = fields.Nested(MalmRollSide, required=True)
    defender = fields.Nested(MalmRollSide, required=True)
    hit = fields.Boolean(required=True)
    shifts = fields.Integer(required=True, metadata={"description": "Attacker's total − defender's, 0 on a miss."})
    track = fields.String(required=True, validate=validate.OneOf([t.value for t in Track]))
    stress_after = fields.Nested(MalmStressResult, required=True)
    consequence_required = fields.Boolean(required=True)
    consequence_reason = fields.String(required=True, allow_none=True,
                                       validate=validate.OneOf([r.value for r in ConsequenceReason]))
    consequences_after = fields.Integer(required=True)
    taken_out = fields.Boolean(required=True)
    defended = fields.Boolean(required=True, metadata={
        "description": "false: no defense roll (`defend: false`); `defender` shows the difficulty met, no dice."})
    suggested_consequences = fields.List(
        fields.Nested(MalmSuggestedConsequence), required=True,
        metadata={"description": "When a consequence is required: the text's examples for this kind of attack "
                                 "(ruling 5), as suggestions; else empty."})
