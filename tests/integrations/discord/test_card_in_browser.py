"""The card's link opens /play on the service with this very signed roll and shows it verified (Debian's
Chromium through Playwright, never a downloaded browser)."""

from __future__ import annotations

import re

import pytest

from tests.conftest import require_tool
from tests.integrations.discord.conftest import Served
from wurfwerk_discord import Settings, create_app
from wurfwerk_discord.card import card_link, roll_from_link

CHROMIUM_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update", "--disable-sync"]


@pytest.fixture(scope="module")
def linked(service, public_key_hex, webhooks):
    """An instance whose cards link to the running service's /play."""
    served = Served(create_app(Settings(public_key=public_key_hex, wurfwerk_url=service.url,
                                        discord_api=webhooks.url, timeout=5.0)))
    yield served
    served.stop()


def test_the_cards_link_shows_this_signed_roll_verified_on_play(linked, service, discord_client):
    require_tool("chromium", why="the browser tests drive Debian's Chromium")
    from playwright.sync_api import sync_playwright

    options = [{"name": "bag", "type": 3, "value": "rot 9 grün 6 weiß 5"}, {"name": "ability", "type": 3,
                                                                             "value": "combat"}]
    answer = discord_client.post(linked.url, discord_client.command("beutelschneider", "challenge", options,
                                                                      locale="de")).json()
    link = card_link(answer["data"]["embeds"][0])
    roll = roll_from_link(link)
    assert link.startswith(f"{service.url}/play?lang=de#roll=")  # WURFWERK_PUBLIC_URL defaults to the service
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path="/usr/bin/chromium", args=CHROMIUM_FLAGS)
        try:
            page = browser.new_page()
            page.set_default_timeout(60_000)
            rolled_again = []
            page.on("request", lambda request: re.search(r"/v1/beutelschneider/challenge(\?|$)", request.url)
                    and rolled_again.append(request.url))
            page.goto(link)
            page.wait_for_selector("body[data-ready]")
            page.wait_for_function("() => document.querySelector('[data-testid=receipt]')?.dataset.state")
            assert page.locator("[data-testid=receipt]").get_attribute("data-state") == "verified"
            assert page.inner_text("[data-testid=summary]") == roll["summary"]
            assert rolled_again == []
        finally:
            browser.close()
