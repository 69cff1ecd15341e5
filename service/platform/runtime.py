"""What one app instance holds: its config and its keys. Reached through ``current_runtime()``."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

import marshmallow as ma
from flask import Response, current_app

from service.config import Config
from service.platform.fastload import fast_loader
from service.platform.receipts import KeyRing


@dataclass
class Operation:
    """One operation of the catalogue and of the batch.

    ``schema`` (the request schema instance), ``load`` (its compiled loader, see fastload.py) and
    ``handler`` (validated body -> signed response) let single calls and batch items run without
    flask-smorest's per-request layers."""

    id: str
    method: str
    path: str
    endpoint: str
    schema: ma.Schema | None = None
    handler: Callable[[dict], Response] | None = None
    load: Callable[[object], dict] | None = None

    def __post_init__(self) -> None:
        if self.load is None and self.schema is not None:
            self.load = fast_loader(self.schema)


@dataclass
class Runtime:
    config: Config
    keys: KeyRing
    ephemeral_key: bool
    operations: dict[str, Operation] = field(default_factory=dict)


def current_runtime() -> Runtime:
    return current_app.extensions["wurfwerk"]
