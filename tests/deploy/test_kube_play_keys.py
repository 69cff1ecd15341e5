"""deploy/k8s/base played by `podman kube play` with the Secret `wurfwerk-api-keys` an operator creates
(issue 52): its API keys guard /v1, its ticket keys alone issue tickets, its metrics token guards
/metrics. test_kube_play.py plays the base without that Secret (the keys are optional: an open API);
how the base becomes podman's pods is said there. One replica is enough here."""

from __future__ import annotations

import base64
import json
import secrets

import pytest
import requests
import yaml

from service.platform.dice.receipts import generate_private_key_pem
from tests.conftest import require_tool
from tests.deploy.podman import podman
from tests.deploy.processes import free_port
from tests.deploy.test_kube_play import _for_podman, _podman_version, _rendered, _run_startup_probe, _secret

pytestmark = pytest.mark.slow
GM, PLAYER, SCRAPER = "gm-key", "player-key", "scrape-token"
KEYS = {"api-keys": f"{GM},{PLAYER}", "ticket-keys": GM, "metrics-token": SCRAPER}


def _keys_secret_name(container: dict) -> str:
    [name] = {item["valueFrom"]["secretKeyRef"]["name"] for item in container["env"]
              if item["name"] in ("WURFWERK_API_KEYS", "WURFWERK_TICKET_KEYS", "WURFWERK_METRICS_TOKEN")}
    return name


def _encoded(values: dict[str, str]) -> dict[str, str]:
    return {key: base64.b64encode(value.encode()).decode() for key, value in values.items()}


@pytest.fixture(scope="module")
def keyed(service_image, tmp_path_factory):
    require_tool("catatonit", why="podman kube play builds the pods' pause image from it")
    [deployment] = [item for item in _rendered() if item["kind"] == "Deployment"
                    and item["metadata"]["name"] == "wurfwerk-api"]
    [container] = deployment["spec"]["template"]["spec"]["containers"]
    [secret_volume] = [volume["secret"] for volume in deployment["spec"]["template"]["spec"]["volumes"]
                       if "secret" in volume]
    [item] = secret_volume["items"]
    image = "localhost/" + container["image"]
    podman("tag", service_image, image)
    plain = _podman_version() < (4, 4)
    signing = _secret(secret_volume["secretName"], item["key"], generate_private_key_pem(), plain)
    keys_name = _keys_secret_name(container)
    port = free_port()
    documents = [_for_podman(deployment, secrets.token_hex(3), 0, port)]
    if plain:
        # podman 4.3 reads an env's secretKeyRef from a podman secret holding a JSON map of base64 values
        # (and a volume's from one holding the Secret document).
        for name, data in ((signing["metadata"]["name"], yaml.safe_dump(signing)),
                           (keys_name, json.dumps(_encoded(KEYS)))):
            podman("secret", "rm", name, check=False)
            podman("secret", "create", name, "-", stdin=data)
    else:
        keys_secret = {"apiVersion": "v1", "kind": "Secret", "metadata": {"name": keys_name}, "type": "Opaque",
                       "data": _encoded(KEYS)}
        documents[:0] = [signing, keys_secret]
    path = tmp_path_factory.mktemp("kube-keys") / "played.yaml"
    path.write_text(yaml.safe_dump_all(documents))
    url = f"http://127.0.0.1:{port}"
    try:
        podman("kube", "play", str(path), timeout=180)
        _run_startup_probe(container["startupProbe"], url)
        yield url
    finally:
        podman("kube", "down", str(path), check=False, timeout=120)
        podman("volume", "rm", "--force", signing["metadata"]["name"], check=False)
        for name in (signing["metadata"]["name"], keys_name):
            podman("secret", "rm", name, check=False)
        podman("untag", service_image, image, check=False)


def _bearer(key: str | None) -> dict:
    return {"Authorization": f"Bearer {key}"} if key else {}


def test_the_secrets_api_keys_guard_v1(keyed):
    statuses = {key: requests.post(keyed + "/v1/paws/test", json={"rank": 2}, headers=_bearer(key), timeout=10)
                .status_code for key in (None, "made-up", PLAYER, GM)}
    assert statuses == {None: 401, "made-up": 401, PLAYER: 200, GM: 200}


def test_only_the_secrets_ticket_keys_issue_tickets(keyed):
    body = {"count": 1, "operation": "paws.test"}
    assert requests.post(keyed + "/v1/tickets", json=body, headers=_bearer(PLAYER), timeout=10).status_code == 403
    assert requests.post(keyed + "/v1/tickets", json=body, headers=_bearer(GM), timeout=10).status_code == 200


def test_the_secrets_metrics_token_guards_metrics(keyed):
    assert requests.get(keyed + "/metrics", headers=_bearer(GM), timeout=10).status_code == 401
    scraped = requests.get(keyed + "/metrics", headers=_bearer(SCRAPER), timeout=10)
    assert scraped.status_code == 200 and "wurfwerk_requests_total" in scraped.text
