"""The bare reference (never deployed): what Flask itself serves on this machine, without the service.

A plain Flask app with the two answers the benchmark holds the service to, and nothing else: no
request hooks, no metrics, no CORS, no error handlers, no load shedder or body deadline:

- ``GET /livez``: ``{"status": "ok"}``, as the service's;
- ``POST /bench/sign-only``: the body read and parsed (orjson), and the paws.test-sized document of
  ``bench/reference_app.py`` signed by the service's own signer (``KeyRing.sign``: Ed25519 over the
  canonical JSON) and written by orjson.

gunicorn serves it with ``BareWorker``: the service's worker (the same gevent connection handling,
turns between connections and read deadlines for heads) without the WSGI middleware the service's
worker puts in front of its app (load shedding, the body deadline), which are part of what the
benchmark measures as the platform's cost. ``bench/run.py`` runs it beside the service.
"""

from __future__ import annotations

import orjson
from flask import Flask, Response, request
from gunicorn.workers.ggevent import GeventWorker

from bench.reference_app import PAWS_TEST_DOCUMENT
from service.config import config_from_env
from service.platform.dice.receipts import KeyRing, generate_private_key_pem
from service.serving.worker import Worker


def make(signing_key_pem: str | None = None) -> Flask:
    """The bare app, signing with ``signing_key_pem`` (default: the configured key, else a new one)."""
    keys = KeyRing.from_pem(signing_key_pem or config_from_env().signing_key_pem or generate_private_key_pem())
    app = Flask(__name__)

    @app.get("/livez")
    def livez():
        return Response(orjson.dumps({"status": "ok"}), mimetype="application/json")

    @app.post("/bench/sign-only", endpoint="bench_sign_only")
    def sign_only():
        orjson.loads(request.get_data())
        return Response(orjson.dumps(keys.sign(dict(PAWS_TEST_DOCUMENT))), mimetype="application/json")

    return app


class BareWorker(Worker):
    """The service's worker without its middleware: the app as gunicorn loaded it."""

    def load_wsgi(self):
        GeventWorker.load_wsgi(self)
        self.read_timeout = config_from_env().read_timeout
