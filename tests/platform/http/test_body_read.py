"""The request hook's read of a body (hooks.read_body) answers as werkzeug's ``get_data`` does.

A body with a plain Content-Length is read in one call of ``wsgi.input``; every other body goes
through werkzeug (hooks._read_through_werkzeug, the hook's read before). Both must give the same
bytes or the same refusal for every kind of body, declared length and server: one that terminates
``wsgi.input`` at the body's end (gunicorn, ``wsgi.input_terminated``) and one that does not (the
test client, werkzeug's development server), with streams that read whole, in pieces, without
``readinto`` (as gunicorn's) or fail."""

from __future__ import annotations

import io
import itertools

import pytest
from flask import Request
from werkzeug.exceptions import ClientDisconnected, RequestEntityTooLarge
from werkzeug.test import EnvironBuilder

from service.platform.http.hooks import _read_through_werkzeug, read_body

LIMIT = 64
BODY = b'{"rank": 3}'
BODIES = [b"", BODY, b"x" * LIMIT, b"x" * (LIMIT + 1), b"x" * 200]


class Pieces:
    """A stream without ``readinto`` (as gunicorn's body) that hands out at most ``step`` bytes a read."""

    def __init__(self, data: bytes, step: int) -> None:
        self._data, self._step = io.BytesIO(data), step

    def read(self, size: int | None = -1) -> bytes:
        size = self._step if size is None or size < 0 else min(size, self._step)
        return self._data.read(size)


class Failing(Pieces):
    def read(self, size: int | None = -1) -> bytes:
        raise OSError("connection reset")


STREAMS = {
    "BytesIO": io.BytesIO,
    "whole": lambda data: Pieces(data, 1 << 20),
    "pieces of 5": lambda data: Pieces(data, 5),
    "failing": lambda data: Failing(data, 5),
}


def _declared_lengths(body: bytes) -> list[str | None]:
    n = len(body)
    return [None, str(n), str(n + 3), str(max(n - 2, 0)), "0", str(LIMIT + 10), " 11", "11 ", "+11",
            "-1", "abc", "1_1", "\u0661\u0661", ""]


def _environ(body: bytes, declared: str | None, *, chunked: bool, terminated: bool, stream, tail: bytes = b"") -> dict:
    environ = EnvironBuilder(path="/v1/paws/test", method="POST", content_type="application/json").get_environ()
    environ.pop("CONTENT_LENGTH", None)
    if declared is not None:
        environ["CONTENT_LENGTH"] = declared
    if chunked:
        environ["HTTP_TRANSFER_ENCODING"] = "chunked"
    if terminated:
        environ["wsgi.input_terminated"] = True
    # A terminated stream ends where the body ends, at its declared length where that is one (the
    # server reads no further); otherwise it may hold more (``tail``: a pipelined request).
    if terminated and declared and declared.isdigit() and declared.isascii() and not chunked:
        body = body[:int(declared)]
    environ["wsgi.input"] = stream(body + tail)
    return environ


def _outcome(read, environ: dict) -> tuple[str, object]:
    current = Request(environ)
    try:
        raw = read(current, LIMIT)
    except (RequestEntityTooLarge, ClientDisconnected) as error:
        return "refused", type(error)
    return "read", (raw, current.get_data(cache=True))


PIPELINED = b"GET / HTTP/1.1\r\n\r\n"
CASES = [(body, declared, chunked, terminated, stream, tail)
         for body in BODIES for declared in _declared_lengths(body)
         for chunked, terminated, stream, tail in itertools.product((False, True), (False, True), STREAMS,
                                                                    (b"", PIPELINED))
         if not (terminated and tail)]


@pytest.mark.parametrize(("body", "declared", "chunked", "terminated", "stream", "tail"), CASES)
def test_a_body_is_read_as_werkzeug_reads_it(body, declared, chunked, terminated, stream, tail):
    def environ() -> dict:
        return _environ(body, declared, chunked=chunked, terminated=terminated, stream=STREAMS[stream], tail=tail)

    assert _outcome(read_body, environ()) == _outcome(_read_through_werkzeug, environ())


def test_the_common_body_is_read_in_one_call_and_stays_readable():
    """A body with a plain Content-Length under gunicorn is one read of ``wsgi.input``, which
    werkzeug's stream makes two (the second finds the end); ``get_data`` then still has it."""
    calls = []

    class Counting(Pieces):
        def read(self, size: int | None = -1) -> bytes:
            calls.append(size)
            return super().read(size)

    environ = _environ(BODY, str(len(BODY)), chunked=False, terminated=True,
                       stream=lambda data: Counting(data, 1 << 20))
    current = Request(environ)
    assert read_body(current, LIMIT) == BODY
    assert calls == [len(BODY)]
    assert current.get_data() == BODY
