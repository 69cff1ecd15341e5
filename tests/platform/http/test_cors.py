"""CORS headers (API.md §1): the service answers exactly what flask-cors alone answers with the same
options, for every kind of request and origin setting (service/platform/http/cors.py), but for a
preflight's methods, which are the route's own."""

from __future__ import annotations

import itertools

import pytest
from flask import Flask
from flask_cors import CORS

from service.platform.http.cors import cors_options
from tests.conftest import make_app

ORIGIN_SETTINGS = [("*",), ("https://vtt.example",), ("https://vtt.example", "https://other.example")]
REQUESTS = [
    ("GET", "/livez", None),
    ("POST", "/v1/paws/test", {"rank": 3}),
    ("POST", "/v1/paws/test", {"rank": 99}),  # a 422 problem, answered by the error handlers
    ("GET", "/nowhere", None),  # a 404 problem
    ("DELETE", "/livez", None),  # a 405 problem
    ("OPTIONS", "/v1/paws/test", None),
]
HEADERS = [
    {},
    {"Origin": "https://vtt.example"},
    {"Origin": "https://VTT.example"},
    {"Origin": "https://evil.example"},
    {"Origin": ""},
    {"Origin": "https://vtt.example", "Access-Control-Request-Method": "POST",
     "Access-Control-Request-Headers": "Content-Type, Authorization, X-Request-ID"},
    {"Origin": "https://vtt.example", "Access-Control-Request-Method": "PUT",
     "Access-Control-Request-Private-Network": "true"},
    {"Access-Control-Request-Method": "POST"},
    {"Access-Control-Request-Private-Network": "true"},
]


def _flask_cors_alone(origins) -> Flask:
    """flask-cors with the service's options on an app that answers every path and method."""
    reference = Flask("reference")
    CORS(reference, **cors_options(origins))
    reference.add_url_rule("/<path:anything>", "anything", lambda anything: "",
                           methods=["GET", "POST", "DELETE", "PUT"])
    return reference


def _cors_part(response) -> tuple:
    """The CORS headers in order, and whether ``Vary`` names Origin (other values may join Vary)."""
    headers = [(name, value) for name, value in response.headers if name.lower().startswith("access-control-")]
    vary = {token.strip().lower() for value in response.headers.getlist("Vary") for token in value.split(",")}
    return headers, "origin" in vary


@pytest.mark.parametrize("origins", ORIGIN_SETTINGS, ids=lambda origins: ",".join(origins))
def test_cors_headers_are_flask_cors_own(signing_key_pem, origins):
    service = make_app(signing_key_pem, cors_origins=origins).test_client()
    reference = _flask_cors_alone(origins).test_client()
    for (method, path, body), headers in itertools.product(REQUESTS, HEADERS):
        answer = service.open(path, method=method, json=body, headers=headers)
        expected = reference.open(path, method=method, json=body, headers=headers)
        service_part, reference_part = _cors_part(answer), _cors_part(expected)
        if method == "OPTIONS":  # a preflight allows the route's own methods (hooks.answer_options)
            service_part, allowed = _without_allow_methods(service_part)
            reference_part, _ = _without_allow_methods(reference_part)
            assert allowed in (None, answer.headers["Allow"]), (path, headers)
        assert service_part == reference_part, (method, path, body, headers, answer.status_code)


def _without_allow_methods(part: tuple) -> tuple[tuple, str | None]:
    headers, varies = part
    allowed = [value for name, value in headers if name == "Access-Control-Allow-Methods"]
    rest = [(name, value) for name, value in headers if name != "Access-Control-Allow-Methods"]
    return (rest, varies), (allowed[0] if allowed else None)


def test_requests_without_origin_carry_the_wildcard(client):
    """Non-browser clients get the headers flask-cors always sends with `*`; a cache may then serve
    the answer to a browser too."""
    response = client.post("/v1/paws/test", json={"rank": 3})
    assert response.headers["Access-Control-Allow-Origin"] == "*"
    assert response.headers["Access-Control-Expose-Headers"] == "X-Request-ID"
