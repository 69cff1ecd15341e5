"""Paws request and result schemas. Every class name starts with Paws: apispec names components by
class name (without a ``Schema`` suffix). As in every system, a request schema is
``Paws<Operation>Request`` (the platform documents a subclass of that name, never the class itself),
a result ``Paws<Result>``, a part of a request ``Paws<Part>Schema``."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from marshmallow import ValidationError, fields, validate, validates_schema

from service.platform.http.limits import AtMost, check_limit
from service.platform.operations.fields import Bool, Enum, Int, Name, StrictSchema
from service.platform.operations.schemas import EncounterFields
from service.platform.values.results import ResultSchemas
from service.platform.words.messages import Message, Template, say, say_n
from service.systems.paws import encounter, rescue_advice, rules
from service.systems.paws.rules import ADVANTAGE_CATEGORIES, Advantage, Advantages, Fit, Mode, Pool

RANK = validate.Range(min=0, max=10)
TRAIT_RANK = validate.Range(min=1, max=10)  # ruling 6: "Eigenschaften ohne Rang gibt es nicht"
POTENTIAL = validate.Range(min=1, max=10)
POWER = validate.Range(min=0, max=1000)
MAX_TRAITS = 200
MAX_CATEGORIES = 20
ONE_ADVANTAGE = Template("at most one advantage per category (ruling Paws 1): give “active”, “passive” or "
                         "null; the GM's further dice go into extra_bonus_dice / extra_rescue_dice")


class PawsAdvantageField(fields.String):
    """``active``, ``passive`` or null. Anything else, a list of two advantages in particular, is
    refused with the one-advantage-per-category rule, so the message tells the client why."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(allow_none=True, load_default=None,
                         validate=validate.OneOf([kind.value for kind in Advantage], error=ONE_ADVANTAGE),
                         **kwargs)

    def _deserialize(self, value: object, attr: str | None, data: Mapping[str, Any] | None, **kwargs: Any) -> str:
        if not isinstance(value, str):
            raise ValidationError(ONE_ADVANTAGE)
        return super()._deserialize(value, attr, data, **kwargs)


class PawsAdvantagesSchema(StrictSchema):
    equipment = PawsAdvantageField(metadata={"description": "Werkzeug/Ausrüstung: tools, weapons, armour."})
    personal = PawsAdvantageField(metadata={"description": "Zauber, Drogen, Elixiere: spells, drugs, elixirs."})
    situation = PawsAdvantageField(metadata={"description": "Situation or circumstances, the opponent's weaknesses."})


def _no_advantages() -> dict:
    return {category: None for category in ADVANTAGE_CATEGORIES}


class PawsPoolSchema(StrictSchema):
    name = Name(metadata={"description": "Who rolls (echoed in results)."})
    rank = Int(required=True, validate=RANK, metadata={"description": "Rank of the trait used: one die per rank."})
    fit = Enum([fit.value for fit in Fit], load_default=Fit.MATCHING.value,
               metadata={"description": "fallback: -1 die (another helpful trait); matching; "
                                        "specialized: +1 die (fits better than needed)."})
    advantages = fields.Nested(PawsAdvantagesSchema, load_default=_no_advantages,
                               metadata={"description": "One advantage per category: active = bonus die, "
                                                        "passive = rescue die."})
    extra_bonus_dice = Int(load_default=0, validate=AtMost("pool_dice"),
                           metadata={"description": "Bonus dice the GM grants beyond one advantage per category."})
    extra_rescue_dice = Int(load_default=0, validate=AtMost("pool_dice"),
                            metadata={"description": "Rescue dice the GM grants beyond one advantage per category "
                                                     "(e.g. the effect 'Schutz')."})
    wounds = Int(load_default=0, validate=AtMost("pool_dice"),
                 metadata={"description": "Wounds that hinder this action: -1 die each."})
    penalty_dice = Int(load_default=0, validate=AtMost("pool_dice"),
                       metadata={"description": "Ruling 9: dice the GM takes away, e.g. the combat effect "
                                                "\"Gegner schwächen\" (\"einen Abzug von einem Würfel\"); not wounds."})

    @validates_schema
    def _pool_fits(self, data: dict[str, Any], **kwargs: Any) -> None:
        """The pool's dice and rescue dice, added up, stay within the limit pool_dice."""
        if not {"rank", "advantages"} <= data.keys():
            return  # a field error is reported already
        pool = to_pool(data)
        # rank, fit and advantages give at most 14 dice: only the GM's extra dice can pass the limit.
        _check(pool.dice, say("rank + fit + active advantages + extra_bonus_dice - wounds - penalty_dice"),
               "extra_bonus_dice")
        _check(pool.rescue_dice, say("passive advantages + extra_rescue_dice"), "extra_rescue_dice")


def _check(actual: int, what: Message, field: str) -> None:
    try:
        check_limit("pool_dice", actual)
    except ValidationError as error:
        raise ValidationError([say_n("%(what)s = %(count)d die: %(problem)s", "%(what)s = %(count)d dice: %(problem)s",
                                     actual, what=what, problem=error.messages[0])], field_name=field) from error


def to_pool(data: Mapping[str, Any]) -> Pool:
    """The loaded pool body as the rules' ``Pool``."""
    advantages = data.get("advantages") or {}
    return Pool(
        rank=data["rank"],
        fit=Fit(data.get("fit", Fit.MATCHING.value)),
        advantages=Advantages(**{c: Advantage(v) if v else None for c, v in advantages.items()}),
        extra_bonus_dice=data.get("extra_bonus_dice", 0),
        extra_rescue_dice=data.get("extra_rescue_dice", 0),
        wounds=data.get("wounds", 0),
        name=data.get("name"),
        penalty_dice=data.get("penalty_dice", 0),
    )


class PawsTestRequest(PawsPoolSchema):
    """A pool is the whole body of a test."""


class PawsComparisonRequest(StrictSchema):
    a = fields.Nested(PawsPoolSchema, required=True, metadata={"description": "Side a (the attacker in defense mode)."})
    b = fields.Nested(PawsPoolSchema, required=True, metadata={"description": "Side b (the defender in defense mode)."})
    mode = Enum([mode.value for mode in Mode], load_default=Mode.CONTEST.value,
                metadata={"description": "contest: both attack, more successes wins; defense: b only "
                                         "defends, the attack lands with net >= 1, b cannot win."})


class PawsRescueAdviceSchema(StrictSchema):
    """The advice on spending the group's one-shot rescue dice on a loss (RULINGS.md "Advice", Paws)."""

    one_shot_rescue = Int(load_default=1, validate=validate.Range(min=1, max=rescue_advice.MAX_DICE),
                          metadata={"description": "The group's one-shot rescue dice at hand (\"Jeder "
                                                   "Rettungswürfel darf nur einmal gewürfelt werden\"). Default 1."})
    spend = Int(load_default=None, allow_none=True, validate=validate.Range(min=0, max=rescue_advice.MAX_DICE),
                metadata={"description": "The policy: roll at most this many of them on this loss, one at a time, "
                                         "until it is averted or out of reach; the rest are kept for later "
                                         "losses. null (default): all of them."})
    future_losses = Int(load_default=1, validate=validate.Range(min=0, max=rescue_advice.MAX_FUTURE_LOSSES),
                        metadata={"description": "Later losses of the same kind the kept dice may avert, taken as "
                                                 "certain (RULINGS.md \"Advice\"). Default 1."})


class PawsTestAdviceRequest(PawsTestRequest, PawsRescueAdviceSchema):
    """A failed test's pool and the group's one-shot dice: one success averts the loss (ruling 3)."""


class PawsComparisonAdviceRequest(PawsComparisonRequest, PawsRescueAdviceSchema):
    """A lost comparison and the group's one-shot dice: the loss is averted when they make up its net."""

    lost_by = Int(load_default=None, allow_none=True, validate=validate.Range(min=1, max=1000),
                  metadata={"description": "The advised side's loss: the winner's net successes after the side's "
                                           "own rescue dice, which one-shot dice must cancel to save it to a tie "
                                           "(ruling 3). null (default): not known, each margin as likely as the "
                                           "comparison makes it."})


class PawsRescueRequest(StrictSchema):
    dice = Int(required=True, validate=AtMost("pool_dice", min=1),
               metadata={"description": "The group's one-shot rescue dice to roll now."})


class PawsCategorySchema(StrictSchema):
    """Ruling 6: a category may set its own potential, its own power, both or neither."""

    name = Name(required=True)
    potential = Int(load_default=None, allow_none=True, validate=POTENTIAL,
                    metadata={"description": "Highest rank in this category; not given: the character's "
                                             "potential."})
    power = Int(load_default=None, allow_none=True, validate=POWER,
                metadata={"description": "Good minus bad ranks allowed in this category; not given: its "
                                         "traits count against the character's power."})


class PawsTraitSchema(StrictSchema):
    name = Name(required=True)
    rank = Int(required=True, validate=TRAIT_RANK)
    bad = Bool(load_default=False, metadata={"description": "A bad trait: its ranks count against the good ones."})
    category = Name(metadata={"description": "Name of one of `categories`; none: the character's limits apply."})


class PawsValidateCharacterRequest(StrictSchema):
    potential = Int(required=True, validate=POTENTIAL, metadata={"description": "Highest rank of any trait."})
    power = Int(required=True, validate=POWER, metadata={"description": "Good minus bad ranks allowed."})
    categories = fields.List(fields.Nested(PawsCategorySchema), load_default=list,
                             validate=validate.Length(max=MAX_CATEGORIES))
    traits = fields.List(fields.Nested(PawsTraitSchema), required=True,
                         validate=validate.Length(max=MAX_TRAITS))

    @validates_schema
    def _categories_known(self, data: dict[str, Any], **kwargs: Any) -> None:
        """Category names are unique, and a trait's `category` is one of `categories`."""
        names = [category["name"] for category in data.get("categories", [])]
        errors: dict = {}
        for index, name in enumerate(names):
            if name in names[:index]:
                errors.setdefault("categories", {})[index] = {"name": [say("category “%(name)s” is given twice",
                                                                                 name=name)]}
        for index, trait in enumerate(data.get("traits", [])):
            if trait.get("category") is not None and trait["category"] not in names:
                errors.setdefault("traits", {})[index] = {
                    "category": [say("unknown category “%(name)s”: it must be one of `categories`",
                                     name=trait["category"])]}
        if errors:
            raise ValidationError(errors)


# --- results: derived from the rules' dataclasses -------------------------------------------------

RESULTS = ResultSchemas("Paws")
PawsTestResult = RESULTS.of(rules.TestResult)
PawsComparisonResult = RESULTS.of(rules.ComparisonResult)
PawsRescueResult = RESULTS.of(rules.RescueResult)
PawsCharacterResult = RESULTS.of(rules.CharacterResult)


# --- encounters (API.md §1.7, RULINGS.md "Encounters", Paws E1–E5) ---------------------------------

class PawsFighterSchema(PawsPoolSchema):
    """A pool as in a comparison (its `wounds` are the starting wounds) plus when its side stops."""

    out_at_wounds = Int(load_default=None, allow_none=True, validate=validate.Range(min=1, max=1000),
                        metadata={"description": "Out of the fight (\"Kampfunfähig\", E1) at this many wounds in "
                                                 "all, the starting wounds included; null (default): out when "
                                                 "no dice are left."})
    give_up_at_wounds = Int(load_default=None, allow_none=True, validate=validate.Range(min=1, max=1000),
                            metadata={"description": "Gives up (\"oder auf gibt\", E2) at this many wounds in all; "
                                                     "null (default): never."})


class PawsOneShotRescueSchema(StrictSchema):
    a = Int(load_default=0, validate=AtMost("pool_dice"), metadata={"description": "One-shot rescue dice of a."})
    b = Int(load_default=0, validate=AtMost("pool_dice"), metadata={"description": "One-shot rescue dice of b."})


def _no_one_shot_rescue() -> dict:
    return {"a": 0, "b": 0}


class PawsEncounterRequest(EncounterFields):
    """One body for the odds and the rolling twin (which ignores ``curve_rounds`` and ``exact``)."""

    a = fields.Nested(PawsFighterSchema, required=True, metadata={"description": "Side a."})
    b = fields.Nested(PawsFighterSchema, required=True, metadata={"description": "Side b."})
    one_shot_rescue = fields.Nested(
        PawsOneShotRescueSchema, load_default=_no_one_shot_rescue,
        metadata={"description": "The one-shot rescue dice each side may spend in this fight (\"darf nur einmal "
                                 "gewürfelt werden\", E3): after a lost round they are rolled one at a time "
                                 "until one averts the wound. Default none."})


# The rolling encounter's result, from its dataclasses as every result (steps are paws.comparison's).
PawsEncounterResult = RESULTS.of(encounter.EncounterResult)
