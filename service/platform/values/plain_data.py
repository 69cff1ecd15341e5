"""Rules results as plain JSON values: dataclasses, enums and tuples -> dicts, strings and lists. No Flask.

Responses do not need this: orjson writes dataclasses, enums and tuples itself, both into the
response and (sorted) into the signed payload (receipts.canonical_bytes). It is for what must be
plain data: the OpenAPI examples, the catalogue's tables, and the RFC 8785 reference implementation
that canonicalizes the rare document orjson cannot.
"""

from __future__ import annotations

import dataclasses
import enum
from collections.abc import Callable, Iterable, Mapping
from typing import Any, TypeAlias

import orjson

from service.platform.values.results import result_members

# What a JSON document is made of, once parsed (orjson.loads) or converted (plain).
JSONValue: TypeAlias = "dict[str, JSONValue] | list[JSONValue] | str | int | float | bool | None"
# Converts a value of one type (the type it was chosen for) to JSON data.
Converter: TypeAlias = Callable[[Any], JSONValue]


def plain(value: object) -> JSONValue:
    """``value`` as JSON data, by a round trip through orjson, dataclasses written from their fields
    (results.result_members, as in responses). What orjson cannot write (an integer beyond 64 bits,
    a mapping that is not a dict) is converted in Python."""
    try:
        return orjson.loads(orjson.dumps(value, default=result_members,
                                         option=orjson.OPT_NON_STR_KEYS | orjson.OPT_PASSTHROUGH_DATACLASS))
    except orjson.JSONEncodeError:
        return plain_in_python(value)


def plain_in_python(value: object) -> JSONValue:
    """``plain`` by walking the value: every dataclass field, enums by value, tuples as lists."""
    kind = type(value)
    convert = _CONVERTERS.get(kind)
    if convert is None:  # first value of this type: decide once how to convert every later one
        convert = _CONVERTERS[kind] = _converter_for(kind)
    return convert(value)


def _converter_for(kind: type) -> Converter:
    # Most members are scalars: they are kept without a call to plain_in_python().
    if dataclasses.is_dataclass(kind):
        names = tuple(field.name for field in dataclasses.fields(kind))
        return lambda value: {name: member if type(member) in _SCALARS else plain_in_python(member)
                              for name in names for member in (getattr(value, name),)}
    if issubclass(kind, enum.Enum):
        return lambda value: value.value
    if issubclass(kind, Mapping):
        return lambda value: {(k.value if isinstance(k, enum.Enum) else k): plain_in_python(v)
                              for k, v in value.items()}
    if issubclass(kind, (list, tuple)):
        return lambda value: [item if type(item) in _SCALARS else plain_in_python(item) for item in value]
    return lambda value: value


_SCALARS: frozenset[type] = frozenset((str, int, bool, type(None)))
_CONVERTERS: dict[type, Converter] = {kind: (lambda value: value) for kind in _SCALARS}


# The deepest nesting a request may have: every document of this API is far shallower, and the
# signed documents handed back (cards, draws, conflicts) are canonicalized recursively.
MAX_JSON_DEPTH = 32


def json_depth(value: object) -> int:
    """How deeply ``value`` (parsed JSON) nests objects and arrays (a scalar: 0), without recursion."""
    deepest = 0
    pending: list[tuple[object, int]] = [(value, 0)]
    while pending:
        item, depth = pending.pop()
        if isinstance(item, dict):
            children: Iterable[object] = item.values()
        elif isinstance(item, list):
            children = item
        else:
            continue
        deepest = max(deepest, depth + 1)
        pending.extend((child, depth + 1) for child in children)
    return deepest
