"""The modules of service/ import one another in one direction (grimp builds the graph): no circle,
the platform's sub-packages in their layer order, the platform knowing no system and no system
another, and the serving glue outside the app."""

from __future__ import annotations

import ast
from pathlib import Path

import grimp
import pytest

SERVICE = Path(__file__).resolve().parents[2] / "service"

# service/platform/__init__.py says what each layer holds; a layer imports only the layers below it.
PLATFORM_LAYERS = ("endpoints", "operations", "http", "dice", "values", "words", "maths")
SYSTEMS = tuple(sorted(path.name for path in (SERVICE / "systems").iterdir() if (path / "rules.py").exists()))


@pytest.fixture(scope="module")
def graph() -> grimp.ImportGraph:
    return grimp.build_graph("service", include_external_packages=False, cache_dir=None)


def _described(dependencies: set[grimp.PackageDependency]) -> list[str]:
    return sorted(f"{dependency.importer} -> {dependency.imported}: {sorted(route.heads)} -> {sorted(route.tails)}"
                  for dependency in dependencies for route in dependency.routes)


def test_no_module_of_the_service_imports_itself_back(graph):
    assert len(graph.modules) > 50  # every sub-package is in the graph (each has an __init__.py)
    circles = [graph.find_shortest_chain(importer=imported, imported=importer)
               for importer in sorted(graph.modules)
               for imported in sorted(graph.find_modules_directly_imported_by(importer))
               if graph.chain_exists(importer=imported, imported=importer)]
    assert circles == []


def test_the_platform_layers_import_only_downwards(graph):
    illegal = graph.find_illegal_dependencies_for_layers(layers=PLATFORM_LAYERS, containers={"service.platform"})
    assert _described(illegal) == []


def test_the_platform_knows_no_system_and_no_system_another(graph):
    illegal = graph.find_illegal_dependencies_for_layers(
        layers=(grimp.Layer("systems", "serving", independent=True), "platform", "config"),
        containers={"service"})
    assert _described(illegal) == []
    systems = graph.find_illegal_dependencies_for_layers(
        layers=(grimp.Layer(*SYSTEMS, independent=True),), containers={"service.systems"})
    assert _described(systems) == []


def test_the_layer_list_names_every_sub_package_of_the_platform():
    packages = {path.parent.name for path in (SERVICE / "platform").glob("*/__init__.py")}
    assert packages == set(PLATFORM_LAYERS)
    loose_modules = [path.name for path in (SERVICE / "platform").glob("*.py") if path.name != "__init__.py"]
    assert loose_modules == [], "every platform module belongs to a layer's sub-package"


@pytest.mark.parametrize("package", [*PLATFORM_LAYERS, "../serving"])
def test_each_sub_package_says_its_purpose(package):
    docstring = ast.get_docstring(ast.parse((SERVICE / "platform" / package / "__init__.py").read_text()))
    assert docstring and len(docstring) > 30
