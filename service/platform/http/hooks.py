"""Per-request checks that run before any view (request id, API keys, content type, JSON syntax), and
the request's id and OPTIONS answers after it: steps of service/platform/http/request_steps.py."""

from __future__ import annotations

import hmac
import io
import re
import socket
import uuid
from collections.abc import Iterable
from typing import BinaryIO

import orjson
from flask import Flask, Request, Response, g, request
from flask.ctx import _AppCtxGlobals
from werkzeug.exceptions import ClientDisconnected, RequestEntityTooLarge

from service.platform.http.limits import limit_member
from service.platform.http.problems import http_error, problem
from service.platform.http.runtime import current_runtime
from service.platform.values.errors import InputError
from service.platform.values.plain_data import MAX_JSON_DEPTH, json_depth
from service.platform.words.messages import LimitMessage, Message, Number, say

_REQUEST_ID = re.compile(r"^[A-Za-z0-9._:\-]{1,128}$")
# Paths that stay open when API keys are configured.
_OPEN_V1_PATHS = ("/v1/keys",)
_BODY_METHODS = frozenset(("POST", "PUT", "PATCH"))


def request_id_from(given: str | None) -> str:
    """The client's X-Request-ID when it is a plausible id, else a new one."""
    return given if given and _REQUEST_ID.match(given) else new_request_id()


def new_request_id() -> str:
    """A new id: the hex form of a random (version 4) UUID."""
    return uuid.uuid4().hex


def check_request(current: Request) -> None:
    """The request's id, then (but for a CORS preflight or an unrouted path) its API key and body."""
    data = _request_globals()
    # The WSGI variable rather than request.headers, whose get() raises and catches a KeyError
    # when the header is absent (most requests).
    data.request_id = request_id_from(current.environ.get("HTTP_X_REQUEST_ID"))
    if current.method == "OPTIONS":  # CORS preflight: answered by flask-cors, never refused
        return
    if current.routing_exception is not None:  # 404/405 come first: there is nothing to check
        return
    _check_api_key(current)
    _check_body(current, data)


def _request_globals() -> _AppCtxGlobals:
    # flask.g itself, once: each attribute of the proxy is a lookup of the app context of its own.
    return g._get_current_object()


def needs_api_key(path: str) -> bool:
    """Whether ``path`` needs the bearer key when API keys are configured (the spec says so too)."""
    return path.startswith("/v1/") and path not in _OPEN_V1_PATHS


def _check_api_key(current: Request) -> None:
    keys = current_runtime().config.api_keys
    if not keys or not needs_api_key(current.path):
        return
    if not bearer_token_in(keys, current):
        raise http_error(401, say("This API needs `Authorization: Bearer <key>` with a valid key."),
                         "unauthorized")


def bearer_token_in(keys: Iterable[str], current: Request) -> bool:
    """Whether the request's ``Authorization: Bearer <key>`` names one of ``keys`` (compared in
    constant time)."""
    scheme, _, token = current.headers.get("Authorization", "").partition(" ")
    return scheme.lower() == "bearer" and any(hmac.compare_digest(token.encode(), key.encode()) for key in keys)


def _check_body(current: Request, data: _AppCtxGlobals) -> None:
    """A body must be JSON; parse it here once (``request_body()`` hands it to the view) so syntax
    errors are a clean 400 before validation."""
    if current.method not in _BODY_METHODS:
        return
    try:
        raw = read_body(current, current_runtime().config.limits.body_bytes)
    except RequestEntityTooLarge:
        _stop_reading()
        raise http_error(413, _too_large_detail(), "payload-too-large") from None
    if (raw or current.mimetype) and not _is_json_media_type(current):  # an empty text/plain body too
        raise http_error(415, say("The body must be application/json, not %(type)s.",
                                  type=current.mimetype or say("untyped")), "unsupported-media-type")
    if not raw:
        # Every POST of this API documents a required JSON body; `{}` asks for all defaults.
        raise InputError("body", say("a JSON object is required (send {} to take every default)"))
    try:
        data.json_body = orjson.loads(raw)  # strict UTF-8, no NaN, at most 1024 levels deep
    except orjson.JSONDecodeError:
        raise http_error(400, say("The body is not valid JSON (UTF-8, at most 1024 levels deep)."),
                         "malformed-json") from None
    # No document of this API nests deeper; deeper ones would exhaust the recursion of the RFC 8785
    # canonicalizer that checks signed documents handed back.
    if raw.count(b"[") + raw.count(b"{") > MAX_JSON_DEPTH and json_depth(data.json_body) > MAX_JSON_DEPTH:
        raise InputError("body", say("is nested more than %(max)s levels deep", max=MAX_JSON_DEPTH))


def read_body(current: Request, limit: int) -> bytes:
    """The body as ``current.get_data()`` reads it with ``limit`` as ``max_content_length``, then
    (a chunked body reaching the limit) one byte more: RequestEntityTooLarge for a body over it,
    ClientDisconnected for a failed or (where werkzeug notices) short read.

    A body with a plain Content-Length (nearly every request) is read in one call of ``wsgi.input``
    instead, as werkzeug's ``LimitedStream`` would read it: werkzeug parses the headers through
    ``request.headers``, and reads in 64 KiB buffers, twice (the second read finds the end), which
    together cost more than the rest of the request's checks (bench/README.md). The buffer then
    stands in for ``wsgi.input``, so a later ``get_data()`` reads it again. Every other body goes
    through werkzeug; tests/platform/http/test_body_read.py holds both paths to werkzeug's answers."""
    environ = current.environ
    declared = environ.get("CONTENT_LENGTH")
    if not declared or not declared.isascii() or not declared.isdigit() or "HTTP_TRANSFER_ENCODING" in environ:
        return _read_through_werkzeug(current, limit)
    length = int(declared)
    if length == 0:  # nothing to read; werkzeug still reads once where the server terminates the stream
        return _read_through_werkzeug(current, limit)
    if length > limit:
        raise RequestEntityTooLarge
    raw = _read_exactly(environ["wsgi.input"], length, stops_short=not environ.get("wsgi.input_terminated"))
    environ["wsgi.input"] = io.BytesIO(raw)
    return raw


def _read_exactly(stream: BinaryIO, length: int, *, stops_short: bool) -> bytes:
    """``length`` bytes of ``stream``; fewer when it ends first, which is ClientDisconnected where
    werkzeug's stream holds the body to its Content-Length (``stops_short``: the server does not
    terminate ``wsgi.input`` itself)."""
    chunks = []
    remaining = length
    while remaining > 0:
        try:
            chunk = stream.read(remaining)
        except (OSError, ValueError):
            raise ClientDisconnected from None
        if not chunk:
            if stops_short:
                raise ClientDisconnected
            break
        chunks.append(chunk)
        remaining -= len(chunk)
    return chunks[0] if len(chunks) == 1 else b"".join(chunks)


def _read_through_werkzeug(current: Request, limit: int) -> bytes:
    current.max_content_length = limit  # Flask's per-request limit, read by werkzeug's stream
    raw = current.get_data(cache=True)
    if current.content_length is None and len(raw) >= limit and _more_body(current):
        raise RequestEntityTooLarge
    return raw


def _more_body(current: Request) -> bool:
    """Whether a body without Content-Length (chunked) goes on past the limit: werkzeug reads such a
    body up to the limit and stops there, so one more byte is read past it (never cut, always 413)."""
    return bool(current.environ["wsgi.input"].read(1))


def _stop_reading() -> None:
    """After a 413 the rest of the body is not read: shutting the socket's reading side makes the
    server close the connection after the answer instead of draining a body of any size."""
    sock = request.environ.get("gunicorn.socket")
    if sock is not None:
        try:
            sock.shutdown(socket.SHUT_RD)
        except OSError:
            pass


def _is_json_media_type(current: Request) -> bool:
    if current.environ.get("CONTENT_TYPE") == "application/json":  # what nearly every client sends
        return True
    return current.mimetype == "application/json" or current.mimetype.endswith("+json")


def request_body(default: object = None) -> object:
    """The JSON body the request hook parsed (``default`` for a request without one)."""
    return _request_globals().get("json_body", default)


def _too_large_detail() -> Message:
    limit = current_runtime().config.limits.body_bytes
    return LimitMessage("The body is larger than %(value)s bytes, the most this service allows.",
                        {"value": Number(limit)}, limit=limit_member("body_bytes", limit))


def answer_options(current: Request, response: Response) -> Response:
    """Flask's automatic OPTIONS answer as HTTP means it: 204 with ``Allow`` (no empty text/html
    body), and a CORS preflight allowing exactly the route's methods (flask-cors lists every method)."""
    if current.method != "OPTIONS" or response.status_code != 200 or "Allow" not in response.headers:
        return response
    response.status_code = 204
    response.headers.pop("Content-Type", None)
    if "Access-Control-Allow-Methods" in response.headers:
        response.headers["Access-Control-Allow-Methods"] = response.headers["Allow"]
    return response


def echo_request_id(_current: Request, response: Response) -> Response:
    # Added: no view sets it (tests/platform/http/test_request_ids.py: once on every kind of answer).
    response.headers.add("X-Request-ID", _request_globals().get("request_id") or new_request_id())
    return response


def install_too_large_problem(app: Flask) -> None:
    """A 413 problem for a body werkzeug refuses outside the request hook (a form, a view's read)."""
    @app.errorhandler(RequestEntityTooLarge)
    def _too_large(_error: RequestEntityTooLarge) -> Response:
        _stop_reading()
        return problem(413, _too_large_detail(), slug="payload-too-large")
