"""A running service (gunicorn, one worker), two replicas of the Discord app in front of it (each its own
WSGI server on loopback), a stand-in for Discord's webhook endpoint, and interactions signed the way
Discord signs them, with a test key pair standing in for the application's."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest
import requests
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat
from flask import Flask, request
from werkzeug.serving import make_server

from service.platform.dice.receipts import generate_private_key_pem
from tests.deploy.processes import Gunicorn, free_port
from wurfwerk_discord import Settings, create_app
from wurfwerk_discord.catalog import Catalog, fetch_catalog
from wurfwerk_discord.commands import Registry

APPLICATION_ID = "1234567890"
# the secret the app's session seeds derive from (DISCORD_SESSION_SECRET), at least 32 characters
SESSION_SECRET = "test-session-secret-of-the-discord-app-0123456789"


class Served:
    """A WSGI app on a loopback port, in a thread (stopped at the end of the session)."""

    def __init__(self, app: Flask) -> None:
        self.port = free_port()
        self.server = make_server("127.0.0.1", self.port, app, threaded=True)
        self.url = f"http://127.0.0.1:{self.port}"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def stop(self) -> None:
        self.server.shutdown()


@pytest.fixture(scope="session")
def application_key() -> Ed25519PrivateKey:
    return Ed25519PrivateKey.generate()


@pytest.fixture(scope="session")
def public_key_hex(application_key) -> str:
    return application_key.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw).hex()


@pytest.fixture(scope="session")
def service(tmp_path_factory) -> Iterator[Gunicorn]:
    server = Gunicorn(tmp_path_factory.mktemp("discord-service"), name="service", workers=1,
                      env={"WURFWERK_SIGNING_KEY": generate_private_key_pem()}).start()
    yield server
    server.stop()


class Webhooks:
    """Discord's webhook endpoint, stood in: records every call by method and path."""

    def __init__(self) -> None:
        self.calls: list[dict[str, Any]] = []
        self.arrived = threading.Condition()
        # per interaction token, how many calls to answer 404 first (Discord does, at random, for some seconds)
        self.unknown_first: dict[str, int] = {}
        app = Flask("webhooks")

        @app.route("/webhooks/<application_id>/<token>", methods=["POST"])
        @app.route("/webhooks/<application_id>/<token>/messages/<message>", methods=["PATCH", "DELETE"])
        def hook(application_id: str, token: str, message: str | None = None) -> tuple[str, int]:
            body = request.get_json(silent=True)
            files = {name: upload.read() for name, upload in request.files.items()}
            if files:  # multipart (a message with a file): the message is its payload_json
                body = json.loads(request.form["payload_json"])
            with self.arrived:
                if self.unknown_first.get(token):
                    self.unknown_first[token] -= 1
                    return '{"message": "Unknown Webhook", "code": 10015}', 404
                self.calls.append({"method": request.method, "application_id": application_id, "token": token,
                                   "message": message, "json": body, "files": files})
                self.arrived.notify_all()
            return "{}", 200 if request.method != "DELETE" else 204

        self.served = Served(app)
        self.url = self.served.url

    def wait_for(self, token: str, method: str, timeout: float = 20.0) -> dict[str, Any]:
        deadline = time.monotonic() + timeout
        with self.arrived:
            while True:
                for call in self.calls:
                    if call["token"] == token and call["method"] == method:
                        return call
                left = deadline - time.monotonic()
                if left <= 0:
                    seen = [call["method"] for call in self.calls if call["token"] == token]
                    raise TimeoutError(f"no {method} for {token}, only {seen}")
                self.arrived.wait(left)


@pytest.fixture(scope="session")
def webhooks() -> Iterator[Webhooks]:
    hooks = Webhooks()
    yield hooks
    hooks.served.stop()


def _replica(service_url: str, public_key_hex: str, webhooks_url: str, session_db: str | None = None) -> Served:
    settings = Settings(public_key=public_key_hex, wurfwerk_url=service_url, public_url="https://dice.example",
                        discord_api=webhooks_url, timeout=5.0, session_secret=SESSION_SECRET if session_db else None,
                        session_db=session_db)
    return Served(create_app(settings))


@pytest.fixture(scope="session")
def session_db(tmp_path_factory) -> str:
    return str(tmp_path_factory.mktemp("discord-sessions") / "sessions.sqlite3")


@pytest.fixture(scope="session")
def replicas(service, public_key_hex, webhooks, session_db) -> Iterator[list[Served]]:
    """Two instances of the app: a button pressed on a card from one is answered by the other. They share
    one session file (DISCORD_SESSION_DB), as the workers of one host do."""
    served = [_replica(service.url, public_key_hex, webhooks.url, session_db) for _ in range(2)]
    yield served
    for each in served:
        each.stop()


@pytest.fixture(scope="session")
def orphan(public_key_hex, webhooks) -> Iterator[Served]:
    """An instance whose service is down (nothing listens at its WURFWERK_URL)."""
    served = _replica(f"http://127.0.0.1:{free_port()}", public_key_hex, webhooks.url)
    yield served
    served.stop()


@pytest.fixture(scope="session")
def catalog(service) -> Catalog:
    return fetch_catalog(service.url)


@pytest.fixture(scope="session")
def registry(catalog) -> Registry:
    return Registry(catalog)


class Discord:
    """Posts interactions to an app the way Discord does: JSON body, signed timestamp + body."""

    def __init__(self, key: Ed25519PrivateKey) -> None:
        self.key = key
        self.counter = 0

    def sign(self, body: bytes, timestamp: str) -> str:
        return self.key.sign(timestamp.encode() + body).hex()

    def post(self, url: str, interaction: dict[str, Any], *, signature: str | None = None,
             timestamp: str | None = None, raw: bytes | None = None) -> requests.Response:
        body = raw if raw is not None else json.dumps(interaction).encode()
        timestamp = timestamp or str(int(time.time()))
        headers = {"Content-Type": "application/json", "X-Signature-Timestamp": timestamp,
                   "X-Signature-Ed25519": signature if signature is not None else self.sign(body, timestamp)}
        return requests.post(url + "/interactions", data=body, headers=headers, timeout=10)

    def interaction(self, kind: int, data: dict[str, Any] | None = None, *, locale: str = "en-US",
                    message: dict[str, Any] | None = None) -> dict[str, Any]:
        self.counter += 1
        interaction: dict[str, Any] = {
            "id": str(9_000_000 + self.counter), "application_id": APPLICATION_ID, "type": kind,
            "token": f"token-{self.counter}-{time.monotonic_ns()}", "version": 1, "locale": locale,
            "guild_id": "42", "channel_id": "43",
            "member": {"user": {"id": "7", "username": "ryan", "global_name": "Ryan"}, "nick": None},
        }
        if data is not None:
            interaction["data"] = data
        if message is not None:
            interaction["message"] = message
        return interaction

    def command(self, system: str, sub: str, options: list[dict[str, Any]], *, locale: str = "en-US") -> dict:
        data = {"id": "1", "name": system, "type": 1,
                "options": [{"type": 1, "name": sub, "options": options}]}
        return self.interaction(2, data, locale=locale)

    def press(self, custom_id: str, message: dict[str, Any], *, locale: str = "en-US") -> dict[str, Any]:
        return self.interaction(3, {"custom_id": custom_id, "component_type": 2}, locale=locale, message=message)


@pytest.fixture(scope="session")
def discord_client(application_key) -> Discord:
    return Discord(application_key)
