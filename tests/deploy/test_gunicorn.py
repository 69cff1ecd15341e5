"""The real server as `make run` starts it: gunicorn, the production config, several workers."""

from __future__ import annotations

import os
import re
import stat
from concurrent.futures import ThreadPoolExecutor

import pytest
import requests

from service.platform.dice.receipts import generate_private_key_pem
from tests.deploy.processes import Gunicorn

pytestmark = pytest.mark.slow
KEY_VARIABLES = ("WURFWERK_SIGNING_KEY", "WURFWERK_SIGNING_KEY_FILE")


@pytest.fixture(autouse=True)
def _no_inherited_key(monkeypatch):
    for variable in KEY_VARIABLES:
        monkeypatch.delenv(variable, raising=False)


def _kid(server) -> str:
    return requests.get(server.url + "/v1/keys", timeout=5).json()["keys"][0]["kid"]


def test_development_key_is_created_once_and_shared_by_all_workers(tmp_path):
    key_file = tmp_path / "dev" / "signing-key.pem"
    server = Gunicorn(tmp_path, env={"WURFWERK_DEV_KEY_FILE": str(key_file)}, workers=3).start()
    try:
        assert key_file.exists() and stat.S_IMODE(os.stat(key_file).st_mode) == 0o600
        kid = _kid(server)
        with requests.Session() as session:
            for _ in range(30):  # new connections land on different workers
                roll = requests.post(server.url + "/v1/proben/test", json={"attribute": 2, "difficulty": 1},
                                     timeout=5).json()
                assert roll["receipt"]["kid"] == kid
                assert session.post(server.url + "/v1/receipts/verify", json=roll, timeout=5).json()["valid"]
            assert requests.get(server.url + "/readyz", timeout=5).json()["ephemeral_key"] is False
    finally:
        server.stop()
    again = Gunicorn(tmp_path, env={"WURFWERK_DEV_KEY_FILE": str(key_file)}, name="again").start()
    try:
        assert _kid(again) == kid  # created once, reused on the next start
    finally:
        again.stop()


def test_unseeded_rolls_differ_across_workers_and_metrics_add_up(tmp_path):
    """No generator exists before the fork: with one, every worker would repeat the same dice."""
    key = tmp_path / "key.pem"
    key.write_text(generate_private_key_pem())
    server = Gunicorn(tmp_path, env={"WURFWERK_SIGNING_KEY_FILE": str(key)}, workers=2).start()
    try:
        def roll(_):
            return tuple(requests.post(server.url + "/v1/proben/test", json={"attribute": 30, "difficulty": 1},
                                       timeout=5).json()["result"]["dice"])

        # Concurrent clients keep both workers busy, so both must answer.
        with ThreadPoolExecutor(max_workers=8) as pool:
            rolls = list(pool.map(roll, range(60)))
        assert len(set(rolls)) == len(rolls)
        served_by = {name for name in os.listdir(tmp_path / "gunicorn-metrics") if name.startswith("counter_")}
        assert len(served_by) >= 2, f"only one worker answered: {served_by}"
        for _ in range(4):  # whichever worker answers /metrics, it counts all workers' requests
            text = requests.get(server.url + "/metrics", timeout=5).text
            count = re.search(r'wurfwerk_requests_total\{endpoint="proben.proben_test",method="POST",'
                              r'status="200"\} (\S+)', text)
            assert count and float(count.group(1)) == 60.0
    finally:
        server.stop()


@pytest.mark.parametrize("workers", [1, 2])
def test_started_as_make_run_does_metrics_count_and_the_log_says_where_and_which_key(tmp_path, workers):
    """Issue 32: `make run` sets no PROMETHEUS_MULTIPROC_DIR; gunicorn.conf.py makes one before
    prometheus_client is imported, so every worker's requests are counted by /metrics. The master's
    log names the address and the kid, never the key."""
    key_file = tmp_path / "dev" / "signing-key.pem"
    server = Gunicorn(tmp_path, env={"WURFWERK_DEV_KEY_FILE": str(key_file)}, workers=workers,
                      metrics_dir=False).start()
    try:
        for _ in range(30):  # new connections: both workers answer some
            assert requests.post(server.url + "/v1/paws/test", json={"rank": 2}, timeout=5).status_code == 200
        kid = _kid(server)
        for _ in range(4):  # whichever worker answers /metrics, it counts all 30
            # Connection: close, because the response kept in `answer` keeps its socket open, and a
            # stopping worker waits for an idle connection until WURFWERK_READ_TIMEOUT
            answer = requests.get(server.url + "/metrics", headers={"Connection": "close"}, timeout=5)
            content_type = answer.headers["Content-Type"]
            assert content_type.startswith("text/plain;") and content_type.count("charset=") == 1, content_type
            count = re.search(r'wurfwerk_requests_total\{endpoint="paws.paws_test",method="POST",'
                              r'status="200"\} (\S+)', answer.text)
            assert count and float(count.group(1)) == 30.0, answer.text[:2000]
    finally:
        server.stop()
    log = server.log.read_text()
    master = server.process.pid
    assert f"Listening at: http://127.0.0.1:{server.port} ({master})" in log
    assert f"[{master}] [INFO] Signing receipts with kid {kid} (from WURFWERK_SIGNING_KEY_FILE={key_file})" in log
    pem_body = "".join(key_file.read_text().splitlines()[1:-1])
    assert pem_body not in log.replace("\n", "") and "PRIVATE KEY" not in log


def test_the_access_log_line_carries_the_request_id_a_user_is_shown(tmp_path):
    """Issue 52: a player reports the `request_id` of a problem (or of a roll); the operator finds its
    line in the access log. The id the client sent when it is plausible, else the one the service made
    (and put into the problem), and also for what gunicorn refuses before the app (a 414)."""
    key = tmp_path / "key.pem"
    key.write_text(generate_private_key_pem())
    server = Gunicorn(tmp_path, env={"WURFWERK_SIGNING_KEY_FILE": str(key), "GUNICORN_ACCESS_LOG": "1"},
                      workers=1).start()
    try:
        sent = requests.post(server.url + "/v1/paws/test", json={"rank": 2}, timeout=5,
                             headers={"X-Request-ID": "table-7-roll-42", "Connection": "close"})
        refused = requests.post(server.url + "/v1/paws/test", json={"rank": 99}, timeout=5,
                                headers={"Connection": "close"})
        too_long = requests.get(server.url + "/v1/keys?" + "x" * 5000, timeout=5)
    finally:
        server.stop()
    assert sent.headers["X-Request-ID"] == "table-7-roll-42"
    assert refused.status_code == 422 and too_long.status_code == 414
    made = refused.json()["request_id"]
    assert made and made == refused.headers["X-Request-ID"]
    lines = server.log.read_text().splitlines()

    def line_of(request_id: str) -> str:
        [line] = [line for line in lines if line.endswith(f"request_id={request_id}")]
        return line

    assert '"POST /v1/paws/test HTTP/1.1" 200' in line_of("table-7-roll-42")
    assert '"POST /v1/paws/test HTTP/1.1" 422' in line_of(made)
    assert "Invalid request" in line_of(too_long.json()["request_id"])
