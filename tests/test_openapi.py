"""The committed openapi.yaml is what the code generates, and it is a complete, valid contract."""

from __future__ import annotations

from pathlib import Path

import yaml
from openapi_spec_validator import validate

ROOT = Path(__file__).resolve().parents[1]
COMMITTED = ROOT / "openapi.yaml"
METHODS = ("get", "post", "put", "patch", "delete")


def _operations(spec):
    for path, item in spec["paths"].items():
        for method, operation in item.items():
            if method in METHODS:
                yield path, method, operation


def test_committed_spec_matches_the_code(app, tmp_path):
    generated = tmp_path / "openapi.yaml"
    result = app.test_cli_runner().invoke(args=["openapi", "write", "--format=yaml", str(generated)])
    assert result.exit_code == 0, result.output
    assert COMMITTED.read_text() == generated.read_text(), \
        "openapi.yaml drifted from the code: run `make openapi` and commit it"


def test_committed_spec_equals_served_spec(spec):
    assert yaml.safe_load(COMMITTED.read_text()) == spec


def test_spec_is_valid(spec):
    validate(spec)


def test_every_operation_is_fully_documented(spec):
    seen = set()
    for path, method, operation in _operations(spec):
        where = f"{method.upper()} {path}"
        operation_id = operation.get("operationId")
        assert operation_id and operation_id not in seen, where
        seen.add(operation_id)
        assert operation.get("summary"), where
        assert operation.get("description"), where
        ok = operation["responses"]["200"]["content"]["application/json"]
        if path.startswith("/v1/") and path not in ("/v1/keys", "/v1/systems"):
            assert "example" in ok, f"{where}: response example"
        if "requestBody" in operation:
            assert "example" in operation["requestBody"]["content"]["application/json"], where
            for status in ("400", "415", "422"):
                assert status in operation["responses"], f"{where}: {status}"


def test_problem_responses_are_problem_json(spec):
    for name, response in spec["components"]["responses"].items():
        if name != "OK" and "content" in response:
            assert list(response["content"]) == ["application/problem+json"], name


def test_rolling_operations_have_odds_twins(spec):
    ids = {operation["operationId"] for _, _, operation in _operations(spec)}
    for _path, _method, operation in _operations(spec):
        schema_ref = operation.get("requestBody", {}).get("content", {}).get("application/json", {}).get("schema", {})
        component = schema_ref.get("$ref", "").rsplit("/", 1)[-1]
        if component and "seed" in spec["components"]["schemas"][component].get("properties", {}):
            assert f"{operation['operationId']}.odds" in ids, operation["operationId"]
