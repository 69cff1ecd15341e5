"""`null` for an optional field means "not given", for every operation of every system (browser
forms and JavaScript write null for an unset field); a required field given as null is refused."""

from __future__ import annotations

import pytest

SYSTEMS = ("beutelschneider", "paws", "weltenbuch", "proben", "malmsturm")


def _request_schema(spec, operation):
    ref = operation["requestBody"]["content"]["application/json"]["schema"]["$ref"]
    return spec["components"]["schemas"][ref.rsplit("/", 1)[-1]]


def _operations(spec, system):
    for path, item in spec["paths"].items():
        operation = item.get("post")
        if path.startswith(f"/v1/{system}/") and operation and "requestBody" in operation:
            yield path, operation


def _comparable(document):
    return {key: value for key, value in document.items() if key != "receipt"}


@pytest.mark.parametrize("system", SYSTEMS)
def test_every_optional_field_given_as_null_is_as_if_absent(spec, post, system):
    checked = 0
    for path, operation in _operations(spec, system):
        schema = _request_schema(spec, operation)
        example = dict(operation["requestBody"]["content"]["application/json"]["example"])
        if "seed" in schema["properties"] and "manual" not in example:
            example["seed"] = 42
        optional = set(schema["properties"]) - set(schema.get("required", ())) - set(example)
        with_nulls = {**example, **{name: None for name in optional}}
        status, plain = post(path, example)
        status_with_nulls, nulled = post(path, with_nulls)
        if status != 200:  # an apply operation's example carries no valid signature: same refusal
            assert status_with_nulls == status, (path, nulled)
            continue
        assert status_with_nulls == 200, (path, nulled)
        assert _comparable(nulled) == _comparable(plain), path
        checked += bool(optional)
    assert checked, f"{system}: no operation had an optional field to leave null"


def test_optional_request_fields_are_nullable_in_the_spec(spec):
    for system in SYSTEMS:
        for path, operation in _operations(spec, system):
            schema = _request_schema(spec, operation)
            for name, prop in schema["properties"].items():
                if name in schema.get("required", ()):
                    continue
                nullable = "null" in prop.get("type", ()) or {"type": "null"} in prop.get("anyOf", ())
                assert nullable, f"{path}: {name}"


def test_nested_nulls_take_the_defaults(post):
    status, with_nulls = post("/v1/paws/test", {"rank": 3, "fit": None, "wounds": None, "seed": 9,
                                                "advantages": {"equipment": "active", "personal": None}})
    assert status == 200, with_nulls
    _, plain = post("/v1/paws/test", {"rank": 3, "seed": 9, "advantages": {"equipment": "active"}})
    assert with_nulls["result"] == plain["result"]
    assert with_nulls["request"]["fit"] == "matching"
    status, drawn = post("/v1/beutelschneider/challenge",
                         {"bag": {"red": 5, "blue": None}, "ability": "combat", "difficulty": None, "seed": 3})
    assert status == 200, drawn
    assert drawn["request"]["difficulty"] == "normal"


def test_a_required_field_given_as_null_is_refused(post):
    status, problem = post("/v1/paws/test", {"rank": None})
    assert status == 422
    assert "rank" in problem["errors"]
    status, problem = post("/v1/malmsturm/action", {"skill": 1, "difficulty": None})
    assert status == 422
    assert "difficulty" in problem["errors"]
