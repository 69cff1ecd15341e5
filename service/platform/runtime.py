"""What one app instance holds: its config and its keys. Reached through ``current_runtime()``."""

from __future__ import annotations

from dataclasses import dataclass, field

from flask import current_app

from service.config import Config
from service.platform.receipts import KeyRing


@dataclass
class Operation:
    """One operation of the catalogue and of the batch: id, method and full path."""

    id: str
    method: str
    path: str
    endpoint: str


@dataclass
class Runtime:
    config: Config
    keys: KeyRing
    ephemeral_key: bool
    operations: dict[str, Operation] = field(default_factory=dict)


def current_runtime() -> Runtime:
    return current_app.extensions["wurfwerk"]
