"""The package ships ``py.typed`` and passes ``mypy --strict``; so does code that uses it, and a type
error in such code (``rank="2"``) is caught."""

from __future__ import annotations

from pathlib import Path

import pytest
from mypy import api

from .support import ROOT

PACKAGE = ROOT / "client" / "wurfwerk"
USAGE = Path(__file__).with_name("typed_usage.py")
CONFIG = ROOT / "client" / "pyproject.toml"  # [tool.mypy] strict = true, python_version = 3.11


def mypy(*paths: Path, cache: Path) -> tuple[str, int]:
    stdout, stderr, status = api.run(["--strict", "--config-file", str(CONFIG), "--cache-dir", str(cache),
                                      "--no-error-summary", *map(str, paths)])
    return stdout + stderr, status


@pytest.fixture(scope="module")
def cache(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("mypy-cache")


def test_py_typed_is_shipped():
    assert (PACKAGE / "py.typed").exists()
    assert 'wurfwerk = ["py.typed"]' in (ROOT / "client" / "pyproject.toml").read_text()


def test_package_and_typed_usage_pass_mypy_strict(cache):
    output, status = mypy(PACKAGE, USAGE, cache=cache)
    assert status == 0, output


MISTAKES = {  # a line of user code -> what mypy must say about it
    'client.paws.test(rank="2")': 'Argument "rank" to "test" of "Paws" has incompatible type "str"; expected "int"',
    "client.proben.test(attribute=3)": 'Missing named argument "difficulty" for "test" of "Proben"',
    "client.proben.test(attribute=3, difficulty=2).result.dice_count.upper()": '"int" has no attribute "upper"',
    'client.proben.test(attribute=3, difficulty=2, success_rule="beat")':
        'Argument "success_rule" to "test" of "Proben" has incompatible type "Literal[\'beat\']"',
    'client.beutelschneider.healing(bag={"purple": 1}, chances="fair")':
        'Argument "bag" to "healing" of "Beutelschneider" has incompatible type "dict[str, int]"; '
        'expected "BeutelBagParam | BeutelBag"',
}


def test_deliberate_type_errors_are_caught(cache, tmp_path):
    """Each mistake in its own function of a copy of the typed usage: one error per mistake, on its line."""
    broken = tmp_path / "broken_usage.py"
    lines = USAGE.read_text().splitlines()
    expected = {}
    for number, mistake in enumerate(MISTAKES):
        lines += ["", "", f"def mistake_{number}(client: Client) -> None:", f"    {mistake}"]
        expected[len(lines)] = MISTAKES[mistake]
    broken.write_text("\n".join(lines) + "\n")
    output, status = mypy(PACKAGE, broken, cache=cache)
    assert status == 1, output
    errors = [line for line in output.splitlines() if ": error: " in line]
    assert len(errors) == len(MISTAKES), output
    for line_number, message in expected.items():
        assert any(f"broken_usage.py:{line_number}: error: {message}" in error for error in errors), output
