"""The request path of declared operations (operations.py): one path for single calls and batch items,
routed and documented from the declarations alone."""

from __future__ import annotations

import dataclasses
import enum

import marshmallow as ma
from flask import Flask
from webargs.flaskparser import FlaskParser

from service.platform.endpoints.api import WurfwerkApi
from service.platform.operations import operations
from service.platform.operations.fields import Int, StrictSchema
from service.platform.operations.openapi import document_systems
from service.platform.operations.operations import Operation, System, operations_of, route
from service.platform.values import plain_data


class DiceRequest(StrictSchema):
    dice = Int(load_default=1)


class DiceResult(ma.Schema):
    values = ma.fields.List(ma.fields.Integer())


def roll(body, source, lang):
    """Roll some dice

    Ruling: none, this system only exists in a test.
    """
    return {"values": source.roll(body["dice"], 6)}, f"rolled {body['dice']}"


DUMMY = System("dummy", title="Dummy", description="A test system.", rules_file="none", operations=(
    Operation.rolling("/roll", roll, operation="roll", request=DiceRequest, result=DiceResult,
                      example={"dice": 2}),
))


def test_a_declaration_is_routed_and_documented_from_its_table():
    app = Flask(__name__)
    app.config.update(API_TITLE="test", API_VERSION="1", OPENAPI_VERSION="3.1.0")
    api = WurfwerkApi(app)
    route(app, [DUMMY])
    document_systems(api, app, [DUMMY])
    assert list(operations_of(app)) == ["dummy.roll"]
    assert app.url_map.bind("").match("/v1/dummy/roll", method="POST")[0] == "dummy.dummy_roll"
    entry = api.spec.to_dict()["paths"]["/v1/dummy/roll"]["post"]
    assert (entry["operationId"], entry["summary"], entry["tags"]) == ("dummy.roll", "Roll some dice", ["dummy"])
    request, ok = entry["requestBody"]["content"]["application/json"], entry["responses"]["200"]["content"]
    assert request["schema"] == {"$ref": "#/components/schemas/DummyRollRequest"}
    assert ok["application/json"]["example"]["summary"] == "rolled 2"


def test_every_declared_operation_is_served_by_respond(app, client, monkeypatch):
    """Flask runs respond for each operation, nothing of flask-smorest around it."""
    served = []
    respond = operations.respond

    def spy(operation, body, call):
        served.append(operation.id)
        return respond(operation, body, call)

    monkeypatch.setattr(operations, "respond", spy)
    for operation in operations_of(app).values():
        if operation.method == "GET":
            client.get(operation.url)
        else:
            client.post(operation.url, json={})
    assert served == list(operations_of(app))


def test_the_random_source_is_chosen_per_call_with_the_request_at_hand(client, monkeypatch):
    """randomness_source sees each call's headers, and a batch item its index."""
    calls = []
    choose = operations.randomness_source

    def spy(operation_id, body, randomness, call):
        calls.append((dict(randomness), call.headers.get("X-Trace"), call.item))
        return choose(operation_id, body, randomness, call)

    monkeypatch.setattr(operations, "randomness_source", spy)
    assert client.post("/v1/paws/test", json={"rank": 2, "seed": 7}, headers={"X-Trace": "one"}).status_code == 200
    items = [{"operation": "paws.test", "body": {"rank": 2}},
             {"operation": "paws.test", "body": {"rank": 1, "seed": 3}}]
    response = client.post("/v1/batch", json={"requests": items}, headers={"X-Trace": "batch"})
    assert [result["status"] for result in response.get_json()["results"]] == [200, 200]
    assert calls == [({"seed": 7}, "one", None), ({}, "batch", 0), ({"seed": 3}, "batch", 1)]


def test_the_json_loader_of_our_parser_leaves_webargs_own_parsers_alone():
    """location_loader writes into the parser class's table; ours has its own copy."""
    assert FlaskParser.__location_map__["json"] == "load_json"


# -- results as JSON ---------------------------------------------------------------------------

def test_plain_writes_what_walking_the_value_writes():
    class Colour(enum.Enum):
        RED = "red"

    @dataclasses.dataclass(frozen=True)
    class Draw:
        colours: tuple[Colour, ...]
        counts: dict
        note: str | None = None

    value = [Draw((Colour.RED, Colour.RED), {Colour.RED: 2, "white": (1, 2)}), Draw((), {}, "none")]
    assert plain_data.plain(value) == plain_data.plain_in_python(value) == [
        {"colours": ["red", "red"], "counts": {"red": 2, "white": [1, 2]}, "note": None},
        {"colours": [], "counts": {}, "note": "none"}]
    assert plain_data.plain(2**70) == 2**70  # beyond orjson: converted in Python
