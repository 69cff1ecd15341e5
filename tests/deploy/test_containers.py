"""The image on its own, built from the real Dockerfile and run with podman: no key, an unreadable
key, a good key on a read-only root filesystem as uid 10001, its HEALTHCHECK, SIGTERM with
requests in flight, and slow clients. Traffic goes only to 127.0.0.1 ports published by the containers started here."""

from __future__ import annotations

import json
import secrets
import socket
import threading
import time

import pytest
import requests

from service.platform.dice.receipts import KeyRing, generate_private_key_pem
from tests.deploy.hostile import LIVEZ, PAWS_TEST, SlowConnections, probe
from tests.deploy.podman import podman, remove_containers, state, wait_for
from tests.deploy.processes import free_port

pytestmark = pytest.mark.slow
KEY_IN_CONTAINER = "/run/secrets/signing_key"


@pytest.fixture
def name():
    container = f"wurfwerk-test-{secrets.token_hex(4)}"
    yield container
    remove_containers(container)


def _run_to_exit(image: str, name: str, *options: str) -> tuple[int, str]:
    result = podman("run", "--name", name, *options, image, check=False, timeout=90)
    return result.returncode, result.stdout + result.stderr


def _error_lines(output: str) -> list[str]:
    return [line for line in output.splitlines() if line.startswith("Error:")]


def test_without_a_key_the_image_refuses_to_start_with_one_clear_line(service_image, name):
    status, output = _run_to_exit(service_image, name)
    assert status == 1, output
    [line] = _error_lines(output)
    assert "WURFWERK_SIGNING_KEY " in line and "WURFWERK_SIGNING_KEY_FILE" in line
    assert "openssl genpkey -algorithm ed25519" in line
    assert "Traceback" not in output and "PermissionError" not in output


def test_an_unreadable_key_file_is_one_line_naming_the_file_and_the_user(service_image, name, tmp_path):
    key = tmp_path / "signing-key.pem"
    key.write_text(generate_private_key_pem())
    key.chmod(0o600)  # what `openssl genpkey` leaves: readable by its owner only
    status, output = _run_to_exit(service_image, name, "--volume", f"{key}:{KEY_IN_CONTAINER}:ro",
                                  "--env", f"WURFWERK_SIGNING_KEY_FILE={KEY_IN_CONTAINER}")
    assert status == 1, output
    [line] = _error_lines(output)
    assert f"WURFWERK_SIGNING_KEY_FILE={KEY_IN_CONTAINER}" in line and "uid 10001" in line
    assert "Traceback" not in output


def test_a_missing_key_file_is_one_line_naming_it(service_image, name):
    status, output = _run_to_exit(service_image, name, "--env", "WURFWERK_SIGNING_KEY_FILE=/keys/nowhere.pem")
    assert status == 1, output
    assert _error_lines(output) == ["Error: WURFWERK_SIGNING_KEY_FILE=/keys/nowhere.pem: no such file"]


@pytest.fixture
def serving(service_image, name, tmp_path):
    """The image with a key it can read, on a read-only root filesystem with Docker's semantics (no
    automatic tmpfs: /tmp is given explicitly, as compose and Kubernetes do)."""
    pem = generate_private_key_pem()
    key = tmp_path / "signing-key.pem"
    key.write_text(pem)
    key.chmod(0o444)
    port = free_port()
    podman("run", "--detach", "--name", name, "--read-only", "--read-only-tmpfs=false", "--tmpfs", "/tmp",
           "--publish", f"127.0.0.1:{port}:8000", "--volume", f"{key}:{KEY_IN_CONTAINER}:ro",
           "--env", f"WURFWERK_SIGNING_KEY_FILE={KEY_IN_CONTAINER}", service_image)
    url = f"http://127.0.0.1:{port}"
    wait_for(lambda: _ready(url), 60, f"{name} did not become ready")
    return name, url, KeyRing.from_pem(pem)


def _ready(url: str) -> bool:
    try:
        return requests.get(url + "/readyz", timeout=2).status_code == 200
    except requests.RequestException:
        return False


def test_the_image_serves_signed_answers_as_uid_10001_on_a_read_only_root(serving):
    name, url, keys = serving
    ready = requests.get(url + "/readyz", timeout=5).json()
    assert ready == {"status": "ready", "kid": keys.kid, "ephemeral_key": False}
    roll = requests.post(url + "/v1/proben/test", json={"attribute": 3, "difficulty": 2}, timeout=10).json()
    assert keys.verify(roll).valid
    assert podman("exec", name, "id", "-u").stdout.strip() == "10001"
    assert podman("top", name, "huser").stdout.split()[1:] == ["10001"] * 3  # master and 2 workers, host view
    write = podman("exec", name, "sh", "-c", "echo x > /app/x", check=False)
    assert write.returncode != 0 and "Read-only file system" in write.stderr


def test_the_healthcheck_survives_the_build_and_answers(serving, service_image):
    name, _url, _keys = serving
    healthcheck = json.loads(podman("image", "inspect", service_image, "--format", "{{json .HealthCheck}}").stdout)
    assert "/livez" in " ".join(healthcheck["Test"])
    # podman schedules healthchecks with systemd timers; without systemd they run only on demand.
    assert podman("healthcheck", "run", name, check=False).returncode == 0


def _batch_in_flight(port: int, body: bytes) -> socket.socket:
    """A POST /v1/batch that a worker has taken: with ``Expect: 100-continue`` gunicorn answers
    "100 Continue" once a worker has parsed the head and is about to call the app (RFC 9110 §10.1.1),
    so from then on the request is in flight; the body follows. Waits at most 30 s for that."""
    sock = socket.create_connection(("127.0.0.1", port), timeout=30)
    sock.sendall(b"POST /v1/batch HTTP/1.1\r\nHost: wurfwerk\r\nContent-Type: application/json\r\n"
                 b"Content-Length: %d\r\nExpect: 100-continue\r\nConnection: close\r\n\r\n" % len(body))
    interim = b""
    while not interim.endswith(b"\r\n\r\n"):
        chunk = sock.recv(1)
        assert chunk, f"the connection closed before a worker took the request: {interim!r}"
        interim += chunk
    assert interim.startswith(b"HTTP/1.1 100"), interim
    sock.sendall(body)
    return sock


def _final_answer(sock: socket.socket) -> tuple[int, dict]:
    """Status and JSON body of the answer, read until the server closes (``Connection: close``)."""
    sock.settimeout(60)
    with sock:
        raw = b"".join(iter(lambda: sock.recv(65536), b""))
    head, _, body = raw.partition(b"\r\n\r\n")
    return int(head.split(b" ", 2)[1]), json.loads(body)


def test_sigterm_finishes_the_requests_in_flight_and_stops_within_the_grace_period(serving):
    """Two slow requests (a full batch each) are running when SIGTERM comes: gunicorn stops accepting,
    the workers finish them, and the container exits 0 long before podman's 30 s would SIGKILL it.
    "Running" is observed, not assumed after a sleep: each request's "100 Continue" says a worker
    has it (under load a fixed sleep let SIGTERM come before the workers had accepted them)."""
    name, url, keys = serving
    port = int(url.rsplit(":", 1)[1])
    batch = {"requests": [{"operation": "proben.test", "body": {"attribute": 30, "difficulty": 3}}] * 500}
    body = json.dumps(batch).encode()
    in_flight = [_batch_in_flight(port, body) for _ in range(2)]
    answers: list[tuple[int, dict]] = []
    # read while the container stops: what it sent but nobody read would be lost with its network
    readers = [threading.Thread(target=lambda sock=sock: answers.append(_final_answer(sock))) for sock in in_flight]
    for reader in readers:
        reader.start()
    started = time.monotonic()
    podman("stop", "--time", "30", name, timeout=60)
    stopped_after = time.monotonic() - started
    for reader in readers:
        reader.join(60)
    assert [status for status, _ in answers] == [200, 200]
    assert all(keys.verify(item["body"]).valid for _, answer in answers for item in answer["results"][:3])
    assert state(name, "ExitCode") == "0"
    assert stopped_after < 20, f"stopping took {stopped_after:.1f} s"


def test_the_image_stays_on_the_air_with_200_slow_connections_and_closes_them(serving):
    """Issue 18, "the same in the image": the container runs the service's worker with its defaults, so
    200 stalled connections (part of a head, part of a body, idle after one answer) leave /livez and
    paws.test answering, and each stalled connection is closed after WURFWERK_READ_TIMEOUT (10 s)."""
    _, url, _ = serving
    port = int(url.rsplit(":", 1)[1])
    flood = SlowConnections("127.0.0.1", port, 200)
    try:
        flood.open()
        assert flood.refused == 0
        livez = probe("127.0.0.1", port, 30, LIVEZ, timeout=5)
        paws = probe("127.0.0.1", port, 30, PAWS_TEST, timeout=5)
        assert livez.failures == [] and paws.failures == []
        assert livez.p99 < 1.0 and paws.p99 < 1.0, (livez.p99, paws.p99)
        assert flood.wait_closed(timeout=40), f"{flood.still_open()} slow connections still open"
        assert min(min(seconds) for seconds in flood.lifetimes().values()) >= 9  # not before the timeout
    finally:
        flood.close()
