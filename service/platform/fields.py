"""Strict marshmallow fields: JSON types are taken as they are, never coerced.

A public API that accepted "3" for 3 or 1 for true would surprise clients and hide their bugs,
and would break the OpenAPI promise that schemathesis checks.
"""

from __future__ import annotations

from typing import Any

import marshmallow as ma
from marshmallow import ValidationError, fields, validate


class Int(fields.Integer):
    """An integer; booleans, floats and strings are refused."""

    def __init__(self, **kwargs: Any):
        super().__init__(strict=True, **kwargs)

    def _deserialize(self, value, attr, data, **kwargs):
        if isinstance(value, bool):
            raise self.make_error("invalid", input=value)
        return super()._deserialize(value, attr, data, **kwargs)


class Bool(fields.Boolean):
    """true or false only."""

    def __init__(self, **kwargs: Any):
        super().__init__(truthy={True}, falsy={False}, **kwargs)

    def _deserialize(self, value, attr, data, **kwargs):
        if not isinstance(value, bool):
            raise self.make_error("invalid", input=value)
        return value


class IntOrStr(fields.Field):
    """A die face (integer) or a marble colour (string): the values of ``manual`` and of events."""

    def __init__(self, **kwargs: Any):
        metadata = {"oneOf": [{"type": "integer"}, {"type": "string", "maxLength": 32}]}
        metadata.update(kwargs.pop("metadata", {}))
        super().__init__(metadata=metadata, **kwargs)

    def _deserialize(self, value, attr, data, **kwargs):
        if isinstance(value, bool) or not isinstance(value, (int, str)):
            raise ValidationError("must be an integer (a die face) or a string (a marble colour)")
        if isinstance(value, str) and len(value) > 32:
            raise ValidationError("must be at most 32 characters")
        if isinstance(value, int) and abs(value) > 2**31:
            raise ValidationError("is far outside any die's faces")
        return value


def Enum(choices, **kwargs: Any) -> fields.String:
    """A string that must be one of ``choices`` (listed in the spec as an enum)."""
    return fields.String(validate=validate.OneOf(list(choices)), **kwargs)


def Name(**kwargs: Any) -> fields.String:
    """A participant or member name: 1..64 characters."""
    return fields.String(validate=validate.Length(min=1, max=64), **kwargs)


class StrictSchema(ma.Schema):
    """Base for request schemas: unknown fields are refused (marshmallow's default, made explicit)."""

    class Meta:
        unknown = ma.RAISE
