"""The compose topology run directly: two gunicorn replicas sharing one key behind Debian's HAProxy,
running deploy/haproxy.cfg as compose and Kubernetes do. Everything is started and stopped here."""

from __future__ import annotations

import threading
import time

import pytest
import requests

from service.platform.dice.receipts import generate_private_key_pem
from tests.deploy.processes import Gunicorn, Haproxy, haproxy_available, wait_until_up

pytestmark = [pytest.mark.slow,
              pytest.mark.skipif(not haproxy_available(),
                                 reason="haproxy is not installed (.ci/run installs it; a skip fails CI)")]

BODY = {"attribute": 4, "difficulty": 2}


@pytest.fixture
def topology(tmp_path, monkeypatch):
    monkeypatch.delenv("WURFWERK_SIGNING_KEY", raising=False)
    key = tmp_path / "shared-key.pem"
    key.write_text(generate_private_key_pem())
    env = {"WURFWERK_SIGNING_KEY_FILE": str(key)}
    replicas = [Gunicorn(tmp_path, env=env, name=name).start() for name in ("a", "b")]
    balancer = Haproxy(tmp_path, [replica.port for replica in replicas]).start()
    yield replicas, balancer
    balancer.stop()
    for replica in replicas:
        replica.stop()


def test_receipt_from_one_replica_verifies_on_the_other(topology):
    (a, b), _ = topology
    roll = requests.post(a.url + "/v1/proben/test", json=BODY, timeout=5).json()
    assert requests.post(b.url + "/v1/receipts/verify", json=roll, timeout=5).json()["valid"] is True
    assert requests.get(a.url + "/v1/keys", timeout=5).json() == requests.get(b.url + "/v1/keys", timeout=5).json()


def _load(balancer, stop_replica, *, clients=4, per_client=150):
    """Run a bounded load through the balancer and call ``stop_replica`` after the first requests."""
    statuses: list[int] = []
    failures: list[str] = []
    started = threading.Event()

    def client():
        with requests.Session() as session:
            for index in range(per_client):
                if index == 10:
                    started.set()
                try:
                    statuses.append(session.post(balancer.url + "/v1/proben/test", json=BODY, timeout=10).status_code)
                except requests.RequestException as error:
                    failures.append(repr(error))

    threads = [threading.Thread(target=client) for _ in range(clients)]
    for thread in threads:
        thread.start()
    started.wait(10)
    stop_replica()
    for thread in threads:
        thread.join(60)
    return statuses, failures


def _assert_rejoins(replica, balancer):
    replica.start()  # same port: the restarted replica rejoins the upstream
    wait_until_up(replica.url + "/livez")
    # The balancer's health check (every second) marks it up again: rolls go on until it gets some.
    before = _served(replica)
    deadline = time.monotonic() + 20
    with requests.Session() as session:
        while _served(replica) <= before:
            assert time.monotonic() < deadline, "the restarted replica got no traffic"
            for _ in range(10):
                assert session.post(balancer.url + "/v1/proben/test", json=BODY, timeout=5).status_code == 200


def test_stopping_a_replica_under_load_loses_no_request_and_it_rejoins(topology):
    """`docker stop`, scale-down, rolling update: SIGTERM. gunicorn finishes what it holds and stops
    accepting; the balancer retries refused connections on the other replica."""
    (a, _b), balancer = topology
    statuses, failures = _load(balancer, a.stop)
    assert failures == []
    assert len(statuses) == 600 and set(statuses) == {200}
    _assert_rejoins(a, balancer)


def test_a_crashed_replica_costs_at_most_its_requests_in_flight(topology):
    """SIGKILL: requests not yet sent to the dead replica are retried on the other one (no
    connection error reaches a client); only a response the replica was writing at that instant
    can be cut, at most one per worker, since the balancer cannot safely replay a POST after it started
    answering the client."""
    (a, _b), balancer = topology
    statuses, failures = _load(balancer, a.kill)
    assert len(failures) <= 2, failures
    assert all("IncompleteRead" in failure or "ChunkedEncoding" in failure for failure in failures)
    assert len(statuses) + len(failures) == 600 and set(statuses) == {200}
    _assert_rejoins(a, balancer)


def _served(replica) -> float:
    text = requests.get(replica.url + "/metrics", timeout=5).text
    total = 0.0
    for line in text.splitlines():
        if line.startswith('wurfwerk_requests_total{endpoint="proben.proben_test"'):
            total += float(line.rsplit(" ", 1)[1])
    return total
