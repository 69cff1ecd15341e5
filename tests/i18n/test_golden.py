"""Every chat line of every operation, in every language, against a committed golden file.

A change to any sentence shows in review as a change of ``golden/summaries.txt``. After a deliberate
change of wording, rewrite the file with ``make golden`` (``WURFWERK_UPDATE_GOLDEN=1``) and read the
diff. The checker below fails on doubled punctuation, doubled spaces, unformatted placeholders and
untranslated lines, whatever the golden file says."""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path

import pytest

from service.platform.words import catalogs
from service.platform.words.catalogs import LANGUAGES, SOURCE_LANGUAGE
from tests.i18n.cases import cases

GOLDEN = Path(__file__).parent / "golden" / "summaries.txt"
# The same lines as one table per operation, a column per language: what a reviewer reads in one sitting.
TABLE = Path(__file__).parent / "golden" / "lines.md"
UPDATE = os.environ.get("WURFWERK_UPDATE_GOLDEN") == "1"


def render() -> str:
    blocks = []
    for name, line in cases():
        blocks.append("\n".join([f"[{name}]", *(f"{lang}: {line(lang)}" for lang in LANGUAGES)]))
    return "\n\n".join(blocks) + "\n"


def render_table() -> str:
    """``lines.md``: a section per operation (the case name's first word), a row per case."""
    sections: dict[str, list[str]] = {}
    for name, line in cases():
        operation, _, case = name.partition(" ")
        cells = [case or operation, *(line(lang).replace("|", "\\|") for lang in LANGUAGES)]
        sections.setdefault(operation, []).append("| " + " | ".join(cells) + " |")
    header = "| case | " + " | ".join(LANGUAGES) + " |\n|---|" + "---|" * len(LANGUAGES)
    blocks = [f"## {operation}\n\n{header}\n" + "\n".join(rows) for operation, rows in sections.items()]
    intro = ("# Golden chat lines\n\nEvery text path of every operation, for the counts 0, 1, 2 and 5, in every "
             "language (tests/i18n/cases.py builds the results; `make golden` rewrites this file).\n")
    return intro + "\n" + "\n\n".join(blocks) + "\n"


def test_the_golden_table_holds_every_line():
    current = render_table()
    if UPDATE:
        TABLE.write_text(current, encoding="utf-8")
    assert TABLE.read_text(encoding="utf-8") == current, (
        "a chat line changed: read the difference, then `make golden` rewrites tests/i18n/golden/lines.md")


def rendered_lines() -> list[tuple[str, str, str]]:
    """(case, language, line) for every case and language."""
    return [(name, lang, line(lang)) for name, line in cases() for lang in LANGUAGES]


def test_the_golden_file_holds_every_line():
    current = render()
    if UPDATE:
        GOLDEN.parent.mkdir(exist_ok=True)
        GOLDEN.write_text(current, encoding="utf-8")
    assert GOLDEN.read_text(encoding="utf-8") == current, (
        "a chat line changed: read the difference, then `make golden` rewrites tests/i18n/golden/summaries.txt")


def test_case_names_are_unique():
    names = [name for name, _ in cases()]
    assert len(names) == len(set(names))


# --- the checker ----------------------------------------------------------------------------------

DOUBLED_PUNCTUATION = re.compile(r"[.,;:!?]\s*[.,;:!?]")
PROBLEMS = {
    "doubled punctuation": lambda line: DOUBLED_PUNCTUATION.search(line.replace("…", "")),
    "doubled space": lambda line: "  " in line,
    "space before punctuation": lambda line: re.search(r" [.,;:!?]", line),
    "space at an end": lambda line: line != line.strip(),
    "unformatted placeholder": lambda line: re.search(r"%\(\w+\)[sd]|%[sd]\b", line),
}


def check(line: str) -> list[str]:
    return [problem for problem, found in PROBLEMS.items() if found(line)]


@pytest.mark.parametrize("line, problem", [
    ("Katastrophe!.", "doubled punctuation"), ("Gleichstand. .", "doubled punctuation"),
    ("3 Erfolge,, gelungen.", "doubled punctuation"), ("Treffer  mit 2 Erfolgen.", "doubled space"),
    ("Gelungen .", "space before punctuation"), ("Gelungen. ", "space at an end"),
    ("Probe mit %(dice)dW6.", "unformatted placeholder"),
])
def test_the_checker_finds_what_it_looks_for(line, problem):
    assert problem in check(line)


def test_every_line_reads_cleanly():
    found = [(name, lang, line, check(line)) for name, lang, line in rendered_lines() if check(line)]
    assert not found, found


def test_every_line_is_translated():
    """A line the same in two languages is an untranslated message (every line has words)."""
    by_case: dict[str, dict[str, str]] = {}
    for name, lang, line in rendered_lines():
        by_case.setdefault(name, {})[lang] = line
    untranslated = [(name, lang, lines[lang]) for name, lines in by_case.items() for lang in lines
                    if lang != SOURCE_LANGUAGE and lines[lang] == lines[SOURCE_LANGUAGE]]
    assert not untranslated, untranslated


def test_the_issues_grammar_errors_are_gone():
    """Issue 16 named them: „gewinnt mit 3 Erfolge“, „Treffer mit 2 Erfolge“, „Katastrophe!.“,
    „1 von 2 Unterstützern geben“, and the English patched with „ an normal“."""
    text = GOLDEN.read_text(encoding="utf-8")
    for wrong in ("mit 3 Erfolge ", "mit 3 Erfolge.", "mit 2 Erfolge ", "mit 2 Erfolge.", "Katastrophe!.",
                  "1 von 6 Unterstützern geben", " an normal"):
        assert wrong not in text, wrong
    assert "gewinnt mit 5 Erfolgen" in text and "Treffer mit 2 Erfolgen" in text
    assert "1 von 6 Unterstützern gibt einen Vorteil" in text and "in a normal combat challenge" in text


def test_a_chat_line_looks_its_catalog_up_once(monkeypatch):
    """Issue 27: a line resolves ``translations(lang)`` once and hands the catalog to its phrases.
    The modules that write lines (each system's text module, the shared phrases) count their calls;
    a case's result, built in the rules before the line, is not counted."""
    lookups: list[str] = []
    translations = catalogs.translations

    def counted(lang: str) -> catalogs.Catalog:
        lookups.append(lang)
        return translations(lang)

    writers = [module for name, module in sys.modules.items()
               if name == "service.platform.words.phrases"
               or name.startswith("service.systems.") and name.endswith(".text")]
    assert len(writers) == 6
    for module in writers:
        monkeypatch.setattr(module, "translations", counted, raising=False)
    for name, line in cases():
        # validate-character words the result's problems (character_result), then says the line
        expected = 2 if name.startswith("paws.validate-character") else 1
        if name.startswith("advice") or ".advice" in name:  # lines of advice are Messages (advised()), said
            expected = 0                                    # as problems are, outside the text modules
        for lang in LANGUAGES:
            lookups.clear()
            line(lang)
            assert lookups == [lang] * expected, f"{name} ({lang}) looked its catalog up {len(lookups)} times"
