"""Slow and hostile clients on loopback, for the load tests and bench/load.py.

``SlowConnections`` holds connections open the way a slowloris attacker or a player on a stalled
mobile link does: a request line with part of its headers, full headers with part of a declared
body, or one finished request on a kept-alive connection that then stays silent. A watcher thread
records when the server closes each one. ``probe`` times a well-behaved client meanwhile.
"""

from __future__ import annotations

import http.client
import json
import re
import selectors
import socket
import statistics
import subprocess
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

KINDS = ("partial_headers", "partial_body", "idle_keepalive")

_OPENINGS = {
    "partial_headers": b"POST /v1/paws/test HTTP/1.1\r\nHost: wurfwerk\r\nContent-Type: application/json\r\n",
    "partial_body": (b"POST /v1/paws/test HTTP/1.1\r\nHost: wurfwerk\r\nContent-Type: application/json\r\n"
                     b"Content-Length: 40\r\n\r\n{\"rank\":"),
    "idle_keepalive": b"GET /livez HTTP/1.1\r\nHost: wurfwerk\r\n\r\n",
}


@dataclass
class SlowConnections:
    """``count`` stalled connections to ``host:port``, the kinds taking turns."""

    host: str
    port: int
    count: int
    kinds: tuple[str, ...] = KINDS
    opened_at: dict[int, float] = field(default_factory=dict)
    closed_at: dict[int, float] = field(default_factory=dict)
    kind_of: dict[int, str] = field(default_factory=dict)
    refused: int = 0

    def __post_init__(self):
        self._selector = selectors.DefaultSelector()
        self._sockets: list[socket.socket] = []
        self._stop = threading.Event()
        self._watcher = threading.Thread(target=self._watch, daemon=True)

    def open(self) -> SlowConnections:
        for index in range(self.count):
            kind = self.kinds[index % len(self.kinds)]
            try:
                sock = socket.create_connection((self.host, self.port), timeout=5)
                sock.sendall(_OPENINGS[kind])
            except OSError:
                self.refused += 1
                continue
            sock.setblocking(False)
            self.opened_at[sock.fileno()] = time.monotonic()
            self.kind_of[sock.fileno()] = kind
            self._sockets.append(sock)
            self._selector.register(sock, selectors.EVENT_READ)
        self._watcher.start()
        return self

    def _watch(self) -> None:
        """Drain whatever the server answers; an end of stream or a reset marks the close time."""
        while not self._stop.is_set():
            for key, _ in self._selector.select(timeout=0.1):
                sock = key.fileobj
                try:
                    data = sock.recv(65536)
                except BlockingIOError:
                    continue
                except OSError:
                    data = b""
                if not data:
                    self.closed_at[sock.fileno()] = time.monotonic()
                    self._selector.unregister(sock)

    def still_open(self) -> int:
        return len(self._sockets) - len(self.closed_at)

    def wait_closed(self, timeout: float) -> bool:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.still_open() == 0:
                return True
            time.sleep(0.1)
        return self.still_open() == 0

    def lifetimes(self) -> dict[str, list[float]]:
        """Seconds from open to the server's close, per kind (closed connections only)."""
        result: dict[str, list[float]] = {kind: [] for kind in self.kinds}
        for fileno, closed in self.closed_at.items():
            result[self.kind_of[fileno]].append(closed - self.opened_at[fileno])
        return result

    def close(self) -> None:
        self._stop.set()
        if self._watcher.is_alive():
            self._watcher.join(2)
        for sock in self._sockets:
            sock.close()
        self._selector.close()


@dataclass
class ProbeResult:
    latencies: list[float]
    failures: list[str]

    @property
    def p99(self) -> float:
        """The 99th percentile in seconds; a failed request counts as infinitely slow."""
        values = sorted(self.latencies + [float("inf")] * len(self.failures))
        if len(values) == 1:
            return values[0]
        return statistics.quantiles(values, n=100, method="inclusive")[98]

    @property
    def median(self) -> float:
        return statistics.median(self.latencies) if self.latencies else float("inf")


PAWS_TEST = ("POST", "/v1/paws/test", {"rank": 3})
LIVEZ = ("GET", "/livez", None)


def probe(host: str, port: int, requests: int, target=LIVEZ, timeout: float = 10.0,
          give_up_after: int | None = None) -> ProbeResult:
    """A well-behaved client: ``requests`` requests one after another, each on a new connection
    (a new connection must be accepted and served, which is what a stalled server cannot do).
    ``give_up_after`` failures end the probe early (a stalled server would take ages to time out)."""
    method, path, body = target
    payload = json.dumps(body).encode() if body is not None else None
    headers = {"Content-Type": "application/json"} if payload else {}
    latencies, failures = [], []
    for _ in range(requests):
        started = time.monotonic()
        connection = http.client.HTTPConnection(host, port, timeout=timeout)
        try:
            connection.request(method, path, body=payload, headers=headers)
            response = connection.getresponse()
            response.read()
            if response.status != 200:
                failures.append(f"status {response.status}")
            else:
                latencies.append(time.monotonic() - started)
        except OSError as error:
            failures.append(repr(error))
        finally:
            connection.close()
        if give_up_after is not None and len(failures) >= give_up_after:
            break
    return ProbeResult(latencies, failures)


def raw_exchange(host: str, port: int, data: bytes, timeout: float = 10.0) -> bytes:
    """Send ``data`` and read until the server closes the connection or ``timeout`` passes."""
    chunks = []
    with socket.create_connection((host, port), timeout=timeout) as sock:
        try:
            sock.sendall(data)
        except OSError:
            pass  # the server may answer and close before it has read everything
        try:
            while chunk := sock.recv(65536):
                chunks.append(chunk)
        except (TimeoutError, ConnectionResetError):
            pass
    return b"".join(chunks)


_STATUS_COUNTER = """
local threads = {}
function setup(thread) table.insert(threads, thread) end
function init(args) statuses = {} end
function response(status, headers, body) statuses[status] = (statuses[status] or 0) + 1 end
function done(summary, latency, requests)
  for _, thread in ipairs(threads) do
    for status, count in pairs(thread:get("statuses")) do io.write(string.format("status %d %d\\n", status, count)) end
  end
end
"""


def wrk(url: str, *, body: dict | None, seconds: int, connections: int, delay_ms: int = 0) -> dict:
    """wrk's figures and the count of every status; with ``delay_ms`` each connection waits that long
    before each request, so ``connections`` clients offer about connections / delay requests a second
    as long as answers come quickly (a closed loop with think time, like players at their tables)."""
    script = Path(tempfile.mkstemp(suffix=".lua")[1])
    lines = []
    if body is not None:
        lines = ['wrk.method = "POST"', f"wrk.body = {json.dumps(json.dumps(body))}",
                 'wrk.headers["Content-Type"] = "application/json"']
    if delay_ms:
        lines.append(f"function delay() return {delay_ms} end")
    script.write_text("\n".join(lines) + _STATUS_COUNTER)
    output = subprocess.run(["wrk", f"-t{min(2, connections)}", f"-c{connections}", f"-d{seconds}s", "--timeout", "10s",
                             "--latency", "-s", str(script), url],
                            capture_output=True, text=True, check=True).stdout
    script.unlink()
    statuses: dict[int, int] = {}
    for status, count in re.findall(r"^status (\d+) (\d+)$", output, re.M):
        statuses[int(status)] = statuses.get(int(status), 0) + int(count)
    errors = re.search(r"Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)", output)
    answered = sum(statuses.values())
    rps = float(re.search(r"Requests/sec:\s+([\d.]+)", output).group(1))
    return {
        "rps": rps,
        "ok_rps": round(rps * statuses.get(200, 0) / answered, 1) if answered else 0.0,
        "p50_ms": _ms(re.search(r"50%\s+([\d.]+\w+)", output).group(1)),
        "p99_ms": _ms(re.search(r"99%\s+([\d.]+\w+)", output).group(1)),
        "statuses": {str(k): v for k, v in sorted(statuses.items())},
        "refused_share": round(statuses.get(503, 0) / answered, 3) if answered else 0.0,
        "socket_errors": sum(int(n) for n in errors.groups()) if errors else 0,
    }


def _ms(text: str) -> float:
    value, unit = re.match(r"([\d.]+)(\w+)", text).groups()
    return float(value) * {"us": 0.001, "ms": 1.0, "s": 1000.0, "m": 60000.0}[unit]
