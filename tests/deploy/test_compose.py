"""docker-compose.yml brought up unmodified with podman-compose: the one-shot key, two replicas that
verify each other's receipts behind HAProxy, and a replica stopped and started again under load (with
a new address) without one failed request. Only the images stand in for registry ones (variables the
compose file reads); the test traffic goes to the balancer's port on 127.0.0.1 and into the containers
started here, which are removed with their volume and network at the end."""

from __future__ import annotations

import json
import secrets
import subprocess
import threading
import time
from collections import Counter

import pytest
import requests

from service.platform.dice.receipts import KeyRing, generate_private_key_pem
from tests.deploy.podman import BASE_IMAGE, ENV, PODMAN_COMPOSE, ROOT, container_ip, podman, remove_containers, wait_for
from tests.deploy.processes import free_port

pytestmark = pytest.mark.slow
BODY = {"attribute": 4, "difficulty": 2}
# Bounds for a loaded host: a replica that starts late, a balancer that puts it into rotation late.
READY_SECONDS = 120
ROTATION_SECONDS = 60


class Compose:
    def __init__(self, project: str, port: int):
        self.project = project
        self.url = f"http://127.0.0.1:{port}"
        self.env = {**ENV, "WURFWERK_PYTHON_IMAGE": BASE_IMAGE, "WURFWERK_BALANCER_IMAGE": BASE_IMAGE,
                    "WURFWERK_PORT": str(port),
                    # One test client sends everything from one address: no rate limit in the way here
                    # (the limits are tested in test_rate_limits.py).
                    "WURFWERK_RATE_LIMIT_REQUESTS": "1000000", "WURFWERK_RATE_LIMIT_ADDRESS_REQUESTS": "1000000"}
        for inherited in ("WURFWERK_SIGNING_KEY", "WURFWERK_VERIFY_KEYS", "WURFWERK_API_KEYS"):
            self.env.pop(inherited, None)

    def __call__(self, *args: str, extra_file: str | None = None, timeout: float = 300) -> subprocess.CompletedProcess:
        files = ["--file", str(ROOT / "docker-compose.yml")]
        if extra_file:
            files += ["--file", str(ROOT / extra_file)]
        result = subprocess.run([PODMAN_COMPOSE, "--project-name", self.project, *files, *args], cwd=ROOT,
                                env=self.env, capture_output=True, text=True, timeout=timeout)
        assert result.returncode == 0, (f"podman-compose {' '.join(args)}:\n"
                                        f"{result.stdout[-2000:]}\n{result.stderr[-3000:]}")
        return result

    def container(self, service: str, number: int = 1) -> str:
        return f"{self.project}_{service}_{number}"

    def down(self) -> None:
        subprocess.run([PODMAN_COMPOSE, "--project-name", self.project, "--file", str(ROOT / "docker-compose.yml"),
                        "down", "--volumes", "--timeout", "5"], cwd=ROOT, env=self.env, capture_output=True,
                       timeout=180)
        # Whatever compose left behind (a failed start): by the project's label.
        leftovers = podman("ps", "--all", "--quiet", "--filter", f"label=io.podman.compose.project={self.project}",
                           check=False).stdout.split()
        remove_containers(*leftovers)
        podman("volume", "rm", "--force", f"{self.project}_signing-key", check=False)
        podman("network", "rm", "--force", f"{self.project}_default", check=False)


@pytest.fixture(scope="module")
def compose(service_image):
    stack = Compose(f"wurfwerk-test-{secrets.token_hex(4)}", free_port())
    try:
        stack("up", "--detach")
        # Each replica on its own: the balancer serves as soon as one of them is up.
        for replica in (stack.container("api", 1), stack.container("api", 2)):
            wait_for(lambda replica=replica: _kid_or_none(replica) is not None, READY_SECONDS, f"{replica} not ready",
                     interval=1)
        wait_for(lambda: _served_through(stack.url), 90, "the balancer did not serve")
        yield stack
    finally:
        stack.down()


def _served_through(url: str) -> bool:
    try:
        return requests.post(url + "/v1/proben/test", json=BODY, timeout=5).status_code == 200
    except requests.RequestException:
        return False


def _inside(container: str, method: str, path: str, body: object = None):
    """An HTTP call from inside a replica to itself (the replicas publish no port)."""
    script = ("import json, sys, urllib.request; data = sys.stdin.read().encode() or None; "
              "request = urllib.request.Request('http://127.0.0.1:8000' + sys.argv[2], data=data, method=sys.argv[1], "
              "headers={'Content-Type': 'application/json'}); "
              "print(urllib.request.urlopen(request, timeout=10).read().decode())")
    output = podman("exec", "--interactive", container, "python", "-c", script, method, path,
                    stdin="" if body is None else json.dumps(body)).stdout
    return output if path == "/metrics" else json.loads(output)


def _served(container: str) -> float:
    """Rolls this replica answered since it started (0 while it is not up)."""
    try:
        metrics = _inside(container, "GET", "/metrics")
    except AssertionError:
        return 0.0
    total = 0.0
    for line in metrics.splitlines():
        if line.startswith('wurfwerk_requests_total{endpoint="proben.proben_test"'):
            total += float(line.rsplit(" ", 1)[1])
    return total


def test_keygen_made_one_key_for_the_service_user(compose):
    owner_and_mode = podman("exec", compose.container("api"), "stat", "-c", "%u %a", "/keys/signing-key.pem")
    assert owner_and_mode.stdout.split() == ["10001", "400"]
    assert "created a new signing key" in podman("logs", compose.container("keygen")).stdout


def test_two_replicas_share_the_key_and_the_balancer_uses_both(compose):
    a, b = compose.container("api", 1), compose.container("api", 2)
    roll = _inside(a, "POST", "/v1/proben/test", BODY)
    assert _inside(b, "POST", "/v1/receipts/verify", roll)["valid"] is True
    assert _inside(a, "GET", "/v1/keys") == _inside(b, "GET", "/v1/keys")
    before = {replica: _served(replica) for replica in (a, b)}
    # Round robin over the replicas it has found up: both, once its DNS and health checks (every
    # second) have caught up with a replica that started late, which takes longer on a loaded host.
    unused = {a, b}
    deadline = time.monotonic() + ROTATION_SECONDS
    with requests.Session() as session:
        while unused and time.monotonic() < deadline:
            for _ in range(10):
                assert session.post(compose.url + "/v1/proben/test", json=BODY, timeout=15).status_code == 200
            unused = {replica for replica in unused if _served(replica) <= before[replica]}
            if unused:
                time.sleep(1)
    assert not unused, f"the balancer sent nothing to {unused} within {ROTATION_SECONDS} s"


class Load:
    """Clients posting rolls through the balancer until stopped; every answer is recorded."""

    def __init__(self, url: str, clients: int = 2):
        self.url, self.statuses, self.failures = url, [], []
        self._stop = threading.Event()
        self._threads = [threading.Thread(target=self._client) for _ in range(clients)]

    def _client(self):
        with requests.Session() as session:
            while not self._stop.is_set():
                try:
                    self.statuses.append(session.post(self.url + "/v1/proben/test", json=BODY, timeout=15).status_code)
                except requests.RequestException as error:
                    self.failures.append(repr(error))

    def __enter__(self):
        for thread in self._threads:
            thread.start()
        wait_for(lambda: len(self.statuses) >= 20, 30, "the load did not start")
        return self

    def __exit__(self, *_):
        self._stop.set()
        for thread in self._threads:
            thread.join(30)


def test_a_replica_stopped_and_started_under_load_fails_no_request_and_serves_at_its_new_address(compose):
    replica = compose.container("api", 1)
    old_address = container_ip(replica)
    with Load(compose.url) as load:
        podman("stop", "--time", "30", replica, timeout=60)  # SIGTERM: what `compose stop`, scaling, updates send
        served_while_stopped = len(load.statuses)
        podman("start", replica, timeout=60)
        new_address = container_ip(replica)
        # The balancer re-resolves `api` and health-checks the new address: the replica serves again.
        wait_for(lambda: _served(replica) >= 5, 60, "the restarted replica got no traffic", interval=1)
    assert new_address != old_address, "podman gave the restarted replica its old address: nothing was shown"
    assert load.failures == [], (load.failures, _balancer_log_of_unusual_endings(compose))
    assert Counter(load.statuses) == {200: len(load.statuses)} and len(load.statuses) > served_while_stopped


def _balancer_log_of_unusual_endings(compose: Compose) -> list[str]:
    """HAProxy's log lines of sessions that did not end normally (their termination state, four
    characters after the byte counts, is not ``----``): which side closed, and when."""
    log = podman("logs", compose.container("lb"), check=False)
    return [line for line in (log.stdout + log.stderr).splitlines() if line and " ---- " not in line][-20:]


def test_a_key_provided_as_a_root_only_secret_file_replaces_the_made_one(compose, tmp_path):
    """deploy/compose.key-file.yml: the file `openssl genpkey` leaves (0600, the host's root) becomes
    the replicas' key; keygen installs it for uid 10001 and both replicas sign with it."""
    pem = generate_private_key_pem()
    key = tmp_path / "signing-key.pem"
    key.write_text(pem)
    key.chmod(0o600)
    compose.env["WURFWERK_SIGNING_KEY_PEM"] = str(key)
    compose("up", "--detach", "--force-recreate", extra_file="deploy/compose.key-file.yml")
    assert "installed the provided signing key" in podman("logs", compose.container("keygen")).stdout
    expected = KeyRing.from_pem(pem).kid
    for replica in (compose.container("api", 1), compose.container("api", 2)):
        wait_for(lambda replica=replica: _kid_or_none(replica) == expected, 90, f"{replica} did not sign with the key")
    wait_for(lambda: _served_through(compose.url), 60, "the balancer did not serve again")
    roll = requests.post(compose.url + "/v1/proben/test", json=BODY, timeout=10).json()
    assert roll["receipt"]["kid"] == expected


def _kid_or_none(replica: str) -> str | None:
    try:
        return _inside(replica, "GET", "/readyz")["kid"]
    except AssertionError:
        return None
