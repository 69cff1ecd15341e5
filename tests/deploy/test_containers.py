"""The container files, checked statically (no Docker engine runs here; tests/deploy/test_replicas.py
proves the same topology with real processes)."""

from __future__ import annotations

import re
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[2]


def _compose():
    return yaml.safe_load((ROOT / "docker-compose.yml").read_text())


def test_dockerfile_is_slim_non_root_with_healthcheck_and_gunicorn_config():
    text = (ROOT / "Dockerfile").read_text()
    assert re.search(r"^FROM python:3\.\d+-slim", text, re.M)
    user = re.search(r"^USER (\S+)", text, re.M)
    assert user and user.group(1) not in ("root", "0")
    assert re.search(r"^HEALTHCHECK .*", text, re.M) and "/livez" in text
    assert "gunicorn --config deploy/gunicorn.conf.py" in text


def test_compose_runs_replicas_behind_a_load_balancer_with_one_key():
    compose = _compose()
    api, lb = compose["services"]["api"], compose["services"]["lb"]
    assert api["deploy"]["replicas"] >= 2
    assert "ports" not in api, "replicas must not bind a fixed host port"
    assert api["environment"]["WURFWERK_SIGNING_KEY_FILE"] == "/run/secrets/signing_key"
    assert "signing_key" in api["secrets"] and "signing_key" in compose["secrets"]
    assert lb["ports"] and "api" in lb["depends_on"]
    mounted = [volume.split(":")[0] for volume in lb["volumes"]]
    assert "./deploy/nginx.compose.conf" in mounted
    assert (ROOT / "deploy" / "nginx.compose.conf").exists()


def test_load_balancer_retries_the_next_replica():
    conf = (ROOT / "deploy" / "nginx.compose.conf").read_text()
    assert "server api:8000" in conf and "include /etc/nginx/wurfwerk/nginx.proxy.conf;" in conf
    proxy = (ROOT / "deploy" / "nginx.proxy.conf").read_text()
    assert re.search(r"proxy_next_upstream .*error.*non_idempotent", proxy)
    mounts = _compose()["services"]["lb"]["volumes"]
    assert "./deploy/nginx.proxy.conf:/etc/nginx/wurfwerk/nginx.proxy.conf:ro" in mounts
