"""/play as a German player meets it (issue 29): bad input shows the service's German problem
messages next to the field, and a German word for an enum names the API word."""

from __future__ import annotations


def _open(page, url):
    page.goto(url)
    page.wait_for_selector("body[data-ready]")


def _field_message(page, field):
    page.click("[data-testid=roll]")
    page.wait_for_function(f"document.querySelector('[data-error-for=\"{field}\"]')?.textContent.length > 0")
    return page.inner_text(f"[data-error-for=\"{field}\"]")


def test_a_bad_rank_is_refused_in_german(page, live_url):
    _open(page, f"{live_url}/play?operation=paws.test&lang=de")
    page.fill("[name=rank]", "99")
    assert "muss zwischen 0 und 10 liegen" in _field_message(page, "rank")
    assert page.problems == []
