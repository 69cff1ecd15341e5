"""/play in a real browser: one roll per system with its summary, pictures, receipt checked in the
browser and odds chart; a prefilled link; field messages for bad input; short messages for a
network failure and a 5xx; and a page on another origin that calls the API through the JS client."""

from __future__ import annotations

import functools
import json
import re
import shutil
import threading
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import quote

import pytest

ROOT = Path(__file__).resolve().parents[2]
ONE_PER_SYSTEM = ["beutelschneider.challenge", "paws.test", "weltenbuch.conflict", "proben.test", "malmsturm.action"]


def _open(page, url):
    page.goto(url)
    page.wait_for_selector("body[data-ready]")


def _roll_and_wait(page):
    page.click("[data-testid=roll]")
    page.wait_for_function("""() => {
        const receipt = document.querySelector('[data-testid=receipt]').textContent;
        return receipt.includes('valid') && !document.querySelector('[data-testid=roll]').disabled;
    }""")


@pytest.mark.parametrize("operation", ONE_PER_SYSTEM)
def test_a_roll_shows_summary_faces_a_valid_receipt_and_the_odds(page, live_url, operation):
    _open(page, f"{live_url}/play?operation={operation}&lang=en")
    assert page.input_value("[data-testid=operation]") == operation
    _roll_and_wait(page)
    assert page.inner_text("[data-testid=summary]").strip()
    receipt = page.inner_text("[data-testid=receipt]")
    assert "✓ valid" in receipt and "invalid" not in receipt, receipt
    assert page.locator("[data-testid=faces] svg").count() > 0
    chart = page.locator("[data-testid=odds-chart]")
    chart.wait_for()
    bars = chart.locator("rect.bar")
    assert bars.count() >= 2
    exact = bars.first.get_attribute("data-exact")
    assert exact and all(part.isdigit() for part in exact.split("/")), exact
    assert exact in bars.first.locator("title").text_content()  # the hover text shows the fraction
    assert page.problems == []


def test_a_link_opens_prefilled_and_rolls_what_it_says(page, live_url, post):
    body = {"rank": 4, "fit": "specialized", "advantages": {"equipment": "active"}, "seed": 77}
    _open(page, f"{live_url}/play?operation=paws.test&lang=de&body={quote(json.dumps(body))}")
    assert page.input_value("[name=rank]") == "4"
    assert page.input_value("[name=seed]") == "77"
    _roll_and_wait(page)
    status, expected = post("/v1/paws/test?lang=de", body)
    assert status == 200
    assert page.inner_text("[data-testid=summary]").strip() == expected["summary"]
    assert "gültig" in page.inner_text("[data-testid=receipt]")
    share = page.get_attribute("[data-testid=share]", "href")
    assert "operation=paws.test" in share and "%22seed%22%3A77" in share


def test_an_invalid_field_shows_its_message_next_to_it_and_keeps_what_was_typed(page, live_url):
    _open(page, f"{live_url}/play?operation=paws.test&lang=en")
    page.fill("[name=rank]", "99")
    page.fill("[name=name]", "Mira")
    page.click("[data-testid=roll]")
    message = page.locator("[data-error-for=rank]")
    message.wait_for()
    page.wait_for_function("document.querySelector('[data-error-for=rank]').textContent.length > 0")
    assert "10" in message.inner_text()  # "Must be ... less than or equal to 10."
    assert page.is_visible("[data-testid=error]")
    assert page.input_value("[name=rank]") == "99" and page.input_value("[name=name]") == "Mira"
    assert page.is_hidden("[data-testid=result]")


ROLL_URL = re.compile(r"/v1/proben/test(\?|$)")  # not the odds twin


@pytest.mark.parametrize("failure", ["network", "server"])
def test_a_network_failure_or_a_5xx_shows_a_short_message(page, live_url, failure):
    _open(page, f"{live_url}/play?operation=proben.test&lang=en")
    if failure == "network":
        page.route(ROLL_URL, lambda route: route.abort("connectionrefused"))
    else:
        page.route(ROLL_URL, lambda route: route.fulfill(
            status=502, content_type="text/html", body="<html><body>Traceback (most recent call last)</body></html>"))
    page.fill("[name=attribute]", "5")
    page.click("[data-testid=roll]")
    error = page.locator("[data-testid=error]")
    error.wait_for()
    page.wait_for_function("document.querySelector('[data-testid=error]').textContent.length > 0")
    text = error.inner_text()
    assert ("could not be reached" in text) if failure == "network" else ("HTTP 502" in text), text
    assert "Traceback" not in page.inner_text("body")
    assert page.input_value("[name=attribute]") == "5"


# -- a page on another origin (CORS) ---------------------------------------------------------------

CROSS_ORIGIN_PAGE = """<!DOCTYPE html>
<meta charset="utf-8"><title>a virtual tabletop</title>
<pre id="out">waiting</pre>
<script type="module">
  import { Client, WurfwerkError } from "./client/index.js";
  const out = document.getElementById("out");
  const client = new Client({ baseUrl: new URLSearchParams(location.search).get("api"), lang: "de" });
  try {
    // Idempotency-Key is a custom header: the preflight must allow it.
    const roll = await client.call("paws.test", { rank: 3 }, { idempotencyKey: `vtt-${crypto.randomUUID()}` });
    const verdict = await client.verify(roll);
    let refused = null;
    try { await client.paws.test({ rank: -1 }); }
    catch (error) { refused = error instanceof WurfwerkError && error.status; }
    out.textContent = JSON.stringify({ summary: roll.summary, valid: verdict.valid, refused,
                                       requestId: roll.receipt.id, origin: location.origin });
  } catch (error) {
    out.textContent = "failed: " + error.message;
  }
</script>
"""


class _QuietHandler(SimpleHTTPRequestHandler):
    def log_message(self, format, *args):  # noqa: A002 (the base class names it so)
        pass


@pytest.fixture
def other_origin(tmp_path):
    """A second server on another port (another origin) serving a VTT-like page and the client."""
    (tmp_path / "vtt.html").write_text(CROSS_ORIGIN_PAGE)
    shutil.copytree(ROOT / "client-js" / "src", tmp_path / "client")
    server = ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(_QuietHandler, directory=str(tmp_path)))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://localhost:{server.server_port}"
    server.shutdown()
    server.server_close()


def test_a_page_on_another_origin_calls_the_api_with_the_js_client(page, live_url, other_origin):
    page.goto(f"{other_origin}/vtt.html?api={quote(live_url)}")
    page.wait_for_function("document.getElementById('out').textContent !== 'waiting'")
    text = page.inner_text("#out")
    assert not text.startswith("failed"), text
    outcome = json.loads(text)
    assert outcome["origin"] != live_url and outcome["origin"].startswith("http://localhost:")
    assert outcome["valid"] is True and outcome["refused"] == 422
    assert outcome["summary"]
