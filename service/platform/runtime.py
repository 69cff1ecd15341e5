"""What one app instance holds: its config, its keys and its operations. Reached through ``current_runtime()``."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from flask import current_app

from service.config import Config
from service.platform.receipts import KeyRing

if TYPE_CHECKING:  # operations.py reads the runtime per request; the runtime only lists operations
    from service.platform.operations import Operation


@dataclass
class Runtime:
    config: Config
    keys: KeyRing
    ephemeral_key: bool
    operations: dict[str, Operation] = field(default_factory=dict)  # by id: the catalogue and batch


def current_runtime() -> Runtime:
    # The proxy's own lookup, as Flask's docs show it: one call instead of the proxy's three per
    # attribute (read on every request, several times).
    return current_app._get_current_object().extensions["wurfwerk"]
