"""The compiled request loader gives exactly marshmallow's answer, for every request schema.

The fast path may only accept what ``schema.load`` accepts, with the same result (key order
included: it is echoed in the response); everything else must reach marshmallow, whose error
messages the client then sees. Bodies are drawn from each schema's own fields: mostly valid values,
mixed with wrong types, nulls, missing and unknown keys.
"""

from __future__ import annotations

import copy

import marshmallow as ma
import orjson
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from marshmallow import ValidationError, fields, validate

from service.platform.http.limits import AtMost, LengthAtMost, Limits
from service.platform.operations import fastload
from service.platform.operations.fields import Bool, Int, StrictSchema
from service.platform.operations.operations import operations_of
from tests.conftest import make_app

JSON_SCALARS = st.none() | st.booleans() | st.integers(-3, 10**6) | st.text(max_size=8) | st.just(2.5)
ANY_JSON = st.recursive(JSON_SCALARS, lambda inner: st.lists(inner, max_size=3)
                        | st.dictionaries(st.text(max_size=5), inner, max_size=3), max_leaves=6)


def valid_value(field: fields.Field, depth: int = 0) -> st.SearchStrategy:
    """Values of the field's kind, mostly within its validators."""
    choices = [v.choices for v in field.validators if isinstance(v, validate.OneOf)]
    if choices:
        return st.sampled_from(list(choices[0]))
    if isinstance(field, fields.Boolean):
        return st.booleans()
    if isinstance(field, fields.Integer):
        ranges = [v for v in field.validators if isinstance(v, validate.Range)]
        low = ranges[0].min if ranges and ranges[0].min is not None else -2
        return st.integers(low - 1, low + 12) | st.integers(-1, 150)
    if isinstance(field, fields.String):
        return st.text(min_size=0, max_size=70)
    if isinstance(field, fields.Nested) and depth < 4:
        return body_for(field.schema, depth + 1)
    if isinstance(field, fields.List) and depth < 4:
        return st.lists(valid_value(field.inner, depth + 1), max_size=4)
    return ANY_JSON


WRONG_KINDS = st.sampled_from([True, False, None, "3", 3.0, 2**64, [], {}, [1], {"x": 1}])


def field_value(field: fields.Field, depth: int) -> st.SearchStrategy:
    return st.one_of(valid_value(field, depth), valid_value(field, depth), WRONG_KINDS, ANY_JSON)


@st.composite
def body_for(draw, schema: ma.Schema, depth: int = 0):
    body = {}
    for name, field in schema.load_fields.items():
        key = field.data_key or name
        keep = draw(st.integers(0, 9))
        if keep < (8 if field.required else 5):
            body[key] = draw(field_value(field, depth))
    if draw(st.integers(0, 19)) == 0:
        body[draw(st.text(min_size=1, max_size=6))] = draw(ANY_JSON)
    return body


def outcome(load, body):
    try:
        return "accepted", orjson.dumps(load(copy.deepcopy(body)), option=orjson.OPT_NON_STR_KEYS)
    except ValidationError as error:
        return "refused", error.messages


@pytest.fixture(scope="module")
def small_limits_app(signing_key_pem):
    """Small limits, so generated values cross them and the runtime limit checks are exercised."""
    return make_app(signing_key_pem, limits=Limits(pool_dice=12, bag_marbles=15, participants=3, parties=3,
                                                   die_sides=20, extended_target=10))


def operations_with_bodies(app):
    return sorted((o.id, o) for o in operations_of(app).values() if o.schema is not None)


def test_every_request_schema_of_the_service_compiles(app):
    """The compiled path only pays off when it is taken: a schema that falls back to marshmallow
    entirely would be correct but slow, so a new field kind must not slip in unnoticed."""
    operations = operations_with_bodies(app)
    assert len(operations) >= 40
    assert [op_id for op_id, operation in operations if not getattr(operation.load, "compiled", False)] == []


@pytest.mark.parametrize("op_id", [op_id for op_id, _ in operations_with_bodies(make_app(None))])
def test_compiled_loader_answers_as_marshmallow(small_limits_app, op_id):
    operation = operations_of(small_limits_app)[op_id]

    @settings(max_examples=60, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
    @given(body=body_for(operation.schema) | ANY_JSON)
    def check(body):
        assert outcome(operation.load, body) == outcome(operation.schema.load, body)

    with small_limits_app.app_context():
        check()


class Pool(ma.Schema):
    class Meta:
        unknown = ma.RAISE

    dice = Int(required=True, validate=AtMost("pool_dice"))
    tags = fields.List(fields.String(validate=validate.Length(max=3)), load_default=list)
    quick = Bool(load_default=False)

    @ma.validates_schema
    def _not_both(self, data, **kwargs):
        if data["dice"] == 0 and data["quick"]:
            raise ValidationError("no quick roll without dice")

    @ma.post_load
    def _mark(self, data, **kwargs):
        data["seen"] = True
        return data


class Roll(ma.Schema):
    class Meta:
        unknown = ma.RAISE

    pools = fields.List(fields.Nested(Pool), required=True, validate=LengthAtMost("participants", min=1))


@pytest.mark.parametrize("body", [
    {"pools": [{"dice": 3}]},
    {"pools": [{"dice": 3, "tags": ["a", "bc"], "quick": True}, {"dice": 0}]},
    {"pools": [{"dice": 0, "quick": True}]},          # the schema validator refuses
    {"pools": [{"dice": True}]},                      # a bool is not an int
    {"pools": [{"dice": "3"}]},                       # no coercion
    {"pools": [{"dice": 3.0}]},
    {"pools": [{"dice": None}]},
    {"pools": [{"dice": 101}]},                       # above the limit
    {"pools": [{"dice": 3, "tags": ["abcd"]}]},       # an item's validator
    {"pools": [{"dice": 3, "colour": "red"}]},        # unknown nested key
    {"pools": []},                                    # below the list's minimum
    {"pools": {"dice": 3}},
    {"pool": [{"dice": 3}]},
    [],
    "pools",
])
def test_hand_written_cases_answer_as_marshmallow(app, body):
    schema = Roll()
    load = fastload.fast_loader(schema)
    assert load.compiled
    with app.app_context():
        assert outcome(load, body) == outcome(schema.load, body)


class Bounds(ma.Schema):
    """Validators whose bounds the compiled path compares inline (plain Range, Length, OneOf of
    strings) beside ones it calls (exclusive Range, Length(equal=...), OneOf of other values)."""

    class Meta:
        unknown = ma.RAISE

    level = Int(validate=[validate.Range(min=1, max=6), validate.Range(min=2)])
    exclusive = Int(validate=validate.Range(min=0, max=10, min_inclusive=False))
    name = fields.String(validate=[validate.Length(min=2, max=4), validate.OneOf(["ab", "abc", "abcde"])])
    code = fields.String(validate=validate.Length(equal=2))
    numbered = Int(validate=validate.OneOf([1, 3]))


@pytest.mark.parametrize("body", [
    {"level": 2}, {"level": 6}, {"level": 1}, {"level": 7}, {"level": 0},
    {"exclusive": 1}, {"exclusive": 0}, {"exclusive": 10}, {"exclusive": 11},
    {"name": "ab"}, {"name": "abc"}, {"name": "abcde"}, {"name": "a"}, {"name": "abd"}, {"name": ""},
    {"code": "xy"}, {"code": "x"}, {"code": "xyz"},
    {"numbered": 3}, {"numbered": 2}, {"numbered": True},
])
def test_inline_bounds_answer_as_marshmallow(body):
    schema = Bounds()
    load = fastload.fast_loader(schema)
    assert load.compiled
    assert outcome(load, body) == outcome(schema.load, body)


def test_valid_bodies_take_the_compiled_path(app):
    schema = Roll()
    compiled = fastload._compile_schema(schema)
    with app.app_context():
        assert compiled({"pools": [{"dice": 3, "tags": ["a"]}]}) == \
            {"pools": [{"dice": 3, "tags": ["a"], "quick": False, "seen": True}]}
        with pytest.raises(fastload._Reject):
            compiled({"pools": [{"dice": "3"}]})


def test_the_hook_registry_is_read_as_marshmallow_declares_it():
    """fastload reads hooks through marshmallow's public ``Schema.resolve_hooks`` (4.0-4.4: tag ->
    ``(method name, pass_collection, options)``); should that shape change, this fails rather than
    the compiled path skipping a validator."""
    from marshmallow.decorators import POST_LOAD, PRE_LOAD, VALIDATES_SCHEMA

    class Hooked(StrictSchema):
        dice = Int()

        @ma.validates_schema(pass_original=True)
        def _check(self, data, original, **kwargs):
            pass

        @ma.post_load
        def _after(self, data, **kwargs):
            return data

    schema = Hooked()
    assert fastload.declared_hooks(schema, VALIDATES_SCHEMA) == [
        ("_check", False, {"skip_on_field_errors": True, "pass_original": True})]
    assert [name for name, _, _ in fastload.declared_hooks(schema, POST_LOAD)] == ["_after"]
    assert [name for name, _, _ in fastload.declared_hooks(schema, PRE_LOAD)] == ["null_means_not_given"]
    assert fastload.fast_loader(schema).compiled


def test_a_pre_load_hook_of_its_own_keeps_a_schema_on_marshmallow(app):
    class Trimmed(StrictSchema):
        name = fields.String()

        @ma.pre_load
        def _trim(self, data, **kwargs):
            return {key: value.strip() for key, value in data.items()}

    schema = Trimmed()
    assert fastload.fast_loader(schema) == schema.load
    assert fastload.fast_loader(schema)({"name": " Ork "}) == {"name": "Ork"}


def test_schemas_the_compiler_does_not_know_are_loaded_by_marshmallow(app):
    class Lenient(ma.Schema):
        class Meta:
            unknown = ma.EXCLUDE

        dice = Int()

    schema = Lenient()
    assert fastload.fast_loader(schema) == schema.load
