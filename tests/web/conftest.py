"""Live servers for the JavaScript client and the browser: an open one and one that needs API keys."""

from __future__ import annotations

import pytest

from tests.conftest import make_app
from tests.web.live import serve

API_KEY = "browser-test-key"


@pytest.fixture(scope="session")
def live_url(app):
    with serve(app) as url:
        yield url


@pytest.fixture(scope="session")
def keyed_url(signing_key_pem):
    with serve(make_app(signing_key_pem, api_keys=(API_KEY,))) as url:
        yield url
