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
