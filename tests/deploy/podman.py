"""podman for the container tests: the local base image, the service image, and clean-up.

No registry is reachable here, so the images the container files name (python:3.11-slim, haproxy)
are stood in for by one image bootstrapped from Debian packages (tests/deploy/base_image.sh); the
Dockerfile and docker-compose.yml take it through their build argument and image variable, unmodified.

podman in this sandbox (root, no systemd, cgroup v1), and what was done about it:
- netavark needs the `iptables` binary (.ci/run installs it) or no container gets a network;
- the default rlimits (nofile 1048576, nproc 4194304) exceed the sandbox's hard limits and runc refuses
  every container: .ci/setup.d/podman.sh sets default_ulimits, cgroupfs, the file events logger, runc;
- podman schedules HEALTHCHECKs with systemd timers: without systemd they never run by themselves
  (and podman logs "unable to get systemd connection"); the tests run them with `podman healthcheck
  run`, and compose does not wait for `service_healthy` (podman-compose ignores it before podman 4.6);
- builds default to the OCI format, which has no HEALTHCHECK: every build here uses the Docker format;
- `--read-only` mounts tmpfs on /tmp, /run and /var/tmp by itself (Docker does not): the tests pass
  `--read-only-tmpfs=false --tmpfs /tmp`, as Docker users must;
- podman-compose links containers with `--requires` (a replica cannot be removed while the balancer
  exists), starts `deploy.replicas` only with `mode: replicated`, and waits for "stopped", not for
  success, on `service_completed_successfully`;
- a stopped container that starts again gets a new address: that is how the tests show the balancer
  finding a replica again.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
BASE_IMAGE = "localhost/wurfwerk-ci-base:bookworm"
SERVICE_IMAGE = "localhost/wurfwerk:latest"  # the name docker-compose.yml builds and runs
PODMAN_COMPOSE = str(Path(sys.executable).with_name("podman-compose"))

# Docker's image format keeps the Dockerfile's HEALTHCHECK (the OCI format has no such field).
ENV = {**os.environ, "BUILDAH_FORMAT": "docker"}


def podman(*args: str, check: bool = True, timeout: float = 120, env: dict | None = None,
           stdin: str | None = None) -> subprocess.CompletedProcess:
    result = subprocess.run(["podman", *args], capture_output=True, text=True, timeout=timeout,
                            env=env or ENV, input=stdin)
    if check and result.returncode != 0:
        raise AssertionError(f"podman {' '.join(args)} failed ({result.returncode}):\n{result.stderr[-3000:]}")
    return result


def ensure_base_image() -> None:
    """Bootstrapped once per machine (minutes); CI does it in .ci/setup.d/podman.sh already."""
    subprocess.run(["bash", str(ROOT / "tests" / "deploy" / "base_image.sh"), BASE_IMAGE], check=True,
                   timeout=1200, env=ENV, capture_output=True)


def build_service_image() -> None:
    """The real Dockerfile; layers are cached, so an unchanged tree rebuilds in seconds."""
    podman("build", "--pull=never", "--format", "docker", "--build-arg", f"PYTHON_IMAGE={BASE_IMAGE}",
           "--tag", SERVICE_IMAGE, str(ROOT), timeout=900)


def container_ip(name: str) -> str:
    return podman("inspect", name, "--format",
                  "{{range .NetworkSettings.Networks}}{{.IPAddress}}{{end}}").stdout.strip()


def state(name: str, field: str) -> str:
    return podman("inspect", name, "--format", "{{.State." + field + "}}").stdout.strip()


def remove_containers(*names: str) -> None:
    for name in names:
        podman("rm", "--force", "--time", "0", name, check=False, timeout=60)


def wait_for(predicate, timeout: float, what: str, interval: float = 0.3):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(interval)
    raise TimeoutError(f"{what} within {timeout} s")
