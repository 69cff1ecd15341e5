"""What caches, proxies and browsers rely on: revalidation of the keys, the catalogue and the spec,
OPTIONS answered as HTTP and CORS mean it, and 415 for any body that is not JSON."""

from __future__ import annotations

import pytest

REVALIDATED = ("/v1/keys", "/v1/systems", "/openapi.json")


@pytest.mark.parametrize("path", REVALIDATED)
def test_revalidated_answers_carry_an_etag_and_cache_control(client, path):
    first = client.get(path)
    assert first.status_code == 200 and first.headers["Cache-Control"] == "no-cache"
    etag = first.headers["ETag"]
    assert etag.startswith('"') and client.get(path).headers["ETag"] == etag  # the same bytes, the same tag
    again = client.get(path, headers={"If-None-Match": etag})
    assert again.status_code == 304 and again.data == b"" and again.headers["ETag"] == etag
    assert again.headers["X-Request-ID"]
    changed = client.get(path, headers={"If-None-Match": '"another"'})
    assert changed.status_code == 200 and changed.data == first.data


def test_keys_of_another_deployment_have_another_etag(client, app, signing_key_pem):
    from service.platform.dice.receipts import generate_private_key_pem
    from tests.conftest import make_app

    other = make_app(generate_private_key_pem()).test_client()
    assert other.get("/v1/keys").headers["ETag"] != client.get("/v1/keys").headers["ETag"]


def test_rolling_answers_are_not_made_revalidatable(client):
    roll = client.post("/v1/paws/test", json={"rank": 2, "seed": 1})
    assert "ETag" not in roll.headers


@pytest.mark.parametrize("path, allowed", [("/v1/paws/test", {"POST", "OPTIONS"}),
                                           ("/v1/keys", {"GET", "HEAD", "OPTIONS"})])
def test_options_is_204_with_the_route_methods(client, path, allowed):
    answer = client.options(path)
    assert answer.status_code == 204 and answer.data == b""
    assert "Content-Type" not in answer.headers  # never an empty text/html page
    assert {method.strip() for method in answer.headers["Allow"].split(",")} == allowed


def test_preflight_allows_only_the_route_methods(client):
    answer = client.options("/v1/paws/test", headers={"Origin": "https://vtt.example",
                                                      "Access-Control-Request-Method": "POST",
                                                      "Access-Control-Request-Headers": "Content-Type"})
    assert answer.status_code == 204 and answer.headers["Access-Control-Allow-Origin"] == "*"
    methods = {method.strip() for method in answer.headers["Access-Control-Allow-Methods"].split(",")}
    assert methods == {"POST", "OPTIONS"}  # flask-cors alone advertised DELETE, PATCH and PUT


@pytest.mark.parametrize("content_type", ["text/plain", "application/x-www-form-urlencoded"])
def test_an_empty_body_that_is_not_json_is_415(client, content_type):
    answer = client.post("/v1/paws/test", data=b"", content_type=content_type)
    assert answer.status_code == 415 and answer.get_json()["instance"] == "/v1/paws/test"


def test_no_body_and_no_type_asks_for_a_json_object(client):
    answer = client.post("/v1/paws/test")
    assert answer.status_code == 422 and "{}" in answer.get_json()["detail"]
