"""Every statement of a rule on a surface names the sentence or ruling it states, and keeps its words
(issue 53 item 4; review 2026-12-04: "a rule stated wrongly or incompletely", nine of them). The table is
tests/i18n/rule_statements.py; these tests read the statements from the surfaces themselves."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from tests.i18n.rule_statements import LONGER_THAN_DISCORD, STATEMENTS, STATES_NO_RULE

ROOT = Path(__file__).parents[2]
# ../shared/rules beside the main checkout; absent on a clean clone (CI), where the quotes are checked
# only through the statements' wording.
RULES = next((path for path in (ROOT.parent / "shared" / "rules", ROOT.parent.parent / "shared" / "rules")
              if path.is_dir()), None)
SOURCES = {"000": "000_617633d4e2bd3e3f.txt", "001": "001_d67bcf46ff845203.txt", "002": "002_610240ae8bf5cc8e.txt",
           "003": "003_ff7aef635d957c0a.txt", "004": "004_c170d2e352f902aa.txt", "RULINGS": "RULINGS.md"}


def _labels() -> dict:
    from wurfwerk_discord.catalog import parse_labels

    return parse_labels((ROOT / "service" / "web" / "labels.js").read_text(encoding="utf-8"))


def _catalog() -> dict[str, str]:
    with (ROOT / "service" / "locale" / "de" / "LC_MESSAGES" / "wurfwerk.po").open("rb") as po:
        messages = [message for message in read_po(po) if message.id]
    # a plural message by its singular msgid, in its singular form
    return {message.id if isinstance(message.id, str) else message.id[0]:
            message.string if isinstance(message.string, str) else message.string[0] for message in messages}


LABELS = _labels()
CATALOG = _catalog()


def statement(surface: str, key: str, lang: str) -> str:
    """The text a player reads for this statement, from the surface itself."""
    if surface == "labels":
        section, _, name = key.partition(".")
        value = LABELS[lang][section][name]
        return value if isinstance(value, str) else value[1]
    if surface == "foundry":
        return json.loads((ROOT / "integrations" / "foundry-vtt" / "lang" / f"{lang}.json").read_text("utf-8"))[key]
    if surface == "catalog":
        return key if lang == "en" else CATALOG[key]
    from wurfwerk_discord.words import WORDS

    return WORDS[lang][key]


CASES = [(surface, key, lang, phrase) for (surface, key), (_, _, says) in STATEMENTS.items()
         for lang, phrases in says.items() for phrase in phrases]


@pytest.mark.parametrize(("surface", "key", "lang", "phrase"), CASES)
def test_the_statement_keeps_the_texts_words(surface, key, lang, phrase):
    assert phrase in statement(surface, key, lang), (surface, key, lang)


def _flat(text: str) -> str:
    return re.sub(r"\s+", " ", text)


# The quotes as last checked against the rules texts, one "source<TAB>quote" a line: where the texts
# are beside the checkout, the test below checks every quote against them and this file against the
# quotes (rewrite it with WURFWERK_UPDATE_GOLDEN=1); on a clean clone (CI) a quote must be in this
# file, so a quote never checked against its text fails there too.
CHECKED_QUOTES = Path(__file__).with_name("golden") / "rule_quotes.txt"


def _quote_lines() -> list[str]:
    return sorted({f"{source}\t{_flat(quote)}" for source, quote, _ in STATEMENTS.values()})


@pytest.mark.parametrize(("surface", "key"), list(STATEMENTS))
def test_the_quoted_sentence_is_the_sources(surface, key):
    source, quote, _ = STATEMENTS[(surface, key)]
    if RULES is not None:
        assert _flat(quote) in _flat((RULES / SOURCES[source]).read_text(encoding="utf-8")), (source, quote)
    else:
        checked = set(CHECKED_QUOTES.read_text(encoding="utf-8").splitlines())
        assert f"{source}\t{_flat(quote)}" in checked, (source, quote, "not yet checked against its text")


def test_the_checked_quotes_are_the_statements_quotes():
    """The file holds exactly the statements' quotes; it is rewritten only beside the rules texts, where
    the test above checks each quote against its text in the same run."""
    text = "\n".join(_quote_lines()) + "\n"
    if os.environ.get("WURFWERK_UPDATE_GOLDEN") == "1" and RULES is not None:
        CHECKED_QUOTES.write_text(text, encoding="utf-8")
    assert CHECKED_QUOTES.read_text(encoding="utf-8") == text, "rewrite it: WURFWERK_UPDATE_GOLDEN=1"


def test_every_help_text_is_either_a_rule_statement_or_none():
    """A help text added to /play (Discord shows the same ones) must be classified: the rule it states,
    quoted in rule_statements.py, or listed as stating none."""
    stated = {key for surface, key in STATEMENTS if surface == "labels"}
    unclassified = [f"{section}.{name}" for section in ("operations", "fields")
                    for name, value in LABELS["de"][section].items()
                    if isinstance(value, list) and len(value) > 1
                    and f"{section}.{name}" not in stated | STATES_NO_RULE]
    assert not unclassified, unclassified


@pytest.mark.parametrize("lang", ["de", "en"])
def test_a_stated_rule_reaches_discord_whole(lang):
    """Discord takes a description of at most 100 characters and the app never cuts one (it falls back to
    the label): a statement longer than that would not reach Discord's players at all."""
    too_long = [key for surface, key in STATEMENTS if surface == "labels" and key not in LONGER_THAN_DISCORD
                and not key.startswith(("choices.", "outcomes.")) and len(statement(surface, key, lang)) > 100]
    assert not too_long, too_long
