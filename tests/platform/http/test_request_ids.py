"""Generated request ids (API.md §1: every response carries X-Request-ID): the hex form of a version-4
UUID, as before, and no two workers forked from one master repeat each other's."""

from __future__ import annotations

import os
import uuid

from service.platform.http.hooks import new_request_id


def test_new_ids_are_uuid4_hex():
    ids = {new_request_id() for _ in range(1000)}
    assert len(ids) == 1000
    for given in ids:
        parsed = uuid.UUID(hex=given)
        assert parsed.hex == given and parsed.version == 4 and parsed.variant == uuid.RFC_4122


def test_forked_workers_draw_different_ids():
    reader, writer = os.pipe()
    child = os.fork()
    if child == 0:  # as a gunicorn worker: forked, then drawing ids
        os.write(writer, new_request_id().encode())
        os._exit(0)
    os.close(writer)
    os.waitpid(child, 0)
    from_child = os.read(reader, 64).decode()
    os.close(reader)
    assert len(from_child) == 32 and from_child != new_request_id()


ORIGIN = {"Origin": "https://vtt.example"}
# Every kind of answer of the Flask app: operations, problems of the hooks, of validation and of
# routing, CORS (simple and preflight), revalidation, the docs, the pages and their files, metrics.
ANSWERS = [
    ("POST", "/v1/paws/test", {"json": {"rank": 3}}),
    ("POST", "/v1/paws/test", {"json": {"rank": 3}, "headers": {**ORIGIN, "Accept-Language": "de"}}),
    ("POST", "/v1/paws/test", {"json": {"rank": 99}}),
    ("POST", "/v1/paws/test", {"data": b"{", "content_type": "application/json"}),
    ("POST", "/v1/paws/test", {"data": b"rank=3", "content_type": "text/plain"}),
    ("POST", "/v1/paws/test", {"data": b"x" * 70_000, "content_type": "application/json"}),
    ("POST", "/v1/batch", {"json": {"requests": [{"operation": "paws.test", "body": {"rank": 3}}]}}),
    ("GET", "/v1/paws/test", {}),
    ("GET", "/nowhere", {"headers": ORIGIN}),
    ("OPTIONS", "/v1/paws/test", {"headers": {**ORIGIN, "Access-Control-Request-Method": "POST"}}),
    ("OPTIONS", "/livez", {}),
    ("GET", "/livez", {"headers": {"X-Request-ID": "given-id-1"}}),
    ("GET", "/v1/keys", {}),
    ("GET", "/openapi.json", {}),
    ("GET", "/docs", {}),
    ("GET", "/play", {}),
    ("GET", "/play/assets/play.css", {}),
    ("GET", "/metrics", {}),
]


def test_every_answer_carries_its_id_and_language_once(client):
    """The request id and the language headers are added, not set (hooks.echo_request_id,
    i18n.language_headers): no answer may carry either twice, nor Vary's Accept-Language."""
    statuses = set()
    for method, path, options in ANSWERS:
        with client.open(path, method=method, **options) as response:
            etag = response.headers.get("ETag")
            answers = [(response.status_code, response.headers)]
        if etag:
            with client.open(path, method=method, headers={"If-None-Match": etag}) as again:
                answers.append((again.status_code, again.headers))
        for status, headers in answers:
            statuses.add(status)
            case = (method, path, status)
            assert len(headers.getlist("X-Request-ID")) == 1, case
            # A 304 drops the body's headers (werkzeug's remove_entity_headers), Content-Language too.
            assert len(headers.getlist("Content-Language")) == (status != 304), case
            varies = [token.strip() for value in headers.getlist("Vary") for token in value.split(",")]
            assert varies.count("Accept-Language") <= 1 and varies.count("Origin") <= 1, case
    assert {200, 204, 304, 400, 404, 405, 413, 415, 422} <= statuses
    assert client.get("/livez", headers={"X-Request-ID": "given-id-1"}).headers["X-Request-ID"] == "given-id-1"
