"""What the sync and the async client share: options, the operation table's type, building a request,
deciding on a retry, and turning a response into a typed result or a typed error. Only the I/O
(``requests`` or ``httpx``, ``time.sleep`` or ``asyncio.sleep``) lives in ``_sync`` and ``_async``."""

from __future__ import annotations

import email.utils
import json
import random
import time
import uuid
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any, Generic, Protocol, TypeVar

from wurfwerk._models import Model, Result, to_json
from wurfwerk.errors import RequestTimeout, TransportError, WurfwerkError, error_for_status

__version__ = "2.1.0"  # as client/pyproject.toml (tests/test_distributions.py)

R = TypeVar("R", bound=Result)
# A request body: keyword arguments collected by a generated method, or a whole document to send.
Body = Mapping[str, Any] | Model | None
# requests' and httpx's header mappings both look names up ignoring case.
CaseInsensitive = Mapping[str, str]

# The members that make a roll reproducible (or bound to an issued ticket, a session's seat and index, or
# to the caller's own key): a body carrying one of them rolls the same dice on every attempt, so it needs
# no Idempotency-Key (and a session refuses one).
DETERMINISTIC_MEMBERS = ("seed", "manual", "ticket", "session", "idempotency_key")
RETRY_STATUSES = frozenset({408, 429})
# Never sleep longer than this on a Retry-After: a longer wait means "not now" and becomes the error.
MAX_RETRY_AFTER = 60.0


@dataclass(frozen=True)
class Operation(Generic[R]):
    """One entry of the generated operation table."""

    id: str
    method: str
    path: str
    rolling: bool
    parse: Callable[[Any], R]
    # The body is a whole document (e.g. a response to verify), sent exactly as given; otherwise it is
    # the method's keyword arguments, and those left at None are not sent.
    whole_body: bool = False


class Send(Protocol):
    """How a generated namespace calls its client: one operation, its body and its query."""

    def __call__(self, operation: Operation[R], body: Body,
                 query: Mapping[str, Any] | None) -> R: ...


class AsyncSend(Protocol):
    def __call__(self, operation: Operation[R], body: Body,
                 query: Mapping[str, Any] | None) -> Awaitable[R]: ...


@dataclass(frozen=True)
class Options:
    """Settings of one client; ``with_options`` makes a copy with some of them replaced."""

    base_url: str = "http://localhost:8000"
    api_key: str | None = None
    timeout: float = 10.0
    max_retries: int = 2
    lang: str | None = None
    initial_backoff: float = 0.25
    max_backoff: float = 4.0
    headers: Mapping[str, str] = field(default_factory=dict)

    def replaced(self, **changes: Any) -> Options:
        unknown = set(changes) - set(self.__dataclass_fields__)
        if unknown:
            raise TypeError(f"unknown option(s): {', '.join(sorted(unknown))}")
        changed = replace(self, **{name: value for name, value in changes.items() if value is not None})
        changed.validate()
        return changed

    def validate(self) -> None:
        if self.timeout <= 0:
            raise ValueError("timeout must be positive (seconds for the whole call, retries included)")
        if self.max_retries < 0:
            raise ValueError("max_retries must be 0 or more")


@dataclass
class PreparedRequest:
    """One logical call: built once, sent once per attempt with the same body and Idempotency-Key."""

    method: str
    url: str
    headers: dict[str, str]
    params: dict[str, str]
    json: Any
    deadline: float

    def remaining(self) -> float:
        return self.deadline - time.monotonic()

    def attempt_timeout(self) -> float:
        """What is left of the call's budget for this attempt (never zero: HTTP libraries refuse that)."""
        return max(self.remaining(), 0.001)


def prepare(options: Options, operation: Operation[Any], body: Body,
            query: Mapping[str, Any] | None) -> PreparedRequest:
    json_body = to_json(body)
    if isinstance(json_body, dict) and not operation.whole_body:
        json_body = omit_none(json_body)
    headers = {"Accept": "application/json", "User-Agent": f"wurfwerk-python/{__version__}",
               **options.headers}
    if options.api_key:
        headers["Authorization"] = f"Bearer {options.api_key}"
    if operation.rolling and not any(member in (json_body or {}) for member in DETERMINISTIC_MEMBERS):
        # One key per logical call, reused by every retry: the service answers a repeated key with the
        # dice of the first attempt, so a retry never rolls twice.
        headers["Idempotency-Key"] = str(uuid.uuid4())
    params = {name: str(value) for name, value in omit_none(query or {}).items()}
    if options.lang and "lang" not in params:
        params["lang"] = options.lang
    return PreparedRequest(method=operation.method, url=options.base_url.rstrip("/") + operation.path,
                           headers=headers, params=params, json=json_body,
                           deadline=time.monotonic() + options.timeout)


def omit_none(values: Mapping[str, Any]) -> dict[str, Any]:
    """Parameters left at ``None`` are not sent (the service applies its own default)."""
    return {name: value for name, value in values.items() if value is not None}


def transport_error(request: PreparedRequest, error: Exception, timed_out: bool) -> TransportError:
    kind = RequestTimeout if timed_out or request.remaining() <= 0 else TransportError
    return kind(f"{request.method} {request.url} failed: {error}", method=request.method, url=request.url)


def should_retry_status(status: int) -> bool:
    return status in RETRY_STATUSES or status >= 500


def retry_after_seconds(header: str | None) -> float | None:
    """``Retry-After`` as delta-seconds or an HTTP date (RFC 9110 §10.2.3); ``None`` if absent/invalid."""
    if not header:
        return None
    header = header.strip()
    if header.isdigit():
        return float(header)
    try:
        moment = email.utils.parsedate_to_datetime(header)
    except (TypeError, ValueError):
        return None
    return max(0.0, moment.timestamp() - time.time())


def backoff_delay(options: Options, retry_number: int, retry_after: str | None) -> float | None:
    """Seconds to wait before retry ``retry_number`` (1-based), or ``None`` to give up.

    The server's ``Retry-After`` wins when given; otherwise exponential backoff with jitter (each wait
    is 50-100 % of ``initial_backoff * 2**(n-1)``, capped at ``max_backoff``), so many clients that
    failed together do not come back together."""
    asked = retry_after_seconds(retry_after)
    if asked is not None:
        return asked if asked <= MAX_RETRY_AFTER else None
    ceiling = min(options.max_backoff, options.initial_backoff * 2.0 ** (retry_number - 1))
    return ceiling * (0.5 + random.random() / 2)


def next_delay(options: Options, request: PreparedRequest, retry_number: int,
               retry_after: str | None = None) -> float | None:
    """The wait before the next attempt, or ``None`` when the retries or the call's deadline are used up."""
    if retry_number > options.max_retries:
        return None
    delay = backoff_delay(options, retry_number, retry_after)
    if delay is None or delay >= request.remaining():
        return None
    return delay


def decode(operation: Operation[R], request: PreparedRequest, status: int, headers: CaseInsensitive,
           content: bytes, reason: str = "") -> R:
    """The typed result of a 2xx answer; otherwise the typed error, carrying the problem document."""
    request_id = headers.get("x-request-id")  # both requests and httpx headers ignore case
    try:
        data = json.loads(content) if content else None
    except ValueError as error:
        data = None
        if 200 <= status < 300:
            raise WurfwerkError(f"{request.method} {request.url}: response is not JSON", method=request.method,
                                url=request.url, status=status, request_id=request_id) from error
    if 200 <= status < 300:
        try:
            result = operation.parse(data)
        except (KeyError, TypeError, AttributeError) as error:
            raise WurfwerkError(f"{request.method} {request.url}: response does not match the SDK's schema "
                                f"({error!r}); is the SDK older than the service?", method=request.method,
                                url=request.url, status=status, request_id=request_id) from error
        return result._with_request_id(request_id)
    problem = data if isinstance(data, dict) else {}
    detail = problem.get("detail") or reason or "error"
    error_class = error_for_status(status)
    raise error_class(f"{request.method} {request.url} -> {status}: {detail}", method=request.method,
                      url=request.url, status=status, problem=problem,
                      request_id=request_id or problem.get("request_id"),
                      retry_after=retry_after_seconds(headers.get("retry-after")))
