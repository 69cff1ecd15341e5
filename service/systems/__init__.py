"""The rule systems. Each sub-package's ``routes`` module declares ``SYSTEM``, a ``System`` whose
table lists its operations.

Systems are found by listing this package, so adding a system touches no shared file.
"""

from __future__ import annotations

import importlib
import importlib.util
import pkgutil

from service.platform.operations.operations import System


def discover() -> list[System]:
    systems = []
    for module in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):
        # A folder without routes.py is a system still being written, not a system yet.
        if module.ispkg and importlib.util.find_spec(f"{__name__}.{module.name}.routes"):
            routes = importlib.import_module(f"{__name__}.{module.name}.routes")
            systems.append(routes.SYSTEM)
    return systems


README_BEGIN = "<!-- systems table: written from the SYSTEM tables by `make generate` -->"
README_END = "<!-- end of systems table -->"


def readme_table(systems: list[System]) -> str:
    """The README's systems table: each system's operations as its ``SYSTEM`` table declares them
    (odds twins left out: every rolling operation has one)."""
    rows = ["| system | base path | operations |", "|---|---|---|"]
    for system in systems:
        names = [f"`{operation.path.lstrip('/')}`" + (" (GET)" if operation.method == "GET" else "")
                 for operation in system.operations if not operation.kind.rules.twin]
        rows.append(f"| {system.title} ({system.tagline}) | `/v1/{system.id}` | {', '.join(names)} |")
    return "\n".join(rows) + "\n"


def with_readme_table(readme: str, systems: list[System]) -> str:
    """``readme`` with the block between the markers replaced by ``readme_table(systems)``."""
    start, end = readme.index(README_BEGIN) + len(README_BEGIN), readme.index(README_END)
    return f"{readme[:start]}\n{readme_table(systems)}{readme[end:]}"
