"""wurfwerk SDK: typed calls to the wurfwerk resolution service.

    from wurfwerk import Client
    client = Client("http://localhost:8000")
    roll = client.proben.test(attribute=3, difficulty=2)
    print(roll.summary, roll.result.outcome)
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

import requests

from wurfwerk import verify as _verify
from wurfwerk._http import Transport
from wurfwerk.errors import InvalidRequest, NotFound, ServerError, TransportError, Unauthorized, WurfwerkError
from wurfwerk.result import Result
from wurfwerk.systems import namespaces

__all__ = ["Client", "Result", "WurfwerkError", "InvalidRequest", "Unauthorized", "NotFound",
           "ServerError", "TransportError"]
__version__ = "1.0.0"


class Client:
    """One client per service; thread-safe as far as its ``requests.Session`` is."""

    def __init__(self, base_url: str = "http://localhost:8000", *, api_key: str | None = None,
                 timeout: float = 10.0, retries: int = 2, lang: str | None = None,
                 session: requests.Session | None = None):
        self._transport = Transport(base_url, api_key=api_key, timeout=timeout, retries=retries,
                                    lang=lang, session=session)
        for namespace in namespaces():
            setattr(self, namespace.name, namespace(self._transport))
        self._jwks: Result | None = None

    def systems(self) -> Result:
        """The catalogue. ``GET /v1/systems``"""
        return self._transport.request("GET", "/v1/systems")

    def keys(self) -> Result:
        """The public keys (JWKS). ``GET /v1/keys``"""
        return self._transport.request("GET", "/v1/keys")

    def batch(self, requests_: Iterable[Mapping[str, Any]]) -> Result:
        """Up to 500 operations in one call: ``[{"operation": "paws.test", "body": {...}}]``.
        ``POST /v1/batch``"""
        return self._transport.request("POST", "/v1/batch", {"requests": list(requests_)})

    def verify(self, response: Mapping[str, Any], *, offline: bool | None = None) -> Result:
        """Check a response's receipt: offline with the published keys when the ``verify`` extra is
        installed (keys fetched once and cached), else ``POST /v1/receipts/verify``."""
        if offline is None:
            offline = _verify.available()
        if offline:
            if self._jwks is None:
                self._jwks = self.keys()
            return Result(_verify.verify_offline(response, self._jwks))
        return self._transport.request("POST", "/v1/receipts/verify", response)
