"""What one app instance holds: its config and its keys. Reached through ``current_runtime()``."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

import marshmallow as ma
from flask import Response

from flask import current_app

from service.config import Config
from service.platform.receipts import KeyRing


@dataclass
class Operation:
    """One operation of the catalogue and of the batch.

    ``schema`` (the request schema instance) and ``handler`` (validated body -> signed response)
    let the batch run an item without building a whole request for it."""

    id: str
    method: str
    path: str
    endpoint: str
    schema: ma.Schema | None = None
    handler: Callable[[dict], Response] | None = None


@dataclass
class Runtime:
    config: Config
    keys: KeyRing
    ephemeral_key: bool
    operations: dict[str, Operation] = field(default_factory=dict)


def current_runtime() -> Runtime:
    return current_app.extensions["wurfwerk"]
