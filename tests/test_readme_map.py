"""The README's map of the code stays true: every module of the platform and of the serving glue has its
line in "Architecture", every kind of operation is named there, the app factory's signature is the
real one, and the systems table lists every operation each system declares."""

from __future__ import annotations

import inspect
import re
from pathlib import Path

import pytest

import service
from service.platform.operations.operations import Kind
from service.systems import discover

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text()
ARCHITECTURE = README[README.index("## Architecture"):]
SYSTEMS_TABLE = README[README.index("## The systems"):README.index("A marble bag travels")]

MODULES = sorted([*(ROOT / "service/platform").glob("*/*.py"), *(ROOT / "service/serving").glob("*.py")])


@pytest.mark.parametrize("module", [m for m in MODULES if m.name != "__init__.py"],
                         ids=lambda m: str(m.relative_to(ROOT)))
def test_every_module_has_its_line_in_the_map(module):
    assert f"`{module.name}`" in ARCHITECTURE, f"README, Architecture: say what {module.name} holds"
    package = module.parent.name
    line = f"`{package}/`" if package != "serving" else "`service/serving/`"
    section = ARCHITECTURE[ARCHITECTURE.index(line):]
    # the module is named under its own package's line, before the next package's
    next_package = re.search(r"\n {0,2}- `(?:service/)?\w+/`", section[1:])
    assert f"`{module.name}`" in section[:next_package.end() if next_package else None]


@pytest.mark.parametrize("kind", list(Kind))
def test_every_kind_of_operation_is_named(kind):
    assert f"`Operation.{kind.value}`" in ARCHITECTURE or f"`{kind.value}`" in ARCHITECTURE
    assert kind.value in ARCHITECTURE[ARCHITECTURE.index("### How to add an operation"):]


def test_the_app_factory_is_named_with_its_signature():
    parameters = inspect.signature(service.create_app).parameters.values()
    named = ", ".join(f"{parameter.name}={parameter.default!r}" for parameter in parameters)
    assert f"`create_app({named})`" in ARCHITECTURE


def test_the_systems_table_is_the_one_the_system_tables_give():
    """Issue 54: README's systems table is written from the `SYSTEM` tables (`make generate`), as the
    settings table is from the settings; a new operation reaches it by regenerating."""
    from service.systems import with_readme_table

    assert with_readme_table(README, discover()) == README, "README's systems table drifted: run `make generate`"
    for system in discover():
        row = next(line for line in SYSTEMS_TABLE.splitlines() if f"`/v1/{system.id}`" in line)
        for operation in system.operations:
            if not operation.kind.rules.twin:
                assert f"`{operation.path.lstrip('/')}`" in row, f"{operation.id} is missing in README's systems table"
