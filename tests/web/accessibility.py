"""axe-core (the npm package, tests/web/package.json) run inside a page of the browser tests.

`violations(page)` injects the locked axe.min.js and answers axe's violations, each reduced to its rule,
impact, help and the targets of its nodes (what a failing assertion should show). A test asserts the
list is empty; `describe` prints it one node a line."""

from __future__ import annotations

from pathlib import Path

import pytest

AXE = Path(__file__).with_name("node_modules") / "axe-core" / "axe.min.js"

_RUN = """async (options) => {
    const result = await axe.run(document, options);
    return result.violations.map((rule) => ({
        id: rule.id, impact: rule.impact, help: rule.help,
        nodes: rule.nodes.map((node) => ({ target: node.target.join(" "), summary: node.failureSummary })),
    }));
}"""


def violations(page, options: dict | None = None) -> list[dict]:
    """axe's violations on the page as it is now (all rules axe runs by default: WCAG 2.x A and AA and
    its best practices)."""
    if not AXE.exists():
        pytest.fail("tests/web/node_modules has no axe-core: `make test` runs npm ci there")
    if not page.evaluate("typeof window.axe === 'object'"):
        page.add_script_tag(path=str(AXE))
    return page.evaluate(_RUN, options or {})


def describe(found: list[dict]) -> str:
    lines = [f"{len(found)} rules violated, {sum(len(rule['nodes']) for rule in found)} nodes:"]
    for rule in found:
        for node in rule["nodes"]:
            lines.append(f"  {rule['id']} ({rule['impact']}): {node['target']}: {node['summary']}")
    return "\n".join(lines)
