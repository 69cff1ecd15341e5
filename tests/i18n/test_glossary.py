"""One glossary, every surface (issue 53 item 1; review 2026-12-04, kinds "one term, several words" and
"English inside German"). ``service/locale/glossary.json`` names every game term once, with the rules
text's German word, the English catalog's word and the words no surface may use instead (the review's
pairs: Grundwert/Basiswert, Spielleiter/Spielleitung, Ohnmacht/bewusstlos/ausgeschaltet,
Ticket/Wurfschein, Hauptakteur/Anführer, Heilfarbe/Heilungsfarbe). These tests read every surface a
player reads: the chat lines' catalog, /play's labels (the Discord app reads the same file for its
option names, choices and odds), the Discord app's own words and the Foundry module's language files."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from service.platform.words.glossary import terms

ROOT = Path(__file__).parents[2]


def _strings(value: object) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [text for item in value.values() for text in _strings(item)]
    if isinstance(value, (list, tuple)):
        return [text for item in value for text in _strings(item)]
    return []


def _catalog() -> dict[str, list[str]]:
    with (ROOT / "service" / "locale" / "de" / "LC_MESSAGES" / "wurfwerk.po").open("rb") as po:
        messages = [message for message in read_po(po) if message.id]
    return {"de": [text for message in messages for text in _strings(message.string)],
            "en": [text for message in messages for text in _strings(message.id)]}


def _labels() -> dict[str, dict]:
    from wurfwerk_discord.catalog import parse_labels

    return parse_labels((ROOT / "service" / "web" / "labels.js").read_text(encoding="utf-8"))


def _discord() -> dict[str, list[str]]:
    from wurfwerk_discord.words import WORDS

    return {lang: _strings(WORDS[lang]) for lang in ("de", "en")}


def _foundry(lang: str) -> dict[str, str]:
    return json.loads((ROOT / "integrations" / "foundry-vtt" / "lang" / f"{lang}.json").read_text(encoding="utf-8"))


def _golden_lines() -> dict[str, list[str]]:
    """The chat lines as players read them, composed (tests/i18n/golden/lines.md: case | en | de)."""
    golden = (ROOT / "tests" / "i18n" / "golden" / "lines.md").read_text("utf-8").splitlines()
    rows = [line.split(" | ") for line in golden if line.startswith("| ") and not line.startswith("| case")]
    rows = [row for row in rows if len(row) == 3]
    return {"en": [row[1] for row in rows], "de": [row[2].rstrip(" |") for row in rows]}


LABELS = _labels()
SURFACES: dict[str, dict[str, list[str]]] = {
    "catalog": _catalog(),
    "labels.js": {lang: _strings(LABELS[lang]) for lang in ("de", "en")},
    "discord": _discord(),
    "foundry": {lang: list(_foundry(lang).values()) for lang in ("de", "en")},
    "chat lines": _golden_lines(),
}

# What a German sentence may name without writing English: placeholders, API paths and fields, settings,
# a command's syntax, and an API word quoted as such („initiative“, `key`).
_NOT_WORDS = re.compile(r"/ww \w+|%\([a-z_]+\)[sdf]|\{[a-z_]+\}|\S*[/_=.]\S*|\b[A-Z][A-Z0-9]+\b|https?://\S+"
                        r"|„[^“]*“|`[^`]*`")


def _words(text: str) -> list[str]:
    return re.findall(r"[A-Za-zÄÖÜäöüß][\wÄÖÜäöüß-]*", _NOT_WORDS.sub(" ", text))


def _avoided(lang: str) -> list[tuple[str, str]]:
    return sorted({(word, entry[lang if lang == "en" else "de"]) for entry in terms()
                   for word in entry.get("avoid", {}).get(lang, [])})


def _occurs(word: str, text: str) -> bool:
    return re.search(rf"(?<![\wÄÖÜäöüß]){re.escape(word)}(?![\wÄÖÜäöüß])", _NOT_WORDS.sub(" ", text)) is not None


@pytest.mark.parametrize("surface", SURFACES)
@pytest.mark.parametrize("lang", ["de", "en"])
def test_no_surface_writes_another_word_for_a_glossary_term(surface, lang):
    """A surface that writes „Spielleitung“ where the glossary (and the text) says „Spielleiter“ fails,
    naming the string."""
    found = [f"{word!r} (the glossary says {term!r}) in {text!r}" for word, term in _avoided(lang)
             for text in SURFACES[surface][lang] if _occurs(word, text)]
    assert not found, "\n".join(found)


def _glossary_words() -> set[str]:
    """Every word of every German term and its forms, and the plain words that are no game terms."""
    from service.platform.words.glossary import plain_words

    words = set(plain_words("de"))
    for entry in terms():
        for phrase in (entry["de"], *entry.get("forms", [])):
            words.update(_words(phrase))
    return words


def _term_labels() -> list[tuple[str, str]]:
    """The labels that name a game term: /play's (and Discord's) operation and field names, choices,
    outcomes and chart labels; Foundry's outcomes and odds."""
    labelled = []
    for section in ("operations", "fields", "choices", "outcomes", "distributions"):
        for key, value in LABELS["de"][section].items():
            labelled.append((f"labels.js {section}.{key}", value if isinstance(value, str) else value[0]))
    for key, value in _foundry("de").items():
        if key.startswith(("WURFWERK.Outcome.", "WURFWERK.Odds.")):
            labelled.append((f"foundry {key}", value))
    return labelled


@pytest.mark.parametrize(("where", "label"), _term_labels())
def test_a_term_label_uses_only_glossary_words(where, label):
    """Every noun of a label that names a term is a glossary word (or one of its plain words): a
    surface that names a term the glossary does not have fails here, and the term goes into the
    glossary (with the rules text's word) before any surface uses it."""
    known = _glossary_words()
    unknown = [word for word in _words(label) if word[0].isupper() and word not in known]
    assert not unknown, f"{where}: {label!r} has {unknown}, not in service/locale/glossary.json"


def _english_terms() -> set[str]:
    """The English catalog's game terms, as single words, less those German writes the same way."""
    from service.platform.words.glossary import loanwords, plain_words

    german = {word.casefold() for word in _glossary_words()} | {word.casefold() for word in plain_words("de")}
    english = {word.casefold() for entry in terms() for word in _words(entry["en"]) if len(word) > 2}
    return english - german - {word.casefold() for word in [*plain_words("both"), *loanwords()]}


@pytest.mark.parametrize("surface", SURFACES)
def test_no_german_string_has_an_english_game_term(surface):
    """Review kind "English inside German": „Erwartungswert rounds“, „Ork · wounds“. Every German
    string of the surface, placeholders and API paths left out, holds none of the English terms."""
    english = _english_terms()
    found = [f"{word!r} in {text!r}" for text in SURFACES[surface]["de"] for word in _words(text)
             if word.casefold() in english]
    assert not found, "\n".join(found)


def test_the_english_term_list_is_not_empty():
    """The list the test above checks against is built from the glossary, not written by hand."""
    assert {"wound", "marble", "consequence", "stress"} <= _english_terms()


def test_each_system_glossary_is_read_from_the_one_glossary():
    """GET /v1/systems carries each system's German -> API words from service/locale/glossary.json."""
    from service.systems.proben.routes import SYSTEM

    assert SYSTEM.glossary["Basiswert"] == "base" and "Grundwert" not in SYSTEM.glossary
    assert SYSTEM.glossary["Hauptakteur"] == "leader"


@pytest.mark.parametrize("surface", SURFACES)
def test_german_typography(surface):
    """Issue 53 item 6: German quotes „…“ (never "…" or “…”), decimal commas (never "3.5"); versions and
    protocol names (HTTP/1.1) are no decimals."""
    found = []
    for text in SURFACES[surface]["de"]:
        if '"' in text or "”" in text:
            found.append(f"quotes: {text!r}")
        # a point between digits is a decimal point, unless it groups thousands ("1.000")
        if re.search(r"(?<![\d./])\d+\.(?!\d{3}(?!\d))\d+(?![\d.])", re.sub(r"HTTP/\d\.\d", "", text)):
            found.append(f"decimal point: {text!r}")
    assert not found, "\n".join(found)
