"""Comments that send the reader to the benchmarks' figures find them: every pointer of the form
``bench/<file>.md, "<heading>"`` in the code names a file that exists and a text that is in it.

The guide (bench/README.md) keeps only the current figures and the dated runs move to
bench/history/; a pointer left at the guide after its section moved is a dead end for whoever
follows it."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SOURCES = sorted(path for folder in ("service", "bench", "tests", "deploy", "client", "integrations")
                 for path in (ROOT / folder).rglob("*.py") if ".venv" not in path.parts)
# A pointer may break across lines (and a comment's "# "): whitespace is normalised first.
POINTER = re.compile(r"(bench/[\w./-]+\.md),\s+\"([^\"]+)\"")


def _pointers() -> list[tuple[str, str, str]]:
    found = []
    for path in SOURCES:
        text = re.sub(r"\s*\n\s*(?:#\s*)?", " ", path.read_text(encoding="utf-8"))
        found += [(str(path.relative_to(ROOT)), target, quoted) for target, quoted in POINTER.findall(text)]
    return found


POINTERS = _pointers()


def test_the_pointers_are_found():
    # the pattern still matches the pointers the code has (else the test below checks nothing)
    assert len(POINTERS) >= 5


@pytest.mark.parametrize(("source", "target", "quoted"), POINTERS, ids=lambda value: value)
def test_a_pointer_to_the_figures_finds_its_text(source, target, quoted):
    document = ROOT / target
    assert document.is_file(), f"{source} points at {target}, which does not exist"
    assert quoted in document.read_text(encoding="utf-8"), f"{source}: {target} has no \"{quoted}\""
