"""Refusing what the service cannot serve in time: 503 with Retry-After instead of a growing queue.

Under the gevent worker (deploy/gunicorn.conf.py) every connection is a greenlet, and requests that
wait for the CPU wait as greenlets ready to run: the app never sees that queue. What it can see is
how late the event loop runs. A monitor sleeps a few milliseconds over and over and notes how much
later than asked it wakes; that lateness is how long a request arriving now waits before it runs,
its queue delay. It is smoothed (a third of each new sample, so one slow moment is not a trend) and
compared with ``max_queue_delay``: above it, each /v1 request is refused with the probability
(delay - max) / max, so at twice the bound every one is. A refusal is a small problem+json 503 that
costs a fraction of a served request, so the loop catches up and the requests still admitted are
answered within one to two times the bound, whatever the excess. This is the scheme of Node's
toobusy-js and, with a fixed threshold, of Fastify's under-pressure (event-loop delay, 503 with
Retry-After): a signal of the queue itself, needing no estimate of what a request costs.

Health, readiness and metrics stay unguarded: a replica under load is alive and still serves most of
what it can, and a probe that failed under load would take replicas out exactly when they are needed.
Written with ``threading`` and ``time``, so under gevent's monkey patching the monitor is a greenlet
and measures the event loop; under a threaded worker it would measure lock contention instead.
"""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass

import orjson

from service.platform.http.hooks import request_id_from
from service.platform.http.i18n import negotiated_language
from service.platform.http.problems import PROBLEM_MEDIA_TYPE, problem_document, problem_title
from service.platform.words.messages import say

GUARDED_PREFIX = "/v1/"


class QueueDelayMonitor:
    """How late the event loop (or the thread scheduler) runs, measured by a sleeper and smoothed."""

    SMOOTHING = 1 / 3  # the weight of a new sample

    def __init__(self, interval: float = 0.02) -> None:
        self.interval = interval
        self._delay = 0.0
        threading.Thread(target=self._run, name="wurfwerk-queue-delay", daemon=True).start()

    def _run(self) -> None:
        while True:
            expected_wake = time.monotonic() + self.interval
            time.sleep(self.interval)
            lateness = max(0.0, time.monotonic() - expected_wake)
            self._delay += (lateness - self._delay) * self.SMOOTHING

    def delay(self) -> float:
        """Seconds a request arriving now can expect to wait before it runs."""
        return self._delay


@dataclass(frozen=True)
class SheddingPolicy:
    max_queue_delay: float  # seconds
    retry_after: int  # seconds, sent as Retry-After
    cors_origins: tuple[str, ...] = ("*",)


class LoadShedder:
    """WSGI middleware: the app, unless the queue delay says the answer would come too late."""

    def __init__(self, app: Callable, policy: SheddingPolicy, monitor: QueueDelayMonitor | None = None) -> None:
        self.app = app
        self.policy = policy
        self.monitor = monitor or QueueDelayMonitor()

    def __call__(self, environ: dict, start_response: Callable) -> Iterable[bytes]:
        if environ.get("PATH_INFO", "").startswith(GUARDED_PREFIX) and self._shed():
            return self._refuse(environ, start_response)
        return self.app(environ, start_response)

    def _shed(self) -> bool:
        limit = self.policy.max_queue_delay
        excess = (self.monitor.delay() - limit) / limit
        return excess > 0 and random.random() < excess

    def _refuse(self, environ: dict, start_response: Callable) -> list[bytes]:
        request_id = request_id_from(environ.get("HTTP_X_REQUEST_ID", ""))
        lang = negotiated_language(environ.get("QUERY_STRING", ""), environ.get("HTTP_ACCEPT_LANGUAGE", ""))
        detail = say("The service is at capacity and refused this request unprocessed; retry after %(seconds)s s.",
                     seconds=self.policy.retry_after)
        body = orjson.dumps(problem_document(
            503, detail.say(lang), slug="overloaded", instance=environ.get("PATH_INFO", "/"),
            request_id=request_id, title=problem_title(503, lang)))
        headers = [("Content-Type", PROBLEM_MEDIA_TYPE), ("Content-Length", str(len(body))),
                   ("Content-Language", lang), ("Vary", "Accept-Language"),
                   ("Retry-After", str(self.policy.retry_after)), ("X-Request-ID", request_id),
                   ("Cache-Control", "no-store")]
        headers += self._cors_headers(environ.get("HTTP_ORIGIN"))
        start_response("503 Service Unavailable", headers)
        return [body]

    def _cors_headers(self, origin: str | None) -> list[tuple[str, str]]:
        """What flask-cors would add, so a browser client can read the 503 and its Retry-After."""
        if origin is None:
            return []
        if "*" in self.policy.cors_origins:
            allowed = "*"
        elif origin in self.policy.cors_origins:
            allowed = origin
        else:
            return []
        return [("Access-Control-Allow-Origin", allowed), ("Vary", "Origin"),
                ("Access-Control-Expose-Headers", "Retry-After, X-Request-ID")]
