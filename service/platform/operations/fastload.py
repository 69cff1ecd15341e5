"""Request validation on the hot path: a compiled loader that accepts fast and lets marshmallow reject.

marshmallow spends most of a roll's validation time in its general machinery (an error store, a
getter closure and several layers of calls per field), not in our rules. ``fast_loader(schema)``
compiles a request schema once into plain closures for the field kinds the request schemas use:

- a body it can fully check (every field of a known kind, every validator passing, the schema's
  own ``validates_schema`` and ``post_load`` hooks run exactly as marshmallow runs them) gives the
  same dict ``schema.load`` would give;
- null is taken as marshmallow takes it where that is plain: an optional field of a StrictSchema
  as not given, a compiled field that allows null as None, a field of another kind by its own
  ``deserialize``;
- anything else (a wrong type, a failing validator, a refused null, an unknown key, a kind it does
  not know) is handed to ``schema.load``, which then words the error exactly as before, or accepts
  what the fast path was too cautious to accept.

So the fast path may only ever *accept* what marshmallow accepts, with the same result; it never
writes an error message. tests/platform/operations/test_fastload.py holds the two to the same answers for
every request schema of the service, on generated valid and invalid bodies.

Kept because an A/B over HTTP showed it pays (figures and decision: bench/README.md, "What the
figures decided").

What it relies on in marshmallow (4.0 to 4.4; pyproject.toml pins ``marshmallow>=4,<5``):

- public attributes: ``Schema.load_fields``, ``many``, ``partial``, ``unknown``; a field's
  ``required``, ``load_default``, ``data_key``, ``validators``, ``List.inner``, ``Nested.schema``;
  the bounds of ``validate.Range`` (``min``, ``max``, ``min_inclusive``, ``max_inclusive``),
  ``validate.Length`` (``min``, ``max``, ``equal``) and ``validate.OneOf`` (``choices``);
- the undocumented shape of ``Schema.resolve_hooks()`` (a classmethod): tag (the constants of
  ``marshmallow.decorators``) -> ``[(method name, pass_collection, options)]``;
- the private calling conventions of ``Schema._invoke_schema_validators`` and
  ``_invoke_load_processors`` (a hook gets the data, the original data when it asked for it, and
  ``partial``, ``many``, ``unknown`` as keywords) and of ``Schema._deserialize`` (a field's
  ``deserialize(value, data_key, data)``; ``List._deserialize`` calls ``inner.deserialize(item)``).

tests/platform/operations/test_fastload.py holds these: it reads the hook registry of a schema with every
kind of hook, and it compares the compiled loader with ``schema.load`` on generated bodies for
every request schema of the service, so a marshmallow release that changes any of them fails there
before it can change an answer.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator, Mapping
from typing import Any, cast

import marshmallow as ma
from marshmallow import ValidationError, fields, validate
from marshmallow.decorators import POST_LOAD, PRE_LOAD, VALIDATES, VALIDATES_SCHEMA

from service.platform.operations.fields import Bool, Int, StrictSchema, integral

Loader = Callable[[Any], Any]
_MISSING = ma.missing


class _Reject(Exception):
    """The fast path does not vouch for this value: marshmallow decides."""


class _Unsupported(Exception):
    """The schema uses something the compiler does not translate: marshmallow loads it always."""


def fast_loader(schema: ma.Schema) -> Loader:
    """``schema.load`` for a body, compiled where possible (see the module docstring)."""
    try:
        compiled = _compile_schema(schema)
    except _Unsupported:
        return schema.load

    def load(data: object) -> object:
        try:
            return compiled(data)
        except (_Reject, ValidationError):
            return schema.load(cast("Mapping[str, Any]", data))  # any JSON: marshmallow words the refusal

    load.compiled = True  # type: ignore[attr-defined]  # tests check the hot schemas compile
    return load


# -- schemas -----------------------------------------------------------------------------------

def _compile_schema(schema: ma.Schema) -> Loader:
    _require_plain_schema(schema)
    plans = tuple(_field_plan(name, field) for name, field in schema.load_fields.items())
    known_keys = frozenset(data_key for data_key, *_ in plans)
    validators = tuple(_schema_hooks(schema, VALIDATES_SCHEMA))
    processors = tuple(_schema_hooks(schema, POST_LOAD))
    # StrictSchema's pre_load hook: an optional field given as null counts as not given.
    drops_nulls = any(name == _NULL_HOOK for name, _, _ in declared_hooks(schema, PRE_LOAD))

    def load(data: object) -> dict:
        if type(data) is not dict or not known_keys.issuperset(data):  # unknown keys are refused
            raise _Reject
        result = {}
        for data_key, attribute, required, default, default_factory, convert, with_context, allows_null in plans:
            value = data.get(data_key, _MISSING)
            if value is None and drops_nulls and not required:
                value = _MISSING
            if value is _MISSING:
                if required:
                    raise _Reject
                if default_factory is not None:
                    result[attribute] = default_factory()
                elif default is not _MISSING:
                    result[attribute] = default
            elif value is None and not with_context:  # null: None where allowed; else marshmallow says why
                if not allows_null:
                    raise _Reject
                result[attribute] = None
            elif with_context:  # a field of its own kind deserializes null itself, exactly
                result[attribute] = convert(value, data_key, data)
            else:
                result[attribute] = convert(value)
        # The hooks get what marshmallow passes them (partial=None, many=False, unknown=RAISE).
        for validator, pass_original in validators:
            if pass_original:
                validator(result, data, partial=None, many=False, unknown=ma.RAISE)
            else:
                validator(result, partial=None, many=False, unknown=ma.RAISE)
        for processor, pass_original in processors:
            if pass_original:
                result = processor(result, data, many=False, partial=None, unknown=ma.RAISE)
            else:
                result = processor(result, many=False, partial=None, unknown=ma.RAISE)
        return result

    return load


# The one pre_load hook the compiled path may skip: StrictSchema's "null means not given" changes
# only a body with a null member, and the compiled path hands every null to marshmallow.
_NULL_HOOK = StrictSchema.null_means_not_given.__name__


def declared_hooks(schema: ma.Schema, tag: str) -> list[tuple[str, bool, dict]]:
    """The hooks of ``schema`` decorated with ``tag`` (marshmallow.decorators' PRE_LOAD, ...), as
    ``(method name, pass_collection, options)``, from marshmallow's public ``resolve_hooks``."""
    return type(schema).resolve_hooks().get(tag, [])


def _require_plain_schema(schema: ma.Schema) -> None:
    if schema.many or schema.partial or schema.unknown != ma.RAISE:
        raise _Unsupported("only single, complete loads that refuse unknown fields")
    if any(name != _NULL_HOOK for name, _, _ in declared_hooks(schema, PRE_LOAD)):
        raise _Unsupported("pre_load hooks other than StrictSchema's are not translated")
    if declared_hooks(schema, VALIDATES):
        raise _Unsupported("per-field validates hooks are not translated")


def _schema_hooks(schema: ma.Schema, tag: str) -> Iterator[tuple[Callable[..., Any], bool]]:
    for attr_name, pass_collection, options in declared_hooks(schema, tag):
        if pass_collection:
            raise _Unsupported("hooks on collections are not translated")
        yield getattr(schema, attr_name), bool(options.get("pass_original", False))


# -- fields ------------------------------------------------------------------------------------
#
# A field of a kind compiled below is checked by one closure taking the value: its type, and the
# bounds of marshmallow's own Range, Length and OneOf validators, are compared inline (one call per
# field instead of one per check, which is most of what loading costs); any other validator (a
# limit read per request, a system's own) is called as marshmallow calls it. A field of any other
# kind (a system's own field class, Dict, IntOrStr) runs marshmallow's own ``field.deserialize``
# for that one field, with the arguments marshmallow passes, so it stays exact whatever it does.

def _field_plan(name: str, field: fields.Field) -> tuple:
    data_key = field.data_key if field.data_key is not None else name
    attribute = field.attribute or name
    if "." in attribute:  # marshmallow would build nested dicts from a dotted attribute
        raise _Unsupported("dotted attributes")
    default = field.load_default
    default_factory = default if callable(default) else None
    compiled = _compiled(field)
    # Field.deserialize answers None for null when the field allows it (compiled kinds have no pre_load).
    allows_null = field.allow_none
    if compiled is None:
        # Schema._deserialize calls field.deserialize(value, data_key, data): keep the context.
        return data_key, attribute, field.required, default, default_factory, field.deserialize, True, allows_null
    return data_key, attribute, field.required, default, default_factory, compiled, False, allows_null


def _item_loader(field: fields.Field) -> Loader:
    """A list item: List._deserialize calls inner.deserialize(item) without context."""
    return _compiled(field) or field.deserialize


def _compiled(field: fields.Field) -> Loader | None:
    """A closure converting and validating a value as ``field.deserialize`` would, or None for a
    field kind that is not compiled."""
    kind = type(field)
    if field.pre_load or field.post_load:
        return None
    validators = tuple(field.validators)
    if kind in (fields.Integer, Int):  # an int is itself for strict and lenient Integer alike
        return _integer(validators)
    if kind in (fields.Boolean, Bool):
        return _with_validators(_exactly(bool), validators)
    if kind is fields.String:
        return _string(validators)
    if isinstance(field, fields.Nested) and kind is fields.Nested and not field.many \
            and field.unknown in (None, ma.RAISE):
        try:
            return _with_validators(_compile_schema(field.schema), validators)
        except _Unsupported:
            return None
    if isinstance(field, fields.List) and kind is fields.List:
        return _with_validators(_list(field), validators)
    return None


def _integer(validators: tuple) -> Loader:
    """An int (bool is not int here) within the bounds of its plain Range validators."""
    low, high = -math.inf, math.inf
    other_validators = []
    for validator in validators:
        if type(validator) is validate.Range and validator.min_inclusive and validator.max_inclusive:
            low = max(low, validator.min if validator.min is not None else low)
            high = min(high, validator.max if validator.max is not None else high)
        else:
            other_validators.append(validator)
    others = tuple(other_validators)

    def convert(value: object) -> int:
        value = integral(value)
        if type(value) is not int or not low <= value <= high:
            raise _Reject
        if others:
            _validate(others, value)
        return value

    return convert


def _string(validators: tuple) -> Loader:
    """A str (never coerced) of a length within its plain Length validators, one of its OneOf's
    choices when it has one."""
    shortest, longest = 0, math.inf
    choices: frozenset | None = None
    other_validators = []
    for validator in validators:
        if type(validator) is validate.Length and validator.equal is None:
            shortest = max(shortest, validator.min if validator.min is not None else 0)
            longest = min(longest, validator.max if validator.max is not None else longest)
        elif type(validator) is validate.OneOf and all(type(choice) is str for choice in validator.choices):
            allowed = frozenset(validator.choices)
            choices = allowed if choices is None else choices & allowed
        else:
            other_validators.append(validator)
    others = tuple(other_validators)

    def convert(value: object) -> str:
        if type(value) is not str or not shortest <= len(value) <= longest \
                or (choices is not None and value not in choices):
            raise _Reject
        if others:
            _validate(others, value)
        return value

    return convert


def _with_validators(convert: Loader, validators: tuple) -> Loader:
    if not validators:
        return convert

    def convert_and_validate(value: object) -> object:
        output = convert(value)
        _validate(validators, output)
        return output

    return convert_and_validate


def _validate(validators: tuple, value: object) -> None:
    for validator in validators:  # a validator raises ValidationError, or returns False
        if validator(value) is False:
            raise _Reject


def _exactly(python_type: type) -> Loader:
    def convert(value: object) -> object:
        if type(value) is python_type:  # never coerced: 1 or "true" is not true
            return value
        raise _Reject

    return convert


def _list(field: fields.List) -> Loader:
    inner = _item_loader(field.inner)

    def convert(value: object) -> list:
        if type(value) is not list:
            raise _Reject
        return [inner(item) for item in value]

    return convert
