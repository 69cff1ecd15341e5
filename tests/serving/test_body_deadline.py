"""The body deadline of the service's worker (service/serving/worker.py, ``BodyDeadline``), in-process
under gevent: a body that does not arrive in time is a 408 problem and the socket's reading side is
shut; one that arrives in time is served, and its timer is gone once the app has answered. Over a
real socket: tests/deploy/test_load.py (408, slow clients closed after WURFWERK_READ_TIMEOUT)."""

from __future__ import annotations

import io
import socket
import time

import gevent
import orjson
import pytest
from werkzeug.test import EnvironBuilder

from service.serving import worker
from service.serving.worker import BodyDeadline

BODY = orjson.dumps({"rank": 3})


class SlowBody(io.BytesIO):
    """A request body whose bytes come ``delay`` seconds after they are asked for."""

    def __init__(self, data: bytes, delay: float) -> None:
        super().__init__(data)
        self.delay = delay

    def read(self, size: int | None = -1) -> bytes:
        gevent.sleep(self.delay)
        return super().read(size)


class RecordingSocket:
    def __init__(self) -> None:
        self.shut: list[int] = []

    def shutdown(self, how: int) -> None:
        self.shut.append(how)


def _call(app, body: io.BytesIO | None, sock: RecordingSocket, lang: str = "en") -> tuple[str, dict]:
    environ = EnvironBuilder(path="/v1/paws/test" if body else "/livez", method="POST" if body else "GET",
                             data=BODY if body else None, headers={"Accept-Language": lang},
                             content_type="application/json" if body else None).get_environ()
    environ["wsgi.input"] = body or io.BytesIO()
    environ["gunicorn.socket"] = sock
    status = []
    chunks = b"".join(app(environ, lambda line, _headers: status.append(line)))
    return status[0], orjson.loads(chunks)


@pytest.fixture
def deadline_app(app):
    return BodyDeadline(app.wsgi_app, 0.2)


def test_a_body_later_than_the_deadline_is_408_and_reading_stops(deadline_app):
    sock = RecordingSocket()
    status, problem = _call(deadline_app, SlowBody(BODY, delay=2.0), sock)
    assert status.startswith("408")
    assert problem["type"] == "https://wurfwerk.dev/problems/request-timeout"
    assert "WURFWERK_READ_TIMEOUT" in problem["detail"]
    assert sock.shut == [socket.SHUT_RD]


@pytest.mark.parametrize("lang,detail", [
    ("en", "The request body did not arrive within 0.25 s (WURFWERK_READ_TIMEOUT)."),
    ("de", "Der Anfragekörper kam nicht innerhalb von 0,25 s an (WURFWERK_READ_TIMEOUT)."),
])
def test_the_408_writes_its_seconds_as_the_language_does(app, lang, detail):
    """German writes a decimal comma: „0,25 s“, not "0.25 s"."""
    status, problem = _call(BodyDeadline(app.wsgi_app, 0.25), SlowBody(BODY, delay=2.0), RecordingSocket(), lang)
    assert status.startswith("408")
    assert problem["detail"] == detail


def test_a_body_within_the_deadline_is_served_and_leaves_no_timer_behind(deadline_app):
    sock = RecordingSocket()
    status, document = _call(deadline_app, SlowBody(BODY, delay=0.05), sock)
    assert status.startswith("200") and document["operation"] == "paws.test"
    gevent.sleep(0.4)  # past the deadline: a timer left armed would fire here, into this greenlet
    assert sock.shut == []


def test_each_request_has_its_own_deadline(deadline_app):
    for _ in range(3):  # 3 × 0.15 s: past one deadline in all, within it in each
        status, _document = _call(deadline_app, SlowBody(BODY, delay=0.15), RecordingSocket())
        assert status.startswith("200")


def test_one_timer_per_request_however_many_reads(monkeypatch):
    armed = []
    original_arm = worker._DeadlineInput._arm
    monkeypatch.setattr(worker._DeadlineInput, "_arm", lambda self: armed.append(self) or original_arm(self))
    body = worker._DeadlineInput(io.BytesIO(b"a\nb\nc\n"), time.monotonic() + 5, 5, None)
    assert list(body) == [b"a\n", b"b\n", b"c\n"] and body.read() == b""
    body.disarm()
    assert len(armed) == 1


def test_a_request_without_a_body_arms_no_timer(deadline_app, monkeypatch):
    armed = []
    monkeypatch.setattr(worker._DeadlineInput, "_arm", lambda self: armed.append(self))
    status, document = _call(deadline_app, None, RecordingSocket())
    assert status.startswith("200") and document == {"status": "ok"}
    assert armed == []
