"""Proben request schemas, and the result schemas derived from the rules' dataclasses."""

from __future__ import annotations

from typing import Any

from marshmallow import ValidationError, fields, post_load, validate, validates_schema

from service.platform.http.limits import AtMost, LengthAtMost, check_limit
from service.platform.operations.fields import Bool, Enum, Int, Name, StrictSchema
from service.platform.operations.schemas import EncounterFields
from service.platform.values.results import ResultSchemas
from service.platform.words.messages import say
from service.systems.proben import encounter, rules
from service.systems.proben.rules import SuccessRule

DIFFICULTY = validate.Range(min=1, max=100)


class ProbenPoolSchema(StrictSchema):
    name = Name(metadata={"description": "Who rolls (echoed in results)."})
    attribute = Int(required=True, validate=AtMost("pool_dice"),
                    metadata={"description": "Attribute value: that many d6."})
    skill = Int(load_default=0, validate=AtMost("pool_dice"),
                metadata={"description": "Skill level (Fertigkeitsstufe)."})
    skill_dice = Int(validate=AtMost("pool_dice"),
                     metadata={"description": "Bonus dice the GM allows from the skill: 0..skill (default skill)."})
    advantages = Int(load_default=0, validate=AtMost("pool_dice"), metadata={"description": "Vorteile: +1 die each."})
    disadvantages = Int(load_default=0, validate=AtMost("pool_dice"),
                        metadata={"description": "Nachteile: -1 die each."})

    @validates_schema
    def _pool_fits(self, data: dict[str, Any], **kwargs: Any) -> None:
        """`skill_dice` is at most `skill`; attribute + skill_dice + advantages stay within the limit pool_dice."""
        skill = data.get("skill", 0)
        skill_dice = data.get("skill_dice", skill)
        if skill_dice > skill:
            raise ValidationError(say("must be at most skill (%(skill)s)", skill=skill), field_name="skill_dice")
        try:
            check_limit("pool_dice", data.get("attribute", 0) + skill_dice + data.get("advantages", 0))
        except ValidationError as error:
            raise ValidationError([say("attribute + skill_dice + advantages: %(problem)s", problem=error.messages[0])],
                                  field_name="_schema") from error

    @post_load
    def _default_skill_dice(self, data: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        data.setdefault("skill_dice", data["skill"])
        return data


class ProbenTestRequest(ProbenPoolSchema):
    difficulty = Int(required=True, validate=DIFFICULTY,
                     metadata={"description": "1 easy, 2 standard, 3 demanding, 4+ hard."})
    attempt = Int(load_default=1, validate=validate.Range(min=1, max=100),
                  metadata={"description": "1 for the first try; each retry removes one die."})
    success_rule = Enum([rule.value for rule in SuccessRule], load_default=SuccessRule.MEET.value,
                        metadata={"description": "meet: successes >= difficulty (default); exceed: >."})


class ProbenOpposedRequest(StrictSchema):
    a = fields.Nested(ProbenPoolSchema, required=True)
    b = fields.Nested(ProbenPoolSchema, required=True)
    allow_tie = Bool(load_default=False, metadata={"description": "Accept a tie instead of rolling again."})


class ProbenCooperationRequest(StrictSchema):
    leader = fields.Nested(ProbenPoolSchema, required=True)
    helpers = fields.List(fields.Nested(ProbenPoolSchema), required=True, validate=LengthAtMost("participants", min=1))
    difficulty = Int(required=True, validate=DIFFICULTY)
    success_rule = Enum([rule.value for rule in SuccessRule], load_default=SuccessRule.MEET.value)

    @validates_schema
    def _leader_fits(self, data: dict[str, Any], **kwargs: Any) -> None:
        """The leader's dice plus one per helper stay within the limit pool_dice."""
        # Every helper may add one die to the leader's pool.
        leader = data.get("leader")
        if leader:
            total = leader["attribute"] + leader["skill_dice"] + leader["advantages"] + len(data.get("helpers", []))
            try:
                check_limit("pool_dice", total)
            except ValidationError as error:
                raise ValidationError([say("leader pool plus one die per helper: %(problem)s",
                                           problem=error.messages[0])], field_name="leader") from error


class ProbenIntervalSchema(StrictSchema):
    amount = Int(required=True, validate=validate.Range(min=1, max=1_000_000))
    unit = fields.String(required=True, validate=validate.Length(min=1, max=32),
                         metadata={"example": "hours", "description": "Ruling 6: minute, hour, day, week, month "
                                   "or round (singular or plural, English or German) are written in the "
                                   "request's language with plurals; any other unit is echoed as given."})


class ProbenExtendedRequest(ProbenPoolSchema):
    required = Int(required=True, validate=AtMost("extended_target", min=1),
                   metadata={"description": "Successes to accumulate."})
    interval = fields.Nested(ProbenIntervalSchema, metadata={"description": "The fixed duration of each roll."})


RESULTS = ResultSchemas("Proben")
ProbenTestResult = RESULTS.of(rules.TestResult)
ProbenOpposedResult = RESULTS.of(rules.OpposedResult)
ProbenCooperationResult = RESULTS.of(rules.CooperationResult)
ProbenExtendedResult = RESULTS.of(rules.ExtendedResult)


# --- encounters (API.md §1.7) -------------------------------------------------------------------

MAX_CHAIN_STEPS = 20


class ProbenChainStepSchema(StrictSchema):
    pool = fields.Nested(ProbenPoolSchema, required=True)
    difficulty = Int(required=True, validate=DIFFICULTY,
                     metadata={"description": "1 easy, 2 standard, 3 demanding, 4+ hard."})
    max_attempts = Int(load_default=None, allow_none=True, validate=validate.Range(min=1, max=100),
                       metadata={"description": "Attempts of this step at most; null (default): until no dice "
                                                "are left (E1)."})


class ProbenEncounterRequest(EncounterFields):
    steps = fields.List(fields.Nested(ProbenChainStepSchema), required=True,
                        validate=validate.Length(min=1, max=MAX_CHAIN_STEPS),
                        metadata={"description": "The tests, in order; the chain stops at the first that fails."})
    success_rule = Enum([rule.value for rule in SuccessRule], load_default=SuccessRule.MEET.value,
                        metadata={"description": "meet: successes >= difficulty (default); exceed: >."})
    carry_partial = Bool(load_default=False,
                         metadata={"description": "E2: the successes of a failed attempt count toward the next "
                                                  "attempt of the same step (default false)."})


ProbenEncounterResult = RESULTS.of(encounter.EncounterResult)
