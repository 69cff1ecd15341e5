"""The bases of the typed results generated into ``wurfwerk.models``.

Every result is a frozen dataclass over the JSON it was read from: members are plain attributes (the
bases define no mapping methods, so a member named ``values`` or ``keys`` is the data), nested members
are typed too, and ``to_dict()`` gives the JSON exactly as the service sent it, ready to send back.
"""

from __future__ import annotations

import copy
import dataclasses
from collections.abc import Mapping, Sequence
from typing import Any, Self

# Names the bases use; the generator renames a JSON member that would shadow one (``request_id_``).
RESERVED_NAMES = frozenset({"to_dict", "from_json", "request_id"})


@dataclasses.dataclass(frozen=True)
class Model:
    """Base of every typed object in a response."""

    def to_dict(self) -> dict[str, Any]:
        """The JSON object exactly as received (an independent copy), e.g. to send a draw back."""
        received = self.__dict__.get("_json")
        if received is not None:
            return copy.deepcopy(dict(received))
        # Built in code rather than read from JSON: serialize the members, leaving out unset ones.
        return {member.metadata.get("json", member.name): to_json(getattr(self, member.name))
                for member in dataclasses.fields(self) if getattr(self, member.name) is not None}

    def _with_json(self, data: Mapping[str, Any]) -> Self:
        object.__setattr__(self, "_json", data)
        return self


@dataclasses.dataclass(frozen=True)
class Result(Model):
    """Base of every response body: a model that also knows the request id the service gave it."""

    @property
    def request_id(self) -> str | None:
        """The service's ``X-Request-ID`` for this call (quote it when reporting a problem); ``None`` for
        results built locally, e.g. by offline verification."""
        value = self.__dict__.get("_request_id")
        return value if isinstance(value, str) else None

    def _with_request_id(self, request_id: str | None) -> Self:
        object.__setattr__(self, "_request_id", request_id)
        return self


def to_json(value: Any) -> Any:
    """Models, mappings and sequences (nested in any way) as plain JSON values."""
    if isinstance(value, Model):
        return value.to_dict()
    if isinstance(value, Mapping):
        return {str(key): to_json(item) for key, item in value.items()}
    if isinstance(value, Sequence) and not isinstance(value, (str, bytes)):
        return [to_json(item) for item in value]
    return value
