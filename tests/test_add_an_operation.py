"""The README's recipe "How to add an operation", followed on a throwaway operation in a copy of the
repository: a rolling operation with its odds twin (``proben.flip``, one d6: heads on 4–6).

- With the five files alone (and no ruling, no `luck=`), the suite's completeness test fails for it,
  and for it only, with the exact checklist of what the recipe still asks.
- By the whole recipe (the five files; /play's words, a golden case, the German words of its
  messages; the generators: `make openapi sdk messages`, README's systems table, the JavaScript
  operation table, `make golden`), the suite's own tests pass in the copy (completeness, spec, the
  SDK's typed surface, golden lines, catalogs, README's table, one shape, short views), and the
  copy's app serves it, signed, with its odds, in the catalogue, the spec and both SDKs' tables.
A file the recipe does not name, or a generator that missed the operation, fails the second test.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PROBEN = Path("service/systems/proben")

# The five hand-written parts, each appended where the recipe says (routes: views before the table,
# one line in it).
RULES = '''

@dataclass(frozen=True)
class FlipResult:
    die: int
    heads: bool = field(metadata=described("True when the die shows 4 to 6."))


def flip(source: RandomSource) -> FlipResult:
    die = source.roll(1, 6)[0]
    return FlipResult(die, die >= 4)
'''
ODDS = '''

def flip() -> Odds:
    return Odds(outcomes={"heads": Fraction(1, 2), "tails": Fraction(1, 2)})
'''
SCHEMAS = '''

class ProbenFlipRequest(StrictSchema):
    name = Name(metadata={"description": "Who flips."})


ProbenFlipResult = RESULTS.of(rules.FlipResult)
'''
TEXT = '''

def flip(result, lang: str) -> str:
    return translations(lang).gettext("Heads.") if result.heads else translations(lang).gettext("Tails.")
'''
VIEWS = '''def flip(body: Body, source: RandomSource, lang: str) -> tuple[rules.FlipResult, str]:
    """Flip a d6 (a throwaway operation of tests/test_add_an_operation.py)

    Heads on 4 to 6.{ruling}
    """
    result = rules.flip(source)
    return result, text.flip(result, lang)


def flip_odds(body: Body) -> Odds:
    """Exact odds of a flip

    Outcomes `heads` and `tails`, one half each.
    """
    return odds.flip()


'''
RULING = " Rulings: none, it is a test's."
TABLE_LINE = '''        Operation.rolling("/flip", flip, operation="flip", request=schemas.ProbenFlipRequest,
                          result=schemas.ProbenFlipResult, example={{"name": "Alrik"}}, odds=flip_odds{luck}),
'''
UNMEASURED = ', unmeasured="heads or tails: two outcomes, no order to measure"'

# Beside the five files (the README's "Beside the five files, every operation needs"): /play's words,
# a golden case, the German words of its two messages.
LABELS = {
    '    "proben.test": ["Einfache Probe"': '    "proben.flip": ["Münzwurf", "Ein W6: Kopf bei 4 bis 6."],\n',
    '    "proben.test": ["Simple test"': '    "proben.flip": ["Flip", "One d6: heads on 4 to 6."],\n',
}
GOLDEN_CASES = '''    yield "proben.flip heads", lambda lang: proben_text.flip(proben.FlipResult(5, True), lang)
    yield "proben.flip tails", lambda lang: proben_text.flip(proben.FlipResult(2, False), lang)
'''
GERMAN = {"Heads.": "Kopf.", "Tails.": "Zahl."}

# What the recipe promises, checked in the copy by the suite's own tests: the completeness checklist,
# the spec, the SDK's typed surface, the golden lines, the catalogs, README's systems table, the five
# systems' one shape, short views.
SUITE = ("tests/test_operation_completeness.py", "tests/test_openapi.py", "tests/client/test_generated.py",
         "tests/i18n/test_golden.py", "tests/i18n/test_catalogs.py",
         "tests/test_readme_map.py::test_the_systems_table_is_the_one_the_system_tables_give",
         "tests/systems/test_one_shape.py", "tests/test_short_views.py")
COMPLETENESS = "tests/test_operation_completeness.py::test_every_operation_has_what_the_recipe_asks"
# The checklist of tests/test_operation_completeness.py, word for word, for a flip with none of its parts.
CHECKLIST = '''proben.flip lacks:
- labels: /play's German words for proben.flip in service/web/labels.js
- labels: /play's English words for proben.flip in service/web/labels.js
- golden: a case of its chat line in tests/i18n/cases.py, then `make golden`
- ruling: the view's docstring names the ruling or rules sentence it applies
- luck: `luck=Luck(...)` in its SYSTEM entry, or `unmeasured=` saying why not'''

CHECK = textwrap.dedent('''
    import json, yaml
    from pathlib import Path
    from service import create_app
    from wurfwerk.verify import verify_offline

    client = create_app({}).test_client()
    rolled = client.post("/v1/proben/flip", json={"name": "Alrik", "seed": 7}).get_json()
    odds = client.post("/v1/proben/flip/odds", json={"name": "Alrik"}).get_json()
    catalogue = client.get("/v1/systems").get_json()
    spec = yaml.safe_load(Path("openapi.yaml").read_text())
    print(json.dumps({
        "rolled": rolled, "odds": odds,
        "verified": verify_offline(rolled, client.get("/v1/keys").get_json()),
        "catalogued": [o["id"] for s in catalogue["systems"] for o in s["operations"] if "flip" in o["id"]],
        "spec": sorted(op["operationId"] for path, item in spec["paths"].items() if "flip" in path
                       for op in item.values()),
        "sdk": "def flip(" in Path("client/wurfwerk/_operations.py").read_text(),
        "js": "proben.flip.odds" in Path("client-js/src/operations.js").read_text(),
    }))
''')


def _append(path: Path, text: str) -> None:
    path.write_text(path.read_text() + text)


def _replace_once(path: Path, old: str, new: str) -> None:
    source = path.read_text()
    assert source.count(old) == 1, (path, old)
    path.write_text(source.replace(old, new))


def _write_the_five_files(copy: Path, *, complete: bool) -> None:
    """The five files; a complete flip names its ruling and says why the luck report cannot measure it."""
    _append(copy / PROBEN / "rules.py", RULES)
    _append(copy / PROBEN / "odds.py", ODDS)
    _append(copy / PROBEN / "schemas.py", SCHEMAS)
    _append(copy / PROBEN / "text.py", TEXT)
    routes = copy / PROBEN / "routes.py"
    _replace_once(routes, "SYSTEM = System(", VIEWS.format(ruling=RULING if complete else "") + "SYSTEM = System(")
    _replace_once(routes, "    operations=(\n",
                  "    operations=(\n" + TABLE_LINE.format(luck=UNMEASURED if complete else ""))


def _write_what_else_it_needs(copy: Path) -> None:
    """/play's words in both languages and a golden case of each of its chat lines."""
    for anchor, line in LABELS.items():
        _replace_once(copy / "service/web/labels.js", anchor, line + anchor)
    _replace_once(copy / "tests/i18n/cases.py", "def _proben() -> Iterator[Case]:\n",
                  "def _proben() -> Iterator[Case]:\n" + GOLDEN_CASES)


def _translate(copy: Path) -> None:
    """The msgstr `make messages` leaves for a translator, written."""
    po = copy / "service/locale/de/LC_MESSAGES/wurfwerk.po"
    for english, german in GERMAN.items():
        _replace_once(po, f'msgid "{english}"\nmsgstr ""', f'msgid "{english}"\nmsgstr "{german}"')


def _copy_of_the_repository(tmp_path: Path) -> Path:
    copy = tmp_path / "repo"
    ignore = shutil.ignore_patterns("__pycache__", "*.egg-info", "node_modules", "locale", ".pytest_cache")
    for part in ("service", "client", "client-js/src", "client-js/scripts", "tests"):
        shutil.copytree(ROOT / part, copy / part, ignore=ignore, symlinks=True)
    shutil.copytree(ROOT / "service/locale", copy / "service/locale")
    for part in ("openapi.yaml", "pyproject.toml", "Makefile", "README.md"):
        shutil.copy(ROOT / part, copy / part)
    return copy


def _run(copy: Path, *args: str, check: bool = True, **environment: str) -> str:
    environment = {"PATH": "/usr/bin:/bin", "PYTHONPATH": f"{copy}:{copy / 'client'}", "HOME": str(copy),
                   "FLASK_APP": "service:create_app()", **environment}
    done = subprocess.run(args, cwd=copy, env=environment, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0 or not check, (done.stdout[-3000:], done.stderr[-3000:])
    return done.stdout


def _make(copy: Path, *targets: str) -> None:
    """The Makefile's own targets, with this interpreter's tools (no virtualenv of the copy's own)."""
    _run(copy, "make", "--no-print-directory", *targets, "STAMP=", f"BIN={Path(sys.executable).parent}")


def _generate(copy: Path) -> None:
    """`make generate` but the JavaScript types, which need node: the spec, the SDK, README's systems
    table, the JavaScript operation table."""
    _make(copy, "openapi", "sdk")
    _run(copy, sys.executable, "-c", "from pathlib import Path; from service.systems import discover, "
         "with_readme_table; readme = Path('README.md'); "
         "readme.write_text(with_readme_table(readme.read_text(), discover()))")
    _run(copy, sys.executable, "client-js/scripts/generate_operations.py")


def _suite(copy: Path, *tests: str) -> tuple[bool, str]:
    done = subprocess.run([sys.executable, "-m", "pytest", "-v", "-p", "no:randomly", "-p", "no:cacheprovider",
                           *tests], cwd=copy, capture_output=True, text=True, timeout=600,
                          env={"PATH": "/usr/bin:/bin", "PYTHONPATH": f"{copy}:{copy / 'client'}", "HOME": str(copy)})
    return done.returncode == 0, done.stdout + done.stderr


@pytest.mark.slow
def test_an_operation_with_the_five_files_alone_fails_with_the_exact_checklist(tmp_path):
    copy = _copy_of_the_repository(tmp_path)
    _write_the_five_files(copy, complete=False)
    _generate(copy)
    passed, output = _suite(copy, "tests/test_operation_completeness.py")
    assert not passed
    failed = sorted(line.split(" ")[1] for line in output.splitlines() if line.startswith("FAILED "))
    assert failed == [f"{COMPLETENESS}[proben.flip]"], output[-3000:]  # every real operation passes
    assert _said_checklist(output) == CHECKLIST.splitlines(), output[-3000:]


def _said_checklist(output: str) -> list[str]:
    """The assertion message of the failing test, without pytest's `E` margin."""
    lines = [re.sub(r"^E\s+", "", line).strip() for line in output.splitlines()]
    first = lines.index("AssertionError: proben.flip lacks:")
    said = ["proben.flip lacks:"]
    for line in lines[first + 1:]:
        if not line.startswith("- "):
            break
        said.append(line)
    return said


@pytest.mark.slow
def test_an_operation_by_the_whole_recipe_passes_the_suite_and_is_served(tmp_path):
    copy = _copy_of_the_repository(tmp_path)
    _write_the_five_files(copy, complete=True)
    _write_what_else_it_needs(copy)
    _generate(copy)
    _make(copy, "messages")
    _translate(copy)
    _run(copy, sys.executable, "-m", "pytest", "-q", "-p", "no:randomly", "-p", "no:cacheprovider",
         "tests/i18n/test_golden.py", WURFWERK_UPDATE_GOLDEN="1")  # make golden, for its one test file

    passed, output = _suite(copy, *SUITE)
    assert passed, output[-5000:]
    assert f"{COMPLETENESS}[proben.flip] PASSED" in output
    assert "## proben.flip\n" in (copy / "tests/i18n/golden/lines.md").read_text()
    assert "`flip`" in next(line for line in (copy / "README.md").read_text().splitlines() if "`/v1/proben`" in line)

    seen = json.loads(_run(copy, sys.executable, "-c", CHECK).splitlines()[-1])
    assert seen["rolled"]["result"]["heads"] == (seen["rolled"]["result"]["die"] >= 4)
    assert seen["rolled"]["summary"] in ("Heads.", "Tails.")
    assert seen["verified"]["valid"] is True
    assert {o["outcome"]: o["exact"] for o in seen["odds"]["odds"]["outcomes"]} == {"heads": "1/2", "tails": "1/2"}
    assert seen["catalogued"] == ["proben.flip", "proben.flip.odds"]
    assert seen["spec"] == ["proben.flip", "proben.flip.odds"]
    assert seen["sdk"] and seen["js"]
