"""Live servers for the JavaScript client and the browser: an open one and one that needs API keys."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.conftest import make_app, require_tool
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


CHROMIUM = "/usr/bin/chromium"
# A GM's laptop on the LAN: players open http://gm-laptop:PORT/play, which is not a secure context
# (no WebCrypto there). The browser resolves that name to the loopback live server.
LAN_NAME = "gm-laptop"
# As root in a container: no sandbox; nothing may reach out (updates, sync, QUIC probes).
CHROMIUM_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update", "--disable-sync",
                  f"--host-resolver-rules=MAP {LAN_NAME} 127.0.0.1"]


# Package scope: Playwright's sync API keeps an event loop running in this thread until it stops, so
# the browser must stop once the last page test is done, before any later test calls asyncio.run.
@pytest.fixture(scope="package")
def browser_context(tmp_path_factory):
    """Debian's Chromium driven by Playwright, with a fresh profile; never a downloaded browser."""
    require_tool("chromium", why="the browser tests drive Debian's Chromium")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        context = playwright.chromium.launch_persistent_context(
            str(tmp_path_factory.mktemp("chromium-profile")), executable_path=CHROMIUM,
            headless=True, args=CHROMIUM_FLAGS)
        # Generous: Swagger UI lays out ~60 operations, and CI machines are shared.
        context.set_default_timeout(90_000)
        yield context
        context.close()


@pytest.fixture(params=["secure", "insecure"])
def origin(request, live_url):
    """The live server as a secure origin (127.0.0.1) and as a LAN name over plain http (insecure)."""
    return live_url if request.param == "secure" else live_url.replace("127.0.0.1", LAN_NAME)


@pytest.fixture(scope="session")
def screenshots(tmp_path_factory):
    """Where the browser tests write their screenshots (WURFWERK_SCREENSHOTS, or a temporary folder)."""
    folder = os.environ.get("WURFWERK_SCREENSHOTS")
    path = Path(folder) if folder else tmp_path_factory.mktemp("screenshots")
    path.mkdir(parents=True, exist_ok=True)
    return path


@pytest.fixture
def page(browser_context):
    """A new tab; console errors and failed page scripts fail the test that opened it."""
    tab = browser_context.new_page()
    problems: list[str] = []
    tab.on("pageerror", lambda error: problems.append(f"page error: {error}"))
    tab.on("console", lambda message: _is_script_error(message) and problems.append(f"console: {message.text}"))
    tab.problems = problems
    yield tab
    tab.close()


def _is_script_error(message) -> bool:
    # Chromium logs every 4xx/5xx a page fetched as an error: those are answers the page shows.
    return message.type == "error" and not message.text.startswith("Failed to load resource")
