"""Fixtures after the Flask tutorial: ``app`` (fresh signing key per app), ``client``, ``sdk``."""

from __future__ import annotations

import os

import pytest
from hypothesis import settings

from service import create_app
from service.platform.receipts import generate_private_key_pem


# Property tests draw the same examples on every run, so CI cannot flake on a new draw;
# WURFWERK_EXPLORE=1 draws fresh ones to hunt for new findings.
settings.register_profile("deterministic", derandomize=True, deadline=None)
settings.register_profile("explore", derandomize=False, deadline=None)
settings.load_profile("explore" if os.environ.get("WURFWERK_EXPLORE") == "1" else "deterministic")


@pytest.fixture(scope="session")
def signing_key_pem() -> str:
    return generate_private_key_pem()


def make_app(signing_key_pem: str, **overrides):
    return create_app({"signing_key_pem": signing_key_pem, **overrides})


@pytest.fixture(scope="session")
def app(signing_key_pem):
    return make_app(signing_key_pem)


@pytest.fixture
def client(app):
    return app.test_client()


@pytest.fixture
def post(client):
    """POST JSON and return (status, parsed body)."""

    def _post(path, body, **kwargs):
        response = client.post(path, json=body, **kwargs)
        return response.status_code, response.get_json(force=True, silent=True)

    return _post


@pytest.fixture
def sdk(app):
    """The real SDK talking to the app in-process (requests routed through the WSGI test client)."""
    from tests.wsgi_session import WsgiSession
    from wurfwerk import Client

    return Client("http://wurfwerk.test", session=WsgiSession(app), retries=0)
