"""Problems in the request's language (API.md §1, amended by issue 29): ``title``, ``detail`` and every
``errors`` message come from the catalogs, in one style of our own; no marshmallow default message
reaches a client in either language; a limit's setting is a member for operators; the language is
negotiated without ever refusing, and every answer names it in ``Content-Language``."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from marshmallow import fields, validate

from service.platform.words.messages import Number, localized, say
from tests.systems.weltenbuch.test_worked_examples import AMBUSH, MANUAL, TOUGHNESS
from tests.test_bad_input_corpus import _corpus

PROBLEM = "application/problem+json"


def _marshmallow_defaults() -> set[str]:
    """Every default message of marshmallow's fields and validators, as its words start."""
    found = {"Unknown field.", "Invalid input type.", "Invalid value.", "Missing data for required field.",
             "Field may not be null."}
    for kind in vars(fields).values():
        if isinstance(kind, type) and issubclass(kind, fields.Field):
            found.update(getattr(kind, "default_error_messages", {}).values())
    found.update([validate.OneOf.default_message, "Must be greater than or equal", "Must be less than or equal",
                  "Shorter than minimum length", "Longer than maximum length", "Length must be"])
    return {message.split("{", 1)[0].strip() for message in found if message.split("{", 1)[0].strip()}


MARSHMALLOW_DEFAULTS = _marshmallow_defaults()


def _messages(body: dict) -> list[str]:
    return [body["title"], body["detail"], *(m for messages in body.get("errors", {}).values() for m in messages)]


@pytest.fixture(scope="module")
def corpus(app):
    return list(_corpus(app.test_client().get("/openapi.json").get_json()))


def test_no_library_message_reaches_a_client_in_either_language(app, corpus):
    """Issue 29: "Field may not be null.", "Unknown field.", "Not a valid integer." reached players."""
    client = app.test_client()
    leaks = []
    for path, data, content_type in corpus:
        for lang in ("en", "de"):
            response = client.post(f"{path}?lang={lang}", data=data.encode("utf-8", "surrogatepass"),
                                   content_type=content_type)
            body = json.loads(response.get_data(as_text=True))
            leaks += [(path, lang, message) for message in _messages(body)
                      if any(default in message for default in MARSHMALLOW_DEFAULTS)]
    assert leaks == []


def test_every_problem_of_the_corpus_is_german_under_lang_de(app, corpus):
    """Each message of a German problem differs from the same request's English one: none is left
    untranslated (field paths stay as they are)."""
    client = app.test_client()
    untranslated = []
    for path, data, content_type in corpus:
        answers = {}
        for lang in ("en", "de"):
            response = client.post(f"{path}?lang={lang}", data=data.encode("utf-8", "surrogatepass"),
                                   content_type=content_type)
            assert response.mimetype == PROBLEM and response.headers["Content-Language"] == lang
            answers[lang] = json.loads(response.get_data(as_text=True))
        english, german = answers["en"], answers["de"]
        assert german["errors"].keys() == english["errors"].keys() if "errors" in english else True
        pairs = [(english["title"], german["title"]), (english["detail"], german["detail"])]
        for field, messages in english.get("errors", {}).items():
            pairs += zip(messages, german["errors"][field])
        untranslated += [(path, en) for en, de in pairs if en == de]
    assert untranslated == []


def test_the_issues_examples_answer_in_german(post):
    """Issue 29: `attribute: -1` answered "must be at least 0"; under `Accept-Language: de-DE`,
    `rank: 99` answered marshmallow's "Must be greater than or equal to 0 and less than or equal to 10."."""
    status, body = post("/v1/proben/test?lang=de", {"attribute": -1, "difficulty": 2})
    assert status == 422 and body["errors"] == {"attribute": ["muss mindestens 0 sein"]}
    assert body["title"] == "Ungültige Eingabe" and body["detail"] == "attribute: muss mindestens 0 sein"
    status, body = post("/v1/paws/test", {"rank": 99}, headers={"Accept-Language": "de-DE"})
    assert body["errors"] == {"rank": ["muss zwischen 0 und 10 liegen"]}
    status, body = post("/v1/paws/test?lang=de", {"rank": None, "zzz": 1, "wounds": "2"})
    assert body["errors"] == {"rank": ["darf nicht null sein"], "zzz": ["ist kein Feld dieser Anfrage"],
                              "wounds": ["muss eine ganze Zahl sein"]}
    assert body["detail"] == "rank: darf nicht null sein (und 2 weitere Fehler)"
    status, body = post("/v1/paws/test", {"rank": None, "zzz": 1})
    assert body["errors"] == {"rank": ["must not be null"], "zzz": ["is not a field of this request"]}


def test_a_limit_is_a_member_for_operators_and_words_for_players(post):
    """Issue 29: "must be at most 100 (limit pool_dice, WURFWERK_MAX_POOL_DICE)" reached players."""
    status, body = post("/v1/paws/test?lang=de", {"rank": 3, "extra_bonus_dice": 101})
    assert body["limit"] == {"name": "pool_dice", "value": 100, "setting": "WURFWERK_MAX_POOL_DICE"}
    assert body["errors"]["extra_bonus_dice"] == [
        "darf höchstens 100 sein (mehr Würfel in einem Pool erlaubt dieser Dienst nicht)"]
    status, body = post("/v1/beutelschneider/challenge", {"bag": {"red": 60, "white": 50}, "ability": "combat",
                                                          "difficulty": "normal"})
    assert body["limit"]["name"] == "bag_marbles"
    assert body["errors"]["bag"] == ["marbles in all: must be at most 100 (the most marbles in one bag this "
                                     "service allows)"]
    assert "WURFWERK" not in json.dumps(body["errors"])


def test_a_german_word_is_answered_with_the_api_word(post):
    """Issue 29: `"ability": "Kampf"` answered "Must be one of: combat, skill, magic."; the glossary of
    /v1/systems maps Kampf to combat."""
    status, body = post("/v1/beutelschneider/challenge?lang=de",
                        {"bag": {"red": 3}, "ability": "Kampf", "difficulty": "normal"})
    assert body["errors"]["ability"] == [
        "muss einer dieser Werte sein: combat (Kampf), skill (Geschick), magic (Magie); „Kampf“ heißt hier combat"]
    status, body = post("/v1/beutelschneider/challenge", {"bag": {"red": 3}, "ability": "kampf",
                                                          "difficulty": "besonders schwer"})
    assert body["errors"] == {"ability": ["must be one of: combat, skill, magic; “kampf” is called combat here"],
                              "difficulty": ["must be one of: easy, normal, hard; “besonders schwer” is called "
                                             "hard here"]}
    status, body = post("/v1/beutelschneider/challenge?lang=de", {"bag": {"red": 3}, "ability": "Feuer"})
    assert body["errors"]["ability"] == [
        "muss einer dieser Werte sein: combat (Kampf), skill (Geschick), magic (Magie)"]


def test_the_english_slips_are_gone(post):
    """Issue 29: "holds 1 marbles", "a npc", "value 8 is needed …, but only 8 were given"."""
    status, body = post("/v1/beutelschneider/challenge", {"bag": {"red": 1}, "ability": "combat",
                                                          "difficulty": "easy"})
    assert body["errors"]["bag"] == ["holds 1 marble, but 3 must be drawn"]
    status, body = post("/v1/paws/test", {"rank": 3, "manual": [4, 5]})
    assert body["errors"]["manual"] == ["too few values: 2 were given, the rules need at least one more "
                                        "(a d6 face 1..6)"]
    status, body = post("/v1/paws/test?lang=de", {"rank": 3, "manual": [4]})
    assert body["errors"]["manual"] == ["zu wenige Werte: 1 angegeben, die Regeln brauchen mindestens einen "
                                        "weiteren (eine Augenzahl eines W6, 1..6)"]


def test_an_npc_spending_hero_points_is_an_npc(post):
    """Issue 29: "Wächter is a npc"."""
    _, conflict = post("/v1/weltenbuch/conflict", {**AMBUSH, "manual": MANUAL})
    status, body = post("/v1/weltenbuch/narration", {"conflict": conflict, "toughness": TOUGHNESS, "spends": [],
                                                     "hero_points": [{"member": "Orc 1", "count": 1}]})
    assert body["errors"]["hero_points.0.member"][0].startswith("Orc 1 is an npc: only a player spends")


@pytest.mark.parametrize("query, header, expected", [
    ("?lang=de", None, "de"), ("?lang=DE", None, "de"), ("?lang=de-AT", None, "de"), ("?lang=de_CH", None, "de"),
    ("?lang=fr", "de", "en"), ("?lang=", None, "en"), ("", "fr;q=1, de;q=0.5", "de"), ("", "de;q=0, en", "en"),
    ("", None, "en"),
])
def test_the_language_is_negotiated_never_refused(client, query, header, expected):
    """API.md §1: `lang` in any case and with a region, an unsupported one falls back to en (issue 29:
    `?lang=DE`, `de-AT` and `fr` were 422s); every answer says its language."""
    headers = {"Accept-Language": header} if header else {}
    response = client.post(f"/v1/paws/test{query}", json={"rank": 2, "seed": 1}, headers=headers)
    assert response.status_code == 200
    assert response.get_json()["lang"] == expected == response.headers["Content-Language"]
    assert "Accept-Language" in response.headers.get("Vary", "")


def test_every_answer_carries_content_language(client):
    for response in (client.get("/livez"), client.get("/v1/keys"), client.get("/nowhere?lang=de"),
                     client.post("/v1/paws/test/odds", json={"rank": 2}), client.get("/v1/systems")):
        assert response.headers["Content-Language"] in ("en", "de")
    problem = client.get("/nowhere", headers={"Accept-Language": "de-AT"})
    assert problem.headers["Content-Language"] == "de" and "Accept-Language" in problem.headers["Vary"]
    assert problem.get_json()["title"] == "Nicht gefunden"
    assert "Accept-Language" not in client.get("/livez").headers.get("Vary", "")


# --- the golden problems: one table a reviewer reads, in every language ----------------------------

PROBLEMS_GOLDEN = Path(__file__).parent / "golden" / "problems.md"
REPRESENTATIVE = [
    ("/v1/paws/test", {"rank": 99}), ("/v1/paws/test", {"rank": None}), ("/v1/paws/test", {"rank": "3"}),
    ("/v1/paws/test", {"rank": 2, "zzz": 1}), ("/v1/paws/test", {}),
    ("/v1/paws/test", {"rank": 2, "extra_bonus_dice": 200}), ("/v1/paws/test", {"rank": 2, "manual": [4]}),
    ("/v1/paws/test", {"rank": 1, "manual": [7]}), ("/v1/paws/test", {"rank": 1, "manual": [4, 4]}),
    ("/v1/paws/test", {"rank": 2, "advantages": {"equipment": ["active", "active"]}}),
    ("/v1/paws/comparison", {"a": {"rank": 2}, "b": {"rank": 2}, "mode": "Abwehr"}),
    ("/v1/proben/test", {"attribute": -1, "difficulty": 2}),
    ("/v1/proben/test", {"attribute": 2, "skill": 1, "skill_dice": 3, "difficulty": 2}),
    ("/v1/proben/extended", {"attribute": 2, "required": 500}),
    ("/v1/beutelschneider/challenge", {"bag": {"red": 3}, "ability": "Kampf", "difficulty": "normal"}),
    ("/v1/beutelschneider/challenge", {"bag": {"red": 1}, "ability": "combat", "difficulty": "easy"}),
    ("/v1/beutelschneider/challenge", {"bag": {"red": 3}, "ability": "combat", "manual": ["blue"]}),
    ("/v1/beutelschneider/contest", {"participants": [{"name": "A", "bag": {"red": 3}, "ability": "combat"}]}),
    ("/v1/weltenbuch/conflict", {"die": 9, "parties": []}),
    ("/v1/malmsturm/action", {"skill": 30, "difficulty": 0}),
    ("/v1/malmsturm/attack", {"attacker": {"skill": 2, "attack": "täuschen"}, "defender": {"skill": 1}}),
    ("/v1/batch", {"requests": []}),
]


def render_problems(client) -> str:
    rows = []
    for path, body in REPRESENTATIVE:
        cells = [f"`{path}` `{json.dumps(body, ensure_ascii=False)}`"]
        for lang in ("en", "de"):
            problem = client.post(f"{path}?lang={lang}", json=body).get_json()
            errors = "; ".join(f"{field}: {' / '.join(messages)}"
                               for field, messages in problem.get("errors", {}).items())
            cells.append(f"**{problem['title']}** – {errors or problem['detail']}"
                         + (f" (limit {problem['limit']['name']})" if "limit" in problem else ""))
        rows.append("| " + " | ".join(cell.replace("|", "\\|") for cell in cells) + " |")
    return ("# Golden problems\n\nRepresentative bad requests and the problem each gets, in English and German "
            "(title – errors); `make golden` rewrites this file.\n\n| request | en | de |\n|---|---|---|\n"
            + "\n".join(rows) + "\n")


def test_the_golden_problems_hold(client):
    current = render_problems(client)
    if os.environ.get("WURFWERK_UPDATE_GOLDEN") == "1":
        PROBLEMS_GOLDEN.write_text(current, encoding="utf-8")
    assert PROBLEMS_GOLDEN.read_text(encoding="utf-8") == current, (
        "a problem message changed: read the difference, then `make golden` rewrites tests/i18n/golden/problems.md")


READ_TIMEOUT_MESSAGE = "The request body did not arrive within %(seconds)s s (WURFWERK_READ_TIMEOUT)."


@pytest.mark.parametrize("value,english,german", [(2.5, "2.5", "2,5"), (10.0, "10", "10"), (0.25, "0.25", "0,25")])
def test_a_number_in_a_problem_is_written_as_its_language_writes_it(value, english, german):
    """German writes a decimal comma (the 408's „2,5 s“; tests/serving/test_body_deadline.py over the worker)."""
    message = say(READ_TIMEOUT_MESSAGE, seconds=Number(value))
    assert message == f"The request body did not arrive within {english} s (WURFWERK_READ_TIMEOUT)."
    assert localized(message, "de") == (
        f"Der Anfragekörper kam nicht innerhalb von {german} s an (WURFWERK_READ_TIMEOUT).")
