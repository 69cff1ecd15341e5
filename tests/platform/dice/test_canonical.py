"""The fast canonical form (orjson, sorted keys) is byte for byte the RFC 8785 reference form."""

from __future__ import annotations

import dataclasses
import enum

import orjson
import pytest
import rfc8785
from hypothesis import given, settings
from hypothesis import strategies as st

from service.platform.dice.receipts import _as_ijson_numbers, _is_plain_json, canonical_bytes
from service.platform.values.plain_data import plain

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**70), 2**70)
    | st.floats(allow_nan=False, allow_infinity=False) | st.text(),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=6), children, max_size=4),
    max_leaves=20,
)


@settings(max_examples=400, deadline=None)
@given(document=st.dictionaries(st.text(max_size=6), json_values, max_size=5))
def test_fast_path_equals_the_reference(document):
    assert canonical_bytes(document) == rfc8785.dumps(_as_ijson_numbers(document))


def test_edge_cases_take_the_reference_path():
    for document in ({"\uffff": 1, "\U0001F3B2": 2}, {"x": 0.1}, {"x": 2**53}, {"x": 1e300}, {"x": "1.5"},
                     {"x": [True, False, None, -0]}, {"é": "\u2028\x7f\x1f"},
                     # floats where the fast checks look for them: after a key, a comma, an opening bracket
                     {"x": [1, 2.5]}, {"x": [1.0]}, {"x": [-1e16]}, {"x": {"y": -0.0}}, {"x": [[3], 1e-7]},
                     {"x": 2**53 - 1, "y": -(2**53 - 1)}, {"x": -(2**53)}, {"x": "a,1.5", "y": ":2e3"},
                     {"issued_at": "2026-11-29T12:00:00.000Z"}):
        assert canonical_bytes(document) == rfc8785.dumps(_as_ijson_numbers(document))


def test_a_signed_envelope_takes_the_fast_path():
    """Not a correctness matter (both paths give the same bytes) but the cost of every receipt."""
    envelope = {"operation": "proben.test", "request": {"attribute": 4}, "result": {"dice": [1, 6]},
                "summary": "Probe gegen Schwierigkeit 2: 1 Erfolg. Knapp geschafft.",
                "receipt": {"id": "0e4b7c7e-3f7a-4c1e-9d1e-5e7a1b2c3d4e", "issued_at": "2026-11-29T12:00:00.000Z"}}
    assert _is_plain_json(orjson.dumps(envelope, option=orjson.OPT_SORT_KEYS))


@dataclasses.dataclass(frozen=True)
class _Roll:  # a rules result as operations._signed hands it over: fields out of alphabetical order
    side: _Side
    dice: tuple[int, ...]
    counts: dict
    score: float | int
    note: str | None = None


class _Side(enum.Enum):
    ATTACKER = "attacker"


@settings(max_examples=200, deadline=None)
@given(dice=st.lists(st.integers(1, 20), max_size=5).map(tuple),
       score=st.integers(-(2**70), 2**70) | st.floats(allow_nan=False, allow_infinity=False),
       note=st.none() | st.text(max_size=4))
def test_a_document_holding_dataclasses_is_canonicalized_as_its_plain_data(dice, score, note):
    """Results reach the signature as dataclasses (sorted through ``_dataclass_members``, not in
    declaration order); the reference path, for the floats and large integers here, gets them as
    plain data."""
    result = _Roll(_Side.ATTACKER, dice, {_Side.ATTACKER: 1, "z": (1, 2)}, score, note)
    document = {"result": result, "rolls": [result], "summary": "→"}
    assert canonical_bytes(document) == rfc8785.dumps(_as_ijson_numbers(plain(document)))


def test_an_object_that_is_no_dataclass_is_refused_not_written_from_its_attributes():
    class Plain:
        def __init__(self):
            self.secret = "x"

    with pytest.raises(rfc8785.CanonicalizationError):
        canonical_bytes({"result": Plain()})


@pytest.mark.parametrize("value", [0.1, -0.5, 100.0, 1e16, 1e-7, -2.5e300, 5e-324, 123456789012345.6])
def test_every_float_orjson_writes_is_found_wherever_it_stands(value):
    """orjson writes a float with a point or an exponent (``1e+16``, ``5e-324``): after a key, first in
    an array and after a comma, it sends the document to the reference implementation."""
    for document in ({"a": value}, {"a": [value]}, {"a": [1, value]}, {"a": 1, "b": value}):
        assert not _is_plain_json(orjson.dumps(document)), document


def test_integers_and_numbers_inside_strings_stay_on_the_fast_path():
    document = {"a": [1, -22, 2**53 - 1], "b": {"c": 0}, "d": "2 successes, 1 effect. 3-4e", "e": "x-1.5"}
    assert _is_plain_json(orjson.dumps(document))
