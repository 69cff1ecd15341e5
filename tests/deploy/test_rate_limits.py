"""The balancer's rate limits (deploy/balancer/haproxy.cfg, as compose and Kubernetes run it) on the
loopback topology: per API key when the client sends one, else per client address, with a ceiling
per address whatever keys it sends; answered with 429, Retry-After and a problem+json body."""

from __future__ import annotations

import http.client
import itertools
import json
import time
import uuid
from dataclasses import dataclass

import pytest
import requests
from requests.structures import CaseInsensitiveDict

from service.platform.dice.receipts import generate_private_key_pem
from tests.conftest import require_tool
from tests.deploy.processes import Gunicorn, Haproxy

pytestmark = pytest.mark.slow
BODY = {"attribute": 4, "difficulty": 2}
LIMIT, ADDRESS_LIMIT, PERIOD = 5, 8, 2
KEYS = tuple(f"key-{index}" for index in range(12))
_addresses = itertools.count(10)
_keys = iter(KEYS)


@pytest.fixture(scope="module")
def balancer(tmp_path_factory):
    require_tool("haproxy", why="the balancer of compose and Kubernetes")
    tmp = tmp_path_factory.mktemp("rate-limits")
    key = tmp / "key.pem"
    key.write_text(generate_private_key_pem())
    replica = Gunicorn(tmp, env={"WURFWERK_SIGNING_KEY_FILE": str(key), "WURFWERK_API_KEYS": ",".join(KEYS)},
                       workers=1).start()
    haproxy = Haproxy(tmp, [replica.port], env={
        "WURFWERK_RATE_LIMIT_REQUESTS": str(LIMIT), "WURFWERK_RATE_LIMIT_ADDRESS_REQUESTS": str(ADDRESS_LIMIT),
        "WURFWERK_RATE_LIMIT_PERIOD_SECONDS": str(PERIOD)}).start()
    yield haproxy
    haproxy.stop()
    replica.stop()


@dataclass
class Answer:
    status_code: int
    headers: CaseInsensitiveDict
    text: str

    def json(self):
        return json.loads(self.text)


@pytest.fixture
def client_address() -> str:
    """Each test sends from an address of its own on 127/8, so no test inherits another's counters."""
    return f"127.0.0.{next(_addresses)}"


def _roll(balancer, source: str, key: str | None = None, request_id: str | None = None) -> Answer:
    headers = {"X-Request-ID": request_id or str(uuid.uuid4()), "Content-Type": "application/json"}
    if key:
        headers["Authorization"] = f"Bearer {key}"
    connection = http.client.HTTPConnection("127.0.0.1", balancer.port, timeout=10, source_address=(source, 0))
    try:
        connection.request("POST", "/v1/proben/test", body=json.dumps(BODY), headers=headers)
        response = connection.getresponse()
        return Answer(response.status, CaseInsensitiveDict(response.getheaders()), response.read().decode())
    finally:
        connection.close()


def test_over_the_limit_a_client_gets_429_with_retry_after_and_a_problem(balancer, client_address):
    key = next(_keys)
    statuses = [_roll(balancer, client_address, key).status_code for _ in range(LIMIT)]
    assert statuses == [200] * LIMIT
    refused = _roll(balancer, client_address, key, request_id="rate-test-1")
    assert refused.status_code == 429
    assert refused.headers["Content-Type"] == "application/problem+json"
    assert refused.headers["Retry-After"] == str(2 * PERIOD)  # the sliding rate weighs two periods
    assert refused.headers["X-Request-ID"] == "rate-test-1"
    assert refused.json() == {
        "type": "https://wurfwerk.dev/problems/rate-limited", "title": "Too Many Requests", "status": 429,
        "detail": f"more than {LIMIT} requests in {PERIOD} s from this client; retry after the Retry-After seconds",
        "instance": "/v1/proben/test", "request_id": "rate-test-1"}


def test_after_retry_after_the_client_is_served_again(balancer, client_address):
    key = next(_keys)
    for _ in range(LIMIT + 1):
        last = _roll(balancer, client_address, key)
    assert last.status_code == 429
    time.sleep(int(last.headers["Retry-After"]))
    assert _roll(balancer, client_address, key).status_code == 200


def test_each_api_key_has_its_own_budget(balancer, client_address):
    first, second = next(_keys), next(_keys)
    for _ in range(LIMIT):
        _roll(balancer, client_address, first)
    assert _roll(balancer, client_address, first).status_code == 429
    assert _roll(balancer, client_address, second).status_code == 200  # same address, other key


def test_without_a_key_the_client_address_is_limited(balancer, client_address):
    answers = [_roll(balancer, client_address).status_code for _ in range(LIMIT + 1)]
    # No key configured on the client: the service answers 401, the balancer still counts the address.
    assert answers[:LIMIT] == [401] * LIMIT and answers[LIMIT] == 429


def test_new_keys_buy_no_new_budget_beyond_the_address_ceiling(balancer, client_address):
    answers = [_roll(balancer, client_address, f"made-up-{index}").status_code for index in range(ADDRESS_LIMIT + 1)]
    assert answers[:ADDRESS_LIMIT] == [401] * ADDRESS_LIMIT and answers[ADDRESS_LIMIT] == 429


def test_health_endpoints_are_never_limited(balancer, client_address):
    for _ in range(LIMIT + 1):
        _roll(balancer, client_address)
    assert _roll(balancer, client_address).status_code == 429
    assert all(requests.get(balancer.url + "/livez", timeout=5).status_code == 200 for _ in range(LIMIT * 2))
