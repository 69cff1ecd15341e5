"""CORS for browsers, by flask-cors: the service's options, and flask-cors installed with them.

flask-cors evaluates its options for every response. An earlier version took its answer to requests
without ``Origin`` once at start-up and added it as it was; it saved about 1 % of a request, below
the rule for shortcuts (bench/README.md), and flask-cors answers every response again.
"""

from __future__ import annotations

from collections.abc import Iterable

from flask import Flask
from flask_cors import CORS


def cors_options(origins: Iterable[str]) -> dict:
    """The options the service hands to flask-cors for ``origins`` (``*`` for any)."""
    origins = tuple(origins)
    return {"origins": list(origins),
            "allow_headers": ["Content-Type", "Authorization", "X-Request-ID", "Idempotency-Key"],
            "expose_headers": ["X-Request-ID"], "max_age": 600, "send_wildcard": origins == ("*",)}


def install_cors(app: Flask, origins: Iterable[str]) -> None:
    """flask-cors on ``app``: its after-request function and its handlers of exceptions. Installed
    after the request steps, so that Flask runs it before them (``answer_options`` narrows the
    methods of a preflight that flask-cors allowed)."""
    CORS(app, **cors_options(origins))
