"""Typed errors: one base, one subclass per kind of failure, each carrying the problem body."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


class WurfwerkError(Exception):
    """Base of every error the SDK raises."""

    def __init__(self, message: str, *, method: str = "", url: str = "", status: int | None = None,
                 problem: Mapping[str, Any] | None = None, request_id: str | None = None,
                 retry_after: float | None = None):
        super().__init__(message)
        self.method = method
        self.url = url
        self.status = status
        self.problem: dict[str, Any] = dict(problem or {})
        self.request_id = request_id
        self.retry_after = retry_after

    @property
    def errors(self) -> dict[str, Any]:
        """Validation failures: dotted field path -> messages (empty unless 422)."""
        return dict(self.problem.get("errors") or {})


class InvalidRequest(WurfwerkError):
    """400 or 422: the request was malformed or broke a rule."""


class Unauthorized(WurfwerkError):
    """401: the API key is missing or wrong."""


class NotFound(WurfwerkError):
    """404: no such path (an SDK and server version mismatch)."""


class Conflict(WurfwerkError):
    """409: e.g. an Idempotency-Key or a ticket reused for a different request."""


class RateLimited(WurfwerkError):
    """429 after the retries were used up; ``retry_after`` says when the service wants you back."""


class ServerError(WurfwerkError):
    """5xx after the retries were used up."""


class TransportError(WurfwerkError):
    """The service could not be reached, or the connection broke before an answer arrived."""


class RequestTimeout(TransportError):
    """The call's ``timeout`` (its whole budget, retries and waits included) ran out."""


def error_for_status(status: int) -> type[WurfwerkError]:
    if status in (400, 422):
        return InvalidRequest
    if status == 401:
        return Unauthorized
    if status == 404:
        return NotFound
    if status == 409:
        return Conflict
    if status == 429:
        return RateLimited
    if status >= 500:
        return ServerError
    return WurfwerkError
