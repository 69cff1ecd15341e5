"""Fixtures after the Flask tutorial: ``app`` (fresh signing key per app), ``client``, ``sdk``."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from hypothesis import settings

from service import create_app
from service.platform.dice.receipts import generate_private_key_pem

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


@pytest.fixture(scope="session")
def http(app):
    """POST JSON and return (status, media type, parsed body): for property tests, which call it many
    times in one test (hypothesis refuses function-scoped fixtures there)."""
    client = app.test_client()

    def _post(path, body):
        response = client.post(path, json=body)
        return response.status_code, response.mimetype, response.get_json(force=True, silent=True)

    return _post


@pytest.fixture(scope="session")
def spec(app):
    """The OpenAPI document the app serves."""
    return app.test_client().get("/openapi.json").get_json()


@pytest.fixture
def sdk(app):
    """The real SDK talking to the app in-process (requests routed through the WSGI test client)."""
    from tests.wsgi_session import WsgiSession
    from wurfwerk import Client

    return Client("http://wurfwerk.test", session=WsgiSession(app), max_retries=0)


def require_tool(*commands: str, why: str = "") -> None:
    """Skip the calling test when a system tool is missing, except in CI (``WURFWERK_REQUIRE_TOOLS=1``,
    set by ``.ci/run``, which installs every tool): there a missing tool fails the test."""
    missing = [command for command in commands if shutil.which(command) is None]
    if not missing:
        return
    message = f"{', '.join(missing)} not installed{': ' + why if why else ''} (.ci/run installs it)"
    if os.environ.get("WURFWERK_REQUIRE_TOOLS") == "1":
        pytest.fail(message)
    pytest.skip(message)


_skipped_in_ci: list[str] = []

TESTS = Path(__file__).resolve().parent
# Suites that start servers, containers or browsers: marked `system`, run after the in-process tests,
# one at a time within a suite (they share images and a browser); see the Makefile's `test`.
SYSTEM_SUITES = ("deploy", "web", "integrations")


def pytest_collection_modifyitems(config, items):
    for item in items:
        if item.path.relative_to(TESTS).parts[0] in SYSTEM_SUITES:
            item.add_marker(pytest.mark.system)


def pytest_runtest_logreport(report):
    if report.skipped and os.environ.get("WURFWERK_REQUIRE_TOOLS") == "1":
        _skipped_in_ci.append(report.nodeid)


def pytest_sessionfinish(session, exitstatus):
    """In CI every tool is installed, so a skipped test is a test that did not run: fail the run."""
    if _skipped_in_ci and exitstatus == 0:
        print(f"\n{len(_skipped_in_ci)} test(s) skipped under WURFWERK_REQUIRE_TOOLS=1: " + ", ".join(_skipped_in_ci))
        session.exitstatus = 1
