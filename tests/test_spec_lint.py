"""Two OpenAPI linters nobody here wrote, over the committed openapi.yaml, with zero findings:
Spectral (`spectral:oas`) and Redocly (`recommended`), pinned in tools/spec-lint/package-lock.json
(`make test` runs `npm ci` there). Their rulesets are tools/spec-lint/.spectral.yaml and redocly.yaml;
a rule that is the tool's mistake is turned off there with a comment saying why, never here."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from tests.conftest import require_tool

pytestmark = pytest.mark.slow
ROOT = Path(__file__).resolve().parents[1]
TOOLS = ROOT / "tools" / "spec-lint"
SPEC = ROOT / "openapi.yaml"


def _run(*command: str) -> subprocess.CompletedProcess:
    require_tool("npx", why="the spec linters run on Node")
    if not (TOOLS / "node_modules" / ".bin" / command[0]).exists():
        pytest.fail("tools/spec-lint has no node_modules: run `make test` (it runs npm ci there)")
    return subprocess.run(["npx", "--no-install", *command], cwd=TOOLS, capture_output=True, text=True,
                          timeout=300, check=False)


def test_spectral_finds_nothing():
    run = _run("spectral", "lint", str(SPEC), "--ruleset", ".spectral.yaml", "--format", "json",
               "--fail-severity", "hint", "--quiet")
    findings = json.loads(run.stdout or "[]")
    assert findings == [] and run.returncode == 0, json.dumps(findings, indent=1)[:4000] or run.stderr


def test_redocly_finds_nothing():
    run = _run("redocly", "lint", str(SPEC), "--config", "redocly.yaml", "--format", "json")
    report = json.loads(run.stdout[run.stdout.index("{"):])
    assert report["totals"] == {"errors": 0, "warnings": 0, "ignored": 0}, json.dumps(report["problems"])[:4000]
    assert run.returncode == 0
