"""The language of summaries: ?lang=, else the client's most preferred language we write, else en."""

from __future__ import annotations

import pytest

from service.platform.http.i18n import _best_language


@pytest.mark.parametrize("header, expected", [
    ("", "en"),
    ("de", "de"),
    ("de-DE,de;q=0.9", "de"),
    ("de-AT", "de"),
    ("DE_de", "de"),
    ("en-US,de;q=0.5", "en"),           # a US browser that also reads German wants English
    ("fr, de;q=0.8, en;q=0.9", "en"),   # by preference, not by the order we list languages
    ("fr, de;q=0.8", "de"),
    ("de;q=0, en;q=0.1", "en"),
    ("de;q=0", "en"),                   # q=0: not acceptable
    ("*", "en"),
    ("fr", "en"),
    ("garbage;;;q=x", "en"),
])
def test_accept_language_picks_the_most_preferred_language_we_write(header, expected):
    assert _best_language(header) == expected


def test_query_parameter_wins_over_the_header(client):
    body = {"rank": 2, "seed": 1}
    english = client.post("/v1/paws/test?lang=en", json=body, headers={"Accept-Language": "de"}).get_json()
    german = client.post("/v1/paws/test", json=body, headers={"Accept-Language": "en-US;q=0.4, de"}).get_json()
    assert (english["lang"], german["lang"]) == ("en", "de")
