"""Revalidation for the answers a client fetches again and again: the keys it verifies receipts with,
the catalogue and the spec. Each carries a strong ``ETag`` (a hash of its bytes) and
``Cache-Control: no-cache`` (store, but ask again first: keys rotate), and a request whose
``If-None-Match`` names the current ETag gets ``304 Not Modified`` without the body."""

from __future__ import annotations

from flask import Request, Response

CACHE_CONTROL = "no-cache"
# The endpoints whose answers depend on nothing but the deployment (keys, code version).
REVALIDATED_ENDPOINTS = frozenset(("platform.keys", "platform.systems", "api-docs.openapi_json"))


def revalidatable(current: Request, response: Response) -> Response:
    """``response`` with its ETag and Cache-Control, or a 304 when the client's copy is current."""
    if response.status_code != 200:
        return response
    response.add_etag()
    response.headers["Cache-Control"] = CACHE_CONTROL
    response.make_conditional(current)  # in place: 304 and no body when the client's copy is current
    return response


def revalidated(current: Request, response: Response) -> Response:
    """The revalidated endpoints' answers made conditional (a step of service/platform/http/request_steps.py)."""
    if current.endpoint in REVALIDATED_ENDPOINTS and current.method in ("GET", "HEAD"):
        return revalidatable(current, response)
    return response
