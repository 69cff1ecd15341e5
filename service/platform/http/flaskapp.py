"""The service's Flask class: Flask, with what it decides per request about constant things decided once."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from flask import Flask

# Far more than the views and hooks of the service; a function made per call is then never cached.
_MAX_CACHED = 1024


class ServiceFlask(Flask):
    """Flask asks ``ensure_sync`` for every request hook and view on every request whether it is a
    coroutine function (``inspect.iscoroutinefunction``, five calls deep); a function's answer never
    changes, and every request runs the same hooks and view, so it is asked once per function.
    Flask documents ``ensure_sync`` as the method to override."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._sync_functions: dict[Callable, Callable] = {}

    def ensure_sync(self, func: Callable[..., Any]) -> Callable[..., Any]:
        synced = self._sync_functions.get(func)
        if synced is None:
            synced = super().ensure_sync(func)
            if len(self._sync_functions) < _MAX_CACHED:
                self._sync_functions[func] = synced
        return synced
