"""Slow, hostile and too many clients against the real server (gunicorn, the production config and
worker, loopback): the service stays up, refuses what it must with problem details, and says when
to come back. Figures and the comparison of worker models: bench/README.md, `python -m bench.load`."""

from __future__ import annotations

import json
import socket
import threading

import pytest
import requests

from service.platform.dice.receipts import generate_private_key_pem
from tests.conftest import require_tool
from tests.deploy.hostile import LIVEZ, PAWS_TEST, SlowConnections, probe, raw_exchange, wrk
from tests.deploy.processes import Gunicorn

pytestmark = pytest.mark.slow
HOST = "127.0.0.1"


def _server(tmp_path, name: str, workers: int = 2, **env: str) -> Gunicorn:
    key = tmp_path / f"{name}-key.pem"
    key.write_text(generate_private_key_pem())
    return Gunicorn(tmp_path, env={"WURFWERK_SIGNING_KEY_FILE": str(key), **env}, workers=workers, name=name).start()


def _answer(raw: bytes) -> tuple[int, dict[str, str], dict]:
    """Status, headers (lower-case names) and JSON body of one raw HTTP/1.1 answer."""
    head, _, body = raw.partition(b"\r\n\r\n")
    status_line, *header_lines = head.decode("latin-1").split("\r\n")
    headers = {name.lower(): value.strip() for name, _, value in (line.partition(":") for line in header_lines)}
    return int(status_line.split()[1]), headers, json.loads(body)


def test_two_hundred_slow_connections_neither_stall_the_service_nor_stay_open(tmp_path):
    """Issue 18: with 200 connections held open (part of the headers, part of a body, an idle kept-alive
    connection), a normal client's /livez and paws.test answer with p99 under a second, and every slow
    connection is closed after WURFWERK_READ_TIMEOUT, not before."""
    server = _server(tmp_path, "slow", WURFWERK_READ_TIMEOUT="3")
    flood = SlowConnections(HOST, server.port, 200)
    try:
        flood.open()
        assert flood.refused == 0
        livez = probe(HOST, server.port, 40, LIVEZ, timeout=5)
        paws = probe(HOST, server.port, 40, PAWS_TEST, timeout=5)
        assert livez.failures == [] and paws.failures == []
        assert livez.p99 < 1.0 and paws.p99 < 1.0, (livez.p99, paws.p99)
        assert flood.wait_closed(timeout=15), f"{flood.still_open()} slow connections still open"
        lifetimes = flood.lifetimes()
        for kind, seconds in lifetimes.items():
            assert len(seconds) > 60 and min(seconds) >= 2.5, (kind, min(seconds))  # not before the timeout
    finally:
        flood.close()
        server.stop()


def test_a_connection_with_requests_waiting_does_not_keep_the_others_waiting(tmp_path):
    """Fairness between connections (service/serving/worker.py, ``handle_request``): one connection
    sends 1000 requests at once, pipelined, so every next one is already buffered when the previous
    is answered; a second connection's single request must be answered after a few of them, not
    after all. Before the worker yielded between requests it came after all of them (p99 of 0.7 s
    under `wrk -c32`). The test counts answers, not seconds; the pipeline is long so that a client
    thread starved for a while on a crowded machine still sends its request early in it."""
    pipelined = 1000
    server = _server(tmp_path, "fair", workers=1, WURFWERK_MAX_QUEUE_DELAY="3600")  # no shedding here
    body = json.dumps(PAWS_TEST[2]).encode()
    one_request = (b"POST /v1/paws/test HTTP/1.1\r\nHost: wurfwerk\r\nContent-Type: application/json\r\n"
                   b"Content-Length: %d\r\n\r\n%s" % (len(body), body))
    answer_start = b"HTTP/1.1 200 OK"
    answered = 0
    pipeline_started = threading.Event()

    def read_answers(sock: socket.socket) -> None:
        nonlocal answered
        carry = b""  # an answer's first line may be split between two reads
        while answered < pipelined and (chunk := sock.recv(1 << 16)):
            data = carry + chunk
            answered += data.count(answer_start)
            carry = data[-(len(answer_start) - 1):]
            pipeline_started.set()
        pipeline_started.set()

    try:
        with socket.create_connection((HOST, server.port), timeout=60) as busy, \
                socket.create_connection((HOST, server.port), timeout=60) as other:
            reader = threading.Thread(target=read_answers, args=(busy,))
            writer = threading.Thread(target=busy.sendall, args=(one_request * pipelined,))
            reader.start()
            writer.start()
            assert pipeline_started.wait(60), "the pipelined requests were not answered"
            other.sendall(_get(headers=[b"Connection: close"]))
            other_answer = other.recv(1 << 16)
            answered_before_other = answered
            writer.join(60)
            reader.join(120)
        assert other_answer.startswith(b"HTTP/1.1 200") and answered == pipelined
        assert answered_before_other < pipelined // 2, (
            f"the other connection was answered only after {answered_before_other} of {pipelined} pipelined requests")
    finally:
        server.stop()


@pytest.fixture(scope="module")
def limited_server(tmp_path_factory):
    """Smaller limits than the defaults, to show each setting takes effect."""
    server = _server(tmp_path_factory.mktemp("limits"), "limits", workers=1, WURFWERK_READ_TIMEOUT="2",
                     WURFWERK_MAX_REQUEST_LINE="512", WURFWERK_MAX_HEADER_FIELDS="20",
                     WURFWERK_MAX_HEADER_BYTES="1024")
    yield server
    server.stop()


def _get(path: str = "/livez", headers: list[bytes] = ()) -> bytes:
    fields = b"".join(header + b"\r\n" for header in headers)
    return b"GET " + path.encode() + b" HTTP/1.1\r\nHost: wurfwerk\r\n" + fields + b"\r\n"


@pytest.mark.parametrize(("request_bytes", "status", "slug", "detail_names"), [
    (_get(headers=[b"X-Bomb-%d: 1" % i for i in range(20)]), 431, "header-fields-too-large",
     "WURFWERK_MAX_HEADER_FIELDS"),
    (_get(headers=[b"X-Bomb: " + b"a" * 1100]), 431, "header-fields-too-large", "WURFWERK_MAX_HEADER_BYTES"),
    (_get("/livez?" + "a" * 600), 414, "uri-too-long", "WURFWERK_MAX_REQUEST_LINE"),
    (b"\x16\x03\x01 not http at all\r\n\r\n", 400, "bad-request", "HTTP/1.1"),
], ids=["header-count", "header-size", "request-line", "garbage"])
def test_header_bombs_get_a_problem_and_a_closed_connection_not_a_reset(limited_server, request_bytes, status,
                                                                        slug, detail_names):
    answer = raw_exchange(HOST, limited_server.port, request_bytes, timeout=5)
    got_status, headers, problem = _answer(answer)
    assert got_status == status
    assert headers["content-type"] == "application/problem+json" and headers["connection"] == "close"
    assert problem["type"] == f"https://wurfwerk.dev/problems/{slug}" and problem["status"] == status
    assert detail_names in problem["detail"]
    assert requests.get(limited_server.url + "/livez", timeout=5).status_code == 200


@pytest.mark.parametrize(("request_bytes", "status", "words"), [
    (_get("/livez?lang=de", headers=[b"X-Bomb-%d: 1" % i for i in range(20)]), 431,
     "mehr als 20 Header-Felder"),
    (_get("/livez?lang=DE-at&" + "a" * 600), 414, "Die Anfragezeile ist länger als 512 Bytes"),
    (b"GET /livez?lang=de HTTP/1.1\r\nHost: wurfwerk\r\nX Bad: 1\r\n\r\n", 400,
     "Die Anfrage ist kein gültiges HTTP/1.1"),
], ids=["header-count", "request-line", "bad-header"])
def test_the_workers_own_refusals_are_in_the_requested_language(limited_server, request_bytes, status, words):
    """API.md §1 (issue 29): these are answered before the app, in the language every problem is."""
    got_status, headers, problem = _answer(raw_exchange(HOST, limited_server.port, request_bytes, timeout=5))
    assert got_status == status
    assert headers["content-language"] == "de"
    assert words in problem["detail"], problem
    assert problem["title"] != {400: "Bad Request", 414: "URI Too Long", 431: "Request Header Fields Too Large"}[status]


def test_a_body_that_stops_arriving_is_refused_in_german_when_asked(limited_server):
    partial = (b"POST /v1/paws/test HTTP/1.1\r\nHost: wurfwerk\r\nContent-Type: application/json\r\n"
               b"Accept-Language: de-DE,de;q=0.9\r\nContent-Length: 40\r\n\r\n{\"rank\":")
    status, headers, problem = _answer(raw_exchange(HOST, limited_server.port, partial, timeout=10))
    assert status == 408 and headers["content-language"] == "de"
    assert problem["detail"] == "Der Anfragekörper kam nicht innerhalb von 2 s an (WURFWERK_READ_TIMEOUT)."


def test_requests_just_within_the_limits_are_served(limited_server):
    # Host plus 18 more fields: 19 of the 20 allowed; a field of 1000 bytes of the 1024.
    answer = raw_exchange(HOST, limited_server.port,
                          _get(headers=[b"X-Fine-%d: 1" % i for i in range(18)] + [b"Connection: close"]), timeout=5)
    assert answer.startswith(b"HTTP/1.1 200")
    answer = raw_exchange(HOST, limited_server.port, _get(headers=[b"X-Fine: " + b"a" * 990, b"Connection: close"]),
                          timeout=5)
    assert answer.startswith(b"HTTP/1.1 200")


def test_a_body_that_stops_arriving_is_answered_408_and_the_connection_closed(limited_server):
    partial = (b"POST /v1/paws/test HTTP/1.1\r\nHost: wurfwerk\r\nContent-Type: application/json\r\n"
               b"Content-Length: 40\r\n\r\n{\"rank\":")
    status, _, problem = _answer(raw_exchange(HOST, limited_server.port, partial, timeout=10))
    assert status == 408 and problem["type"] == "https://wurfwerk.dev/problems/request-timeout"
    assert "WURFWERK_READ_TIMEOUT" in problem["detail"]


def test_overload_is_refused_fast_with_503_retry_after_and_a_problem(tmp_path):
    """Far more clients than one worker can serve within the bound: some are served, the rest refused
    with 503 at once, none left hanging or reset; /livez stays unguarded."""
    require_tool("wrk", why="the load generator of the overload test")
    # A bound well below the event loop's lateness under 200 connections: refusals are certain, not a
    # matter of luck. At 20 ms a faster service was refused ~1 % of the time, and the watcher's few
    # turns among wrk's 200 connections then saw no 503 in one local run of three (and once in CI).
    server = _server(tmp_path, "overload", workers=1, WURFWERK_MAX_QUEUE_DELAY="0.005", WURFWERK_RETRY_AFTER="7")
    refusals: list[requests.Response] = []
    load_done = threading.Event()

    def watch_for_a_refusal():
        with requests.Session() as session:
            while not load_done.is_set() and not refusals:
                response = session.post(server.url + PAWS_TEST[1], json=PAWS_TEST[2], timeout=10)
                if response.status_code == 503:
                    refusals.append(response)

    watcher = threading.Thread(target=watch_for_a_refusal)
    try:
        watcher.start()
        load = wrk(server.url + PAWS_TEST[1], body=PAWS_TEST[2], seconds=4, connections=200)
        load_done.set()
        watcher.join(15)
        assert set(load["statuses"]) <= {"200", "503"}, load["statuses"]
        assert load["statuses"].get("200", 0) > 0 and load["statuses"].get("503", 0) > 0, load["statuses"]
        assert load["socket_errors"] == 0, load
        assert refusals, "the watching client never saw a 503"
        refusal = refusals[0]
        assert refusal.headers["Retry-After"] == "7"
        assert refusal.headers["Content-Type"] == "application/problem+json"
        problem = refusal.json()
        assert problem["type"] == "https://wurfwerk.dev/problems/overloaded" and problem["status"] == 503
        assert requests.get(server.url + "/livez", timeout=5).status_code == 200
    finally:
        load_done.set()
        watcher.join(15)
        server.stop()
