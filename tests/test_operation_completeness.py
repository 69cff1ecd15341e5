"""Every operation carries what the README's recipe ("How to add an operation") asks of it (issue 54):
a checklist per operation, so an operation added without one of its parts fails with the exact list of
what is missing, not with a distant error elsewhere.

The checklist:
- `labels`: /play's words for it in German and English (`service/web/labels.js`, `operations`);
- `golden`: a section of its own in the golden chat lines (`tests/i18n/golden/lines.md`, `make golden`
  from `tests/i18n/cases.py`), for an operation that says a chat line;
- `ruling`: its view's docstring names the ruling or rules sentence it applies;
- `luck`: a rolling operation declares the quantity the luck report measures (`luck=`) or why it
  cannot (`unmeasured=`).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from service.platform.operations.operations import Kind, Operation
from service.systems import discover

ROOT = Path(__file__).resolve().parents[1]
LABELS = (ROOT / "service/web/labels.js").read_text(encoding="utf-8")
GERMAN_LABELS, ENGLISH_LABELS = LABELS.split("const en", 1)
GOLDEN_LINES = (ROOT / "tests/i18n/golden/lines.md").read_text(encoding="utf-8")
RULING = re.compile(r"[Rr]uling|RULINGS|rules text|„|\"[A-ZÄÖÜ][a-zäöüß]+ ")


def checklist(operation: Operation) -> list[str]:
    """What the recipe asks of ``operation`` that it lacks."""
    missing = []
    for language, labels in (("German", GERMAN_LABELS), ("English", ENGLISH_LABELS)):
        if f'"{operation.id}"' not in labels:
            missing.append(f"labels: /play's {language} words for {operation.id} in service/web/labels.js")
    if operation.kind in (Kind.ROLLING, Kind.RESOLVING) and f"## {operation.id}\n" not in GOLDEN_LINES:
        missing.append("golden: a case of its chat line in tests/i18n/cases.py, then `make golden`")
    if not RULING.search(operation.view.__doc__ or ""):
        missing.append("ruling: the view's docstring names the ruling or rules sentence it applies")
    if operation.kind is Kind.ROLLING and (operation.luck is None) == (operation.unmeasured is None):
        missing.append("luck: `luck=Luck(...)` in its SYSTEM entry, or `unmeasured=` saying why not")
    return missing


OPERATIONS = [operation for system in discover() for operation in system.operations if operation.kind is not Kind.ODDS]


@pytest.mark.parametrize("operation", OPERATIONS, ids=lambda operation: operation.id)
def test_every_operation_has_what_the_recipe_asks(operation):
    missing = checklist(operation)
    assert not missing, f"{operation.id} lacks:\n- " + "\n- ".join(missing)


def test_an_operation_without_its_parts_gets_the_whole_checklist():
    def bare(body, source, lang):
        return None

    incomplete = Operation.rolling("/bare", bare, operation="bare", request=None, result=None, example={})
    incomplete = Operation(**{**incomplete.__dict__, "system": "proben"})
    assert [item.split(":")[0] for item in checklist(incomplete)] == ["labels", "labels", "golden", "ruling", "luck"]
