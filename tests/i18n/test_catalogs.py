"""The message catalogs: complete, consistent with the code, packaged, and open to a new language.

A message is in the code (``gettext``/``ngettext``/``pgettext``/``npgettext``, or ``marked`` for words
kept in tables); every language other than English has it translated in its ``.po``."""

from __future__ import annotations

import re
import tomllib
from functools import cache
from pathlib import Path

import pytest
from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_dir
from babel.messages.pofile import read_po

from service.platform.words import catalogs
from service.platform.words.catalogs import KEYWORDS, LANGUAGES, SOURCE_LANGUAGE, catalog_path, translations
from service.systems.malmsturm.rules import CONSEQUENCE_EXAMPLES, LADDER

ROOT = Path(__file__).resolve().parents[2]
PLACEHOLDER = re.compile(r"%\((\w+)\)[sd]")
TRANSLATED = [lang for lang in LANGUAGES if lang != SOURCE_LANGUAGE]


@cache
def code_messages() -> dict[tuple[str | None, str], tuple[str, ...]]:
    """(context, msgid) -> all forms, as extracted from the service's code."""
    found = {}
    for _file, _line, message, _comments, context in extract_from_dir(
            ROOT / "service", keywords={**DEFAULT_KEYWORDS, **KEYWORDS}):
        forms = message if isinstance(message, tuple) else (message,)
        found[(context, forms[0])] = forms
    return found


def catalog(lang: str):
    with catalog_path(lang).open("rb") as po:
        return read_po(po, locale=lang)


def test_there_is_a_translated_language():
    assert SOURCE_LANGUAGE == "en" and "de" in TRANSLATED


@pytest.mark.parametrize("lang", TRANSLATED)
def test_every_message_of_the_code_is_translated(lang):
    entries = {(m.context, m.id[0] if isinstance(m.id, tuple) else m.id): m for m in catalog(lang) if m.id}
    missing, untranslated = [], []
    for key in code_messages():
        message = entries.get(key)
        if message is None:
            missing.append(key)
        elif message.fuzzy or not all(message.string if isinstance(message.string, tuple) else [message.string]):
            untranslated.append(key)
    assert not missing, f"not in the {lang} catalog (run `make messages`): {missing}"
    assert not untranslated, f"untranslated or fuzzy in the {lang} catalog: {untranslated}"


@pytest.mark.parametrize("lang", TRANSLATED)
def test_no_catalog_keeps_messages_the_code_dropped(lang):
    stale = [(m.context, m.id) for m in catalog(lang)
             if m.id and (m.context, m.id[0] if isinstance(m.id, tuple) else m.id) not in code_messages()]
    assert not stale, f"obsolete in the {lang} catalog (run `make messages`): {stale}"


@pytest.mark.parametrize("lang", TRANSLATED)
def test_translations_use_the_placeholders_of_their_message(lang):
    """A translation may leave a count out of its singular ("einen Effekt"), never invent one."""
    wrong = []
    for message in catalog(lang):
        if not message.id:
            continue
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        forms = message.string if isinstance(message.string, tuple) else (message.string,)
        allowed = set().union(*(PLACEHOLDER.findall(form) for form in ids))
        for index, form in enumerate(forms):
            used = set(PLACEHOLDER.findall(form))
            plural_needs = set(PLACEHOLDER.findall(ids[-1])) - {"count"} if index == len(forms) - 1 else set()
            if not used <= allowed or not plural_needs <= used:
                wrong.append((message.id, form))
    assert not wrong, wrong


@pytest.mark.parametrize("lang", TRANSLATED)
def test_every_catalog_states_its_plural_rule(lang):
    assert catalog(lang).plural_forms.startswith("nplurals=")


def test_german_counts_use_real_plural_forms():
    german = translations("de")
    assert [german.ngettext("%(count)d success", "%(count)d successes", n) % {"count": n} for n in (0, 1, 2, 5)] == [
        "0 Erfolge", "1 Erfolg", "2 Erfolge", "5 Erfolge"]
    assert german.npgettext("marbles", "a %(colour)s", "%(number)s %(colour)s", 1) == "eine %(colour)s"


def test_the_german_ladder_and_consequences_are_the_texts_words():
    """Ruling Malmsturm 1: "−4 hoffnungslos, … +6 Weltklasse, above +6 unvergleichlich"; the attack
    table's "Beispiele für Konsequenzen" (ruling 5)."""
    german = translations("de")
    assert [german.pgettext("ladder", rung.en) for rung in LADDER] == [rung.de for rung in LADDER]
    for examples in CONSEQUENCE_EXAMPLES.values():
        assert [german.pgettext("consequence", e.en) for e in examples] == [e.de for e in examples]


def test_the_catalogs_are_package_data():
    """`pip install .` (the container image) ships what the globs name: every .po must match one."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    globs = config["tool"]["setuptools"]["package-data"]["service"]
    package = ROOT / "service"
    shipped = {path for pattern in globs for path in package.glob(pattern)}
    assert set(package.glob("locale/*/LC_MESSAGES/*.po")) <= shipped and shipped


@pytest.mark.parametrize("lang", TRANSLATED)
def test_a_catalog_compiled_anew_gives_every_translation_of_its_po(lang):
    """Read, compiled and loaded as at start, uncached; how long that takes is a case of
    bench/odds_speed.py."""
    compiled = translations.__wrapped__(lang)
    wrong = [(m.context, m.id) for m in catalog(lang) if m.id and not isinstance(m.id, tuple)
             and (compiled.pgettext(m.context, m.id) if m.context else compiled.gettext(m.id)) != m.string]
    assert not wrong, wrong


def test_a_third_language_is_a_new_catalog_and_no_code(tmp_path, monkeypatch):
    """Copy the German catalog as Dutch with one message changed: the code finds and uses it."""
    target = tmp_path / "nl" / "LC_MESSAGES"
    target.mkdir(parents=True)
    for lang in TRANSLATED:
        (tmp_path / lang / "LC_MESSAGES").mkdir(parents=True, exist_ok=True)
        (tmp_path / lang / "LC_MESSAGES" / "wurfwerk.po").write_bytes(catalog_path(lang).read_bytes())
    dutch = catalog_path("de").read_text(encoding="utf-8").replace(
        'msgstr "Der Spielleiter erzählt."', 'msgstr "De spelleider vertelt."').replace("Language: de", "Language: nl")
    (target / "wurfwerk.po").write_text(dutch, encoding="utf-8")
    monkeypatch.setattr(catalogs, "LOCALE_DIR", tmp_path)
    translations.cache_clear()
    try:
        assert "nl" in catalogs._catalog_languages()
        assert translations("nl").gettext("The GM narrates.") == "De spelleider vertelt."
    finally:
        monkeypatch.undo()
        translations.cache_clear()
