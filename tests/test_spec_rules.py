"""The rules across members that the spec states in JSON Schema 2020-12 (service/platform/operations/contract.py,
``JSON_SCHEMA_RULES``) say what the service does: a body the spec's schema refuses gets a 422, and a
body it accepts is served. Checked with jsonschema's 2020-12 validator over the served spec."""

from __future__ import annotations

import copy

import pytest
from jsonschema import Draft202012Validator

from service.platform.operations.operations import EXAMPLE_SEED, operations_of


def _validator(spec, path):
    body = spec["paths"][path]["post"]["requestBody"]["content"]["application/json"]
    return Draft202012Validator({**body["schema"], "components": spec["components"]}), body["example"]


def _agree(spec, client, path, body, *, valid: bool):
    validator, _ = _validator(spec, path)
    spec_says = validator.is_valid(body)
    answer = client.post(path, json=body)
    assert spec_says is valid, (path, body, [error.message for error in validator.iter_errors(body)])
    assert (answer.status_code == 200) is valid, (path, body, answer.get_json())
    if not valid:
        assert answer.status_code == 422 and answer.get_json()["errors"], answer.get_json()


def _rolling_paths(app):
    return sorted(operation.url for operation in operations_of(app).values()
                  if operation.schema is not None and "seed" in operation.schema.fields)


def test_randomness_members_exclude_each_other_in_spec_and_service(app, client, spec):
    paths = _rolling_paths(app)
    assert len(paths) >= 20
    for path in paths:
        _, example = _validator(spec, path)
        example = {key: value for key, value in example.items() if key not in ("manual", "seed")}
        _agree(spec, client, path, {**example, "seed": EXAMPLE_SEED}, valid=True)
        _agree(spec, client, path, {**example, "seed": EXAMPLE_SEED, "manual": None}, valid=True)
        _agree(spec, client, path, {**example, "seed": EXAMPLE_SEED, "manual": [1]}, valid=False)
        _agree(spec, client, path, {**example, "seed": 1, "idempotency_key": "retry-1"}, valid=False)


def test_healing_takes_chances_or_draws(spec, client):
    _, example = _validator(spec, "/v1/beutelschneider/healing")
    base = {key: value for key, value in example.items() if key not in ("chances", "draws")}
    path = "/v1/beutelschneider/healing"
    _agree(spec, client, path, {**base, "chances": "fair"}, valid=True)
    _agree(spec, client, path, {**base, "draws": 2, "chances": None}, valid=True)
    _agree(spec, client, path, {**base, "chances": "fair", "draws": 2}, valid=False)
    _agree(spec, client, path, base, valid=False)


def test_a_defender_who_defends_needs_a_skill(spec, client):
    path = "/v1/malmsturm/attack"
    _, example = _validator(spec, path)
    without_skill = copy.deepcopy(example)
    without_skill["defender"]["skill"] = None
    _agree(spec, client, path, without_skill, valid=False)
    _agree(spec, client, path, {**without_skill, "defend": False}, valid=True)
    _agree(spec, client, path, {**example, "difficulty": 2}, valid=False)  # a difficulty only undefended
    _agree(spec, client, path, {**example, "defend": False, "difficulty": 2}, valid=True)


def test_players_need_a_seat_and_only_players_have_one(spec, client):
    path = "/v1/weltenbuch/conflict"
    _, example = _validator(spec, path)
    seatless = copy.deepcopy(example)
    del seatless["parties"][0]["members"][0]["seat"]
    _agree(spec, client, path, seatless, valid=False)
    seated_npc = copy.deepcopy(example)
    seated_npc["parties"][1]["members"][0]["seat"] = 5
    _agree(spec, client, path, seated_npc, valid=False)
    _agree(spec, client, path, {**example, "die": 7}, valid=False)  # an even die only


@pytest.mark.parametrize("key, valid", [("k" * 255, True), ("k" * 256, False), ("k" * 60000, False)])
def test_idempotency_key_of_an_odds_body_has_the_rolling_limit(spec, client, key, valid):
    path = "/v1/paws/test/odds"
    _, example = _validator(spec, path)
    _agree(spec, client, path, {**example, "idempotency_key": key}, valid=valid)


def test_the_rules_no_schema_can_state_are_listed(spec):
    description = spec["paths"]["/v1/weltenbuch/conflict"]["post"]["description"]
    listed = description.split("Checked beyond the schema (422 naming the field):\n", 1)[1]
    assert "unique across the conflict" in listed and "pool_dice" in listed and "`manual`" in listed
    apply = spec["paths"]["/v1/beutelschneider/healing/apply"]["post"]["description"]
    assert "receipt verifies" in apply


@pytest.mark.parametrize("path, body, valid", [
    ("/v1/paws/test", {"rank": 1, "manual": [6]}, True),
    ("/v1/paws/test", {"rank": 1, "manual": [7]}, False),  # a d6 has no 7
    ("/v1/proben/test", {"attribute": 1, "difficulty": 1, "manual": [0]}, False),
    ("/v1/malmsturm/action", {"skill": 1, "difficulty": 0, "manual": [1, 0, -1, 1]}, True),
    ("/v1/malmsturm/action", {"skill": 1, "difficulty": 0, "manual": [2, 0, -1, 1]}, False),  # dF: -1..1
    ("/v1/beutelschneider/mortal-danger", {"bag": {"red": 1}, "danger": "low", "manual": ["red"]}, True),
    ("/v1/beutelschneider/mortal-danger", {"bag": {"red": 1}, "danger": "low", "manual": ["purple"]}, False),
])
def test_manual_values_are_bounded_per_die(spec, client, path, body, valid):
    _agree(spec, client, path, body, valid=valid)
