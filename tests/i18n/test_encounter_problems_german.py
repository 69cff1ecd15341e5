"""No English inside German problems (issue 40, review 2026-12-03 kind 6: "Every message written in new
code since the catalogs (the encounter refusals, the up-front healing replacements) — each must go
through say()"): over the spec-built corpus of tests/test_bad_input_corpus.py and a corpus of every
refusal the encounters' own validators and solvers give, no message of a `lang=de` problem holds an
English word; and no schema, validator or rule raises a plain string (an AST lint over service/)."""

from __future__ import annotations

import ast
import copy
import json
import re
from pathlib import Path

import pytest

from service.systems.beutelschneider.routes import ENCOUNTER_EXAMPLE as BEUTEL
from service.systems.malmsturm.routes import ENCOUNTER_EXAMPLE as MALM
from service.systems.weltenbuch.routes import ENCOUNTER_EXAMPLE as WELTEN
from tests.test_bad_input_corpus import _corpus

SERVICE = Path(__file__).parents[2] / "service"
# Words of English sentences that German never writes (not "in", "an", "was", "Name": German too).
ENGLISH = {"the", "is", "are", "must", "be", "not", "only", "give", "given", "needs", "need", "more", "than",
           "has", "have", "with", "without", "of", "and", "or", "at", "least", "most", "side", "sides", "member",
           "members", "marble", "marbles", "names", "already", "unique", "states", "answers", "this", "that",
           "each", "every", "pairing", "cannot", "should", "which", "from", "to", "for", "holds", "draws",
           "player", "scene", "party", "entry", "toughness", "up", "exactly", "one", "two", "once", "allowed"}
QUOTED = re.compile(r"„[^“]*“|“[^”]*”|\"[^\"]*\"|«[^»]*»|'[^']*'")
TECHNICAL = re.compile(r"\b[\w.]*[_.][\w.]*\b|\bWURFWERK_\w+|\d+|[\w.]+:")  # paths, settings, "field:" labels


def english_words(message: str) -> set[str]:
    plain = TECHNICAL.sub(" ", QUOTED.sub(" ", message))
    return {word for word in re.findall(r"[A-Za-zÄÖÜäöüß]+", plain) if word.lower() in ENGLISH}


def test_the_detector_finds_english_and_leaves_german_alone():
    assert english_words("holds 3 marbles, but the aftermath draws 2") >= {"holds", "marbles", "the", "draws"}
    assert english_words("„Alrik“ ist schon ein Beteiligter; Namen müssen eindeutig sein (sides.0.name)") == set()


def _with(body: dict, **changes) -> dict:
    body = copy.deepcopy(body)
    body.update(changes)
    return body


def _malm_member(name: str, **extra) -> dict:
    return {"name": name, "attack": {"skill": 2, "type": "harm"}, "defense": 1,
            "stress": {"physical": {"current": 3, "max": 3}, "mental": {"current": 2, "max": 2}}, **extra}


BIG_BAG = {"red": 40, "green": 30, "white": 30}
GROUP = {"name": "Affen", "members": [{"name": "A1", "bag": {"red": 2, "white": 1}},
                                      {"name": "A2", "bag": {"red": 1, "white": 2}}]}
# Every refusal of the encounters' own validators and state limits, one body each (and the review's
# other example of kind 6).
ENCOUNTER_REFUSALS = [
    ("/v1/beutelschneider/encounter/odds", _with(BEUTEL, sides=[BEUTEL["sides"][0], BEUTEL["sides"][0]])),
    ("/v1/beutelschneider/encounter/odds", _with(BEUTEL, sides=[{"name": "a", "bag": {"red": 1, "white": 1}},
                                                                {"name": "b", "bag": {"red": 2}}],
                                                 aftermath={"mortal_danger": "grave"})),
    ("/v1/beutelschneider/encounter/odds", {"sides": [{"name": "a", "bag": BIG_BAG}, {"name": "b", "bag": BIG_BAG}]}),
    ("/v1/beutelschneider/encounter/odds", _with(BEUTEL, exact="required")),
    ("/v1/beutelschneider/encounter/odds", {"sides": [{"name": "L", "bag": {"red": 2}}, GROUP],
                                            "pairs": [["A1", "L"]]}),
    ("/v1/beutelschneider/encounter/odds", {"sides": [{"name": "L", "bag": {"red": 2}}, GROUP],
                                            "pairs": [["L", "A1"], ["L", "A1"]]}),
    ("/v1/beutelschneider/encounter/odds", {"sides": [{"name": "L", "bag": {"red": 2}, "members": GROUP["members"]},
                                                      {"name": "M", "bag": {"red": 1}}]}),
    ("/v1/beutelschneider/encounter/odds", {"sides": [{"name": "A1", "bag": {"red": 2}}, GROUP]}),
    ("/v1/beutelschneider/encounter/odds", {"sides": [{"name": "L", "bag": {"red": 1, "white": 1}}, GROUP],
                                            "aftermath": {"mortal_danger": "grave"}}),
    ("/v1/malmsturm/encounter/odds", _with(MALM, sides=[MALM["sides"][0], MALM["sides"][0]])),
    ("/v1/malmsturm/encounter/odds", _with(MALM, sides=[{"name": "A", "members": [_malm_member("X")]},
                                                        {"name": "B", "members": [_malm_member("X")]}])),
    ("/v1/malmsturm/encounter/odds", _with(MALM, order=["Alrik"])),
    ("/v1/malmsturm/encounter/odds", _with(MALM, order="first")),
    ("/v1/malmsturm/encounter/odds", _with(MALM, policy={"concede_at_consequences": {"Elfen": 1}})),
    ("/v1/malmsturm/encounter/odds", _with(MALM, sides=[{"name": "A", "members": [_malm_member("X", consequences=1)]},
                                                        MALM["sides"][1]],
                                           policy={"concede_at_consequences": {"A": 1}})),
    ("/v1/malmsturm/encounter/odds", _with(MALM, ends="all_out")),
    ("/v1/malmsturm/encounter/odds", _with(MALM, sides=[
        {"name": "A", "members": [_malm_member("X", defenses={"bite": 1})]}, MALM["sides"][1]])),
    ("/v1/malmsturm/encounter/odds", {"sides": [{"name": "A", "members": [_malm_member(f"a{i}") for i in range(4)]},
                                                {"name": "B", "members": [_malm_member(f"b{i}") for i in range(4)]}]}),
    # Review kind 6: "the up-front healing replacements" (a wrong count given up front)
    ("/v1/beutelschneider/healing", {"bag": {"red": 3, "black": 2}, "chances": "fair", "replacements": ["red"]}),
    ("/v1/weltenbuch/encounter/odds", _with(WELTEN, toughness={})),
    ("/v1/weltenbuch/encounter/odds", _with(WELTEN, toughness={**WELTEN["toughness"],
                                                               "Ghost": {"current": 1, "max": 1}})),
    ("/v1/weltenbuch/encounter/odds", _with(WELTEN, policy={"hold_hero_points": {"Orc 1": 1}})),
    ("/v1/weltenbuch/encounter/odds", _with(WELTEN, parties=[{"name": f"P{i}", "members": [
        {"name": f"M{i}", "role": "npc", "profile": 1}]} for i in range(9)],
        toughness={f"M{i}": {"current": 1, "max": 1} for i in range(9)})),
    ("/v1/weltenbuch/encounter/odds", _with(WELTEN, parties=[{"name": f"P{i}", "members": [
        {"name": f"M{i}", "role": "npc", "profile": 9}]} for i in range(8)],
        toughness={f"M{i}": {"current": 1, "max": 1} for i in range(8)})),
]


def _messages(body: dict) -> list[str]:
    return [body["title"], body["detail"], *(m for messages in body.get("errors", {}).values() for m in messages)]


@pytest.mark.parametrize("path, body", ENCOUNTER_REFUSALS)
def test_every_encounter_refusal_is_german(app, path, body):
    status, answer = _post(app, path, json.dumps(body), "application/json", "de")
    assert 400 <= status < 500, answer
    english = [(message, english_words(message)) for message in _messages(answer) if english_words(message)]
    assert english == [], answer


def test_no_problem_of_the_corpus_holds_english_under_lang_de(app):
    found = []
    for path, data, content_type in _corpus(app.test_client().get("/openapi.json").get_json()):
        _, answer = _post(app, path, data, content_type, "de")
        found += [(path, message) for message in _messages(answer) if english_words(message)]
    assert found == []


def _post(app, path, data, content_type, lang):
    response = app.test_client().post(f"{path}?lang={lang}", data=data.encode("utf-8", "surrogatepass"),
                                      content_type=content_type)
    return response.status_code, json.loads(response.get_data(as_text=True))


# --- the lint: no plain string as a message ----------------------------------------------------------

RAISING = {"ValidationError", "RuleViolation", "InputError", "ManualEntryError", "EncounterTooLarge"}
FIELD_FIRST = {"RuleViolation", "InputError", "ManualEntryError", "EncounterTooLarge"}  # (field, message)


def _plain(node: ast.AST) -> bool:
    if isinstance(node, ast.Constant) and isinstance(node.value, str) or isinstance(node, ast.JoinedStr):
        return True
    if isinstance(node, (ast.List, ast.Tuple, ast.Set)):
        return any(_plain(element) for element in node.elts)
    if isinstance(node, ast.Dict):
        return any(_plain(value) for value in node.values if value is not None)
    if isinstance(node, ast.BinOp):
        return _plain(node.left) or _plain(node.right)
    return False


def test_no_schema_validator_or_rule_raises_a_plain_string():
    """A message is `say(...)` (or a catalog entry), never a literal: a literal reaches a German player in English."""
    found = []
    for path in sorted(SERVICE.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call):
                continue
            name = node.func.id if isinstance(node.func, ast.Name) else getattr(node.func, "attr", None)
            if name not in RAISING:
                continue
            messages = node.args[1:] if name in FIELD_FIRST else node.args[:1]
            found += [f"{path.relative_to(SERVICE.parent)}:{node.lineno}" for message in messages if _plain(message)]
    assert found == []


# --- the catalog's German: the texts' words, one register ---------------------------------------------

def _german() -> str:
    from babel.messages.pofile import read_po

    with (SERVICE / "locale" / "de" / "LC_MESSAGES" / "wurfwerk.po").open("rb") as catalog:
        messages = [message.string for message in read_po(catalog) if message.id]
    return " ".join(part for string in messages for part in (string if isinstance(string, tuple) else (string,)))


GERMAN = _german()


@pytest.mark.parametrize("word", ["Begegnung", "Spielleitung", "Nichtspielercharakter", "Leiste"])
def test_the_catalog_uses_the_texts_words(word):
    """Review 2026-12-03 kind 7: „Begegnung“ (none of the texts uses it: Kampf, Konflikt, Szene,
    Probenkette), „Spielleitung“ (→ Spielleiter), „Nichtspielercharakter“ (→ Spielleitercharakter)."""
    assert word not in GERMAN


def test_the_catalog_asks_in_the_infinitive():
    """Review kind 10: one register, the infinitive („… angeben“), never a du-imperative after a semicolon."""
    assert not re.search(r"[;:] (gib|hol|nenne|benenne|wähle|nimm|setze|lass|prüfe|ändere|trage)\b", GERMAN)
