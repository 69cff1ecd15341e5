"""A result is described once, by its dataclass (results.py): its schema in the spec, the response and
the signed payload all come from the same fields."""

from __future__ import annotations

import dataclasses

import pytest

import service
from service.platform.operations.fields import Int, StrictSchema
from service.platform.operations.operations import Operation, System, operations_of
from service.platform.values.results import ResultSchemas, described
from tests.conftest import make_app


class DiceRequest(StrictSchema):
    dice = Int(load_default=1)


def dummy_system(extra_fields: list) -> System:
    """A system whose one operation returns a dataclass of ``values`` plus ``extra_fields``."""
    result = dataclasses.make_dataclass("Roll", [("values", list[int]), *extra_fields], frozen=True)

    def roll(body, source, lang):
        """Roll some dice

        Ruling: none, this system only exists in a test.
        """
        extras = {name: 7 for name, *_ in extra_fields}
        return result(values=source.roll(body["dice"], 6), **extras), "rolled"

    return System("dummy", title="Dummy", description="A test system.", rules_file="none", operations=(
        Operation.rolling("/roll", roll, operation="roll", request=DiceRequest,
                          result=ResultSchemas("Dummy").of(result), example={"dice": 2}),
    ))


@pytest.fixture
def app_of(monkeypatch, signing_key_pem):
    def build(system: System):
        monkeypatch.setattr(service, "discover", lambda: [system])
        return make_app(signing_key_pem)
    return build


def test_a_field_added_to_a_result_dataclass_alone_reaches_the_spec_the_response_and_the_payload(app_of):
    before = app_of(dummy_system([]))
    after = app_of(dummy_system([("bonus", int, dataclasses.field(metadata=described("A bonus die, for this test.")))]))

    component = before.test_client().get("/openapi.json").get_json()["components"]["schemas"]["DummyRoll"]
    assert set(component["properties"]) == {"values"}
    component = after.test_client().get("/openapi.json").get_json()["components"]["schemas"]["DummyRoll"]
    assert component["properties"]["bonus"] == {"type": "integer", "description": "A bonus die, for this test."}
    assert "bonus" in component["required"]

    client = after.test_client()
    response = client.post("/v1/dummy/roll", json={"dice": 2, "seed": 1}).get_json()
    assert response["result"]["bonus"] == 7
    verdict = client.post("/v1/receipts/verify", json=response).get_json()
    assert verdict["valid"], verdict  # the signed payload held exactly what the response shows
    tampered = {**response, "result": {"values": response["result"]["values"]}}
    assert not client.post("/v1/receipts/verify", json=tampered).get_json()["valid"]


def test_every_result_schema_of_the_service_is_its_dataclass(app, spec):
    """No hand-written output schema is left: each result component lists its dataclass's fields."""
    schemas = spec["components"]["schemas"]
    results = [operation.result for operation in operations_of(app).values()
               if not operation.kind.rules.twin]
    assert len(results) > 20
    for schema in results:
        names = [field.name for field in dataclasses.fields(schema.result_type)]
        assert sorted(schemas[schema.__name__]["properties"]) == sorted(names), schema.__name__
