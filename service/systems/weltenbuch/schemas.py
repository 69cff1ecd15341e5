"""Weltenbuch request and result schemas. Every class is prefixed ``Welten``: apispec names
components by class name, and names must be unique across the service."""

from __future__ import annotations

from collections.abc import Hashable, Iterable
from typing import Any, TypeVar

from marshmallow import ValidationError, fields, validate, validates_schema

from service.platform.http.limits import AtMost, LengthAtMost, check_limit
from service.platform.operations.contract import given, not_given
from service.platform.operations.fields import Bool, Enum, Int, Name, StrictSchema
from service.platform.operations.schemas import EncounterFields
from service.platform.values.results import ResultSchemas
from service.platform.words.messages import say
from service.systems.weltenbuch import encounter, rules
from service.systems.weltenbuch.rules import DEFAULT_DIE, GOD_DIE, Role

BONUS = validate.Range(min=0, max=100)
MAX_SEAT = 100
MAX_TOUGHNESS = 1000
# One spend per die, and the signed conflict travels in the same body (64 KiB by default): a
# conflict with more than about a thousand dice cannot be sent back at all, so 1000 spends suffice.
MAX_SPENDS = 1000


class WeltenMemberSchema(StrictSchema):
    name = Name(required=True, metadata={"description": "Unique within the whole conflict."})
    role = Enum([role.value for role in Role], required=True,
                metadata={"description": "player (Spielercharakter), npc (Spielleitercharakter) or "
                                         "obstacle (passives Hindernis)."})
    seat = Int(validate=validate.Range(min=1, max=MAX_SEAT),
               metadata={"description": "Players only, required for them: 1.. clockwise from the GM, who "
                                        "sits at 0. npcs and obstacles act at the GM's seat."})
    profile = Int(required=True, validate=AtMost("pool_dice"),
                  metadata={"description": "Profilwert of the profile chosen for this conflict."})
    equipment_bonuses = fields.List(Int(validate=validate.Range(min=-100, max=100)),
                                    load_default=list, validate=validate.Length(max=20),
                                    metadata={"description": "Bonuses of all equipment used; only the "
                                                             "largest counts (it may be negative)."})
    magic_bonus = Int(load_default=0, validate=BONUS, metadata={"description": "Magiekategorie bonus."})
    situation_bonus = Int(load_default=0, validate=BONUS,
                          metadata={"description": "Bonus the GM grants for favourable circumstances."})
    hero_points = Int(load_default=0, validate=validate.Range(min=0, max=50),
                      metadata={"description": "Players only: 2 dice per hero point spent."})

    JSON_SCHEMA_RULES = ({"if": {"required": ["role"], "properties": {"role": {"const": Role.PLAYER.value}}},
                          "then": given("seat"),
                          "else": {"properties": {"seat": {"type": "null"}, "hero_points": {"enum": [0, None]}}}},)

    @validates_schema
    def _fits_role(self, data: dict[str, Any], **kwargs: Any) -> None:
        """A player needs a `seat`; npcs and obstacles have none and spend no hero points."""
        role = data.get("role")
        if role == Role.PLAYER and "seat" not in data:
            raise ValidationError(say("a player needs a seat (1.. clockwise from the GM)"), field_name="seat")
        if role in (Role.NPC, Role.OBSTACLE):
            if "seat" in data:
                raise ValidationError(say("only players have a seat; the GM acts for npcs and obstacles at 0"),
                                      field_name="seat")
            if data.get("hero_points"):
                raise ValidationError(say("only players spend hero points"), field_name="hero_points")

    @validates_schema
    def _pool_fits(self, data: dict[str, Any], **kwargs: Any) -> None:
        """profile + bonuses + 2 per hero point stay within the limit pool_dice."""
        # rules.pool is the one formula; the docstring above is written into openapi.yaml.
        dice = rules.pool(data.get("profile", 0), data.get("equipment_bonuses", ()), data.get("magic_bonus", 0),
                          data.get("situation_bonus", 0), data.get("hero_points", 0))
        try:
            check_limit("pool_dice", dice)
        except ValidationError as error:
            raise ValidationError([say("profile + bonuses + 2 per hero point: %(problem)s", problem=error.messages[0])],
                                  field_name="profile") from error


class WeltenPartySchema(StrictSchema):
    name = Name(required=True, metadata={"description": "Unique within the conflict; names the odds outcomes."})
    members = fields.List(fields.Nested(WeltenMemberSchema), required=True,
                          validate=LengthAtMost("participants", min=1))


_Value = TypeVar("_Value", bound=Hashable)


def _duplicates(values: Iterable[_Value]) -> set[_Value]:
    seen: set = set()
    repeated: set = set()
    for value in values:
        if value in seen:
            repeated.add(value)
        seen.add(value)
    return repeated


class WeltenConflictRequest(StrictSchema):
    LINKS = {"narration": {
        "operationId": "weltenbuch.narration",
        "description": "Narrate this signed conflict: spend the success dice of `result.members` "
                       "(here none yet) against the members' toughness.",
        "requestBody": {"conflict": "$response.body", "spends": []}}}
    die = Int(load_default=DEFAULT_DIE, validate=AtMost("die_sides", min=2),
              metadata={"description": "Sides of the die; any even number (an even face is a success).",
                        "multipleOf": 2})
    parties = fields.List(fields.Nested(WeltenPartySchema), required=True,
                          validate=LengthAtMost("parties", min=2))

    @validates_schema
    def _even_die(self, data: dict[str, Any], **kwargs: Any) -> None:
        """The die has an even number of sides."""
        if data.get("die", DEFAULT_DIE) % 2:
            raise ValidationError(say("must have an even number of sides (“beliebige Würfel mit einer geraden "
                                      "Seitenzahl”)"), field_name="die")

    @validates_schema
    def _unique(self, data: dict[str, Any], **kwargs: Any) -> None:
        """Party names, member names and players' seats are unique across the conflict."""
        parties = data.get("parties") or []
        errors: dict = {}
        duplicate_parties = _duplicates(party["name"] for party in parties)
        duplicate_members = _duplicates(m["name"] for party in parties for m in party["members"])
        duplicate_seats = _duplicates(m["seat"] for party in parties for m in party["members"] if "seat" in m)
        if not (duplicate_parties or duplicate_members or duplicate_seats):
            return
        for p, party in enumerate(parties):
            if party["name"] in duplicate_parties:
                errors.setdefault(p, {})["name"] = [say("party names must be unique")]
            for i, member in enumerate(party["members"]):
                problems = {}
                if member["name"] in duplicate_members:
                    problems["name"] = [say("member names must be unique across the conflict")]
                if member.get("seat") in duplicate_seats:
                    problems["seat"] = [say("two players cannot share a seat")]
                if problems:
                    errors.setdefault(p, {}).setdefault("members", {})[i] = problems
        if errors:
            raise ValidationError({"parties": errors})


# --- narration ----------------------------------------------------------------------------------

class WeltenToughnessSchema(StrictSchema):
    current = Int(required=True, validate=validate.Range(min=0, max=MAX_TOUGHNESS),
                  metadata={"description": "The profile's toughness (Zähigkeit) now."})
    max = Int(required=True, validate=validate.Range(min=0, max=MAX_TOUGHNESS),
              metadata={"description": "Full toughness, restored by a consequence."})
    equipment = Int(load_default=0, validate=validate.Range(min=0, max=MAX_TOUGHNESS),
                    metadata={"description": "Toughness of equipment in use; lowered first."})

    @validates_schema
    def _current_within_max(self, data: dict[str, Any], **kwargs: Any) -> None:
        """`current` toughness is at most `max`."""
        if data.get("current", 0) > data.get("max", MAX_TOUGHNESS):
            raise ValidationError(say("must be at most max"), field_name="current")


class WeltenSpendSchema(StrictSchema):
    member = Name(required=True, metadata={"description": "Whose die is pushed to the middle of the table "
                                                          "(or who spends the hero point)."})
    die = Int(validate=validate.Range(min=0, max=MAX_SPENDS),
              metadata={"description": "Index into that member's `dice` in the conflict result (0-based); "
                                       "required unless `hero_point` is true."})
    target = Name(metadata={"description": "An opponent whose toughness a success lowers by 1; leave it "
                                           "out for a die spent on narration only (required for nothing, "
                                           "forbidden for a failure)."})
    hero_point = Bool(load_default=False,
                      metadata={"description": "true: this entry is a hero point the player spends at this "
                                               "moment, +3 toughness (not above max), without `die` or "
                                               "`target` (ruling 5)."})

    JSON_SCHEMA_RULES = ({"if": {"required": ["hero_point"], "properties": {"hero_point": {"const": True}}},
                          "then": not_given("die"), "else": given("die")},)

    @validates_schema
    def _die_or_hero_point(self, data: dict[str, Any], **kwargs: Any) -> None:
        """A hero point entry has no `die` or `target`; any other entry names its `die`."""
        if data.get("hero_point"):
            for field in ("die", "target"):
                if data.get(field) is not None:
                    raise ValidationError(say("a hero point entry spends no die and has no target"),
                                          field_name=field)
        elif data.get("die") is None:
            raise ValidationError(say("a die spend names its die (or set hero_point: true)"), field_name="die")


class WeltenHeroPointSchema(StrictSchema):
    member = Name(required=True, metadata={"description": "A player's character."})
    count = Int(required=True, validate=validate.Range(min=1, max=50),
                metadata={"description": "Hero points spent, +3 toughness each (not above max)."})


class WeltenNarrationRequest(StrictSchema):
    CHECKED_BEYOND_SCHEMA = ("`conflict` is a complete `/conflict` response "
                             "whose receipt verifies with the service's keys.",)
    conflict = fields.Dict(required=True, metadata={"description": "The complete, signed /conflict response."})
    toughness = fields.Dict(keys=Name(), values=fields.Nested(WeltenToughnessSchema), load_default=dict,
                            validate=validate.Length(max=160),
                            metadata={"description": "Toughness at the start of the scene, by member name."})
    spends = fields.List(fields.Nested(WeltenSpendSchema), load_default=list,
                         validate=validate.Length(max=MAX_SPENDS),
                         metadata={"description": "The ledger: every die (and hero point) spent so far, "
                                                  "in the order spent."})
    hero_points = fields.List(fields.Nested(WeltenHeroPointSchema), load_default=list,
                              validate=validate.Length(max=160),
                              metadata={"description": "Hero points spent at the end, after every entry of "
                                                       "`spends`; to spend one between dice, put "
                                                       "`{\"member\": ..., \"hero_point\": true}` into `spends`."})


# --- resurrection -------------------------------------------------------------------------------

class WeltenResurrectionRequest(StrictSchema):
    gods = fields.List(Name(), validate=validate.Length(equal=GOD_DIE),
                       metadata={"description": "The eight gods of the table, in d8 order."})


# --- results: derived from the rules' dataclasses -------------------------------------------------

RESULTS = ResultSchemas("Welten", names={rules.Toughness: "WeltenToughnessResult"})
WeltenConflictResult = RESULTS.of(rules.ConflictResult)
WeltenNarrationResult = RESULTS.of(rules.NarrationResult)
WeltenResurrectionResult = RESULTS.of(rules.ResurrectionResult)


# --- encounters (API.md §1.7) -------------------------------------------------------------------

class WeltenEncounterPolicySchema(StrictSchema):
    targeting = Enum(["weakest", "strongest", "spread"], load_default="weakest",
                     metadata={"description": "Whom every success die hits in the other party: weakest "
                                              "(default): the lowest current + equipment toughness first "
                                              "(ties: body order) until it is at 0; strongest: the highest "
                                              "first; spread: one die each in body order, in turn."})
    hold_hero_points = fields.Dict(keys=Name(), values=Int(validate=validate.Range(min=0, max=50)),
                                   load_default=dict,
                                   metadata={"description": "Players' hero points held back (E2), by member: "
                                                            "spent at the end (+3 toughness) when it saves a "
                                                            "consequence."})


class WeltenEncounterRequest(WeltenConflictRequest, EncounterFields):
    parties = fields.List(fields.Nested(WeltenPartySchema), required=True, validate=LengthAtMost("parties", min=2),
                          metadata={"description": "2..8 parties, as a conflict (E3); a party's success dice hit "
                                                   "the members of every other party."})
    toughness = fields.Dict(keys=Name(), values=fields.Nested(WeltenToughnessSchema), required=True,
                            metadata={"description": "Toughness at the start of the scene, one entry per member."})
    policy = fields.Nested(WeltenEncounterPolicySchema, load_default=lambda: {"targeting": "weakest",
                                                                        "hold_hero_points": {}})

    @validates_schema
    def _members_known(self, data: dict[str, Any], **kwargs: Any) -> None:
        members = {m["name"]: m for party in data.get("parties") or [] for m in party["members"]}
        toughness = data.get("toughness") or {}
        for name in members:
            if name not in toughness:
                raise ValidationError({name: [say("every member needs a toughness entry")]}, field_name="toughness")
        for name in toughness:
            if name not in members:
                raise ValidationError({name: [say("is not a member of the scene")]}, field_name="toughness")
        for name in (data.get("policy") or {}).get("hold_hero_points", {}):
            if name not in members or members[name]["role"] != Role.PLAYER:
                raise ValidationError({"hold_hero_points": {name: [say("only a player of the scene holds hero "
                                                                       "points")]}}, field_name="policy")


WeltenEncounterResult = RESULTS.of(encounter.EncounterResult)
