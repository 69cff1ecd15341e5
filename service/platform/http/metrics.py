"""Prometheus metrics that stay correct across gunicorn workers.

With ``PROMETHEUS_MULTIPROC_DIR`` set (``make run`` and the container do), every worker writes its
samples to that directory and ``/metrics`` aggregates all of them, whichever worker answers.
Without it (tests, ``flask run``) the process's own registry is served.
"""

from __future__ import annotations

import os
import time

from flask import Flask, Request, Response, request
from prometheus_client import (
    CONTENT_TYPE_LATEST,
    REGISTRY,
    CollectorRegistry,
    Counter,
    Histogram,
    generate_latest,
    multiprocess,
)

from service.platform.http.hooks import bearer_token_in
from service.platform.http.problems import http_error
from service.platform.http.runtime import current_runtime
from service.platform.words.messages import say

REQUESTS = Counter("wurfwerk_requests_total", "HTTP requests answered.",
                   ["method", "endpoint", "status"])
LATENCY = Histogram("wurfwerk_request_duration_seconds", "Time to answer a request.",
                    ["endpoint"], buckets=(0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5))


def _registry() -> CollectorRegistry:
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        registry = CollectorRegistry()
        multiprocess.MultiProcessCollector(registry)
        return registry
    return REGISTRY


def metrics_view() -> Response:
    token = current_runtime().config.metrics_token
    if token and not bearer_token_in((token,), request):
        raise http_error(401, say("/metrics needs `Authorization: Bearer <token>` with the metrics token."),
                         "unauthorized")
    return Response(generate_latest(_registry()), content_type=CONTENT_TYPE_LATEST)  # it names its charset


def install_metrics(app: Flask) -> None:
    """``/metrics``; ``start_timer`` and ``observe`` are steps of service/platform/http/request_steps.py."""
    app.add_url_rule("/metrics", "metrics", metrics_view, methods=["GET"])


_STARTED = "wurfwerk.started"
# Label children by their label values: prometheus_client's ``labels()`` takes a lock and builds
# the key on every call; a request only needs a dict lookup once its endpoint has been seen.
_REQUEST_COUNTERS: dict[tuple[str, str, int], Counter] = {}
_LATENCIES: dict[str, Histogram] = {}


def start_timer(current: Request) -> None:
    current.environ[_STARTED] = time.perf_counter()


def observe(current: Request, response: Response) -> Response:
    # The endpoint name, not the raw path: unknown paths must not create unbounded label values.
    endpoint = current.endpoint or "unmatched"
    key = (current.method, endpoint, response.status_code)
    counter = _REQUEST_COUNTERS.get(key)
    if counter is None:
        counter = _REQUEST_COUNTERS[key] = REQUESTS.labels(key[0], endpoint, str(key[2]))
    counter.inc()
    started = current.environ.get(_STARTED)
    if started is not None:
        latency = _LATENCIES.get(endpoint)
        if latency is None:
            latency = _LATENCIES[endpoint] = LATENCY.labels(endpoint)
        latency.observe(time.perf_counter() - started)
    return response
