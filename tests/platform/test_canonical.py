"""The fast canonical form (orjson, sorted keys) is byte for byte the RFC 8785 reference form."""

from __future__ import annotations

import rfc8785
from hypothesis import given, settings
from hypothesis import strategies as st

from service.platform.receipts import _as_ijson_numbers, canonical_bytes

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
                     {"x": [True, False, None, -0]}, {"é": "\u2028\x7f\x1f"}):
        assert canonical_bytes(document) == rfc8785.dumps(_as_ijson_numbers(document))
