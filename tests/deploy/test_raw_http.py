"""What gunicorn as `make run` starts it answers to requests framed by hand, over a raw socket (an
HTTP library would frame them itself): a body over WURFWERK_MAX_BODY_BYTES is a 413 however it is
framed, and the requests gunicorn refuses itself name their path as the problem's `instance`."""

from __future__ import annotations

import json
import socket

import pytest

from service.platform.dice.receipts import generate_private_key_pem
from tests.deploy.processes import Gunicorn

pytestmark = pytest.mark.slow
LIMIT = 65536  # the default body limit (API.md 1.6)
HEAD = b"POST /v1/paws/test HTTP/1.1\r\nHost: wurfwerk\r\nContent-Type: application/json\r\n"
# Valid JSON up to the limit, then not: a server that cut the body at the limit would answer 200.
VALID_START = b'{"rank":2,"seed":1}'
OVER = VALID_START + b" " * (LIMIT + 64 - len(VALID_START)) + b"NOT JSON"


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    started = Gunicorn(tmp_path_factory.mktemp("raw-http"),
                       env={"WURFWERK_SIGNING_KEY": generate_private_key_pem()}).start()
    yield started
    started.stop()


def chunked(body: bytes, size: int = 4096) -> bytes:
    parts = [b"%x\r\n%s\r\n" % (len(body[i:i + size]), body[i:i + size]) for i in range(0, len(body), size)]
    return b"".join(parts) + b"0\r\n\r\n"


def answers(server, data: bytes) -> list[tuple[int, dict]]:
    """Every answer the server sends on one connection to ``data``, until it closes it."""
    with socket.create_connection(("127.0.0.1", server.port), timeout=10) as sock:
        sock.sendall(data)
        received = b""
        while chunk := _recv(sock):
            received += chunk
    return _parse(received)


def _recv(sock: socket.socket) -> bytes:
    try:
        return sock.recv(65536)
    except ConnectionResetError:  # the server closed with the refused body unread: answers came first
        return b""


def _parse(received: bytes) -> list[tuple[int, dict]]:
    parsed = []
    while received:
        head, _, rest = received.partition(b"\r\n\r\n")
        lines = head.decode("latin-1").split("\r\n")
        headers = dict(line.lower().split(": ", 1) for line in lines[1:])
        length = int(headers["content-length"])
        parsed.append((int(lines[0].split()[1]), json.loads(rest[:length])))
        received = rest[length:]
    return parsed


def test_content_length_over_the_limit_is_413(server):
    [(status, problem)] = answers(server, HEAD + b"Content-Length: %d\r\n\r\n" % len(OVER) + OVER)
    assert status == 413 and problem["instance"] == "/v1/paws/test"
    assert f"{LIMIT:,}" in problem["detail"]  # numbers are written as English readers read them


def test_chunked_body_over_the_limit_is_413_not_cut(server):
    [(status, problem)] = answers(server, HEAD + b"Transfer-Encoding: chunked\r\n\r\n" + chunked(OVER))
    assert status == 413, problem  # before the fix: 200, the body cut at 65,536 bytes
    assert problem["type"].endswith("/payload-too-large")


def test_chunked_body_of_one_byte_over_is_413(server):
    body = VALID_START.ljust(LIMIT + 1)
    [(status, _)] = answers(server, HEAD + b"Transfer-Encoding: chunked\r\n\r\n" + chunked(body))
    assert status == 413


def test_chunked_body_at_the_limit_is_served(server):
    body = VALID_START.ljust(LIMIT)
    [(status, roll)] = answers(server, HEAD + b"Transfer-Encoding: chunked\r\nConnection: close\r\n\r\n"
                               + chunked(body))
    assert status == 200 and roll["request"]["rank"] == 2


def test_content_length_claiming_more_than_the_limit_is_413_at_once(server):
    # A lying Content-Length (over the limit, a short body): refused from the head, nothing waited for.
    [(status, _)] = answers(server, HEAD + b"Content-Length: 70000\r\n\r\n" + VALID_START)
    assert status == 413


def test_content_length_claiming_less_frames_the_body_and_the_rest_is_refused(server):
    # A lying Content-Length (under the limit, a long body): the body is what the header frames, and
    # the bytes after it are refused as the next request, which closes the connection; no part of
    # them is taken as a body.
    [(first, roll), (second, problem)] = answers(
        server, HEAD + b"Content-Length: %d\r\n\r\n" % len(VALID_START) + OVER)
    assert first == 200 and roll["request"]["seed"] == 1
    assert second in (400, 414) and problem["type"].startswith("https://wurfwerk.dev/problems/")


def test_content_length_and_chunked_together_are_refused(server):
    [(status, _)] = answers(server, HEAD + b"Content-Length: 19\r\nTransfer-Encoding: chunked\r\n\r\n"
                            + chunked(OVER))
    assert status == 400


@pytest.mark.parametrize("request_head, status, instance", [
    (b"GET /v1/keys?" + b"a" * 5000 + b" HTTP/1.1\r\nHost: x\r\n\r\n", 414, "/v1/keys"),
    (b"GET /v1/systems HTTP/1.1\r\nHost: x\r\nX-Big: " + b"a" * 9000 + b"\r\n\r\n", 431, "/v1/systems"),
    (b"GET /v1/systems HTTP/1.1\r\n" + b"".join(b"X-%d: 1\r\n" % i for i in range(200)) + b"\r\n", 431,
     "/v1/systems"),
    (b"POST /v1/paws/test HTTP/1.1\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n{}", 400, "/v1/paws/test"),
    (b"GET /v1/" + b"a" * 5000 + b" HTTP/1.1\r\n\r\n", 414, "/v1/" + "a" * 252),  # named by its start
], ids=["414-query", "431-field-size", "431-field-count", "400-header", "414-path"])
def test_low_level_refusals_name_the_requested_path(server, request_head, status, instance):
    [(answered, problem)] = answers(server, request_head)
    assert answered == status and problem["status"] == status
    assert problem["instance"] == instance, problem
