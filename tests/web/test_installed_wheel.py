"""The service installed from its wheel, outside the checkout, serves /play and the JavaScript client
(issue 27: no path that reaches outside the package). ``service/web/client`` links to
``client-js/src`` in the checkout; the build copies the files into the package (pyproject.toml's
package data). The wheel is built from a copy of what the Dockerfile copies, so nothing of the
checkout (a stale ``build/``) takes part, and installed with ``--no-deps`` beside the venv's own
packages."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CLIENT_SOURCE = ROOT / "client-js" / "src"
# The client's modules as /play imports them, and the page itself.
FETCHED = ("/play", "/play/assets/play.js", "/play/client/index.js", "/play/client/receipts.js",
           "/play/client/vendor/noble-hashes/sha2.js")

# Run in a fresh interpreter whose `service` is the installed one; prints what /play answered.
SERVE_FROM_INSTALL = """
import json, sys
from pathlib import Path
import service
from service.platform.dice.receipts import generate_private_key_pem
target, paths = Path(sys.argv[1]), json.loads(sys.argv[2])
assert Path(service.__file__).resolve().is_relative_to(target), service.__file__
client = service.create_app({"signing_key_pem": generate_private_key_pem()}).test_client()
answers = {}
for path in paths:
    with client.get(path) as response:
        answers[path] = {"status": response.status_code, "type": response.mimetype,
                         "body": response.get_data(as_text=True)}
print(json.dumps({"service": service.__file__, "answers": answers}))
"""


def _pip(*args: str, cwd: Path) -> None:
    done = subprocess.run([sys.executable, "-m", "pip", "--disable-pip-version-check", "-q", *args],
                          cwd=cwd, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr


def _build_source(into: Path) -> Path:
    """What the Dockerfile copies for `pip install .`: the project file, the README, the service
    (its link to the client kept as a link) and the client's modules the link points at."""
    source = into / "source"
    source.mkdir()
    for name in ("pyproject.toml", "README.md"):
        shutil.copy2(ROOT / name, source / name)
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc")
    shutil.copytree(ROOT / "service", source / "service", symlinks=True, ignore=ignore)
    shutil.copytree(CLIENT_SOURCE, source / "client-js" / "src", ignore=ignore)
    return source


def test_the_installed_wheel_serves_play_and_the_javascript_client(tmp_path):
    source = _build_source(tmp_path)
    assert (source / "service" / "web" / "client").is_symlink()
    wheels = tmp_path / "wheels"
    # No build isolation: the venv's setuptools builds it, without the network.
    _pip("wheel", "--no-deps", "--no-build-isolation", "--wheel-dir", str(wheels), str(source), cwd=tmp_path)
    (wheel,) = wheels.glob("wurfwerk_service-*.whl")
    target = tmp_path / "site"
    _pip("install", "--no-deps", "--no-compile", "--target", str(target), str(wheel), cwd=tmp_path)
    assert not (target / "service" / "web" / "client").is_symlink()
    shutil.rmtree(source)  # nothing the installed service could reach back into

    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    env = {**os.environ, "PYTHONPATH": str(target)}
    env.pop("PYTHONSAFEPATH", None)
    done = subprocess.run([sys.executable, "-c", SERVE_FROM_INSTALL, str(target), json.dumps(FETCHED)],
                          cwd=elsewhere, env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    served = json.loads(done.stdout)
    assert Path(served["service"]).is_relative_to(target)
    answers = served["answers"]
    assert all(answer["status"] == 200 for answer in answers.values()), {
        path: answer["status"] for path, answer in answers.items()}
    assert answers["/play"]["type"] == "text/html" and 'src="/play/assets/play.js"' in answers["/play"]["body"]
    assert 'from "../client/index.js"' in answers["/play/assets/play.js"]["body"]
    for path in FETCHED[2:]:
        assert answers[path]["type"] == "text/javascript"
        module = path.removeprefix("/play/client/")
        assert answers[path]["body"] == (CLIENT_SOURCE / module).read_text(), f"{path} differs from client-js/src"


def test_the_checkout_serves_the_client_through_its_link_and_only_its_modules(client):
    assert (ROOT / "service" / "web" / "client").resolve() == CLIENT_SOURCE
    with client.get("/play/client/index.js") as response:
        assert response.status_code == 200 and response.get_data() == (CLIENT_SOURCE / "index.js").read_bytes()
    assert client.get("/play/client/openapi.d.ts").status_code == 404  # the type declarations stay out
    assert client.get("/play/assets/client/index.js").status_code == 404  # one address per module
