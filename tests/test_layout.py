"""tests/ mirrors service/ (issue 54): a module's tests are found without a search.

- every platform sub-package `service/platform/<layer>/` has its test package `tests/platform/<layer>/`,
  except `words/`, whose tests are the language suite `tests/i18n/`;
- `tests/platform/` holds no flat test modules but the import-graph test, which is about all layers;
- every system `service/systems/<system>/` has `tests/systems/<system>/`, and that package tests the
  system's rules, odds, encounter and chat lines (text.py) in modules named after them, and its
  routes through HTTP (`test_http.py`);
- the serving glue `service/serving/` has `tests/serving/`.
"""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
LAYERS = sorted(path.name for path in (ROOT / "service/platform").iterdir() if (path / "__init__.py").exists())
SYSTEMS = sorted(path.name for path in (ROOT / "service/systems").iterdir() if (path / "rules.py").exists())
ELSEWHERE = {"words": "tests/i18n"}


@pytest.mark.parametrize("layer", LAYERS)
def test_every_platform_layer_has_its_test_package(layer):
    package = ROOT / ELSEWHERE.get(layer, f"tests/platform/{layer}")
    assert (package / "__init__.py").exists(), \
        f"service/platform/{layer}/ has no test package {package.relative_to(ROOT)}"
    assert list(package.glob("test_*.py")), f"{package.relative_to(ROOT)} holds no tests"


def test_the_platform_tests_are_filed_by_layer():
    flat = sorted(path.name for path in (ROOT / "tests/platform").glob("test_*.py"))
    assert flat == ["test_import_graph.py"], f"file these under tests/platform/<layer>/: {flat}"


@pytest.mark.parametrize("system", SYSTEMS)
def test_every_system_has_its_test_package_with_its_modules(system):
    package = ROOT / "tests/systems" / system
    assert (package / "__init__.py").exists()
    for module in ("rules", "odds", "encounter", "text", "http"):
        assert list(package.glob(f"test_{module}*.py")), f"tests/systems/{system}/ has no test_{module}.py"


def test_the_serving_glue_has_its_tests():
    assert list((ROOT / "tests/serving").glob("test_*.py"))
