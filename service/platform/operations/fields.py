"""Strict marshmallow fields: JSON types are taken as they are, never coerced.

A public API that accepted "3" for 3 or 1 for true would surprise clients and hide their bugs,
and would break the OpenAPI promise that schemathesis checks.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

import marshmallow as ma
from marshmallow import ValidationError, fields, validate
from marshmallow.fields import Field
from marshmallow.schema import SchemaMeta

from service.platform.words.messages import SCHEMA_MESSAGES, say, say_n, word_field


def integral(value: object) -> object:
    """A number with a zero fraction (2.0) as the integer it is in JSON Schema (2020-12, section
    6.1.1: "a number with a zero fractional part"); any other value unchanged."""
    return int(value) if type(value) is float and value.is_integer() else value


class Int(fields.Integer):
    """An integer as JSON Schema defines it (2.0 is 2); booleans, 2.5 and strings are refused."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(strict=True, **kwargs)

    def _deserialize(self, value: object, attr: str | None, data: Mapping[str, Any] | None, **kwargs: Any) -> int:
        if isinstance(value, bool):
            raise self.make_error("invalid", input=value)
        return super()._deserialize(integral(value), attr, data, **kwargs)


class Bool(fields.Boolean):
    """true or false only."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(truthy={True}, falsy={False}, **kwargs)

    def _deserialize(self, value: object, attr: str | None, data: Mapping[str, Any] | None, **kwargs: Any) -> bool:
        if not isinstance(value, bool):
            raise self.make_error("invalid", input=value)
        return value


class IntOrStr(fields.Field):
    """A die face (integer) or a marble colour (string): the values of ``manual`` and of events."""

    def __init__(self, faces: Mapping[str, Any] | None = None, **kwargs: Any) -> None:
        # ``faces``: the JSON Schema of one value where the operation knows its dice (a d6: 1..6),
        # stated in the spec instead of "an integer or a string"; checked as each value is consumed.
        metadata = dict(faces) if faces else {"oneOf": [{"type": "integer"}, {"type": "string", "maxLength": 32}]}
        metadata.update(kwargs.pop("metadata", {}))
        super().__init__(metadata=metadata, **kwargs)

    def _deserialize(self, value: object, attr: str | None, data: Mapping[str, Any] | None,
                     **kwargs: Any) -> int | str:
        value = integral(value)
        if isinstance(value, bool) or not isinstance(value, (int, str)):
            raise ValidationError(say("must be an integer (a die face) or a string (a marble colour)"))
        if isinstance(value, str) and len(value) > 32:
            raise ValidationError(say_n("must be at most %(max)s character long",
                                        "must be at most %(max)s characters long", 32, max=32))
        if isinstance(value, int) and abs(value) > 2**31:
            raise ValidationError(say("is far outside any die's faces"))
        return value


def Enum(choices: Iterable[str], **kwargs: Any) -> fields.String:
    """A string that must be one of ``choices`` (listed in the spec as an enum)."""
    return fields.String(validate=validate.OneOf(list(choices)), **kwargs)


def Name(**kwargs: Any) -> fields.String:
    """A participant or member name: 1..64 characters."""
    return fields.String(validate=validate.Length(min=1, max=64), **kwargs)


class _Worded(SchemaMeta):
    """Gives every declared field our messages instead of marshmallow's (messages.word_field),
    through marshmallow's hook for plugins that adjust a class's declared fields."""

    @classmethod
    def get_declared_fields(mcs, klass: SchemaMeta, cls_fields: list[tuple[str, Field]],
                            inherited_fields: list[tuple[str, Field]],
                            dict_cls: type[dict] = dict) -> dict[str, Field]:
        declared = super().get_declared_fields(klass, cls_fields, inherited_fields, dict_cls)
        for field in declared.values():
            word_field(field)
        return declared


class WordedSchema(ma.Schema, metaclass=_Worded):
    """Base for every schema that loads a request: its problems are worded by us, in the request's
    language (API.md §1), never by marshmallow."""

    error_messages = SCHEMA_MESSAGES


class _OptionalFieldsNullable(_Worded):
    """Marks every optional field of a request schema nullable, through marshmallow's hook for
    plugins that adjust a class's declared fields (apispec then writes ``type: [..., "null"]``)."""

    @classmethod
    def get_declared_fields(mcs, klass: SchemaMeta, cls_fields: list[tuple[str, Field]],
                            inherited_fields: list[tuple[str, Field]],
                            dict_cls: type[dict] = dict) -> dict[str, Field]:
        declared = super().get_declared_fields(klass, cls_fields, inherited_fields, dict_cls)
        for field in declared.values():
            if not field.required:
                field.allow_none = True
        return declared


class StrictSchema(WordedSchema, metaclass=_OptionalFieldsNullable):
    """Base for request schemas: unknown fields are refused (marshmallow's default, made explicit),
    and an optional field given as ``null`` counts as not given.

    Browser forms and JavaScript write ``null`` for "not set"; decided once here for every system:
    such a null is dropped before loading, so the field's default applies exactly as if it were
    absent. The spec marks those fields nullable. A required field given as null is still refused.
    """

    class Meta:
        unknown = ma.RAISE

    @ma.pre_load
    def null_means_not_given(self, data: object, **kwargs: Any) -> object:
        if not isinstance(data, dict) or None not in data.values():
            return data
        return {key: value for key, value in data.items()
                if value is not None or key not in self._optional_data_keys()}

    def _optional_data_keys(self) -> frozenset[str]:
        return frozenset(field.data_key or name for name, field in self.load_fields.items() if not field.required)
