"""The service's gunicorn worker: gevent, with deadlines for slow clients, problem+json for requests
gunicorn refuses, and the load shedder in front of the app (deploy/gunicorn.conf.py selects it).

Why gevent (bench/README.md has the figures): every connection is a greenlet, so hundreds of idle,
half-sent or trickling connections cost memory, not workers or threads; the sync worker stalls on the
first few, and gthread ties a thread to every connection that has sent part of a request.

It extends gunicorn's own worker through the methods gunicorn's workers are built from, each a
documented point where a worker class differs from another:

- ``handle_request``: gunicorn's, then a turn for every other connection before the next request of
  this one (below).
- ``timeout_ctx``: the deadline for a request's head. gunicorn's gevent worker gives each request
  head ``keepalive`` seconds; here it is ``WURFWERK_READ_TIMEOUT``, counted from the connection's
  opening or the previous answer, so a connection that stays idle or sends its head byte by byte is
  closed after it.
- ``load_wsgi``: the app, wrapped in the body deadline (``WURFWERK_READ_TIMEOUT`` again, from the
  end of the head; 408 after it) and the load shedder (service/serving/overload.py).
- ``handle_error``: what gunicorn answers itself, for requests it cannot parse or that exceed
  ``WURFWERK_MAX_REQUEST_LINE`` / ``_MAX_HEADER_FIELDS`` / ``_MAX_HEADER_BYTES``: a problem+json
  body instead of gunicorn's HTML page, with the same status gunicorn chooses (431 for headers).
"""

from __future__ import annotations

import gc
import re
import socket
import time
import traceback
import uuid
from collections.abc import Callable, Iterable
from functools import partial
from typing import TYPE_CHECKING, Any, BinaryIO, TypeVar

import gevent
import orjson
from gevent import get_hub, getcurrent
from gevent.pool import Pool
from gevent.server import StreamServer
from greenlet import greenlet
from gunicorn.http import errors as http_errors
from gunicorn.http import message as http_message
from gunicorn.sock import ssl_context
from gunicorn.workers.ggevent import GeventWorker

from service.config import config_from_env
from service.platform.http.i18n import negotiated_language
from service.platform.http.problems import PROBLEM_MEDIA_TYPE, http_error, problem_document, problem_title
from service.platform.maths import time_slicing
from service.platform.words.messages import Message, Number, Template, say
from service.serving.overload import LoadShedder, SheddingPolicy

if TYPE_CHECKING:
    from _typeshed.wsgi import StartResponse, WSGIApplication, WSGIEnvironment

_Read = TypeVar("_Read", bytes, list[bytes])

# gunicorn's exception -> (status, problem type, what the client did). Checked in order: the
# response-header errors are subclasses of the request-header ones but are the app's fault.
_FAULT = Template("The service failed to handle this request; it has been logged.")
_GUNICORN_ERRORS: tuple[tuple[type[Exception], int, str, Template | None], ...] = (
    (http_errors.InvalidResponseHeader, 500, "internal-error", _FAULT),
    (http_errors.InvalidResponseHeaderName, 500, "internal-error", _FAULT),
    (http_errors.LimitRequestLine, 414, "uri-too-long",
     Template("The request line is longer than %(request_line)s bytes (WURFWERK_MAX_REQUEST_LINE).")),
    (http_errors.LimitRequestHeaders, 431, "header-fields-too-large", None),  # _headers_detail
    (http_errors.UnsupportedTransferCoding, 501, "http-error",
     Template("This server does not support that transfer coding: %(error)s.")),
    (http_errors.ExpectationFailed, 417, "http-error", Template("Unsupported Expect header: %(error)s.")),
    (http_errors.ForbiddenProxyRequest, 403, "http-error",
     Template("Proxy requests from this address are not allowed.")),
    (http_errors.ConfigurationProblem, 500, "internal-error", _FAULT),
    (http_errors.ParseException, 400, "bad-request", Template("The request is not valid HTTP/1.1: %(error)s.")),
)
_WHOLE_PATH = re.compile(rb"(/[^?# ]{0,2047})[?# ]")
_PATH_PREFIX = 256
_PATH_START = re.compile(rb"(/[^?# ]{0,%d})" % (_PATH_PREFIX - 1))
_TITLES = {400: "Bad Request", 403: "Forbidden", 414: "URI Too Long", 417: "Expectation Failed",
           431: "Request Header Fields Too Large", 500: "Internal Server Error", 501: "Not Implemented"}


class Worker(GeventWorker):
    """gunicorn's gevent worker with the deadlines, limits and shedding of this service."""

    wsgi: WSGIApplication  # gunicorn's loaded app, then wrapped (load_wsgi)
    read_timeout: float

    def load_wsgi(self) -> None:
        super().load_wsgi()
        config = config_from_env()
        self.read_timeout = config.read_timeout
        shedder = LoadShedder(self.wsgi, SheddingPolicy(max_queue_delay=config.max_queue_delay,
                                                        retry_after=config.retry_after,
                                                        cors_origins=config.cors_origins))
        self.wsgi = BodyDeadline(shedder, config.read_timeout)
        # idle, not sleep(0): gevent resumes a sleep(0) before polling for ready sockets (bench/README.md)
        time_slicing.install(gevent.idle)
        gc.freeze()  # a full collection then scans what requests made, not the loaded app (bench/README.md)

    def run(self) -> None:
        """gunicorn's ``GeventWorker.run`` with one change: a worker accepts every waiting connection
        at once, not one per turn of its event loop. gunicorn accepts one at a time when workers
        share a socket, so that no worker takes a whole burst; under load a turn takes as long as
        all ready requests, and a new connection then waited one turn per connection queued before
        it (seconds, for a burst of a few hundred). Here each worker has its own socket
        (``reuse_port`` in deploy/gunicorn.conf.py) and the kernel spreads connections over them."""
        servers: list[StreamServer] = []
        for listener in self.sockets:
            listener.setblocking(1)
            server = StreamServer(listener, handle=partial(self.handle, listener), spawn=Pool(self.worker_connections),
                                  **({"ssl_context": ssl_context(self.cfg)} if self.cfg.is_ssl else {}))
            server.start()
            servers.append(server)
        while self.alive:
            self.notify()
            gevent.sleep(1.0)
        self._stop(servers)

    def handle_request(self, listener_name: object, req: http_message.Request, sock: socket.socket,
                       addr: tuple[str, int] | None) -> bool:
        """gunicorn's, then ``gevent.sleep(0)``: the other ready connections get their turn before this
        one's next request is read. A greenlet gives up the event loop only when it would block, and
        the next request of a client that answers quickly (a VTT server, a benchmark, any pipelining
        client) is often already in the socket buffer: without the yield a few such connections took
        turns among themselves while the rest waited (figures: bench/history/2026-12-01-to-03.md,
        "Connections take turns"). tests/deploy/test_load.py checks the order of answers."""
        keep_alive = super().handle_request(listener_name, req, sock, addr)
        gevent.sleep(0)
        return keep_alive

    def _stop(self, servers: list[StreamServer]) -> None:
        """As gunicorn's: stop accepting, let requests in flight finish within graceful_timeout."""
        for server in servers:
            server.close()
        deadline = time.monotonic() + self.cfg.graceful_timeout
        while time.monotonic() < deadline:
            if all(server.pool.free_count() == server.pool.size for server in servers):
                return
            self.notify()
            gevent.sleep(1.0)
        self.log.warning("Worker graceful timeout (pid:%s)", self.pid)
        for server in servers:
            server.stop(timeout=1)

    def timeout_ctx(self) -> gevent.Timeout:
        # False: when the head has not arrived in time, the connection is closed without an answer
        # (an idle kept-alive connection is closed that way too, and expects no answer).
        return gevent.Timeout(self.read_timeout, False)

    def handle_error(self, req: http_message.Request | None, client: socket.socket,
                     addr: tuple[str, int] | None, exc: BaseException) -> None:
        status, slug, detail = self._problem_of(exc)
        request_id = uuid.uuid4().hex  # the request's own X-Request-ID was not read, or not trusted
        if status >= 500:
            self.log.exception("Error handling request request_id=%s", request_id, exc_info=exc)
        else:
            self.log.warning("Invalid request from ip=%s: %s request_id=%s", (addr or ("",))[0], exc, request_id)
        lang = refused_language(req, exc)
        body = orjson.dumps(problem_document(status, detail.say(lang), slug=slug, title=problem_title(status, lang),
                                             instance=getattr(req, "path", None) or requested_path(exc),
                                             request_id=request_id))
        head = (f"HTTP/1.1 {status} {_TITLES[status]}\r\nConnection: close\r\n"
                f"Content-Type: {PROBLEM_MEDIA_TYPE}\r\nContent-Length: {len(body)}\r\n"
                f"Content-Language: {lang}\r\nVary: Accept-Language\r\n"
                f"X-Request-ID: {request_id}\r\n\r\n")
        try:
            with gevent.Timeout(1, False):  # a client that does not read its answer gets none
                client.sendall(head.encode("latin-1") + body)
        except OSError:
            self.log.debug("Failed to send error message.")

    def _problem_of(self, exc: BaseException) -> tuple[int, str, Message]:
        for error_type, status, slug, detail in _GUNICORN_ERRORS:
            if isinstance(exc, error_type):
                if detail is None:
                    return status, slug, self._headers_detail(exc)
                return status, slug, detail.format(error=str(exc), request_line=Number(self.cfg.limit_request_line))
        return 500, "internal-error", _FAULT.format()

    def _headers_detail(self, exc: BaseException) -> Message:
        # gunicorn raises LimitRequestHeaders for both limits and tells them apart by its message.
        if "size" in str(exc):
            return say("A header field is longer than %(bytes)s bytes (WURFWERK_MAX_HEADER_BYTES).",
                       bytes=Number(self.cfg.limit_request_field_size))
        return say("The request has more than %(count)s header fields (WURFWERK_MAX_HEADER_FIELDS).",
                   count=Number(self.cfg.limit_request_fields))


def requested_path(exc: BaseException) -> str:
    """The path of a request gunicorn refused while parsing its head, for the problem's ``instance``.

    gunicorn hands ``handle_error`` no request then (the exception left the constructor of its
    ``Request``), and no error type carries the path; the parse's own frames still hold it: the
    ``Request`` being built once its request line is parsed (400, 431), else the bytes of the line
    read so far (414: the path, or its start when the path alone is too long). "/" when neither has it."""
    request, start = _parse_state(exc)
    if request is not None and getattr(request, "path", None):
        return request.path
    return (_path_in_line(start) if start is not None else None) or "/"


def refused_language(req: http_message.Request | None, exc: BaseException) -> str:
    """The language of a refusal of gunicorn's: the request's ``lang`` or Accept-Language as far as
    gunicorn parsed them (of a request line too long, its query as far as it was read)."""
    request, start = (req, None) if req is not None else _parse_state(exc)
    headers = getattr(request, "headers", None) or []
    accept = next((value for name, value in headers if name == "ACCEPT-LANGUAGE"), "")
    query = getattr(request, "query", None) or (_query_in_line(start) if start is not None else "")
    return negotiated_language(query, accept)


def _parse_state(exc: BaseException) -> tuple[http_message.Request | None, bytes | None]:
    """The ``Request`` being built when gunicorn refused its head, and the bytes of its line read so far."""
    request = None
    for frame, _line in traceback.walk_tb(exc.__traceback__):
        candidate = frame.f_locals.get("self")
        if isinstance(candidate, http_message.Request):
            request = candidate
            start = frame.f_locals.get("data") or frame.f_locals.get("buf")
            if getattr(candidate, "path", None) or isinstance(start, (bytes, bytearray)):
                return candidate, bytes(start) if isinstance(start, (bytes, bytearray)) else None
    return request, None


def _query_in_line(start: bytes) -> str:
    _method, _, target = start.split(b"\r\n", 1)[0].partition(b" ")
    return target.partition(b"?")[2].split(b" ", 1)[0].split(b"#", 1)[0].decode("latin-1")


def _path_in_line(start: bytes) -> str | None:
    """The path of a request line's start (``GET /v1/x?aaaa…``): whole when it is followed by the
    query or by the space before the HTTP version, else its first ``_PATH_PREFIX`` bytes (a path
    too long for the line is named by its start)."""
    _method, _, target = start.split(b"\r\n", 1)[0].partition(b" ")
    match = _WHOLE_PATH.match(target) or _PATH_START.match(target)
    return match.group(1).decode("latin-1") if match else None


class BodyDeadline:
    """WSGI middleware: the request body must arrive within ``seconds`` after its head.

    A read past the deadline raises a 408 problem inside the app (werkzeug's HTTPException, so the
    app answers it like any other problem) and shuts the socket's reading side, so gunicorn closes
    the connection after the answer instead of waiting for the rest of the body.
    """

    def __init__(self, app: WSGIApplication, seconds: float) -> None:
        self.app = app
        self.seconds = seconds

    def __call__(self, environ: WSGIEnvironment, start_response: StartResponse) -> Iterable[bytes]:
        body = _DeadlineInput(environ["wsgi.input"], time.monotonic() + self.seconds, self.seconds,
                              environ.get("gunicorn.socket"))
        environ["wsgi.input"] = body
        try:
            return self.app(environ, start_response)
        finally:
            body.disarm()


class _BodyLate(BaseException):
    """Thrown into a read of the body at its deadline; a BaseException, as gevent's Timeout, so that
    no ``except Exception`` on the way (gunicorn's, werkzeug's) mistakes it for a failed read."""


class _DeadlineInput:
    """``wsgi.input`` whose reads end at a deadline: one gevent timer per request, armed by the first
    read and disarmed when the app returns (a request without a body arms none). The timer
    interrupts a read in progress; a read begun after it fired fails at once."""

    def __init__(self, stream: BinaryIO, deadline: float, seconds: float, sock: socket.socket | None) -> None:
        self._stream = stream
        self._deadline = deadline
        self._seconds = seconds
        self._sock = sock
        self._timer: Any = None  # the event loop's timer watcher, once armed
        self._reader: greenlet | None = None  # the greenlet inside a read, while it reads
        self._late = False

    def read(self, size: int | None = None) -> bytes:
        return self._bounded(self._stream.read, size)

    def readline(self, size: int | None = None) -> bytes:
        return self._bounded(self._stream.readline, size)

    def readlines(self, hint: int | None = None) -> list[bytes]:
        return self._bounded(self._stream.readlines, hint)

    def __iter__(self) -> _DeadlineInput:
        return self

    def __next__(self) -> bytes:
        line = self.readline()
        if not line:
            raise StopIteration
        return line

    def disarm(self) -> None:
        if self._timer is not None:
            self._timer.close()

    def _bounded(self, method: Callable[[Any], _Read], argument: int | None) -> _Read:
        if self._timer is None:
            self._arm()
        if not self._late:
            self._reader = getcurrent()
            try:
                return method(argument)
            except _BodyLate:
                pass
            finally:
                self._reader = None
        self._stop_reading()
        raise http_error(408, say("The request body did not arrive within %(seconds)s s (WURFWERK_READ_TIMEOUT).",
                                  seconds=Number(self._seconds)), "request-timeout")

    def _arm(self) -> None:
        # update=True: the loop's clock is read now, not at the start of its turn (as gevent's Timeout).
        self._timer = get_hub().loop.timer(max(0.0, self._deadline - time.monotonic()))
        self._timer.start(self._fire, update=True)

    def _fire(self) -> None:
        self._late = True
        if self._reader is not None:
            self._reader.throw(_BodyLate)

    def _stop_reading(self) -> None:
        if self._sock is not None:
            try:
                self._sock.shutdown(socket.SHUT_RD)
            except OSError:
                pass
