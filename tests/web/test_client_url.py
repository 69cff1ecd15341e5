"""The JavaScript client as the README tells a VTT developer to load it: from the running service at the
URL the README names, imported by a page of another origin in Chromium (a module import across
origins needs the service's CORS headers), then used for a roll and its receipt check."""

from __future__ import annotations

import re
from pathlib import Path

import requests

from tests.web.conftest import LAN_NAME

README = (Path(__file__).resolve().parents[2] / "README.md").read_text()


def _client_path() -> str:
    section = README.split("### From a VTT module in the browser", 1)[1].split("\n### ", 1)[0]
    [path] = set(re.findall(r"\*\*`(/[^`]+\.js)`\*\*", section))
    return path


def test_the_readme_names_the_client_url_the_service_serves(live_url):
    answer = requests.get(live_url + _client_path(), headers={"Origin": "https://vtt.example.org"}, timeout=10)
    assert answer.status_code == 200, answer.status_code
    assert answer.headers["Content-Type"].split(";")[0] in {"text/javascript", "application/javascript"}
    assert answer.headers["Access-Control-Allow-Origin"] in {"*", "https://vtt.example.org"}
    assert "export" in answer.text and "Client" in answer.text


def test_a_page_of_another_origin_imports_the_client_from_the_service_and_rolls(page, live_url):
    vtt_origin = live_url.replace("127.0.0.1", LAN_NAME)  # same server, another origin for the browser
    page.goto(f"{vtt_origin}/livez")
    outcome = page.evaluate("""async ([url, service]) => {
        const { Client } = await import(url);
        const client = new Client({ baseUrl: service, lang: "de" });
        const roll = await client.paws.test({ rank: 3, name: "Mira" });
        return { summary: roll.summary, state: (await client.check(roll)).state };
    }""", [live_url + _client_path(), live_url])
    assert outcome["summary"].startswith("Mira"), outcome
    # A plain-http LAN name is no secure context: the vendored Ed25519 checks the receipt there.
    assert outcome["state"] == "verified", outcome
    assert page.problems == []
