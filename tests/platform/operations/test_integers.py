"""Integers as JSON Schema 2020-12 defines them (section 6.1.1 of the validation vocabulary: "a number
with a zero fractional part" is an integer): 2.0 is taken as 2 everywhere an integer is, and echoed
as 2; 2.5 stays a 422. The spec (OpenAPI 3.1) says `type: integer`, which 2.0 satisfies."""

from __future__ import annotations

import pytest

from service.platform.operations.fields import integral
from service.platform.operations.operations import EXAMPLE_SEED, operations_of


def _as_floats(value):
    """``value`` with every integer written as a float with a zero fraction (what JSON.stringify of
    a computed 2 never does, but json.dumps(2.0) and many languages' float arithmetic do)."""
    if isinstance(value, bool):
        return value
    if isinstance(value, int):
        return float(value)
    if isinstance(value, dict):
        return {key: _as_floats(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_as_floats(item) for item in value]
    return value


def _examples_with_integers(spec):
    """(path, request example) of every POST whose example has an integer."""
    for path, item in spec["paths"].items():
        body = item.get("post", {}).get("requestBody", {}).get("content", {}).get("application/json", {})
        if any(_leaves(body.get("example"))):
            yield path, body["example"]


def _leaves(value):
    if isinstance(value, dict):
        for item in value.values():
            yield from _leaves(item)
    elif isinstance(value, list):
        for item in value:
            yield from _leaves(item)
    elif isinstance(value, int) and not isinstance(value, bool):
        yield value


def test_integral_takes_only_zero_fractions():
    assert integral(2.0) == 2 and type(integral(2.0)) is int
    assert integral(-0.0) == 0 and type(integral(-0.0)) is int
    assert integral(2.5) == 2.5 and integral(float("inf")) == float("inf")
    assert integral(True) is True and integral("2") == "2"


def test_every_operation_takes_integers_written_with_a_zero_fraction(app, client, spec):
    checked = []
    rolling = {operation.url for operation in operations_of(app).values()
               if operation.schema is not None and "seed" in operation.schema.fields}
    for path, example in _examples_with_integers(spec):
        body = {**example, "seed": EXAMPLE_SEED} if path in rolling and "manual" not in example else example
        as_ints = client.post(path, json=body)
        as_floats = client.post(path, json=_as_floats(body))
        if as_ints.status_code == 422 and as_ints.get_json()["type"].endswith(("/invalid-receipt",
                                                                              "/invalid-session")):
            continue  # an example carrying a placeholder receipt or session: nothing to apply or reveal
        assert as_ints.status_code == 200, (path, as_ints.get_json())
        assert as_floats.status_code == 200, (path, as_floats.get_json())
        ints, floats = as_ints.get_json(), as_floats.get_json()
        if "request" in ints:  # echoed as integers: the same request as understood
            assert floats["request"] == ints["request"]
            assert all(type(value) is int for value in _leaves(floats["request"]) if value == int(value))
        assert floats.get("result", floats.get("odds")) == ints.get("result", ints.get("odds")), path
        checked.append(path)
    assert len(checked) >= 30, checked  # every system's integer-bearing operations and their odds


@pytest.mark.parametrize("body", [{"rank": 2.0}, {"rank": 2.0, "seed": 7.0}, {"rank": 2, "manual": [4.0, 1.0]},
                                  {"rank": 2, "wounds": 1.0, "extra_bonus_dice": 0.0}])
def test_zero_fractions_are_echoed_as_integers(post, body):
    status, roll = post("/v1/paws/test", body)
    assert status == 200, roll
    for name, value in body.items():
        echoed = roll["request"][name]
        assert echoed == value and (type(echoed) is list or type(echoed) is int), (name, echoed)
    if "manual" in body:
        assert roll["randomness"]["events"][0]["values"] == [4, 1]


@pytest.mark.parametrize("body, field", [({"rank": 2.5}, "rank"), ({"rank": 2, "seed": 1.5}, "seed"),
                                         ({"rank": 2, "manual": [4.5, 1]}, "manual.0"),
                                         ({"rank": 1e300}, "rank"), ({"rank": True}, "rank")])
def test_fractions_stay_refused(post, body, field):
    status, problem = post("/v1/paws/test", body)
    assert status == 422 and field in problem["errors"], problem
