"""The service's worker follows gunicorn's code in a few places (service/serving/worker.py): its
``run`` and ``_stop`` are gunicorn's ``GeventWorker.run`` with one change, ``handle_request`` wraps
gunicorn's, and a refused request's path is read from gunicorn's parse (``Request.parse``,
``read_line``, ``read_into``), which hands ``handle_error`` no request. pyproject.toml pins gunicorn
to the versions this was written against; this test fails when any of that code changes, so that
an upgrade is a decision (read gunicorn's change, follow it, record the new digests), never a
silent drift."""

from __future__ import annotations

import hashlib
import inspect
from importlib.metadata import version

import pytest
from gunicorn.http.message import Request
from gunicorn.workers.base_async import AsyncWorker
from gunicorn.workers.ggevent import GeventWorker

FOLLOWED = {  # gunicorn 27.0.1: the first 16 hex digits of the SHA-256 of each function's source
    GeventWorker.run: "50119854ef8be38c",
    GeventWorker.handle_request: "46750b15c6e4d4b4",
    AsyncWorker.handle: "6eb3b127e6ba7e84",
    AsyncWorker.handle_request: "913e17a9542aa70d",
    Request.parse: "34c084607ae12d4f",
    Request.read_line: "13bf2e83f72a5e0d",
    Request.read_into: "3f959e4da304d883",
}


def test_gunicorn_is_a_version_the_worker_was_written_against():
    assert version("gunicorn").startswith("27.0."), "pyproject.toml pins gunicorn; see this module's docstring"


@pytest.mark.parametrize("function", list(FOLLOWED), ids=lambda f: f.__qualname__)
def test_the_code_the_worker_follows_is_unchanged(function):
    digest = hashlib.sha256(inspect.getsource(function).encode()).hexdigest()[:16]
    assert digest == FOLLOWED[function], f"gunicorn's {function.__qualname__} changed: compare it with worker.py"
