"""A result is described once, by its dataclass: its output schema is derived from the fields.

A rules module writes a result as a frozen dataclass and may describe a field for the spec with
``described``::

    @dataclass(frozen=True)
    class TestResult:
        dice: list[int]
        outcome: Outcome                        # an Enum: a string with those values
        winner: Literal["a", "b"] | None        # a string with those values, or null
        quality: int = field(metadata=described("Successes beyond those needed."))

``ResultSchemas(prefix).of(TestResult)`` is the marshmallow schema of the response's ``result``
(every field required; ``X | None`` nullable; lists, tuples and ``dict[str, X]`` of any of these;
a nested dataclass becomes its own component, named ``<prefix><class name>`` unless named
otherwise). The response and the signed payload are written from the same ``dataclasses.fields``
(``result_members``), so a field added to the dataclass reaches all three.
"""

from __future__ import annotations

import dataclasses
import enum
import types
import typing
from collections.abc import Mapping, Sequence
from typing import Any

import marshmallow as ma
from marshmallow import fields, validate

_SCALARS: dict[Any, type[fields.Field]] = {
    bool: fields.Boolean, int: fields.Integer, float: fields.Float, str: fields.String,
}


def described(description: str | None = None, **schema: Any) -> dict[str, Any]:
    """A dataclass field's metadata for the spec: its ``description`` and any other JSON Schema
    keywords in ``schema`` (e.g. ``minimum``); ``field(metadata=described(...))``."""
    return schema if description is None else {"description": description, **schema}


def result_members(value: object) -> dict[str, Any]:
    """A result dataclass as the members it is written with, into the response and into the signed
    payload alike: its fields, in declaration order (orjson's ``default`` for dataclasses)."""
    kind = type(value)
    names = _FIELD_NAMES.get(kind)
    if names is None:
        if not dataclasses.is_dataclass(kind):
            raise TypeError(f"not JSON: {kind.__name__}")
        names = _FIELD_NAMES[kind] = tuple(field.name for field in dataclasses.fields(kind))
    return {name: getattr(value, name) for name in names}


_FIELD_NAMES: dict[type, tuple[str, ...]] = {}


class ResultSchemas:
    """The output schemas of one system's result dataclasses, each derived once."""

    def __init__(self, prefix: str, names: Mapping[type, str] | None = None) -> None:
        self.prefix = prefix
        self.names = dict(names or {})
        self._schemas: dict[type, type[ma.Schema]] = {}

    def of(self, kind: type) -> type[ma.Schema]:
        """The schema of the dataclass ``kind`` (its component is named after it)."""
        schema = self._schemas.get(kind)
        if schema is None:
            hints = typing.get_type_hints(kind)
            members = {field.name: self._field(hints[field.name], dict(field.metadata))
                       for field in dataclasses.fields(kind)}
            name = self.names.get(kind, self.prefix + kind.__name__)
            schema = self._schemas[kind] = ma.Schema.from_dict(members, name=name)
            schema.result_type = kind  # type: ignore[attr-defined]  # which dataclass it describes
        return schema

    def _field(self, hint: object, metadata: dict[str, Any], *, top: bool = True) -> fields.Field:
        options: dict[str, Any] = {"required": True} if top else {}
        if metadata:
            options["metadata"] = metadata
        arguments = typing.get_args(hint)
        if typing.get_origin(hint) in (typing.Union, types.UnionType) and type(None) in arguments:
            (hint,) = [argument for argument in arguments if argument is not type(None)]
            options["allow_none"] = True
            arguments = typing.get_args(hint)
        origin = typing.get_origin(hint)
        if hint in _SCALARS:
            return _SCALARS[hint](**options)
        if isinstance(hint, type) and issubclass(hint, enum.Enum):
            return fields.String(validate=validate.OneOf([member.value for member in hint]), **options)
        if origin is typing.Literal:
            return fields.String(validate=validate.OneOf(list(arguments)), **options)
        if origin in (list, tuple, Sequence):
            return fields.List(self._field(arguments[0], {}, top=False), **options)
        if origin in (dict, Mapping):
            return fields.Dict(keys=fields.String(), values=self._field(arguments[1], {}, top=False), **options)
        if isinstance(hint, type) and dataclasses.is_dataclass(hint):
            return fields.Nested(self.of(hint), **options)
        raise TypeError(f"no schema for a result field of type {hint!r}")

