"""The distributions a user installs build and pass their registries' checks: the service's and the
SDK's sdist and wheel (`python -m build`, `twine check --strict`), and the JavaScript client's npm
package (`npm pack --dry-run`), each carrying its changelog and at the version its changelog names."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _run(*args: str, cwd: Path) -> str:
    done = subprocess.run(args, cwd=cwd, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    return done.stdout + done.stderr


def _latest_version(changelog: Path) -> str:
    """The newest released version a changelog names (``## 2.1.0 ...``)."""
    match = re.search(r"^## (\d+\.\d+\.\d+)\b", changelog.read_text(), re.MULTILINE)
    assert match, f"{changelog}: no released version heading"
    return match.group(1)


@pytest.mark.parametrize("project", [".", "client"])
def test_python_distributions_build_and_pass_twine_check(tmp_path, project):
    source = ROOT / project
    _run(sys.executable, "-m", "build", "--no-isolation", "--outdir", str(tmp_path), str(source), cwd=tmp_path)
    built = sorted(path.name for path in tmp_path.iterdir())
    assert any(name.endswith(".whl") for name in built) and any(name.endswith(".tar.gz") for name in built)
    _run(sys.executable, "-m", "twine", "check", "--strict", *map(str, tmp_path.iterdir()), cwd=tmp_path)
    for egg_info in source.glob("*.egg-info"):  # setuptools writes it beside the sources; it was there before
        assert egg_info.is_dir()


def test_the_sdk_version_is_its_changelogs_latest():
    version = tomllib.loads((ROOT / "client/pyproject.toml").read_text())["project"]["version"]
    assert version == _latest_version(ROOT / "client/CHANGELOG.md")


def test_the_javascript_client_packs_with_its_changelog(tmp_path):
    if shutil.which("npm") is None:
        pytest.skip("npm is not installed")
    package = json.loads((ROOT / "client-js/package.json").read_text())
    assert package["version"] == _latest_version(ROOT / "client-js/CHANGELOG.md")
    packed = json.loads(_run("npm", "pack", "--dry-run", "--json", cwd=ROOT / "client-js"))
    files = {entry["path"] for entry in packed[0]["files"]}
    assert {"package.json", "CHANGELOG.md", "README.md", "src/index.js", "index.d.ts"} <= files, files
    assert not any(path.startswith(("node_modules/", "test/")) for path in files), files


def test_the_sdk_says_its_version_in_its_user_agent():
    from wurfwerk import __version__

    assert __version__ == tomllib.loads((ROOT / "client/pyproject.toml").read_text())["project"]["version"]
