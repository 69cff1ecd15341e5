"""What one app instance holds: its config and its keys. Reached through ``current_runtime()``."""

from __future__ import annotations

from dataclasses import dataclass

from flask import current_app

from service.config import Config
from service.platform.dice.receipts import KeyRing


@dataclass
class Runtime:
    config: Config
    keys: KeyRing
    ephemeral_key: bool


def current_runtime() -> Runtime:
    # The proxy's own lookup, as Flask's docs show it: one call instead of the proxy's three per
    # attribute (read on every request, several times).
    return current_app._get_current_object().extensions["wurfwerk"]  # type: ignore[attr-defined]  # a LocalProxy
