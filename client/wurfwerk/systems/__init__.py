"""Per-system namespaces (``client.proben.test(...)``). Each module here defines one ``Namespace``
subclass; the client finds them by listing this package, so systems never edit a shared file."""

from __future__ import annotations

import importlib
import pkgutil
from typing import Any

from wurfwerk._http import Transport
from wurfwerk.result import Result


class Namespace:
    """Base of a system's methods: ``name`` is the attribute on the client."""

    name = ""

    def __init__(self, transport: Transport):
        self._transport = transport

    def _post(self, path: str, body: dict[str, Any]) -> Result:
        return self._transport.request("POST", path, body)

    def _get(self, path: str) -> Result:
        return self._transport.request("GET", path)


def namespaces() -> list[type[Namespace]]:
    found = []
    for module in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):
        loaded = importlib.import_module(f"{__name__}.{module.name}")
        found.extend(value for value in vars(loaded).values()
                     if isinstance(value, type) and issubclass(value, Namespace) and value is not Namespace
                     and value.__module__ == loaded.__name__)
    return found
