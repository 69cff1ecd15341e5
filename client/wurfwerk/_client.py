"""``Client`` (requests) and ``AsyncClient`` (httpx): options, lifecycle and verification by hand; every
operation comes from the generated ``_operations``."""

from __future__ import annotations

import copy
from collections.abc import Mapping
from types import TracebackType
from typing import TYPE_CHECKING, Any, Self

import requests

from wurfwerk import _sync
from wurfwerk import verify as _verify
from wurfwerk._core import Body, Operation, Options, R
from wurfwerk._models import Model
from wurfwerk._operations import AsyncOperations, Operations
from wurfwerk.models import Jwks, Verification

if TYPE_CHECKING:
    import httpx


class _KeyCache:
    """The published keys, fetched once and shared by a client and its ``with_options`` copies."""

    def __init__(self) -> None:
        self.jwks: Jwks | None = None


class _Settings:
    """What ``Client`` and ``AsyncClient`` share: options and their per-call copies."""

    _options: Options
    _keys: _KeyCache

    def _bind_namespaces(self) -> None:
        raise NotImplementedError

    def _configure(self, *, base_url: str, api_key: str | None, timeout: float, max_retries: int,
                   lang: str | None, headers: Mapping[str, str] | None) -> None:
        """A new client's checked options and its (still empty) cache of published keys."""
        self._options = Options(base_url=base_url, api_key=api_key, timeout=timeout, max_retries=max_retries,
                                lang=lang, headers=dict(headers or {}))
        self._options.validate()
        self._keys = _KeyCache()

    @property
    def options(self) -> Options:
        """The settings in force (base_url, timeout, max_retries, lang, ...)."""
        return self._options

    def _copy_with(self, **changes: Any) -> Any:
        clone = copy.copy(self)
        clone._options = self._options.replaced(**changes)
        clone._bind_namespaces()
        return clone


class Client(Operations, _Settings):
    """The wurfwerk service, blocking (``requests``). Thread-safe as far as its ``requests.Session`` is.

    ``timeout`` is the most seconds one call may take, retries and their waits included; ``max_retries``
    how often a call is repeated after a connection error, 408, 429 or 5xx. Both can be changed per call:
    ``client.with_options(timeout=2.5).paws.test(rank=2)``. Pass ``session`` to use your own
    ``requests.Session`` (adapters, proxies, tests); the client then leaves closing it to you."""

    def __init__(self, base_url: str = "http://localhost:8000", *, api_key: str | None = None,
                 timeout: float = 10.0, max_retries: int = 2, lang: str | None = None,
                 headers: Mapping[str, str] | None = None, session: requests.Session | None = None) -> None:
        self._configure(base_url=base_url, api_key=api_key, timeout=timeout, max_retries=max_retries, lang=lang,
                        headers=headers)
        self._session = session or requests.Session()
        self._owns_session = session is None
        self._bind_namespaces()

    def with_options(self, *, timeout: float | None = None, max_retries: int | None = None,
                     lang: str | None = None, api_key: str | None = None) -> Client:
        """A copy with other settings, sharing this client's connections: ``client.with_options(timeout=2.5)``."""
        clone: Client = self._copy_with(timeout=timeout, max_retries=max_retries, lang=lang, api_key=api_key)
        return clone

    def _send(self, operation: Operation[R], body: Body, query: Mapping[str, Any] | None) -> R:
        return _sync.send(self._session, self._options, operation, body, query)

    def verify(self, document: Mapping[str, Any] | Model, *, offline: bool | None = None) -> Verification:
        """Check a response's receipt: offline with the published keys when the ``verify`` extra is installed
        (keys fetched once and cached, fetched again for an unknown key id), else ``POST /v1/receipts/verify``."""
        if not (_verify.available() if offline is None else offline):
            return self.receipts.verify(document)
        cached = self._keys.jwks
        if cached is None:
            cached = self._keys.jwks = self.keys()
        verification = _verify.check(document, cached)
        if _verify.needs_fresh_keys(verification):
            self._keys.jwks = self.keys()
            verification = _verify.check(document, self._keys.jwks)
        return verification

    def close(self) -> None:
        """Close the connections (only when the client created its session)."""
        if self._owns_session:
            self._session.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 traceback: TracebackType | None) -> None:
        self.close()


class AsyncClient(AsyncOperations, _Settings):
    """The wurfwerk service for asyncio (``httpx``; install ``wurfwerk[async]``), with the surface of
    ``Client``: ``await client.paws.test(rank=2)``. Use it as ``async with AsyncClient(...) as client:``."""

    def __init__(self, base_url: str = "http://localhost:8000", *, api_key: str | None = None,
                 timeout: float = 10.0, max_retries: int = 2, lang: str | None = None,
                 headers: Mapping[str, str] | None = None, http_client: httpx.AsyncClient | None = None) -> None:
        try:
            import httpx
        except ImportError as error:  # pragma: no cover - depends on the installed extras
            raise ImportError("AsyncClient needs httpx: pip install 'wurfwerk[async]'") from error
        self._configure(base_url=base_url, api_key=api_key, timeout=timeout, max_retries=max_retries, lang=lang,
                        headers=headers)
        self._http = http_client or httpx.AsyncClient()
        self._owns_http = http_client is None
        self._bind_namespaces()

    def with_options(self, *, timeout: float | None = None, max_retries: int | None = None,
                     lang: str | None = None, api_key: str | None = None) -> AsyncClient:
        """A copy with other settings, sharing this client's connections: ``client.with_options(timeout=2.5)``."""
        clone: AsyncClient = self._copy_with(timeout=timeout, max_retries=max_retries, lang=lang, api_key=api_key)
        return clone

    async def _send(self, operation: Operation[R], body: Body,
                    query: Mapping[str, Any] | None) -> R:
        from wurfwerk import _async

        return await _async.send(self._http, self._options, operation, body, query)

    async def verify(self, document: Mapping[str, Any] | Model, *, offline: bool | None = None) -> Verification:
        """Like ``Client.verify``: the same check, the keys fetched without blocking the event loop."""
        if not (_verify.available() if offline is None else offline):
            return await self.receipts.verify(document)
        cached = self._keys.jwks
        if cached is None:
            cached = self._keys.jwks = await self.keys()
        verification = _verify.check(document, cached)
        if _verify.needs_fresh_keys(verification):
            self._keys.jwks = await self.keys()
            verification = _verify.check(document, self._keys.jwks)
        return verification

    async def close(self) -> None:
        """Close the connections (only when the client created its ``httpx.AsyncClient``)."""
        if self._owns_http:
            await self._http.aclose()

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(self, kind: type[BaseException] | None, error: BaseException | None,
                        traceback: TracebackType | None) -> None:
        await self.close()
