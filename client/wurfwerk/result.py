"""Read-only results: attribute access (``r.result.success``) that also behave as mappings."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any


class Result(Mapping):
    __slots__ = ("_data",)

    def __init__(self, data: Mapping[str, Any]):
        object.__setattr__(self, "_data", dict(data))

    def __getitem__(self, key: str) -> Any:
        return wrap(self._data[key])

    def __iter__(self) -> Iterator[str]:
        return iter(self._data)

    def __len__(self) -> int:
        return len(self._data)

    def __getattr__(self, name: str) -> Any:
        try:
            return wrap(self._data[name])
        except KeyError:
            raise AttributeError(name) from None

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("results are read-only")

    def __repr__(self) -> str:
        return f"Result({self._data!r})"

    def to_dict(self) -> dict:
        """A plain, independent copy (JSON-ready)."""
        return plain(self._data)


def wrap(value: Any) -> Any:
    if isinstance(value, Mapping) and not isinstance(value, Result):
        return Result(value)
    if isinstance(value, list):
        return tuple(wrap(item) for item in value)
    return value


def plain(value: Any) -> Any:
    """Results (and anything nested in them) back to dicts and lists, e.g. to send a draw back."""
    if isinstance(value, Mapping):
        return {key: plain(item) for key, item in (value._data.items() if isinstance(value, Result) else value.items())}
    if isinstance(value, (list, tuple)):
        return [plain(item) for item in value]
    return value
