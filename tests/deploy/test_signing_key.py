"""The key's way into a deployment: WURFWERK_REQUIRE_SIGNING_KEY in the app and in gunicorn's master,
and deploy/signing_key.py, which compose's one-shot `keygen` service runs."""

from __future__ import annotations

import os
import runpy
import stat
import subprocess
import sys

import pytest

from service import create_app
from service.platform.dice.receipts import KeyRing, generate_private_key_pem
from tests.deploy.processes import GUNICORN, ROOT

signing_key = runpy.run_path(str(ROOT / "deploy" / "signing_key.py"), run_name="signing_key")


def test_required_key_missing_makes_readyz_503_with_a_problem():
    app = create_app({"signing_key_pem": "", "require_signing_key": True})
    response = app.test_client().get("/readyz")
    assert response.status_code == 503 and response.mimetype == "application/problem+json"
    assert response.get_json()["type"] == "https://wurfwerk.dev/problems/not-ready"
    assert "WURFWERK_REQUIRE_SIGNING_KEY" in response.get_json()["detail"]


def test_without_the_requirement_an_ephemeral_key_is_ready_but_says_so():
    ready = create_app({"signing_key_pem": ""}).test_client().get("/readyz")
    assert ready.status_code == 200 and ready.get_json()["ephemeral_key"] is True


def _gunicorn_start(tmp_path, env: dict[str, str]) -> subprocess.CompletedProcess:
    environment = {key: value for key, value in os.environ.items() if not key.startswith("WURFWERK_")}
    environment.update({"PROMETHEUS_MULTIPROC_DIR": str(tmp_path / "metrics"), "PORT": "0", **env})
    return subprocess.run([GUNICORN, "--config", "deploy/gunicorn.conf.py", "service:create_app()"], cwd=ROOT,
                          env=environment, capture_output=True, text=True, timeout=60)


def test_gunicorn_refuses_to_start_without_a_required_key_in_one_line(tmp_path):
    result = _gunicorn_start(tmp_path, {"WURFWERK_REQUIRE_SIGNING_KEY": "1"})
    assert result.returncode == 1
    errors = [line for line in result.stderr.splitlines() if line.startswith("Error:")]
    assert len(errors) == 1 and "WURFWERK_SIGNING_KEY_FILE" in errors[0] and "Traceback" not in result.stderr


def test_gunicorn_refuses_a_key_that_is_no_key_in_one_line(tmp_path):
    key = tmp_path / "key.pem"
    key.write_text("not a key\n")
    result = _gunicorn_start(tmp_path, {"WURFWERK_SIGNING_KEY_FILE": str(key)})
    assert result.returncode == 1
    [line] = [line for line in result.stderr.splitlines() if line.startswith("Error:")]
    assert "signing key is not a PEM private key" in line


def test_the_development_key_writer_names_the_place_it_cannot_write(tmp_path):
    blocked = tmp_path / "file"
    blocked.write_text("")  # a file where the key's directory should be
    result = _gunicorn_start(tmp_path, {"WURFWERK_DEV_KEY_FILE": str(blocked / "signing-key.pem")})
    assert result.returncode == 1
    [line] = [line for line in result.stderr.splitlines() if line.startswith("Error:")]
    assert f"WURFWERK_DEV_KEY_FILE={blocked / 'signing-key.pem'}" in line


@pytest.fixture
def keygen(monkeypatch, tmp_path):
    monkeypatch.delenv("WURFWERK_SIGNING_KEY", raising=False)
    monkeypatch.delenv("WURFWERK_SIGNING_KEY_FILE", raising=False)
    target = tmp_path / "keys" / "signing-key.pem"

    def run(provided: str = "") -> str:
        if provided:
            monkeypatch.setenv("WURFWERK_SIGNING_KEY", provided)
        assert signing_key["main"]([str(target), "--owner", str(os.getuid())]) == 0
        return target.read_text()

    return run, target


def test_keygen_makes_a_key_once_for_the_service_user_only(keygen):
    run, target = keygen
    first = run()
    assert KeyRing.from_pem(first).kid
    assert stat.S_IMODE(target.stat().st_mode) == 0o400
    assert run() == first  # kept on the next `compose up`


def test_keygen_installs_a_provided_key_instead(keygen):
    run, _target = keygen
    run()
    provided = generate_private_key_pem()
    assert run(provided).strip() == provided.strip()


def test_keygen_refuses_a_provided_key_that_is_no_ed25519_key(keygen):
    run, _target = keygen
    with pytest.raises(SystemExit, match="not a PEM private key"):
        run("-----BEGIN PRIVATE KEY-----\nnonsense\n-----END PRIVATE KEY-----\n")


def test_keygen_refuses_a_key_file_of_the_host_instead_of_ignoring_it(keygen, monkeypatch):
    """Issue 52: a WURFWERK_SIGNING_KEY_FILE in .env reaches keygen (docker-compose.yml passes it) and
    stops `compose up` with the way to provide that file, instead of a key made up in its place."""
    run, target = keygen
    monkeypatch.setenv("WURFWERK_SIGNING_KEY_FILE", "/etc/wurfwerk/signing-key.pem")
    expected = "WURFWERK_SIGNING_KEY_PEM=/etc/wurfwerk/signing-key.pem .*compose.key-file.yml"
    with pytest.raises(SystemExit, match=expected):
        run()
    assert not target.exists()


def test_keygen_runs_as_a_script(tmp_path):
    target = tmp_path / "signing-key.pem"
    env = {key: value for key, value in os.environ.items()
           if key not in ("WURFWERK_SIGNING_KEY", "WURFWERK_SIGNING_KEY_FILE")}
    result = subprocess.run([sys.executable, str(ROOT / "deploy" / "signing_key.py"), str(target), "--owner",
                             str(os.getuid())], capture_output=True, text=True, env=env, timeout=60, check=True)
    assert result.stdout.strip() == f"created a new signing key at {target}"
