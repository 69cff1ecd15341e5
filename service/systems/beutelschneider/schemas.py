"""Beutelschneider request and result schemas. Every class name starts with ``Beutel`` because
apispec names components by class name across the whole service."""

from __future__ import annotations

import enum
from collections.abc import Mapping
from typing import Any

from marshmallow import ValidationError, fields, validate, validates_schema

from service.platform.http.limits import AtMost, LengthAtMost, check_limit
from service.platform.operations.contract import given
from service.platform.operations.fields import Bool, Enum, Int, Name, StrictSchema
from service.platform.operations.schemas import EncounterFields
from service.platform.values.results import ResultSchemas
from service.platform.words.messages import say, say_n
from service.systems.beutelschneider import encounter, rules
from service.systems.beutelschneider.rules import (
    Ability,
    Amount,
    Chances,
    Colour,
    Danger,
    Difficulty,
    Severity,
)

COLOURS = [colour.value for colour in Colour]
ABILITIES = [ability.value for ability in Ability]
DIFFICULTIES = [difficulty.value for difficulty in Difficulty]
MAX_HEALING_DRAWS = 20


def _values(enum: type[enum.Enum]) -> list[str]:
    return [member.value for member in enum]


# --- requests -----------------------------------------------------------------------------------

class BeutelBagSchema(StrictSchema):
    """A character bag: marbles per colour (missing colours are 0), 1..100 marbles in all."""

    red = Int(load_default=0, validate=AtMost("bag_marbles"), metadata={"description": "Kampf (combat)."})
    green = Int(load_default=0, validate=AtMost("bag_marbles"), metadata={"description": "Geschick (skill)."})
    blue = Int(load_default=0, validate=AtMost("bag_marbles"), metadata={"description": "Magie (magic)."})
    white = Int(load_default=0, validate=AtMost("bag_marbles"), metadata={"description": "Nieten: potential."})
    black = Int(load_default=0, validate=AtMost("bag_marbles"),
                metadata={"description": "Wounds, illness, curses."})

    @validates_schema
    def _marbles_in_limit(self, data: dict[str, Any], **kwargs: Any) -> None:
        """A bag holds at least 1 marble and at most the limit bag_marbles in all."""
        total = sum(data.get(colour, 0) for colour in COLOURS)
        if total < 1:
            raise ValidationError(say("must hold at least one marble"))
        try:
            check_limit("bag_marbles", total)
        except ValidationError as error:
            raise ValidationError([say("marbles in all: %(problem)s", problem=error.messages[0])]) from error


def bag_field(description: str) -> fields.Nested:
    return fields.Nested(BeutelBagSchema, required=True, metadata={
        "description": description,
        "example": {"red": 9, "green": 6, "blue": 0, "white": 5, "black": 0}})


def require_marbles(data: dict, draws: int, field: str = "bag") -> None:
    """A draw needs that many marbles in the bag (checked before anything is drawn)."""
    bag = data.get("bag")
    if bag is not None and sum(bag.values()) < draws:
        raise ValidationError(say_n("holds %(count)d marble, but %(draws)d must be drawn",
                                    "holds %(count)d marbles, but %(draws)d must be drawn",
                                    sum(bag.values()), draws=draws), field_name=field)


class BeutelNamedSchema(StrictSchema):
    name = Name(metadata={"description": "Whose bag (used in the summary only)."})


class BeutelCreationRulesSchema(StrictSchema):
    size = Int(load_default=20, validate=AtMost("bag_marbles", min=1))
    white = Int(load_default=5, validate=AtMost("bag_marbles"))
    free = Int(load_default=15, validate=AtMost("bag_marbles"),
               metadata={"description": "Marbles to spread over red, green and blue."})

    @validates_schema
    def _adds_up(self, data: dict[str, Any], **kwargs: Any) -> None:
        """`size` equals `white` + `free`."""
        if data.get("white", 5) + data.get("free", 15) != data.get("size", 20):
            raise ValidationError(say("must equal white + free"), field_name="size")


class BeutelValidateBagRequest(BeutelNamedSchema):
    bag = bag_field("The bag to check.")
    rules = fields.Nested(BeutelCreationRulesSchema, load_default=lambda: {"size": 20, "white": 5, "free": 15},
                          metadata={"description": "The creation rule (default 20 marbles: 5 white, 15 free)."})


class BeutelChallengeRequest(BeutelNamedSchema):
    bag = bag_field("The character's bag as it is now.")
    ability = Enum(ABILITIES, required=True, metadata={"description": "combat (red), skill (green), magic (blue)."})
    difficulty = Enum(DIFFICULTIES, load_default=Difficulty.NORMAL.value,
                      metadata={"description": "easy: 3 marbles, normal: 2 (default), hard: 1."})

    @validates_schema
    def _enough_marbles(self, data: dict[str, Any], **kwargs: Any) -> None:
        """The bag holds at least as many marbles as the difficulty draws."""
        require_marbles(data, Difficulty(data.get("difficulty", "normal")).draws)


class BeutelFirstAidRequest(BeutelNamedSchema):
    bag = bag_field("The healer's bag.")
    difficulty = Enum(DIFFICULTIES, load_default=Difficulty.NORMAL.value,
                      metadata={"description": "easy: 3 marbles, normal: 2 (default), hard: 1."})

    @validates_schema
    def _enough_marbles(self, data: dict[str, Any], **kwargs: Any) -> None:
        """The bag holds at least as many marbles as the difficulty draws."""
        require_marbles(data, Difficulty(data.get("difficulty", "normal")).draws)


class BeutelParticipantSchema(StrictSchema):
    name = Name(required=True)
    bag = bag_field("The participant's bag.")
    ability = Enum(ABILITIES, required=True)
    difficulty = Enum(DIFFICULTIES, load_default=Difficulty.NORMAL.value)
    side = Name(metadata={"description": "Ruling 8: the side this participant contends for (\"nur eine Seite\"); "
                                         "the side of the best participant wins. Without it the participant is "
                                         "a side of its own, named by its name."})

    @validates_schema
    def _enough_marbles(self, data: dict[str, Any], **kwargs: Any) -> None:
        """Each bag holds at least as many marbles as its difficulty draws."""
        require_marbles(data, Difficulty(data.get("difficulty", "normal")).draws)


class BeutelContestRequest(StrictSchema):
    participants = fields.List(fields.Nested(BeutelParticipantSchema), required=True,
                               validate=LengthAtMost("participants", min=2))

    @validates_schema
    def _sides_apart_from_names(self, data: dict[str, Any], **kwargs: Any) -> None:
        participants = data.get("participants", [])
        alone = {p["name"] for p in participants if not p.get("side")}
        for index, participant in enumerate(participants):
            if participant.get("side") and participant["side"] in alone - {participant["name"]}:
                raise ValidationError({index: {"side": [say("“%(side)s” is the name of a participant without a "
                                                            "side; name the side otherwise",
                                                            side=participant["side"])]}},
                                      field_name="participants")

    @validates_schema
    def _unique_names(self, data: dict[str, Any], **kwargs: Any) -> None:
        """Participant names are unique."""
        names = [participant["name"] for participant in data.get("participants", [])]
        for index, name in enumerate(names):
            if name in names[:index]:
                raise ValidationError({index: {"name": [say("“%(name)s” is already a participant; names must be unique",
                                                            name=name)]}},
                                      field_name="participants")


class BeutelFighterSchema(BeutelParticipantSchema):
    """Ruling 8: combat stays pairs ("ein Charakter durchaus Teil mehrerer solcher Paare"): no side."""

    class Meta(StrictSchema.Meta):
        exclude = ("side",)

    ability = Enum(ABILITIES, load_default=Ability.COMBAT.value,
                   metadata={"description": "combat (default); another ability for uneven contests, "
                                            "e.g. skill to flee."})


def injuring_abilities_field(where: str = "") -> fields.List:
    return fields.List(
        Enum(ABILITIES), load_default=lambda: [Ability.COMBAT.value], validate=validate.Length(max=len(ABILITIES)),
        metadata={"description": "Ruling 9: the abilities whose win injures (default [combat]); a world where "
                                 "magic wounds adds magic (\"welche Effekte wie Verletzung ... durch Magie "
                                 "hervorgerufen werden können\" is the group's decision)." + where})


class BeutelCombatRequest(StrictSchema):
    attacker = fields.Nested(BeutelFighterSchema, required=True)
    defender = fields.Nested(BeutelFighterSchema, required=True)
    injuring_abilities = injuring_abilities_field()

    @validates_schema
    def _different_names(self, data: dict[str, Any], **kwargs: Any) -> None:
        """The defender's name differs from the attacker's."""
        if "attacker" in data and "defender" in data and data["attacker"]["name"] == data["defender"]["name"]:
            raise ValidationError({"name": [say("must differ from the attacker's name")]}, field_name="defender")


class BeutelInjuryRequest(BeutelNamedSchema):
    bag = bag_field("The injured character's bag.")
    severity = Enum(_values(Severity), required=True,
                    metadata={"description": "light: 1 marble, serious: 2, grave: 3."})

    @validates_schema
    def _enough_marbles(self, data: dict[str, Any], **kwargs: Any) -> None:
        """The bag holds at least as many marbles as the severity draws."""
        if "severity" in data:
            require_marbles(data, Severity(data["severity"]).draws)


class BeutelMortalDangerRequest(BeutelNamedSchema):
    bag = bag_field("The endangered character's bag.")
    danger = Enum(_values(Danger), required=True, metadata={"description": "low: 1 marble, clear: 2, grave: 3."})

    @validates_schema
    def _enough_marbles(self, data: dict[str, Any], **kwargs: Any) -> None:
        """The bag holds at least as many marbles as the danger draws."""
        if "danger" in data:
            require_marbles(data, Danger(data["danger"]).draws)


class BeutelHealingRequest(BeutelNamedSchema):
    bag = bag_field("The recovering character's bag.")
    chances = Enum(_values(Chances), metadata={"description": "poor: 1 marble, fair: 2, good: 3."})
    draws = Int(validate=validate.Range(min=1, max=MAX_HEALING_DRAWS),
                metadata={"description": "Marbles to draw instead of chances, e.g. `healing_draws` of first aid."})
    replacements = fields.List(
        Enum(COLOURS), validate=validate.Length(max=MAX_HEALING_DRAWS),
        metadata={"description": "Optional, to heal in one step: one colour (red, green, blue) per marble "
                                 "drawn; the k-th black marble drawn takes the k-th colour."})

    JSON_SCHEMA_RULES = ({"oneOf": [given("chances"), given("draws")]},)
    LINKS = {"apply": {
        "operationId": "beutelschneider.healing-apply",
        "description": "The second phase: this signed draw with one colour per black marble drawn "
                       "(`result.choices_required` of them; none here, for a draw without black).",
        "requestBody": {"draw": "$response.body", "replacements": []}}}

    @validates_schema
    def _one_amount(self, data: dict[str, Any], **kwargs: Any) -> None:
        """Exactly one of `chances` and `draws`; the bag holds at least as many marbles as are drawn."""
        if ("chances" in data) == ("draws" in data):
            raise ValidationError(say("give either chances or draws (exactly one)"), field_name="chances")
        require_marbles(data, healing_draws(data))


def healing_draws(body: Mapping[str, Any]) -> int:
    return body["draws"] if "draws" in body else Chances(body["chances"]).draws


class BeutelExperienceRequest(BeutelNamedSchema):
    LINKS = {"apply": {
        "operationId": "beutelschneider.experience-apply",
        "description": "The second phase: this signed draw with one entry per marble drawn, a new "
                       "colour or null to keep it (here one null: the draw of `amount: little`).",
        "requestBody": {"draw": "$response.body", "replacements": [None]}}}
    bag = bag_field("The character's bag.")
    amount = Enum(_values(Amount), required=True, metadata={"description": "little: 1 marble, some: 2, much: 3."})
    replacements = fields.List(
        Enum(COLOURS, allow_none=True), validate=validate.Length(max=3),
        metadata={"description": "Optional, to learn in one step: per marble drawn a different colour "
                                 "(red, green, blue, white) or null to keep it."})

    @validates_schema
    def _enough_marbles(self, data: dict[str, Any], **kwargs: Any) -> None:
        """The bag holds at least as many marbles as the amount draws."""
        if "amount" in data:
            require_marbles(data, Amount(data["amount"]).draws)


class BeutelHealingApplyRequest(StrictSchema):
    CHECKED_BEYOND_SCHEMA = ("`draw` is a complete `/healing` response "
                             "whose receipt verifies with the service's keys.",)
    draw = fields.Dict(required=True, metadata={"description": "The complete signed `/healing` response."})
    replacements = fields.List(Enum(COLOURS), required=True, validate=validate.Length(max=MAX_HEALING_DRAWS),
                               metadata={"description": "One colour (red, green, blue) per black marble drawn."})


class BeutelExperienceApplyRequest(StrictSchema):
    CHECKED_BEYOND_SCHEMA = ("`draw` is a complete `/experience` response "
                             "whose receipt verifies with the service's keys.",)
    draw = fields.Dict(required=True, metadata={"description": "The complete signed `/experience` response."})
    replacements = fields.List(Enum(COLOURS, allow_none=True), required=True, validate=validate.Length(max=3),
                               metadata={"description": "Per marble drawn: a different colour, or null to keep it."})


# --- results: derived from the rules' dataclasses -------------------------------------------------

RESULTS = ResultSchemas("Beutel", names={rules.Bag: "BeutelBagResult", rules.BagCheck: "BeutelValidateBagResult",
                                         rules.ContestantResult: "BeutelContestant",
                                         rules.Applied: "BeutelApplyResult"})
BeutelValidateBagResult = RESULTS.of(rules.BagCheck)
BeutelChallengeResult = RESULTS.of(rules.ChallengeResult)
BeutelFirstAidResult = RESULTS.of(rules.FirstAidResult)
BeutelContestResult = RESULTS.of(rules.ContestResult)
BeutelCombatResult = RESULTS.of(rules.CombatResult)
BeutelInjuryResult = RESULTS.of(rules.InjuryResult)
BeutelMortalDangerResult = RESULTS.of(rules.MortalDangerResult)
BeutelHealingResult = RESULTS.of(rules.HealingResult)
BeutelExperienceResult = RESULTS.of(rules.ExperienceResult)
BeutelApplyResult = RESULTS.of(rules.Applied)


# --- encounters (API.md §1.7) -------------------------------------------------------------------

ENCOUNTER_MAX_MEMBERS = 4  # per side (E7)


class BeutelEncounterMemberSchema(BeutelParticipantSchema):
    """E7: one member of a side of several."""

    class Meta(StrictSchema.Meta):
        exclude = ("side",)

    ability = Enum(ABILITIES, load_default=Ability.COMBAT.value,
                   metadata={"description": "Kept for the whole fight (E4). A win with an ability of "
                                            "`injuring_abilities` (default: combat) injures the loser; a win "
                                            "with another (skill: fleeing) gets the member's side away, "
                                            "`escapes:<side>` (E6)."})
    difficulty = Enum(DIFFICULTIES, load_default=Difficulty.NORMAL.value,
                      metadata={"description": "Kept for the whole fight (E4): easy 3 marbles, normal 2, hard 1."})


class BeutelEncounterSideSchema(BeutelParticipantSchema):
    """One character (name, bag, ability, difficulty: as before), or E7 a side of several:
    `{name, members: [...]}`."""

    class Meta(StrictSchema.Meta):
        exclude = ("side",)

    JSON_SCHEMA_RULES = ({"oneOf": [given("bag"), given("members")]},)
    bag = fields.Nested(BeutelBagSchema, metadata={
        "description": "The character's bag (a side of one); absent for a side with `members`.",
        "example": {"red": 9, "green": 6, "blue": 0, "white": 5, "black": 0}})
    members = fields.List(fields.Nested(BeutelEncounterMemberSchema),
                          validate=validate.Length(min=1, max=ENCOUNTER_MAX_MEMBERS),
                          metadata={"description": (
                              "E7, a side of several (\"Kämpft beispielsweise ein Legionär gegen zwei "
                              "Affenmenschen, so gibt es zwei Auseinandersetzungen\"), 1..4 members: each round "
                              "every pairing of standing opponents is one exchange (see `pairs`); a member who "
                              "falls unconscious takes part in no further exchange; the side is out when all "
                              "its members are. Instead of `bag`; the side's `name` names the side.")})

    @validates_schema
    def _bag_or_members(self, data: dict[str, Any], **kwargs: Any) -> None:
        """Exactly one of `bag` and `members`."""
        if ("bag" in data) == ("members" in data):
            raise ValidationError(say("give either a bag (one character) or members (a side of several)"),
                                  field_name="bag")

    ability = Enum(ABILITIES, load_default=Ability.COMBAT.value,
                   metadata={"description": "Kept for the whole fight (E4). A win with an ability of "
                                            "`injuring_abilities` (default: combat) injures the loser; a win "
                                            "with another (skill: fleeing) ends the fight, `escapes:<name>` (E6)."})
    difficulty = Enum(DIFFICULTIES, load_default=Difficulty.NORMAL.value,
                      metadata={"description": "Kept for the whole fight (E4): easy 3 marbles, normal 2, hard 1."})


class BeutelAftermathSchema(StrictSchema):
    mortal_danger = Enum(_values(Danger), load_default=None, allow_none=True,
                         metadata={"description": "E5: the danger the unconscious \"auf dem Schlachtfeld "
                                                  "zurückgelassen\" face (one mortal-danger draw: low 1, clear 2, "
                                                  "grave 3 marbles): every member unconscious at the end whose "
                                                  "side lost, both sides after `both_out`, and a side that got "
                                                  "away (`escapes:<name>`: a fleeing side leaves its unconscious "
                                                  "behind); after a stalemate or an undecided end nobody lost. "
                                                  "null (default): no draw."})
    winners_draw = Bool(load_default=False, metadata={"description": (
        "E5 as amended 2026-12-04: an unconscious member of a side that did not lose (the winners, or "
        "anyone after a stalemate or an undecided end) is tended by its own and draws only when this is "
        "true (default false). Between two characters the unconscious side has always lost: no "
        "difference.")})


class BeutelEncounterRequest(EncounterFields):
    sides = fields.List(fields.Nested(BeutelEncounterSideSchema), required=True, validate=validate.Length(equal=2),
                        metadata={"description": "Exactly two; each exchange is a `combat` with the first "
                                                 "as attacker."})
    aftermath = fields.Nested(BeutelAftermathSchema,
                              load_default=lambda: {"mortal_danger": None, "winners_draw": False},
                              metadata={"description": "What follows the fight (E5)."})
    injuring_abilities = injuring_abilities_field(
        " E8: the same in every exchange of the fight; E6: a side winning an exchange with an ability not "
        "listed gets away (`escapes:<name>`).")
    pairs = fields.List(fields.List(Name(), validate=validate.Length(equal=2)),
                        validate=validate.Length(min=1, max=ENCOUNTER_MAX_MEMBERS ** 2), load_default=None,
                        allow_none=True, metadata={"description": (
                            "E7, optional: the round's exchanges in order, each [member of the first side, "
                            "member of the second] (the first attacks); a pairing with a member out is "
                            "skipped. Default: each member of the first side against each member of the other, "
                            "in order (\"einmal der Legionär gegen den einen, und dann der Legionär gegen den "
                            "anderen Affenmenschen\"). A single character counts as a member named by its "
                            "name.")})

    @validates_schema
    def _sides_fit(self, data: dict[str, Any], **kwargs: Any) -> None:
        sides = data.get("sides") or []
        if len(sides) == 2 and sides[0]["name"] == sides[1]["name"]:
            raise ValidationError({1: {"name": [say("must differ from the first side's name")]}}, field_name="sides")
        danger = (data.get("aftermath") or {}).get("mortal_danger")
        seen: list[str] = []
        for index, side in enumerate(sides):
            for position, member in enumerate(side.get("members") or [side]):
                where = ({index: {"members": {position: {"name": None}}}} if "members" in side
                         else {index: {"name": None}})
                if member["name"] in seen:
                    raise ValidationError(_at(where, say("“%(name)s” is already in the fight; names must be unique",
                                                         name=member["name"])), field_name="sides")
                seen.append(member["name"])
                marbles = sum(member["bag"].values())
                if danger is not None and marbles < Danger(danger).draws:
                    at = ({index: {"members": {position: {"bag": None}}}} if "members" in side
                          else {index: {"bag": None}})
                    raise ValidationError(_at(at, say_n("holds %(count)d marble, but the aftermath draws %(draws)d",
                                                        "holds %(count)d marbles, but the aftermath draws %(draws)d",
                                                        marbles, draws=Danger(danger).draws)), field_name="sides")

    @validates_schema
    def _pairs_fit(self, data: dict[str, Any], **kwargs: Any) -> None:
        """Each pair names a member of the first side, then one of the second; no pair twice."""
        sides, pairs = data.get("sides") or [], data.get("pairs")
        if len(sides) != 2 or pairs is None:
            return
        names = [[member["name"] for member in side.get("members") or [side]] for side in sides]
        for index, pair in enumerate(pairs):
            for position, name in enumerate(pair):
                if name not in names[position]:
                    raise ValidationError({index: {position: [say(
                        "“%(name)s” is no member of the side “%(side)s”", name=name, side=sides[position]["name"])]}},
                        field_name="pairs")
            if pair in pairs[:index]:
                raise ValidationError({index: [say("this pairing is already listed")]}, field_name="pairs")


def _at(where: dict, message: object) -> dict:
    """``where`` (nested dicts ending in a None leaf) with the message list at the leaf."""
    result: dict = {}
    target, source = result, where
    while True:
        key, value = next(iter(source.items()))
        if value is None:
            target[key] = [message]
            return result
        target[key] = {}
        target, source = target[key], value


BeutelEncounterResult = RESULTS.of(encounter.EncounterResult)
