"""The committed openapi.yaml is what the code generates, and it is a complete, valid contract."""

from __future__ import annotations

import copy
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


def test_committed_spec_equals_served_spec(app, spec):
    # The served spec signs the first-phase responses in the examples with the server's key
    # (contract.with_signed_examples); the committed one carries the placeholder receipt.
    committed = yaml.safe_load(COMMITTED.read_text())
    assert spec != committed
    assert _unsigned(spec, app.extensions["wurfwerk"].keys.kid) == committed


def _unsigned(spec, kid):
    from service.platform.operations.operations import EXAMPLE_RECEIPT

    spec = copy.deepcopy(spec)
    for _path, _method, operation in _operations(spec):
        example = operation.get("requestBody", {}).get("content", {}).get("application/json", {}).get("example", {})
        echoed = operation["responses"]["200"]["content"]["application/json"].get("example", {}).get("request", {})
        for member, value in example.items():
            if isinstance(value, dict) and value.get("receipt", {}).get("kid") == kid:
                example[member] = {**value, "receipt": dict(EXAMPLE_RECEIPT)}
                if isinstance(echoed, dict) and member in echoed:
                    echoed[member] = example[member]
    return spec


def test_second_phase_examples_of_the_served_spec_work_as_sent(client, spec):
    """What /docs' "Try it out" sends: the served example, whose first phase verifies."""
    for path in ("/v1/beutelschneider/healing/apply", "/v1/beutelschneider/experience/apply",
                 "/v1/weltenbuch/narration"):
        operation = spec["paths"][path]["post"]
        answer = client.post(path, json=operation["requestBody"]["content"]["application/json"]["example"])
        assert answer.status_code == 200, (path, answer.get_json())
        documented = operation["responses"]["200"]["content"]["application/json"]["example"]
        result = answer.get_json()["result"]  # what the example documents (narration's is hand-written)
        assert {key: result[key] for key in documented["result"]} == documented["result"], path


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


def _resolved(spec, response):
    return spec["components"]["responses"][response["$ref"].rsplit("/", 1)[-1]] if "$ref" in response else response


def test_platform_answers_are_documented_on_every_operation(spec):
    for path, method, operation in _operations(spec):
        where, responses = f"{method.upper()} {path}", operation["responses"]
        for status in ("414", "431"):  # gunicorn refuses any request over its limits
            assert status in responses, f"{where}: {status}"
        for status, response in responses.items():
            headers = _resolved(spec, response).get("headers", {})
            assert "X-Request-ID" in headers, f"{where} {status}: X-Request-ID"
        if path.startswith("/v1/"):
            overloaded = _resolved(spec, responses["503"])
            assert "Retry-After" in overloaded["headers"], where
        if "requestBody" not in operation:  # nothing to be too large or of the wrong type
            assert not {"413", "415"} & set(responses), where
        else:
            assert "408" in responses, where


def test_keys_are_documented_where_they_apply_and_open_endpoints_say_so(spec):
    from service.platform.http.hooks import needs_api_key

    for path, method, operation in _operations(spec):
        where = f"{method.upper()} {path}"
        if needs_api_key(path):
            assert operation["security"] == [{"bearer": []}, {}], where
            unauthorized = _resolved(spec, operation["responses"]["401"])
            assert "WWW-Authenticate" in unauthorized["headers"], where
        else:
            assert operation["security"] == [] and "401" not in operation["responses"], where
    assert "/v1/systems" in spec["paths"] and needs_api_key("/v1/systems")


def test_revalidated_answers_document_etag_and_304(spec):
    for path in ("/v1/keys", "/v1/systems", "/openapi.json"):
        if path not in spec["paths"]:
            continue  # flask-smorest does not document its own spec route
        operation = spec["paths"][path]["get"]
        assert {"ETag", "Cache-Control"} <= set(operation["responses"]["200"]["headers"]), path
        assert "304" in operation["responses"], path
        assert any(p["name"] == "If-None-Match" for p in operation["parameters"]), path


def test_documented_401_is_what_the_service_sends(signing_key_pem):
    from tests.conftest import make_app

    client = make_app(signing_key_pem, api_keys=("s3cret",)).test_client()
    for path in ("/v1/systems", "/v1/malmsturm/ladder"):
        refused = client.get(path)
        assert refused.status_code == 401 and refused.headers["WWW-Authenticate"].startswith("Bearer"), path
        assert refused.headers["X-Request-ID"]
