"""CORS for browsers (flask-cors), with the headers that depend on nothing of the request computed once.

flask-cors evaluates its options for every response: the path against its resources, the request's
Origin against the allowed origins, its headers against the allowed ones. A request without
``Origin`` is no CORS request, and flask-cors answers every such request alike (with its default
``always_send``: the allowed origins, or ``*``, and the exposed headers). Most calls come from
servers (VTT servers, bots, the SDK), so that answer is taken from flask-cors once, at start-up, and
added as it is; a request with an ``Origin`` (a browser's) and every ``OPTIONS`` request go through
flask-cors as before. flask-cors's answer to every response costs more than the rule for shortcuts
allows (bench/README.md, "The rule for shortcuts"; the count is there). tests/platform/http/test_cors.py
holds the two paths to flask-cors's own answers. The headers are a step of
service/platform/http/request_steps.py (``install_cors`` returns it).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import cast

from flask import Flask, Request, Response
from flask_cors import CORS

# What flask-cors reads from a request besides the path: with neither the answer is constant.
_ORIGIN, _PRIVATE_NETWORK = "HTTP_ORIGIN", "HTTP_ACCESS_CONTROL_REQUEST_PRIVATE_NETWORK"
_ALLOW_ORIGIN = "access-control-allow-origin"


def cors_options(origins: Iterable[str]) -> dict:
    """The options the service hands to flask-cors for ``origins`` (``*`` for any)."""
    origins = tuple(origins)
    return {"origins": list(origins),
            "allow_headers": ["Content-Type", "Authorization", "X-Request-ID", "Idempotency-Key"],
            "expose_headers": ["X-Request-ID"], "max_age": 600, "send_wildcard": origins == ("*",)}


def install_cors(app: Flask, origins: Iterable[str]) -> Callable[[Request, Response], Response]:
    """flask-cors on ``app`` (its handlers of exceptions), and the step adding its headers: its
    after-request function, called only where its answer can vary."""
    after_request = app.after_request_funcs.setdefault(None, [])
    registered = len(after_request)
    CORS(app, **cors_options(origins))
    # The one function CORS(app) registers, a plain (not async) after-request function.
    (flask_cors_headers,) = cast(list[Callable[[Response], Response]], after_request[registered:])
    del after_request[registered:]  # the step calls it
    without_origin = _headers_without_origin(app, flask_cors_headers)

    def cors_headers(current: Request, response: Response) -> Response:
        environ = current.environ
        if current.method == "OPTIONS" or _ORIGIN in environ or _PRIVATE_NETWORK in environ:
            return flask_cors_headers(response)
        headers = response.headers
        if not _has_allow_origin(response):  # else flask-cors answered already (its error handlers)
            for name, value in without_origin:  # add() rather than extend(), which takes twice as long
                headers.add(name, value)
        return response

    return cors_headers


def _has_allow_origin(response: Response) -> bool:
    # Not ``in response.headers``: werkzeug's Headers answers "no" by raising and catching an exception.
    return any(name.lower() == _ALLOW_ORIGIN for name, _value in response.headers)


def _headers_without_origin(app: Flask, flask_cors_headers: Callable[[Response], Response]) -> list[tuple[str, str]]:
    """What flask-cors adds to the response of a request without Origin, asked of flask-cors."""
    probe = app.response_class()
    before = len(probe.headers)
    with app.test_request_context("/", method="GET"):
        flask_cors_headers(probe)
    return list(probe.headers)[before:]
