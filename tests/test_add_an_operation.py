"""The README's recipe "How to add an operation", followed on a throwaway operation.

A copy of the service gets a rolling operation with its odds twin (``proben.flip``, one d6: heads on
4–6) written into the five files the recipe names and nowhere else; then the recipe's generators
run in the copy (`make openapi`, `make sdk`, the JavaScript operation table) and the copy's app
serves the operation, signed, with its odds, in the catalogue, the spec and both SDKs' tables. If
a sixth file had to be edited by hand, or a generator missed the new operation, this fails.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

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

    Heads on 4 to 6. Rulings: none, it is a test's.
    """
    result = rules.flip(source)
    return result, text.flip(result, lang)


def flip_odds(body: Body) -> Odds:
    """Exact odds of a flip

    Outcomes `heads` and `tails`, one half each.
    """
    return odds.flip()


'''
TABLE_LINE = '''        Operation.rolling("/flip", flip, operation="flip", request=schemas.ProbenFlipRequest,
                          result=schemas.ProbenFlipResult, example={"name": "Alrik"}, odds=flip_odds),
'''

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


def _write_the_five_files(copy: Path) -> None:
    _append(copy / PROBEN / "rules.py", RULES)
    _append(copy / PROBEN / "odds.py", ODDS)
    _append(copy / PROBEN / "schemas.py", SCHEMAS)
    _append(copy / PROBEN / "text.py", TEXT)
    routes = copy / PROBEN / "routes.py"
    source = routes.read_text()
    assert source.count("SYSTEM = System(") == 1 and source.count("    operations=(\n") == 1
    source = source.replace("SYSTEM = System(", VIEWS + "SYSTEM = System(")
    routes.write_text(source.replace("    operations=(\n", "    operations=(\n" + TABLE_LINE))


def _copy_of_the_repository(tmp_path: Path) -> Path:
    copy = tmp_path / "repo"
    ignore = shutil.ignore_patterns("__pycache__", "*.egg-info", "node_modules", "locale")
    for part in ("service", "client", "client-js/src", "client-js/scripts"):
        shutil.copytree(ROOT / part, copy / part, ignore=ignore, symlinks=True)
    shutil.copytree(ROOT / "service/locale", copy / "service/locale")
    for part in ("openapi.yaml", "pyproject.toml"):
        shutil.copy(ROOT / part, copy / part)
    return copy


def _run(copy: Path, *args: str) -> str:
    environment = {"PATH": "/usr/bin:/bin", "PYTHONPATH": f"{copy}:{copy / 'client'}", "HOME": str(copy),
                   "FLASK_APP": "service:create_app()"}
    done = subprocess.run(args, cwd=copy, env=environment, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    return done.stdout


def test_a_new_operation_needs_five_files_by_hand_and_the_generators(tmp_path):
    copy = _copy_of_the_repository(tmp_path)
    _write_the_five_files(copy)
    python = sys.executable
    _run(copy, python, "-m", "flask", "openapi", "write", "--format=yaml", "openapi.yaml")  # make openapi
    _run(copy, python, "client/generate.py")  # make sdk
    _run(copy, python, "client-js/scripts/generate_operations.py")  # make js-client (the operation table)

    seen = json.loads(_run(copy, python, "-c", CHECK).splitlines()[-1])
    assert seen["rolled"]["result"]["heads"] == (seen["rolled"]["result"]["die"] >= 4)
    assert seen["rolled"]["summary"] in ("Heads.", "Tails.")
    assert seen["verified"]["valid"] is True
    assert {o["outcome"]: o["exact"] for o in seen["odds"]["odds"]["outcomes"]} == {"heads": "1/2", "tails": "1/2"}
    assert seen["catalogued"] == ["proben.flip", "proben.flip.odds"]
    assert seen["spec"] == ["proben.flip", "proben.flip.odds"]
    assert seen["sdk"] and seen["js"]
