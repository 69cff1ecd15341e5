"""/play's session flow (sessions v2, issue 48) in a real browser, at 1280 and 390 px, in German and
English: a player's seed made on the page (only its commitment shown), a session opened with it and an
open GM seat for a few seconds, rolls by seat (a hidden roll shown as such), the reveal once the session
has ended, and the check of the log; a log with a roll taken out names the gap, one without the
player's seed says the player's rolls are unchecked."""

from __future__ import annotations

import json

import pytest

from tests.web.conftest import API_KEY
from tests.web.test_play import DESKTOP, PHONE, _open, _roll, _shot, _sideways

WORDS = {
    "de": {"hidden": "verdeckt", "note": "Verdeckter Wurf", "complete": "✓ Vollständig",
           "gap": "Es fehlt: Rynn, Wurf 1", "source": "Aus der Sitzung gewürfelt", "luck": "Rynn hatte",
           "blind": "Die letzten Würfe eines Platzes", "unverified": "Die Würfe von Rynn sind nicht geprüft"},
    "en": {"hidden": "hidden", "note": "Hidden roll", "complete": "✓ Complete", "gap": "Missing: Rynn, roll 1",
           "source": "Rolled in the session", "luck": "Rynn had", "blind": "Nobody can check a seat's last rolls",
           "unverified": "The rolls of Rynn are not checked"},
}


@pytest.fixture
def session_page(page, keyed_url):
    """A /play tab on the server that needs API keys (whose keys may reveal early), with no session
    left over in its storage, and none left behind for the next test."""
    yield page
    page.evaluate("localStorage.removeItem('wurfwerk.session'); localStorage.removeItem('wurfwerk.seeds')")


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["1280", "390"])
@pytest.mark.parametrize("lang", ["de", "en"])
def test_an_evening_in_a_session_is_revealed_and_checked(session_page, keyed_url, lang, viewport, screenshots):
    page = session_page
    words = WORDS[lang]
    _open(page, f"{keyed_url}/play?operation=proben.test&lang={lang}", viewport)
    page.evaluate("localStorage.removeItem('wurfwerk.session')")
    page.reload()
    page.wait_for_selector("body[data-ready]")
    page.fill("[data-testid=api-key]", API_KEY)
    page.click("[data-testid=session-box] summary")
    page.fill("[data-testid=session-my-name]", "Rynn")
    page.click("[data-testid=session-make-seed]")
    commit_line = page.locator("[data-testid=session-my-commit]").inner_text()
    assert commit_line.startswith("Rynn: ") and len(commit_line) == len("Rynn: ") + 43
    stored = page.evaluate("JSON.parse(localStorage.getItem('wurfwerk.seeds'))")
    assert list(stored) == [commit_line[len("Rynn: "):]]  # the seed stays here, under its commitment
    page.fill("[data-testid=session-seats]", f"GM, {commit_line}")
    page.fill("[data-testid=session-hours]", "0.003")  # about eleven seconds
    page.click("[data-testid=session-open]")
    page.wait_for_selector("[data-testid=session-about]:visible")
    assert "GM, Rynn" in page.inner_text("[data-testid=session-about]")
    shared = json.loads(page.input_value("[data-testid=session-share]"))
    assert shared["seat_commits"]["Rynn"] == commit_line[len("Rynn: "):] and shared["open_seats"] == ["GM"]
    assert page.locator("[data-testid=session-reveal]").is_disabled()  # no reveal before the end

    page.select_option("[data-testid=session-seat]", "Rynn")
    _roll(page)
    assert words["source"] in page.evaluate("document.getElementById('events').textContent")
    assert page.locator("[data-testid=hidden-note]").is_hidden()
    _roll(page)
    page.select_option("[data-testid=session-seat]", "GM")
    page.check("[data-testid=session-hidden]")
    _roll(page)
    assert words["note"] in page.inner_text("[data-testid=hidden-note]")
    entries = page.locator("[data-testid=session-log] li").all_inner_texts()
    assert len(entries) == 3 and words["hidden"] in entries[2] and words["hidden"] not in entries[0], entries
    assert _sideways(page) == 0
    _shot(page, screenshots, f"session-{lang}-{viewport['width']}")

    page.wait_for_selector("[data-testid=session-reveal]:enabled", timeout=20_000)
    page.click("[data-testid=session-reveal]")
    page.wait_for_selector("[data-testid=check-complete]")
    assert words["complete"] in page.inner_text("[data-testid=check-verdict]")
    page.wait_for_selector("[data-testid=check-luck]")
    assert words["luck"] in page.inner_text("[data-testid=check-luck]")
    assert _sideways(page) == 0
    _shot(page, screenshots, f"session-check-{lang}-{viewport['width']}")

    log = json.loads(page.input_value("[data-testid=check-log]"))
    assert len(log["cards"]) == 3 and log["reveal"]["session"] == log["session"]
    assert set(log["seeds"]) == {"Rynn"}  # shared in the log only now that the session has ended
    del log["cards"][0]  # Rynn's first roll taken out of the log
    page.fill("[data-testid=check-log]", json.dumps(log))
    page.click("[data-testid=check-run]")
    page.wait_for_selector("[data-testid=check-incomplete]")
    assert words["gap"] in page.inner_text("[data-testid=check-verdict]")
    assert words["blind"] in page.inner_text("[data-testid=check-verdict]")
    page.evaluate("localStorage.removeItem('wurfwerk.seeds')")  # another browser, without Rynn's seed
    page.fill("[data-testid=check-log]", json.dumps({**log, "seeds": {}}))
    page.click("[data-testid=check-run]")
    page.wait_for_function("document.querySelector('[data-testid=check-verdict]').textContent.includes("
                           + json.dumps(words["unverified"]) + ")")
    page.click("[data-testid=session-leave]")
    assert page.locator("[data-testid=session-open]").is_visible()
    assert page.problems == []
