"""Every error a client can cause is an RFC 9457 problem with a 4xx status; never a stack trace."""

from __future__ import annotations

import pytest

from tests.conftest import make_app

PROBLEM = "application/problem+json"


def _assert_problem(response, status):
    assert response.status_code == status
    assert response.mimetype == PROBLEM
    body = response.get_json(force=True)
    assert set(body) >= {"type", "title", "status", "detail", "instance"}
    assert body["status"] == status
    assert "Traceback" not in response.get_data(as_text=True)
    return body


def test_malformed_json_is_400(client):
    body = _assert_problem(client.post("/v1/proben/test", data="{attribute: 3", content_type="application/json"), 400)
    assert body["type"].endswith("/malformed-json")


def test_deep_nesting_is_400_not_a_crash(client):
    deep = "[" * 5000 + "]" * 5000
    _assert_problem(client.post("/v1/proben/test", data=deep, content_type="application/json"), 400)


def test_invalid_utf8_is_400(client):
    _assert_problem(client.post("/v1/proben/test", data=b'{"name": "\xff"}', content_type="application/json"), 400)


def test_body_that_is_not_an_object_is_422(client):
    _assert_problem(client.post("/v1/proben/test", json=[1, 2, 3]), 422)


def test_wrong_content_type_is_415(client):
    body = _assert_problem(client.post("/v1/proben/test", data="attribute=3", content_type="text/plain"), 415)
    assert "application/json" in body["detail"]


def test_unknown_path_is_404(client):
    _assert_problem(client.get("/v1/nothing-here"), 404)


def test_wrong_method_is_405_with_allow(client):
    response = client.get("/v1/proben/test")
    _assert_problem(response, 405)
    assert "POST" in response.headers["Allow"]


def test_oversized_body_is_413(client):
    huge = '{"name": "' + "x" * 70000 + '"}'
    body = _assert_problem(client.post("/v1/proben/test", data=huge, content_type="application/json"), 413)
    assert "65,536 bytes" in body["detail"]
    assert body["limit"] == {"name": "body_bytes", "value": 65536, "setting": "WURFWERK_MAX_BODY_BYTES"}


def test_validation_is_422_with_dotted_paths(client):
    response = client.post("/v1/proben/opposed", json={"a": {"attribute": "x"}, "b": {}})
    body = _assert_problem(response, 422)
    assert body["errors"]["a.attribute"] and body["errors"]["b.attribute"]


def test_unknown_lang_falls_back_to_english(client):
    """API.md §1 (issue 29): a language the service does not speak falls back to en, never a refusal."""
    response = client.post("/v1/proben/test?lang=fr", json={"attribute": 1, "difficulty": 1})
    assert response.status_code == 200 and response.get_json()["lang"] == "en"
    assert response.headers["Content-Language"] == "en"


def test_unexpected_errors_are_500_problems_without_traces(signing_key_pem):
    app = make_app(signing_key_pem)

    @app.route("/boom")
    def boom():
        raise RuntimeError("secret internals")

    response = app.test_client().get("/boom")
    body = _assert_problem(response, 500)
    assert "secret internals" not in response.get_data(as_text=True)
    assert body["type"].endswith("/internal-error")


@pytest.mark.parametrize("body,field", [
    ({"requests": [{"operation": "nope.test", "body": {}}]}, "requests.0.operation"),
    ({"requests": []}, "requests"),
    ({"requests": [{"operation": "proben.test", "body": {}, "x": 1}]}, "requests.0.x"),
])
def test_bad_batches_are_422(client, body, field):
    problem = _assert_problem(client.post("/v1/batch", json=body), 422)
    assert field in problem["errors"]


def test_oversized_batch_is_422_naming_the_limit(signing_key_pem):
    app = make_app(signing_key_pem)
    item = {"operation": "proben.test", "body": {"attribute": 1, "difficulty": 1}}
    problem = _assert_problem(app.test_client().post("/v1/batch", json={"requests": [item] * 501}), 422)
    assert "requests in one batch" in problem["errors"]["requests"][0]
    assert problem["limit"] == {"name": "batch_items", "value": 500, "setting": "WURFWERK_MAX_BATCH_ITEMS"}


def test_every_problem_type_is_listed_in_the_readme():
    """API.md §1: each distinct problem `type` is a stable URI listed in the README."""
    from pathlib import Path

    from service.platform.http.problems import PROBLEM_BASE, PROBLEM_TYPES

    readme = (Path(__file__).resolve().parents[3] / "README.md").read_text(encoding="utf-8")
    for slug in PROBLEM_TYPES:
        assert f"`{PROBLEM_BASE}{slug}`" in readme, slug
