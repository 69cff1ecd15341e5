"""The root README's JavaScript snippet, run as it is shown (only its import path and service URL are
pointed at this checkout and a live server): with a player's name that is HTML, the chat message it
posts must be escaped text, and its receipt check must say "verified", with WebCrypto and without."""

from __future__ import annotations

import html
import json
import re
import subprocess
from pathlib import Path

import pytest

from tests.conftest import require_tool

ROOT = Path(__file__).resolve().parents[2]
PLAYER = '<b>Bob</b> & "Co"'

# Foundry's globals, as far as the snippet touches them; what it posts and logs is printed as JSON.
HARNESS = """
{crypto}
const posted = [];
const logged = [];
globalThis.game = {{ user: {{ name: {player} }} }};
globalThis.ChatMessage = {{ create: (data) => posted.push(data) }};
console.log = (...values) => logged.push(values);
process.on("beforeExit", () => process.stdout.write(JSON.stringify({{ posted, logged }})));
"""


def _readme_snippet() -> str:
    readme = (ROOT / "README.md").read_text()
    section = readme.split("### From a VTT module in the browser", 1)[1]
    return re.search(r"```js\n(.*?)```", section, re.S).group(1)


@pytest.mark.parametrize("webcrypto", [True, False], ids=["webcrypto", "no-webcrypto"])
def test_the_readme_snippet_escapes_the_summary_and_verifies(tmp_path, live_url, webcrypto):
    require_tool("node", why="the README's snippet is JavaScript")
    snippet = _readme_snippet()
    assert 'from "./client-js/src/index.js"' in snippet and '"http://localhost:8000"' in snippet
    runnable = (snippet.replace("./client-js/src/index.js", (ROOT / "client-js" / "src" / "index.js").as_uri())
                .replace('"http://localhost:8000"', json.dumps(live_url)))
    harness = HARNESS.format(player=json.dumps(PLAYER), crypto="" if webcrypto else "delete globalThis.crypto;")
    script = tmp_path / "snippet.mjs"
    # The snippet's static import is hoisted either way; the harness only sets globals it reads later.
    script.write_text(harness + runnable)
    result = subprocess.run(["node", str(script)], capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    outcome = json.loads(result.stdout)
    [message] = outcome["posted"]
    content = message["content"]
    assert "<b>" not in content and '"Co"' not in content, content
    assert html.unescape(content).startswith(PLAYER), content  # the escaped text reads as what was typed
    assert ["verified"] in outcome["logged"], outcome["logged"]
    status, errors = outcome["logged"][-1]
    assert status == 422 and errors["rank"], outcome["logged"]
