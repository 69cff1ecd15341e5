"""Five systems of one shape (issue 54): the same names for the same things in every system, so what
is learnt in one folder holds in the others.

- every system has the six modules (README, "The shape"), and its routes.py imports them by their
  own names (`encounter`, not `encounters`);
- a view is named after its operation (`validate-bag` -> `validate_bag`; the whole encounter's
  `encounter_play`, beside the module `encounter`), a twin's after its id (`encounter_odds`);
- every schema class starts with the system's prefix (`schemas.RESULTS.prefix`): an operation's
  request `<Prefix><Operation>Request`, a result `<Prefix>...Result`, any other part of a request
  `<Prefix>...Schema` (apispec names the component without the suffix, so the spec does not show it).
"""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

import marshmallow as ma
import pytest

from service.systems import discover

SYSTEMS_DIR = Path(__file__).resolve().parents[2] / "service" / "systems"
MODULES = ("rules", "odds", "encounter", "schemas", "text", "routes")
SYSTEMS = {system.id: system for system in discover()}
VIEW_NAMES = {"encounter": "encounter_play"}  # the module `encounter` keeps its name in routes.py


def _camel(operation: str) -> str:
    return "".join(part.capitalize() for part in operation.split("-"))


@pytest.mark.parametrize("system", sorted(SYSTEMS))
def test_every_system_has_the_six_modules(system):
    missing = [module for module in MODULES if not (SYSTEMS_DIR / system / f"{module}.py").is_file()]
    assert missing == []


@pytest.mark.parametrize("system", sorted(SYSTEMS))
def test_routes_import_the_systems_modules_by_their_names(system):
    tree = ast.parse((SYSTEMS_DIR / system / "routes.py").read_text(encoding="utf-8"))
    aliased = [f"{alias.name} as {alias.asname}" for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)
               and node.module == f"service.systems.{system}" for alias in node.names if alias.asname]
    assert aliased == []


@pytest.mark.parametrize("system", sorted(SYSTEMS))
def test_views_are_named_after_their_operations(system):
    wrong = []
    for operation in SYSTEMS[system].operations:
        name = VIEW_NAMES.get(operation.operation, operation.operation.replace("-", "_"))
        if operation.kind.rules.twin:  # a twin's view: its rolling operation's name and the twin's suffix
            name = operation.operation.replace("-", "_") + operation.kind.rules.id_suffix.replace(".", "_")
        expected = name
        if operation.view.__name__ != expected:
            wrong.append(f"{operation.id}: {operation.view.__name__}, not {expected}")
    assert wrong == []


@pytest.mark.parametrize("system", sorted(SYSTEMS))
def test_schema_classes_are_named_alike(system):
    schemas = importlib.import_module(f"service.systems.{system}.schemas")
    prefix = schemas.RESULTS.prefix
    wrong = []
    for operation in SYSTEMS[system].operations:
        if operation.request is not None and not operation.kind.rules.twin \
                and operation.request.__name__ != f"{prefix}{_camel(operation.operation)}Request":
            wrong.append(f"{operation.id} request: {operation.request.__name__}")
        if operation.result is not None and not (operation.result.__name__.startswith(prefix)
                                                 and operation.result.__name__.endswith("Result")):
            wrong.append(f"{operation.id} result: {operation.result.__name__}")
    requests = {operation.request for operation in SYSTEMS[system].operations}
    for name, value in vars(schemas).items():
        if isinstance(value, type) and issubclass(value, ma.Schema) and value.__module__ == schemas.__name__ \
                and value not in requests and not (name.startswith(prefix) and name.endswith("Schema")):
            wrong.append(f"part of a request: {name}")
    assert wrong == []
