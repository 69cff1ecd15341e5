"""Issue 52: docker-compose.yml passes every documented setting to the service. The settings are the
README's table (service/config.py), as `.env.example` lists them; each reaches the replicas from the
environment or an `.env` file, except the signing key, which is keygen's (it installs the key the
replicas read). Checked in the file and as podman-compose renders it with an `.env` beside it."""

from __future__ import annotations

import os
import re
import shutil
import subprocess

import pytest
import yaml

from service.config import SETTINGS
from tests.conftest import require_tool
from tests.deploy.podman import PODMAN_COMPOSE, ROOT

COMPOSE = ROOT / "docker-compose.yml"
# Variables the replicas get a fixed value for, and why.
FIXED = {"WURFWERK_SIGNING_KEY_FILE": "/keys/signing-key.pem"}  # where keygen installed the key
# Variables keygen reads instead of the replicas.
KEYGEN = {"WURFWERK_SIGNING_KEY", "WURFWERK_SIGNING_KEY_FILE"}
PASSED = re.compile(r"^\$\{(?P<name>\w+):-(?P<default>[^}]*)\}$")


def _documented() -> list[str]:
    names = [line.split("=", 1)[0] for line in (ROOT / ".env.example").read_text().splitlines()
             if line and not line.startswith("#")]
    assert len(names) == len(set(names)) >= 31
    return names


def _services() -> dict:
    return yaml.safe_load(COMPOSE.read_text())["services"]


def _image_defaults() -> dict[str, str]:
    """The Dockerfile's ENV values of the settings: compose must not undo them."""
    text = (ROOT / "Dockerfile").read_text()
    return dict(re.findall(r"\b(WURFWERK_\w+)=(\S+)", text))


def test_every_documented_setting_reaches_the_replicas():
    api = _services()["api"]["environment"]
    missing = [name for name in _documented() if name not in api and name not in KEYGEN]
    assert missing == [], f"docker-compose.yml does not pass {missing} to the replicas"
    defaults = {setting.env: setting.default for setting in SETTINGS}
    image = _image_defaults()
    for name in _documented():
        if name in FIXED:
            assert api[name] == FIXED[name], name
            continue
        if name not in api:
            continue
        passed = PASSED.match(str(api[name]))
        assert passed and passed["name"] == name, f"{name}: {api[name]!r} is not ${{{name}:-…}}"
        # Empty means the service's default; a default written here must be the one the image has.
        assert passed["default"] in ("", image.get(name, defaults.get(name))), (name, passed["default"])


def test_keygen_gets_the_key_variables():
    keygen = _services()["keygen"]["environment"]
    for name in KEYGEN:
        assert keygen[name] == f"${{{name}:-}}", name


def test_a_game_master_key_in_dot_env_reaches_the_service(tmp_path):
    """As the review tried it: WURFWERK_TICKET_KEYS in `.env`, then `compose up`. Every documented
    variable set in `.env` shows up in the replicas' environment as podman-compose renders it."""
    require_tool("podman", why="podman-compose renders the compose file")
    shutil.copy(COMPOSE, tmp_path / "docker-compose.yml")
    values = {name: f"value-of-{name.lower()}" for name in _documented()}
    (tmp_path / ".env").write_text("".join(f"{name}={value}\n" for name, value in values.items()))
    result = subprocess.run([PODMAN_COMPOSE, "--file", "docker-compose.yml", "config"], cwd=tmp_path,
                            capture_output=True, text=True, timeout=120,
                            env={key: value for key, value in os.environ.items() if not key.startswith("WURFWERK_")})
    assert result.returncode == 0, result.stderr[-2000:]
    services = yaml.safe_load(result.stdout)["services"]
    api, keygen = services["api"]["environment"], services["keygen"]["environment"]
    assert api["WURFWERK_TICKET_KEYS"] == "value-of-wurfwerk_ticket_keys"
    for name, value in values.items():
        if name in KEYGEN:
            assert keygen[name] == value, name
        if name not in FIXED and name not in KEYGEN:
            assert api[name] == value, name
    assert api["WURFWERK_SIGNING_KEY_FILE"] == FIXED["WURFWERK_SIGNING_KEY_FILE"]


@pytest.mark.parametrize("name", ["WURFWERK_METRICS_ALLOW", "WURFWERK_TRUSTED_PROXIES"])
def test_the_balancer_gets_its_metrics_and_proxy_networks(name):
    assert _services()["lb"]["environment"][name] == f"${{{name}:-}}"
