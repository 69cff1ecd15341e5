"""Issue 52 at /play, items 1 and 2, in a real browser: a roll you see (in view, focused, announced
once by a status region there from page load, shared or copied, 44 px targets on a phone, "what next"
as the Discord app offers it, a broken link in words, a language switch that keeps the roll) and a
session a game master can run (the seat names the card, a hidden roll's link carries only its public
part, errors beside the panel in a player's words, the luck lines always there or saying why)."""

from __future__ import annotations

import json
import time

import pytest

from tests.web.conftest import API_KEY
from tests.web.test_play import (
    DESKTOP,
    PHONE,
    ROOT,
    _fragment_of,
    _fragment_roll,
    _open,
    _roll,
    _seeded_body,
    _wait_for_roll,
)

TABLET = {"width": 768, "height": 1024}
# Counts what the status region says: every change of its text to a non-empty one.
COUNT_ANNOUNCEMENTS = """() => {
    window.spoken = [];
    new MutationObserver(() => {
        const text = document.getElementById('announce').textContent;
        if (text) window.spoken.push(text);
    }).observe(document.getElementById('announce'), { childList: true, characterData: true, subtree: true });
}"""


def _inside_viewport(page, selector: str) -> dict:
    """The element's box against the viewport: its top edge and the summary's first line on screen."""
    return page.evaluate("""(selector) => {
        const box = document.querySelector(selector).getBoundingClientRect();
        return { top: box.top, bottom: box.bottom, height: innerHeight, width: innerWidth,
                 inside: box.top >= 0 && box.top + Math.min(box.height, 40) <= innerHeight && box.left >= 0 };
    }""", selector)


def _focused(page) -> str:
    return page.evaluate("document.activeElement?.dataset?.testid ?? document.activeElement?.tagName")


def _example(spec, path):
    return spec["paths"][path]["post"]["requestBody"]["content"]["application/json"]["example"]


# -- item 1: a roll you see ---------------------------------------------------------------------------


@pytest.mark.parametrize("viewport", [DESKTOP, TABLET, PHONE], ids=["1280", "768", "390"])
@pytest.mark.parametrize("lang", ["de", "en"])
def test_every_roll_is_in_view_focused_and_announced_once(page, live_url, lang, viewport, screenshots):
    _open(page, f"{live_url}/play?operation=beutelschneider.combat&lang={lang}", viewport)
    region = page.locator("[data-testid=announce]")
    assert region.get_attribute("role") == "status" and region.evaluate("node => !node.closest('[hidden]')")
    assert page.locator("[aria-live]").evaluate_all("nodes => nodes.map(n => n.id)") == ["check-verdict"]
    page.evaluate(COUNT_ANNOUNCEMENTS)
    for count, operation in enumerate(["beutelschneider.combat", "paws.test", "proben.test"], start=1):
        if operation != "beutelschneider.combat":
            page.select_option("[data-testid=system]", operation.split(".")[0])
            page.select_option("[data-testid=operation]", operation)
        page.focus("[data-testid=roll]")
        page.keyboard.press("Enter")
        _wait_for_roll(page)
        assert _focused(page) == "summary", "focus stays on the result's summary"
        where = _inside_viewport(page, "[data-testid=summary]")
        assert where["inside"], where
        summary = page.inner_text("[data-testid=summary]")
        page.wait_for_function(f"window.spoken.length >= {count}")
        assert page.evaluate("window.spoken")[-1] == summary
        assert page.evaluate("window.spoken.length") == count, "announced once per roll"
        page.screenshot(path=str(screenshots / f"seen-{operation}-{lang}-{viewport['width']}.png"))
    assert page.problems == []


@pytest.mark.parametrize("origin_kind", ["secure", "insecure"])
def test_share_uses_web_share_else_copies_the_link_and_says_so(page, browser_context, live_url, origin_kind):
    origin = live_url if origin_kind == "secure" else live_url.replace("127.0.0.1", "gm-laptop")
    if origin_kind == "secure":
        browser_context.grant_permissions(["clipboard-read", "clipboard-write"], origin=origin)
    _open(page, f"{origin}/play?operation=paws.test&lang=de", PHONE)
    assert page.is_hidden("[data-testid=share]")
    _roll(page)
    page.wait_for_selector("[data-testid=share]:visible")
    link = origin + page.get_attribute("[data-testid=share-roll]", "href")
    assert page.evaluate("typeof navigator.share") == "undefined"  # Chromium on Linux: no Web Share
    page.click("[data-testid=share]")
    page.wait_for_selector("[data-testid=share-status]:visible")
    assert page.inner_text("[data-testid=share-status]") == "Link kopiert"
    if origin_kind == "secure":
        assert page.evaluate("navigator.clipboard.readText()") == link
    page.evaluate("navigator.share = async (data) => { window.sharedData = data; }")
    page.click("[data-testid=share]")
    page.wait_for_function("window.sharedData")
    shared = page.evaluate("window.sharedData")
    assert shared["url"] == link and shared["text"] == page.inner_text("[data-testid=summary]")
    assert page.problems == []


def _small_targets(page) -> list[str]:
    """Every visible control (a checkbox by its label) smaller than 44 × 44 px."""
    return page.evaluate("""() => {
        const small = [];
        for (const node of document.querySelectorAll('a[href], button, select, input, textarea, summary')) {
            if (!node.checkVisibility({ visibilityProperty: true })) continue;
            if (node.closest('.visually-hidden')) continue;
            const target = node.type === 'checkbox' ? node.closest('label') : node;
            const box = target.getBoundingClientRect();
            if (box.width < 44 || box.height < 44) {
                small.push(`${node.tagName} ${node.id || node.name || node.textContent.trim().slice(0, 20)}: `
                           + `${box.width.toFixed(0)}×${box.height.toFixed(0)}`);
            }
        }
        return small;
    }""")


def test_every_control_is_at_least_44_px_on_a_phone(page, live_url):
    for operation in ["beutelschneider.combat", "paws.test", "weltenbuch.conflict", "proben.test", "malmsturm.attack"]:
        _open(page, f"{live_url}/play?operation={operation}&lang=de", PHONE)
        page.click("[data-testid=advanced] summary")
        _roll(page)
        for box in ["session-box", "check-box"]:
            page.click(f"[data-testid={box}] summary")
        page.evaluate("document.querySelectorAll('#result details').forEach(d => d.open = true)")
        assert _small_targets(page) == [], operation
    assert page.problems == []


def test_a_broken_link_is_explained_in_words(page, live_url):
    _open(page, f"{live_url}/play?lang=de#roll=not-a-roll")
    said = page.inner_text("[data-testid=error]")
    assert "unvollständig oder verändert" in said and "Error" not in said and "(" in said, said
    _open(page, f"{live_url}/play?lang=en#roll={_fragment_of({'operation': 'paws.tset', 'result': {}})}")
    page.reload()
    page.wait_for_selector("body[data-ready]")
    said = page.inner_text("[data-testid=error]")
    assert "names something this service does not roll" in said and "Error" not in said, said
    assert page.problems == []


def test_the_language_switch_keeps_the_roll(page, browser_context, live_url):
    _open(page, f"{live_url}/play?operation=beutelschneider.combat&lang=de")
    _roll(page)
    rolled = page.text_content("#raw")
    marbles = page.locator("[data-testid=faces] svg").evaluate_all("faces => faces.map(f => f.dataset.value)")
    page.select_option("[data-testid=lang]", "en")
    _wait_for_roll(page)
    assert page.text_content("#raw") == rolled, "the same signed roll, not a new one"
    assert page.locator("[data-testid=faces] svg").evaluate_all("faces => faces.map(f => f.dataset.value)") == marbles
    assert page.inner_text("[data-testid=receipt]").startswith("✓ Genuine")
    assert "lang=en" in page.get_attribute("[data-testid=share-roll]", "href") and "lang=en" in page.url
    link = page.get_attribute("[data-testid=share-roll]", "href")

    friend = browser_context.new_page()
    _open(friend, f"{live_url}{link}")
    _wait_for_roll(friend)
    friend.select_option("[data-testid=lang]", "de")
    _wait_for_roll(friend)
    assert friend.is_visible("[data-testid=shared-note]")
    assert "Geteilter Wurf" in friend.inner_text("[data-testid=shared-note]")
    assert json.loads(friend.text_content("#raw")) == json.loads(rolled)
    assert "#roll=" in friend.url and "lang=de" in friend.url
    friend.close()
    assert page.problems == []


# -- what next: the follow-ups of the Discord app ------------------------------------------------------


def _discord_offers(response: dict) -> list[tuple[str, dict | None]]:
    from wurfwerk_discord.buttons import follow_ups, request_of
    from wurfwerk_discord.catalog import Catalog, parse_labels

    labels = parse_labels((ROOT / "service" / "web" / "labels.js").read_text(encoding="utf-8"))
    rows = follow_ups(response, Catalog(spec={}, labels=labels), "de")
    return [request_of(button["custom_id"]) for row in rows for button in row["components"]]


def _page_offers(page, response: dict) -> list[tuple[str, dict]]:
    offered = page.evaluate("""async (response) => {
        const { followUps } = await import('/play/assets/follow-ups.js');
        return followUps(response).map((offer) => [offer.to, offer.body]);
    }""", response)
    return [(operation, body) for operation, body in offered]


FOLLOW_UP_CASES = {
    # operation path, body from the spec's example or given, the roll wanted (found by seed)
    "paws-lost": ("/v1/paws/test", None, lambda result: not result["success"]),
    "paws-won": ("/v1/paws/test", None, lambda result: result["success"] and not result.get("catastrophe")),
    "comparison": ("/v1/paws/comparison", None, lambda result: result["winner"] in ("a", "b")),
    "proben-failed": ("/v1/proben/test", {"name": "Rynn", "attribute": 4, "skill": 3, "difficulty": 2},
                      lambda result: result["outcome"] in ("failure", "partial")),
    # issue 53: two dice failed against 2; one die fewer cannot make it, so no retry is offered
    "proben-out-of-reach": ("/v1/proben/test", {"name": "Rynn", "attribute": 2, "difficulty": 2},
                            lambda result: result["outcome"] in ("failure", "partial")),
    "proben-passed": ("/v1/proben/test", {"name": "Rynn", "attribute": 4, "skill": 3, "difficulty": 2},
                      lambda result: result["outcome"] == "success"),
    "challenge-failed": ("/v1/beutelschneider/challenge",
                         {"name": "Matthäus", "bag": {"red": 3, "green": 6, "white": 6, "black": 2},
                          "ability": "combat", "difficulty": "normal"},
                         lambda result: not result["success"] and not result["unconscious"]),
    "combat-injured": ("/v1/beutelschneider/combat",
                       {"attacker": {"name": "Legionär", "bag": {"red": 8, "green": 4, "white": 5, "black": 3}},
                        "defender": {"name": "Affenmensch", "bag": {"red": 10, "green": 5, "white": 5, "black": 1}}},
                       lambda result: bool(result.get("injury")) and result["injury"]["bag_after"].get("black")),
    "injury": ("/v1/beutelschneider/injury", {"name": "Matthäus", "bag": {"red": 3, "green": 6, "white": 6},
                                               "severity": "serious"}, lambda result: result["bag_after"].get("black")),
}


def test_what_next_offers_what_the_discord_app_offers(page, live_url, post, spec):
    _open(page, f"{live_url}/play?lang=de")
    offered_somewhere = set()
    for case, (path, body, wanted) in FOLLOW_UP_CASES.items():
        seeded = _seeded_body(post, path, body or _example(spec, path), wanted)
        status, response = post(path, seeded)
        assert status == 200, response
        discord = _discord_offers(response)
        ours = _page_offers(page, response)
        assert [operation for operation, _ in ours] == [operation for operation, _ in discord], case
        for (_, theirs), (_, mine) in zip(discord, ours, strict=True):
            assert theirs.items() <= mine.items(), (case, theirs, mine)
        offered_somewhere.update(operation for operation, _ in ours)
    assert offered_somewhere == {"paws.rescue", "proben.test", "beutelschneider.injury", "beutelschneider.healing"}


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["1280", "390"])
def test_what_next_rolls_the_follow_up_and_shows_it_in_view(page, live_url, post, spec, viewport, screenshots):
    flows = [("paws-lost", "2 Rettungswürfel", "paws.rescue", lambda request: request["dice"] == 2),
             ("proben-failed", "Noch ein Versuch", "proben.test", lambda request: request["attempt"] == 2),
             ("challenge-failed", "Verletzung: weniger schwer", "beutelschneider.injury",
              lambda request: request["severity"] == "light" and request["name"] == "Matthäus"),
             ("combat-injured", "Heilung: besonders gut", "beutelschneider.healing",
              lambda request: request["chances"] == "good")]
    for case, label, operation, asked in flows:
        path, body, wanted = FOLLOW_UP_CASES[case]
        seeded = _seeded_body(post, path, body or _example(spec, path), wanted)
        _open(page, f"{live_url}/play?operation={path[4:].replace('/', '.')}&lang=de&body={json.dumps(seeded)}",
              viewport)
        _roll(page)
        page.wait_for_selector("[data-testid=next]:visible")
        button = page.locator("[data-testid=next-step]", has_text=label).first
        before = button.bounding_box()
        assert before["height"] >= 44 or viewport is DESKTOP
        button.click()
        page.wait_for_function("(op) => JSON.parse(document.getElementById('raw').textContent).operation === op",
                               arg=operation)
        _wait_for_roll(page)
        follow_up = json.loads(page.text_content("#raw"))
        assert follow_up["operation"] == operation and asked(follow_up["request"]), follow_up["request"]
        assert _focused(page) == "summary"
        assert _inside_viewport(page, "[data-testid=summary]")["inside"]
        page.screenshot(path=str(screenshots / f"next-{case}-{viewport['width']}.png"))
    assert page.problems == []


# -- item 2: a session a game master can run -------------------------------------------------------------


@pytest.fixture
def session_page(page):
    yield page
    page.evaluate("localStorage.removeItem('wurfwerk.session'); localStorage.removeItem('wurfwerk.seeds')")


def _open_session(page, url, seats="GM, Rynn", hours="1"):
    page.evaluate("localStorage.removeItem('wurfwerk.session')")
    page.reload()
    page.wait_for_selector("body[data-ready]")
    page.click("[data-testid=session-box] summary")
    page.fill("[data-testid=session-seats]", seats)
    page.fill("[data-testid=session-hours]", hours)
    page.click("[data-testid=session-open]")


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["1280", "390"])
def test_each_seat_names_its_card_and_a_hidden_roll_shares_only_its_public_part(session_page, browser_context,
                                                                               live_url, viewport, screenshots):
    page = session_page
    _open(page, f"{live_url}/play?operation=proben.test&lang=de", viewport)
    _open_session(page, live_url)
    page.wait_for_selector("[data-testid=session-about]:visible")
    names = {}
    for seat in ["Rynn", "GM"]:
        page.select_option("[data-testid=session-seat]", seat)
        assert page.input_value("[name=name]") == seat
        _roll(page)
        names[seat] = json.loads(page.text_content("#raw"))["request"]["name"]
    assert names == {"Rynn": "Rynn", "GM": "GM"}
    page.select_option("[data-testid=operation]", "proben.cooperation")  # a new form keeps the seat's name
    page.select_option("[data-testid=operation]", "proben.test")
    assert page.input_value("[name=name]") == "GM"

    page.check("[data-testid=session-hidden]")
    _roll(page)
    card = json.loads(page.text_content("#raw"))
    shared = _fragment_roll(page.get_attribute("[data-testid=share-roll]", "href"))
    assert shared == card["public"], "the link carries the public part only"
    assert "result" not in shared and "randomness" not in shared and "summary" not in shared

    friend = browser_context.new_page()
    _open(friend, f"{live_url}{page.get_attribute('[data-testid=share-roll]', 'href')}", viewport)
    _wait_for_roll(friend)
    assert friend.locator("[data-testid=receipt]").get_attribute("data-state") == "verified"
    assert "Verdeckter Wurf von GM (Wurf 2" in friend.inner_text("[data-testid=summary]")
    assert friend.locator("[data-testid=faces] svg").count() == 0 and friend.is_hidden("[data-testid=next]")
    assert _inside_viewport(friend, "[data-testid=summary]")["inside"]
    friend.screenshot(path=str(screenshots / f"hidden-card-{viewport['width']}.png"))
    forged = {**shared, "session": {**shared["session"], "seat": "Rynn"}}
    _open(friend, f"{live_url}/play?lang=de#roll={_fragment_of(forged)}", viewport)
    friend.reload()
    friend.wait_for_selector("body[data-ready]")
    _wait_for_roll(friend)
    assert friend.locator("[data-testid=receipt]").get_attribute("data-state") == "not-genuine"
    friend.close()
    assert page.problems == []


OPERATOR_WORDS = ("WURFWERK", "Bearer", "Authorization", "ticket", "401", "403")


@pytest.mark.parametrize("lang", ["de", "en"])
def test_session_errors_sit_beside_the_panel_in_a_players_words_until_the_next_success(session_page, keyed_url,
                                                                                       lang):
    page = session_page
    _open(page, f"{keyed_url}/play?operation=paws.test&lang={lang}", DESKTOP)
    _open_session(page, keyed_url)  # no API key yet
    error = page.locator("[data-testid=session-error]")
    error.wait_for(state="visible")
    said = error.inner_text()
    assert ("API-Schlüssel" if lang == "de" else "API key") in said, said
    assert not any(word in said for word in OPERATOR_WORDS), said
    assert page.is_hidden("[data-testid=error]"), "not at the top of the page"
    assert error.evaluate("node => node.closest('#sessions') !== null")
    assert _inside_viewport(page, "[data-testid=session-error]")["inside"]
    page.fill("[data-testid=session-hours]", "0")
    page.click("[data-testid=session-open]")
    page.wait_for_function("document.querySelector('[data-testid=session-error]').textContent.includes('168')")
    page.fill("[data-testid=session-hours]", "1")
    page.fill("[data-testid=api-key]", API_KEY)
    page.click("[data-testid=session-open]")
    page.wait_for_selector("[data-testid=session-about]:visible")
    assert error.is_hidden(), "cleared by the next success"
    page.click("[data-testid=session-leave]")
    page.fill("[data-testid=session-join-header]", "{\"not\": \"a session\"}")
    page.click("[data-testid=session-join]")
    error.wait_for(state="visible")
    assert ("Spielleiter" if lang == "de" else "GM")  # the glossary's words (issue 53) in error.inner_text()
    assert page.problems == []


@pytest.mark.parametrize("lang", ["de", "en"])
def test_a_roll_after_the_session_ended_is_refused_beside_the_panel(session_page, live_url, lang):
    page = session_page
    _open(page, f"{live_url}/play?operation=paws.test&lang={lang}", PHONE)
    _open_session(page, live_url, seats="GM", hours="0.0006")  # two seconds
    page.wait_for_selector("[data-testid=session-reveal]:enabled", timeout=10_000)
    page.click("[data-testid=roll]")
    error = page.locator("[data-testid=session-error]")
    error.wait_for(state="visible")
    assert ("zu Ende" if lang == "de" else "ended") in error.inner_text()
    assert not any(word in error.inner_text() for word in OPERATOR_WORDS + ("expires_at", "session."))
    assert page.is_hidden("[data-testid=error]") and page.is_hidden("[data-testid=result]")
    assert _inside_viewport(page, "[data-testid=session-error]")["inside"]
    page.click("[data-testid=session-leave]")
    assert error.is_hidden()
    _roll(page)  # outside the session the page rolls freely again
    assert page.problems == []


@pytest.fixture(scope="module")
def ended_log(http):
    """A session log of the open server's key (every test server signs with it): one hidden and one
    open card of an open seat, revealed once its two seconds had passed."""
    status, _, opened = http("/v1/sessions", {"seats": ["GM"], "ttl_s": 2})
    assert status == 200, opened
    header, key = opened["session"], opened["seat_keys"]["GM"]
    cards, prev = [], None
    for index, hidden in enumerate([False, True]):
        use = {"header": header, "seat": "GM", "seat_key": key, "index": index, "prev": prev}
        if hidden:
            use["hidden"] = True
        status, _, card = http("/v1/paws/test", {"rank": 3, "session": use})
        assert status == 200, card
        prev = card["public"]["signature"] if hidden else card["receipt"]["signature"]
        cards.append(card)
    for _ in range(40):  # no reveal before the end (409): asked again until the two seconds are over
        status, _, revealed = http("/v1/sessions/reveal", {"session": header})
        if status != 409:
            break
        time.sleep(0.2)
    assert status == 200, revealed
    return {"format": "wurfwerk-session-log/2", "session": header, "reveal": revealed["reveal"], "seeds": {},
            "cards": cards}


@pytest.mark.parametrize("lang", ["de", "en"])
def test_the_luck_lines_say_why_they_are_missing(page, keyed_url, ended_log, lang):
    _open(page, f"{keyed_url}/play?lang={lang}", PHONE)
    page.click("[data-testid=check-box] summary")
    page.fill("[data-testid=check-log]", json.dumps(ended_log))
    page.click("[data-testid=check-run]")
    page.wait_for_selector("[data-testid=check-luck]")
    assert page.is_visible("[data-testid=check-complete]")
    luck = page.inner_text("[data-testid=check-luck]")
    assert ("API-Schlüssel" if lang == "de" else "API key") in luck, luck
    assert not any(word in luck for word in OPERATOR_WORDS), luck
    page.fill("[data-testid=api-key]", API_KEY)
    page.click("[data-testid=check-run]")
    page.wait_for_function("document.querySelector('[data-testid=check-luck]')?.textContent.includes('GM')")
    assert _inside_viewport(page, "[data-testid=check-verdict]")["inside"]
    assert page.problems == []
