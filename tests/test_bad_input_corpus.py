"""A corpus of malformed requests across every operation: each gets a 4xx problem, none a 5xx, and
the service answers normally afterwards. Built from the spec, so new operations join automatically."""

from __future__ import annotations

import copy
import json

import pytest

PROBLEM = "application/problem+json"
BROKEN_JSON = ['{"a": 1', '{"a": 1,}', "{'a': 1}", '{"a": NaN}', "not json at all", '{"a": "\\ud800"}',
               "[" * 3000 + "]" * 3000, '{"a": 1}{"b": 2}']
NOT_OBJECTS = ["[]", '"text"', "12", "null", "true"]


def _post_operations(spec):
    for path, item in sorted(spec["paths"].items()):
        operation = item.get("post")
        if operation and "requestBody" in operation:
            media = operation["requestBody"]["content"]["application/json"]
            schema = media["schema"]
            name = schema["$ref"].rsplit("/", 1)[-1]
            yield path, media["example"], spec["components"]["schemas"][name]


def _other_type(value):
    """A value of another JSON type: the service never coerces, so this is always invalid."""
    if isinstance(value, bool):
        return "yes"
    if isinstance(value, (int, float)):
        return "12"
    if isinstance(value, str):
        return 12
    if isinstance(value, list):
        return {"not": "a list"}
    return "not an object"


def _corpus(spec):
    for path, example, schema in _post_operations(spec):
        for text in BROKEN_JSON + NOT_OBJECTS:
            yield path, text, "application/json"
        yield path, json.dumps(example), "text/plain"
        if schema.get("additionalProperties") is False:
            yield path, json.dumps({**example, "zzz_unknown": 1}), "application/json"
        for field in schema.get("required", []):
            missing = {k: v for k, v in example.items() if k != field}
            yield path, json.dumps(missing), "application/json"
        for field, value in example.items():
            if field not in schema.get("properties", {}):
                continue  # /v1/receipts/verify takes any response: only its receipt is constrained
            yield path, json.dumps({**example, field: _other_type(value)}), "application/json"
            if isinstance(value, int) and not isinstance(value, bool):
                yield path, json.dumps({**example, field: 10**30}), "application/json"
            if isinstance(value, str):  # longer than the field allows (100 where the spec gives no maximum)
                too_long = schema["properties"][field].get("maxLength", 99) + 1
                yield path, json.dumps({**example, field: "🎲" * too_long}), "application/json"
            if isinstance(value, (dict, list)):
                nested = copy.deepcopy(value)
                for _ in range(200):
                    nested = [nested]
                yield path, json.dumps({**example, field: nested}), "application/json"


@pytest.fixture(scope="module")
def corpus(app):
    return list(_corpus(app.test_client().get("/openapi.json").get_json()))


def test_corpus_is_large_enough(corpus):
    assert len(corpus) >= 200
    assert len({path for path, _, _ in corpus}) >= 40


def test_every_malformed_request_is_a_4xx_problem(app, corpus):
    client = app.test_client()
    failures = []
    for path, data, content_type in corpus:
        response = client.post(path, data=data.encode("utf-8", "surrogatepass"), content_type=content_type)
        body = response.get_data(as_text=True)
        ok = (400 <= response.status_code < 500 and response.mimetype == PROBLEM
              and "Traceback" not in body and json.loads(body).get("detail"))
        if not ok:
            failures.append((path, data[:120], response.status_code, body[:200]))
    assert failures == []


def test_the_service_answers_normally_afterwards(app, corpus):
    client = app.test_client()
    for path, data, content_type in corpus[:50]:
        client.post(path, data=data.encode("utf-8", "surrogatepass"), content_type=content_type)
    assert client.get("/livez").status_code == 200
    for path, example, _schema in _post_operations(client.get("/openapi.json").get_json()):
        if "apply" in path or "narration" in path or "verify" in path or path.startswith("/v1/sessions/"):
            continue  # their examples carry a placeholder signature by design
        assert client.post(path, json=example).status_code == 200, path
