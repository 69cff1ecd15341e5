"""The Foundry VTT module (integrations/foundry-vtt): type check, node tests against a live wurfwerk,
the release zip, and the chat card in headless Chromium.

The node suites do the checking; this file starts what they need (a wurfwerk on a free loopback port,
the release built by the script behind `make foundry`) and fails with their output when they fail.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import threading
import zipfile
from pathlib import Path

import pytest
from werkzeug.serving import make_server

from tests.conftest import make_app, require_tool

ROOT = Path(__file__).resolve().parents[2]
MODULE = ROOT / "integrations" / "foundry-vtt"
README_PICTURE = MODULE / "docs" / "card.png"
ADVICE_PICTURE = MODULE / "docs" / "advice.png"
# The browser suite and the release suite need the zip; every other test file runs on the sources.
SOURCE_SUITES = sorted(
    str(path.relative_to(MODULE))
    for path in (MODULE / "test").glob("*.test.js")
    if path.name not in {"release.test.js", "browser.test.js"}
)


def serve(app):
    """The app on a free loopback port, threaded like a real deployment serves parallel requests."""
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}"
    finally:
        server.shutdown()
        thread.join(timeout=10)


@pytest.fixture(scope="module")
def service_url(app):
    yield from serve(app)


@pytest.fixture(scope="module")
def keyed_service_url(signing_key_pem):
    """A second service that requires the API key `table-key` (WURFWERK_API_KEYS)."""
    yield from serve(make_app(signing_key_pem, api_keys=("table-key",)))


@pytest.fixture(scope="module")
def node_tools():
    require_tool("node", why="the Foundry module's tests run on node")
    if not (MODULE / "node_modules" / ".package-lock.json").exists():
        pytest.fail("integrations/foundry-vtt/node_modules is missing: `make test` runs npm ci there first")


@pytest.fixture(scope="module")
def release(tmp_path_factory, node_tools) -> Path:
    """The zip `make foundry` builds (same script), extracted as Foundry's installer would."""
    require_tool("zip", why="make foundry packs the release with zip")
    out = tmp_path_factory.mktemp("foundry-dist")
    built = subprocess.run(
        ["bash", str(MODULE / "release.sh"), str(out)], capture_output=True, text=True, timeout=120
    )
    assert built.returncode == 0, built.stderr
    archive = Path(built.stdout.strip().splitlines()[-1])
    assert re.fullmatch(r"wurfwerk-foundry-[\w.]+\.zip", archive.name), archive
    assert (out / "module.json").read_text() == (MODULE / "module.json").read_text()
    extracted = tmp_path_factory.mktemp("foundry-module")
    with zipfile.ZipFile(archive) as bundle:
        assert "module.json" in bundle.namelist(), "module.json sits at the zip's root"
        bundle.extractall(extracted)
    return extracted


def test_make_foundry_with_base_url_points_manifest_and_download_there(tmp_path):
    """Self-hosting (`make foundry BASE_URL=…`): the published manifest and the one in the zip name
    where both files will be; everything else stays as in module.json."""
    require_tool("zip", why="make foundry packs the release with zip")
    built = subprocess.run(["bash", str(MODULE / "release.sh"), str(tmp_path)], capture_output=True, text=True,
                           timeout=120, env={**os.environ, "BASE_URL": "https://files.example.org/wurfwerk/"})
    assert built.returncode == 0, built.stderr
    archive = Path(built.stdout.strip().splitlines()[-1])
    published = json.loads((tmp_path / "module.json").read_text())
    original = json.loads((MODULE / "module.json").read_text())
    assert published["manifest"] == "https://files.example.org/wurfwerk/module.json"
    assert published["download"] == f"https://files.example.org/wurfwerk/{archive.name}"
    assert {**published, "manifest": original["manifest"], "download": original["download"]} == original
    with zipfile.ZipFile(archive) as bundle:
        assert json.loads(bundle.read("module.json")) == published


def run_node(arguments: list[str], env: dict[str, str], timeout: int = 300) -> str:
    result = subprocess.run(
        ["node", *arguments], cwd=MODULE, env={**os.environ, **env}, capture_output=True, text=True,
        timeout=timeout,
    )
    output = result.stdout + result.stderr
    assert result.returncode == 0, output[-8000:]
    return output


def assert_all_passed(output: str) -> None:
    passed = int(re.search(r"^# pass (\d+)$", output, re.M).group(1))
    clean = re.search(r"^# fail 0$", output, re.M) and re.search(r"^# skipped 0$", output, re.M)
    assert passed > 0 and clean, output[-4000:]


def test_typecheck_with_foundry_types(node_tools):
    """tsc --checkJs --noEmit over scripts/ with @league-of-foundry-developers/foundry-vtt-types: no errors."""
    result = subprocess.run(
        ["node", "node_modules/typescript/bin/tsc", "-p", "jsconfig.json"],
        cwd=MODULE, capture_output=True, text=True, timeout=600,
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_module_against_fake_foundry_and_live_service(node_tools, service_url, keyed_service_url):
    """Command parsing, body building, dice mapping, the card's HTML, and the glue against the fake."""
    assert SOURCE_SUITES, "no node test files found"
    environment = {"WURFWERK_URL": service_url, "WURFWERK_KEYED_URL": keyed_service_url}
    assert_all_passed(run_node(["--test", *SOURCE_SUITES], environment))


def test_release_zip_loads_and_rolls(release, service_url):
    environment = {"WURFWERK_URL": service_url, "WURFWERK_FOUNDRY_RELEASE": str(release)}
    assert_all_passed(run_node(["--test", "test/release.test.js"], environment))


def test_card_in_headless_chromium(release, service_url, tmp_path):
    """The README's pictures come from here (WURFWERK_UPDATE_SCREENSHOT=1 rewrites them): three rolls'
    cards, and an advice card."""
    require_tool("chromium", why="the card is rendered and verified in a real browser")
    update = os.environ.get("WURFWERK_UPDATE_SCREENSHOT") == "1"
    picture = README_PICTURE if update else tmp_path / "card.png"
    advice_picture = ADVICE_PICTURE if update else tmp_path / "advice.png"
    output = run_node(
        ["--test", "test/browser.test.js"],
        {
            "WURFWERK_URL": service_url,
            "WURFWERK_FOUNDRY_RELEASE": str(release),
            "WURFWERK_SCREENSHOT": str(picture),
            "WURFWERK_ADVICE_SCREENSHOT": str(advice_picture),
            "CHROMIUM": shutil.which("chromium"),
        },
    )
    assert_all_passed(output)
    for taken in (picture, advice_picture):
        assert taken.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    for shown in (README_PICTURE, ADVICE_PICTURE):
        assert shown.exists(), f"the README shows docs/{shown.name}: run with WURFWERK_UPDATE_SCREENSHOT=1 once"
