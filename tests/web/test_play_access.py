"""Issue 52 item 3 at /play: a page for every player. axe-core (tests/web/accessibility.py) finds no
violation in any state of the page (first load, each system's form, after a roll with odds, a follow-up
offered, an error, the session panel with a session and with a log checked, a shared link, a hidden
card) in German and English, at phone and desktop size, in the light and the dark theme
(prefers-color-scheme emulated). Each state is photographed at the viewport's size and its result (or
error, or verdict) checked to be on screen. Keyboard alone: Tab reaches every control, Enter rolls,
the result takes focus and is read. Marbles carry their colour's letter."""

from __future__ import annotations

import json

import pytest

from tests.web.accessibility import describe, violations
from tests.web.test_play import (
    DESKTOP,
    ONE_PER_SYSTEM,
    PHONE,
    _fragment_of,
    _open,
    _roll,
    _seeded_body,
    _wait_for_roll,
)
from tests.web.test_play_table import FOLLOW_UP_CASES, _focused, _inside_viewport, ended_log  # noqa: F401


def _clean(page, state: str) -> None:
    found = violations(page)
    assert found == [], f"{state}: {describe(found)}"


def _on_screen(page, selector: str, state: str) -> None:
    where = _inside_viewport(page, selector)
    assert where["inside"], f"{state}: {selector} is off screen: {where}"


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["1280", "390"])
@pytest.mark.parametrize("lang", ["de", "en"])
def test_axe_finds_nothing_in_any_state(page, live_url, post, ended_log, lang, viewport, scheme,  # noqa: F811
                                        screenshots):
    page.emulate_media(color_scheme=scheme)
    tag = f"{lang}-{viewport['width']}-{scheme}"
    shot = lambda state: page.screenshot(path=str(screenshots / f"a11y-{state}-{tag}.png"))  # noqa: E731
    _open(page, f"{live_url}/play?lang={lang}", viewport)
    page.evaluate("localStorage.removeItem('wurfwerk.session')")  # no session left by another test
    page.reload()
    page.wait_for_selector("body[data-ready]")
    background = page.evaluate("getComputedStyle(document.body).backgroundColor")
    assert (sum(int(part) for part in background[4:-1].split(",")[:3]) < 180) is (scheme == "dark"), background
    _clean(page, "first load")
    shot("first-load")
    for operation in ONE_PER_SYSTEM:
        page.select_option("[data-testid=system]", operation.split(".")[0])
        page.select_option("[data-testid=operation]", operation)
        page.click("[data-testid=advanced] summary")
        _clean(page, f"form {operation}")
    _roll(page)  # malmsturm.attack, the last: its result and odds
    _clean(page, "after a roll with odds")
    _on_screen(page, "[data-testid=summary]", "after a roll")
    shot("roll")

    path, body, wanted = FOLLOW_UP_CASES["challenge-failed"]
    failed = _seeded_body(post, path, body, wanted)
    _open(page, f"{live_url}/play?operation=beutelschneider.challenge&lang={lang}&body={json.dumps(failed)}", viewport)
    _roll(page)
    assert page.is_visible("[data-testid=next]")
    _clean(page, "a follow-up offered")
    _on_screen(page, "[data-testid=summary]", "a follow-up offered")
    shot("next")

    page.select_option("[data-testid=system]", "paws")
    page.select_option("[data-testid=operation]", "paws.test")
    page.fill("[name=rank]", "99")
    page.click("[data-testid=roll]")
    page.wait_for_selector("[data-testid=error]:visible")
    _clean(page, "an error")
    _on_screen(page, "[data-testid=error]", "an error")
    shot("error")

    page.fill("[name=rank]", "3")
    page.click("[data-testid=session-box] summary")
    page.fill("[data-testid=session-seats]", "GM, Rynn")
    page.click("[data-testid=session-open]")
    page.wait_for_selector("[data-testid=session-about]:visible")
    page.check("[data-testid=session-hidden]")
    _roll(page)
    _clean(page, "a hidden roll in a session")
    _on_screen(page, "[data-testid=summary]", "a hidden roll")
    shot("session")
    page.click("[data-testid=session-leave]")

    page.click("[data-testid=check-box] summary")
    page.fill("[data-testid=check-log]", json.dumps(ended_log))
    page.click("[data-testid=check-run]")
    page.wait_for_selector("[data-testid=check-luck]")
    _clean(page, "a log checked")
    _on_screen(page, "[data-testid=check-verdict]", "a log checked")
    shot("checked")

    for state, document in [("shared", ended_log["cards"][0]), ("hidden-card", ended_log["cards"][1]["public"])]:
        page.goto(f"{live_url}/play?lang={lang}#roll={_fragment_of(document)}")
        page.reload()
        page.wait_for_selector("body[data-ready]")
        _wait_for_roll(page)
        assert page.locator("[data-testid=receipt]").get_attribute("data-state") == "verified"
        _clean(page, state)
        _on_screen(page, "[data-testid=summary]", state)
        shot(state)
    page.emulate_media(color_scheme="light")
    assert page.problems == []


def _tab_through(page, limit: int = 150) -> list[str]:
    """The controls Tab visits from the first one (the language), in order, to the end of the page."""
    page.focus("#lang")  # the first control of the page: Tab goes on from there
    seen: list[str] = ["lang"]
    for _ in range(limit):
        page.keyboard.press("Tab")
        here = page.evaluate("""() => {
            const node = document.activeElement;
            return node === document.body ? null : node.id || node.name || `${node.tagName}:${node.textContent.trim()}`;
        }""")
        if here is None or (seen and here == seen[0]):
            break
        seen.append(here)
    return seen


VISIBLE_CONTROLS = """() => [...document.querySelectorAll('a[href], button, select, input, textarea, summary')]
    .filter((node) => node.checkVisibility({ visibilityProperty: true }) && !node.disabled
        && !node.closest('.visually-hidden'))
    .map((node) => node.id || node.name || `${node.tagName}:${node.textContent.trim()}`)"""


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["1280", "390"])
def test_keyboard_alone_reaches_every_control_rolls_with_enter_and_hears_the_result(page, live_url, viewport):
    _open(page, f"{live_url}/play?operation=paws.test&lang=de", viewport)
    reached = _tab_through(page)
    missing = set(page.evaluate(VISIBLE_CONTROLS)) - set(reached)
    assert not missing, f"Tab never reaches {missing}"
    assert len(reached) == len(set(reached))

    page.focus("[name=rank]")
    page.keyboard.press("Enter")  # Enter in a field rolls
    _wait_for_roll(page)
    assert _focused(page) == "summary"
    summary = page.inner_text("[data-testid=summary]")
    assert page.evaluate("document.activeElement.textContent") == summary
    page.wait_for_function("document.getElementById('announce').textContent.length > 0")
    assert page.inner_text("[data-testid=announce]") == summary
    page.keyboard.press("Tab")  # from the result on: its own controls come next
    assert page.evaluate("document.activeElement.closest('#result') !== null")

    reached = _tab_through(page)
    missing = set(page.evaluate(VISIBLE_CONTROLS)) - set(reached)
    assert not missing, f"after a roll, Tab never reaches {missing}"
    page.focus("[data-testid=roll]")
    page.keyboard.press("Enter")  # Enter on the button rolls again
    _wait_for_roll(page)
    assert _focused(page) == "summary"
    assert page.problems == []


LETTERS = {"de": {"red": "R", "green": "G", "blue": "B", "white": "W", "black": "S"},
           "en": {"red": "R", "green": "G", "blue": "B", "white": "W", "black": "Bk"}}


@pytest.mark.parametrize("lang, letters", LETTERS.items())
def test_marbles_carry_their_colours_letter(page, live_url, lang, letters):
    body = {"bag": {"red": 2, "green": 2, "blue": 2, "white": 2, "black": 2}, "ability": "combat",
            "difficulty": "easy", "name": "Rynn"}
    seen: dict[str, str] = {}
    for seed in range(1, 12):
        _open(page, f"{live_url}/play?operation=beutelschneider.challenge&lang={lang}"
                    f"&body={json.dumps({**body, 'seed': seed})}")
        _roll(page)
        for colour, letter in page.locator("[data-testid=faces] svg[data-kind=draw]").evaluate_all(
                "faces => faces.map(f => [f.dataset.value, f.querySelector('text')?.textContent])"):
            seen[colour] = letter
        if len(seen) == len(letters):
            break
    assert seen == letters
    assert page.problems == []


@pytest.mark.parametrize("lang, scheme", [("de", "light"), ("en", "dark")])
def test_axe_finds_nothing_in_any_operations_form(page, live_url, lang, scheme):
    """Beyond one form per system: every operation's form (lists, maps, carried draws, encounters),
    Advanced and every nested details open, at phone size."""
    page.emulate_media(color_scheme=scheme)
    _open(page, f"{live_url}/play?lang={lang}", PHONE)
    operations = page.evaluate("""() => [...document.querySelectorAll('#system option')].map((o) => o.value)""")
    found = {}
    for system in operations:
        page.select_option("[data-testid=system]", system)
        for operation in page.evaluate("() => [...document.querySelectorAll('#operation option')].map((o) => o.value)"):
            page.select_option("[data-testid=operation]", operation)
            page.evaluate("document.querySelectorAll('#form details').forEach((d) => { d.open = true; })")
            problems = violations(page, {"include": [["#form"], [".controls"]]})
            if problems:
                found[operation] = describe(problems)
    page.emulate_media(color_scheme="light")
    assert found == {}, "\n".join(f"{operation}: {text}" for operation, text in found.items())
    assert page.problems == []


@pytest.mark.parametrize("lang, scheme, viewport", [("de", "dark", PHONE)], ids=["de-dark-390"])
def test_axe_finds_nothing_after_any_operations_roll(page, live_url, lang, scheme, viewport):
    """Every operation rolled with its example: its result, odds chart and curve, a fight's "Was lohnt
    sich?" (or its refusal, the Beutelschneider text's fight), or its error clean, the summary focused
    and on screen. One walk (about 30 s): the dark theme at phone size, the combination the state walks
    above cover for only a few operations."""
    page.emulate_media(color_scheme=scheme)
    _open(page, f"{live_url}/play?lang={lang}", viewport)
    operations = []
    for system in page.evaluate("() => [...document.querySelectorAll('#system option')].map((o) => o.value)"):
        page.select_option("[data-testid=system]", system)
        operations += page.evaluate("() => [...document.querySelectorAll('#operation option')].map((o) => o.value)")
    found, unfocused, advised = {}, [], []
    for operation in operations:
        _open(page, f"{live_url}/play?operation={operation}&lang={lang}", viewport)
        page.click("[data-testid=roll]")
        page.wait_for_function("""() => !document.querySelector('[data-testid=roll]').disabled
            && (!document.getElementById('error').hidden
                || document.querySelector('[data-testid=receipt]').dataset.state)
            && !document.querySelector('[data-testid=odds-loading]')
            && !document.querySelector('[data-testid=advice-loading]')""")
        opened = "document.querySelectorAll('#result details, #advice details').forEach((d) => { d.open = true; })"
        page.evaluate(opened)
        problems = violations(page, {"include": [["#result"], ["#odds"], ["#advice"], ["#error"]]})
        if problems:
            found[operation] = describe(problems)
        if page.is_visible("[data-testid=advice]"):
            advised.append(operation)
        if page.is_visible("[data-testid=result]") and (
                _focused(page) != "summary" or not _inside_viewport(page, "[data-testid=summary]")["inside"]):
            unfocused.append(operation)
    page.emulate_media(color_scheme="light")
    assert found == {}, "\n".join(f"{operation}: {text}" for operation, text in found.items())
    assert unfocused == []
    assert {f"{operation.split('.')[0]}.encounter" for operation in ONE_PER_SYSTEM} <= set(advised), advised
    assert not [operation for operation in operations if operation.endswith(".advice")], "advice is a section of a roll"
    assert page.problems == []
