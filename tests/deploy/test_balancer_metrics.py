"""Issue 52, for operators: the example balancer (deploy/balancer/haproxy.cfg, as compose and the
Kubernetes Ingress run it) keeps /metrics from the public unless WURFWERK_METRICS_ALLOW lists the
client's network, and one request id runs through the balancer's log line, the replica's access log
line and what the user is shown."""

from __future__ import annotations

import http.client
import json

import pytest

from service.platform.dice.receipts import generate_private_key_pem
from tests.conftest import require_tool
from tests.deploy.podman import wait_for
from tests.deploy.processes import Gunicorn, Haproxy

pytestmark = pytest.mark.slow
MONITOR, STRANGER = "127.0.0.66", "127.0.0.67"


@pytest.fixture(scope="module")
def replica(tmp_path_factory):
    require_tool("haproxy", why="the balancer of compose and Kubernetes")
    tmp = tmp_path_factory.mktemp("replica")
    key = tmp / "key.pem"
    key.write_text(generate_private_key_pem())
    server = Gunicorn(tmp, env={"WURFWERK_SIGNING_KEY_FILE": str(key), "GUNICORN_ACCESS_LOG": "1"},
                      workers=1).start()
    yield server
    server.stop()


def _balancer(tmp_path_factory, replica, **env):
    return Haproxy(tmp_path_factory.mktemp("balancer"), [replica.port], env=env).start()


@pytest.fixture(scope="module")
def closed(tmp_path_factory, replica):
    balancer = _balancer(tmp_path_factory, replica)
    yield balancer
    balancer.stop()


@pytest.fixture(scope="module")
def allowing(tmp_path_factory, replica):
    balancer = _balancer(tmp_path_factory, replica, WURFWERK_METRICS_ALLOW=f"{MONITOR}/32 10.0.0.0/8")
    yield balancer
    balancer.stop()


def _get(balancer, path: str, source: str = "127.0.0.1", method: str = "GET") -> tuple[int, dict, str]:
    connection = http.client.HTTPConnection("127.0.0.1", balancer.port, timeout=10, source_address=(source, 0))
    try:
        connection.request(method, path)
        response = connection.getresponse()
        return response.status, {k.lower(): v for k, v in response.getheaders()}, response.read().decode()
    finally:
        connection.close()


@pytest.mark.parametrize("path", ["/metrics", "/metrics?name=wurfwerk_requests_total", "/%6detrics",
                                  "/metrics/", "//metrics", "/%2fmetrics", "/%2F%2Fmetrics"])
def test_by_default_the_balancer_refuses_metrics_to_everyone(closed, path):
    status, headers, body = _get(closed, path)
    assert status == 403 and headers["content-type"] == "application/problem+json", (status, body)
    problem = json.loads(body)
    assert problem["status"] == 403 and problem["request_id"] == headers["x-request-id"]
    assert "wurfwerk_requests_total" not in body
    assert _get(closed, "/livez")[0] == 200 and _get(closed, "/v1/keys")[0] == 200


def test_the_networks_in_metrics_allow_read_metrics_and_no_one_else(allowing):
    status, _, body = _get(allowing, "/metrics", source=MONITOR)
    assert status == 200 and "wurfwerk_requests_total" in body
    assert _get(allowing, "/metrics", source=STRANGER)[0] == 403


def test_one_request_id_in_the_answer_the_balancer_log_and_the_replica_access_log(closed, replica):
    """A client that sends no X-Request-ID gets the balancer's; both logs carry that one."""
    status, headers, body = _get(closed, "/v1/paws/test", method="POST")  # no body: a problem to report
    assert status == 422 and json.loads(body)["request_id"] == headers["x-request-id"]
    request_id = headers["x-request-id"]

    def replica_lines() -> list[str]:
        return [line for line in replica.log.read_text().splitlines() if line.endswith(f"request_id={request_id}")]

    # The worker writes its access line once the answer is sent, so the client may read it first.
    [line] = wait_for(replica_lines, 10, "no access log line of the request")
    assert '"POST /v1/paws/test HTTP/1.1" 422' in line
    closed.stop()  # the log is written as the balancer goes; stopping flushes it
    balancer_lines = [line for line in closed.log.read_text().splitlines() if f"{{{request_id}}}" in line]
    assert len(balancer_lines) == 1 and "POST /v1/paws/test" in balancer_lines[0], closed.log.read_text()[-2000:]


@pytest.mark.parametrize("trusted", ["127.0.0.1/32", ""], ids=["behind-a-trusted-proxy", "empty-as-compose-passes"])
def test_behind_an_ingress_the_allowed_network_is_the_forwarded_client(tmp_path_factory, replica, trusted):
    """The Kubernetes example: the Ingress controller (here 127.0.0.1, in WURFWERK_TRUSTED_PROXIES) names
    the client in X-Forwarded-For, and that address is what WURFWERK_METRICS_ALLOW is checked against.
    Empty, as compose passes it when unset, trusts no one."""
    balancer = _balancer(tmp_path_factory, replica, WURFWERK_METRICS_ALLOW="10.9.8.7/32",
                         WURFWERK_TRUSTED_PROXIES=trusted)
    try:
        def status(forwarded_for: str | None) -> int:
            connection = http.client.HTTPConnection("127.0.0.1", balancer.port, timeout=10)
            try:
                headers = {"X-Forwarded-For": forwarded_for} if forwarded_for else {}
                connection.request("GET", "/metrics", headers=headers)
                return connection.getresponse().status
            finally:
                connection.close()

        assert status(None) == 403 and status("10.9.8.6") == 403
        assert status("10.9.8.7") == (200 if trusted else 403)
    finally:
        balancer.stop()
