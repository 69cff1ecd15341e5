"""Prometheus metrics that stay correct across gunicorn workers.

With ``PROMETHEUS_MULTIPROC_DIR`` set (``make run`` and the container do), every worker writes its
samples to that directory and ``/metrics`` aggregates all of them, whichever worker answers.
Without it (tests, ``flask run``) the process's own registry is served.
"""

from __future__ import annotations

import os
import time

from flask import Flask, Response, g, request
from prometheus_client import (
    CONTENT_TYPE_LATEST,
    REGISTRY,
    CollectorRegistry,
    Counter,
    Histogram,
    generate_latest,
    multiprocess,
)

REQUESTS = Counter("wurfwerk_requests_total", "HTTP requests answered.",
                   ["method", "endpoint", "status"])
LATENCY = Histogram("wurfwerk_request_duration_seconds", "Time to answer a request.",
                    ["endpoint"], buckets=(0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5))


def _registry():
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        registry = CollectorRegistry()
        multiprocess.MultiProcessCollector(registry)
        return registry
    return REGISTRY


def metrics_view() -> Response:
    return Response(generate_latest(_registry()), content_type=CONTENT_TYPE_LATEST)  # it names its charset


def install_metrics(app: Flask) -> None:
    @app.before_request
    def _start_timer():
        g.started = time.perf_counter()

    @app.after_request
    def _observe(response):
        # The endpoint name, not the raw path: unknown paths must not create unbounded label values.
        endpoint = request.endpoint or "unmatched"
        REQUESTS.labels(request.method, endpoint, str(response.status_code)).inc()
        if "started" in g:
            LATENCY.labels(endpoint).observe(time.perf_counter() - g.started)
        return response

    app.add_url_rule("/metrics", "metrics", metrics_view, methods=["GET"])
