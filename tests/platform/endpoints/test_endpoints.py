"""Platform endpoints (API.md §1.4): health, metrics, docs, catalogue, batch, CORS, API keys, ids."""

from __future__ import annotations

from tests.conftest import make_app

TEST_BODY = {"attribute": 3, "difficulty": 2}


def test_health(client):
    assert client.get("/livez").get_json() == {"status": "ok"}
    ready = client.get("/readyz").get_json()
    assert ready["status"] == "ready" and ready["kid"] and ready["ephemeral_key"] is False


def test_metrics_count_requests(client):
    client.post("/v1/proben/test", json={**TEST_BODY, "seed": 1})
    answer = client.get("/metrics")
    assert 'wurfwerk_requests_total{endpoint="proben.proben_test",method="POST",status="200"}' in answer.text
    assert answer.content_type.count("charset=") == 1, answer.content_type


def test_a_metrics_token_limits_metrics_to_its_bearer(signing_key_pem):
    """Issue 52: WURFWERK_METRICS_TOKEN; an API key is no metrics token, and the API keys do not
    close /metrics by themselves."""
    client = make_app(signing_key_pem, metrics_token="scrape-me", api_keys=("s3cret",)).test_client()
    for headers in ({}, {"Authorization": "Bearer s3cret"}, {"Authorization": "Bearer scrape-me-not"},
                    {"Authorization": "Basic scrape-me"}):
        refused = client.get("/metrics", headers=headers)
        assert refused.status_code == 401 and refused.mimetype == "application/problem+json", headers
        assert refused.headers["WWW-Authenticate"].startswith("Bearer")
        assert "wurfwerk_requests_total" not in refused.text
    german = client.get("/metrics", headers={"Accept-Language": "de"}).get_json()
    assert german["detail"].startswith("/metrics verlangt")
    scraped = client.get("/metrics", headers={"Authorization": "Bearer scrape-me"})
    assert scraped.status_code == 200 and "wurfwerk_requests_total" in scraped.text
    assert client.get("/livez").status_code == 200


def test_openapi_and_docs_are_served_locally(client):
    spec = client.get("/openapi.json").get_json()
    assert spec["openapi"].startswith("3.")
    page = client.get("/docs").get_data(as_text=True)
    assert "/docs/swagger-ui-bundle.js" in page and "cdn" not in page.lower()
    with client.get("/docs/swagger-ui-bundle.js") as asset:
        assert asset.status_code == 200 and len(asset.get_data()) > 100_000


def test_catalogue_lists_systems_operations_enums_glossary(client):
    systems = {s["id"]: s for s in client.get("/v1/systems").get_json()["systems"]}
    proben = systems["proben"]
    ids = {op["id"] for op in proben["operations"]}
    assert {"proben.test", "proben.test.odds", "proben.extended"} <= ids
    assert {"id": "proben.test", "method": "POST", "path": "/v1/proben/test"} in proben["operations"]
    assert proben["glossary"]["Probe"] == "test" and proben["enums"]["success_rule"] == ["meet", "exceed"]


def test_batch_items_equal_single_calls(client):
    single = client.post("/v1/proben/test", json={**TEST_BODY, "seed": 5}).get_json()
    response = client.post("/v1/batch", json={"requests": [
        {"operation": "proben.test", "body": {**TEST_BODY, "seed": 5}},
        {"operation": "proben.test", "body": {"attribute": "x"}},
        {"operation": "proben.test.odds", "body": TEST_BODY},
    ]})
    assert response.status_code == 200
    first, second, third = response.get_json()["results"]
    assert first["status"] == 200 and first["body"]["result"] == single["result"]
    assert first["body"]["receipt"]["id"] != single["receipt"]["id"]  # each item has its own receipt
    assert client.post("/v1/receipts/verify", json=first["body"]).get_json()["valid"]
    single_problem = client.post("/v1/proben/test", json={"attribute": "x"}).get_json()
    assert second["status"] == 422
    assert {**second["body"], "request_id": ""} == {**single_problem, "request_id": ""}
    assert third["status"] == 200 and third["body"]["operation"] == "proben.test.odds"


def test_batch_item_rule_errors_match_single_calls(client):
    body = {"attribute": 2, "difficulty": 1, "manual": [5]}  # one value short
    single = client.post("/v1/proben/test", json=body).get_json()
    item = client.post("/v1/batch", json={"requests": [{"operation": "proben.test", "body": body}]}).get_json()
    assert item["results"][0]["status"] == 422
    assert {**item["results"][0]["body"], "request_id": ""} == {**single, "request_id": ""}


def test_batch_items_inherit_language(client):
    results = client.post("/v1/batch?lang=de", json={"requests": [
        {"operation": "proben.test", "body": {**TEST_BODY, "seed": 5}}]}).get_json()["results"]
    assert results[0]["body"]["lang"] == "de"


def test_request_id_is_echoed_or_generated(client):
    assert client.get("/livez", headers={"X-Request-ID": "abc-123"}).headers["X-Request-ID"] == "abc-123"
    generated = client.get("/livez").headers["X-Request-ID"]
    assert len(generated) == 32
    weird = client.get("/livez", headers={"X-Request-ID": "bad id\twith spaces"}).headers["X-Request-ID"]
    assert weird != "bad id\twith spaces"


def test_cors_allows_any_origin_by_default(client):
    preflight = client.options("/v1/proben/test", headers={
        "Origin": "https://vtt.example", "Access-Control-Request-Method": "POST",
        "Access-Control-Request-Headers": "Content-Type, Authorization, X-Request-ID"})
    assert preflight.status_code == 204  # a preflight answers in its headers, with no content
    assert preflight.headers["Access-Control-Allow-Origin"] == "*"
    allowed = preflight.headers["Access-Control-Allow-Headers"].lower()
    assert {"content-type", "authorization", "x-request-id"} <= {h.strip() for h in allowed.split(",")}


def test_cors_origins_are_configurable(signing_key_pem):
    client = make_app(signing_key_pem, cors_origins=("https://vtt.example",)).test_client()
    ok = client.get("/livez", headers={"Origin": "https://vtt.example"})
    assert ok.headers["Access-Control-Allow-Origin"] == "https://vtt.example"
    other = client.get("/livez", headers={"Origin": "https://evil.example"})
    assert "Access-Control-Allow-Origin" not in other.headers


def test_api_keys_guard_v1_but_not_keys_health_docs(signing_key_pem):
    client = make_app(signing_key_pem, api_keys=("s3cret",)).test_client()
    refused = client.post("/v1/proben/test", json=TEST_BODY)
    assert refused.status_code == 401 and refused.mimetype == "application/problem+json"
    assert refused.headers["WWW-Authenticate"].startswith("Bearer")
    wrong = client.post("/v1/proben/test", json=TEST_BODY, headers={"Authorization": "Bearer nope"})
    assert wrong.status_code == 401
    ok = client.post("/v1/proben/test", json=TEST_BODY, headers={"Authorization": "Bearer s3cret"})
    assert ok.status_code == 200
    for open_path in ("/v1/keys", "/livez", "/readyz", "/metrics", "/openapi.json", "/docs"):
        assert client.get(open_path).status_code == 200, open_path
    preflight = client.options("/v1/proben/test", headers={
        "Origin": "https://vtt.example", "Access-Control-Request-Method": "POST"})
    assert preflight.status_code == 204  # a preflight answers in its headers, with no content


def test_limits_are_configurable(signing_key_pem):
    from service.platform.http.limits import Limits

    client = make_app(signing_key_pem, limits=Limits(pool_dice=5)).test_client()
    response = client.post("/v1/proben/test", json={"attribute": 6, "difficulty": 1})
    assert response.status_code == 422
    assert "at most 5" in response.get_json()["errors"]["attribute"][0]
