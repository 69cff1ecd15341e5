"""Real gunicorn and HAProxy processes on loopback for the topology tests (no Docker engine here)."""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import requests

ROOT = Path(__file__).resolve().parents[2]
GUNICORN = str(Path(sys.executable).with_name("gunicorn"))


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def wait_until_up(url: str, timeout: float = 20.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            if requests.get(url, timeout=1).status_code == 200:
                return
        except requests.RequestException:
            pass
        time.sleep(0.1)
    raise TimeoutError(f"{url} did not come up")


class Gunicorn:
    """gunicorn with the production config file (deploy/gunicorn.conf.py) on a loopback port."""

    def __init__(self, tmp: Path, *, env: dict[str, str], workers: int = 2, name: str = "gunicorn",
                 app: str = "service:create_app()", metrics_dir: bool = True, root: Path = ROOT):
        """``metrics_dir=False`` starts as `make run` does: no PROMETHEUS_MULTIPROC_DIR in the environment."""
        self.app = app
        self.root = root  # the checkout it serves (bench.run serves an earlier one beside this one)
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.log = tmp / f"{name}.log"
        inherited = {key: value for key, value in os.environ.items() if key != "PROMETHEUS_MULTIPROC_DIR"}
        self.env = {**inherited, "PORT": str(self.port), "WEB_CONCURRENCY": str(workers),
                    "GUNICORN_ACCESS_LOG": "0", "WURFWERK_LOG_LEVEL": "WARNING",
                    **({"PROMETHEUS_MULTIPROC_DIR": str(tmp / f"{name}-metrics")} if metrics_dir else {}),
                    **env}
        self.process: subprocess.Popen | None = None
        self._log_handle = None

    def start(self) -> Gunicorn:
        self._log_handle = open(self.log, "ab")
        self.process = subprocess.Popen(
            [GUNICORN, "--config", "deploy/gunicorn.conf.py", "--bind", f"127.0.0.1:{self.port}",
             self.app],
            cwd=self.root, env=self.env, stdout=self._log_handle, stderr=subprocess.STDOUT,
            start_new_session=True)
        self._wait_for_workers()
        wait_until_up(self.url + "/livez")
        return self

    def _wait_for_workers(self, timeout: float = 30.0) -> None:
        """Until every worker of this start has logged that its app is built (post_worker_init)."""
        already = self.log.read_text(errors="replace").count(" ready") if self.log.exists() else 0
        expected = already + int(self.env["WEB_CONCURRENCY"])
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.log.read_text(errors="replace").count(" ready") >= expected:
                return
            if self.process.poll() is not None:
                raise RuntimeError(f"gunicorn exited: {self.log.read_text(errors='replace')[-2000:]}")
            time.sleep(0.05)
        raise TimeoutError("gunicorn workers did not become ready")

    def kill(self) -> None:
        """SIGKILL the whole process group: the instance dies as in a crash."""
        if self.process and self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait(10)
        self._close_log()

    def _close_log(self) -> None:
        if self._log_handle:
            self._log_handle.close()
            self._log_handle = None

    def stop(self) -> None:
        if self.process and self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(15)
            except subprocess.TimeoutExpired:
                self.kill()
        self._close_log()


def haproxy_available() -> bool:
    return shutil.which("haproxy") is not None or Path("/usr/sbin/haproxy").exists()


class Haproxy:
    """Debian's HAProxy as the load balancer, running deploy/balancer/haproxy.cfg unchanged (the file compose and
    Kubernetes run); the replicas are given by address since there is no DNS name for them here."""

    def __init__(self, tmp: Path, upstreams: list[int], *, env: dict[str, str] | None = None):
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.log = tmp / "haproxy.log"
        replicas = {f"WURFWERK_REPLICA_{index}": f"127.0.0.1:{port}" for index, port in enumerate(upstreams, 1)}
        self.env = {**os.environ, "WURFWERK_BALANCER_BIND": f"127.0.0.1:{self.port}",
                    "WURFWERK_RATE_LIMIT_REQUESTS": "100000", "WURFWERK_RATE_LIMIT_ADDRESS_REQUESTS": "100000",
                    **replicas, **(env or {})}
        self.process: subprocess.Popen | None = None
        self._log_handle = None

    def start(self) -> Haproxy:
        binary = shutil.which("haproxy") or "/usr/sbin/haproxy"
        self._log_handle = open(self.log, "ab")
        # -W master-worker, -db stays in the foreground: as in the container.
        self.process = subprocess.Popen([binary, "-W", "-db", "-f", str(ROOT / "deploy" / "balancer" / "haproxy.cfg")],
                                        env=self.env, stdout=self._log_handle, stderr=subprocess.STDOUT,
                                        start_new_session=True)
        wait_until_up(self.url + "/livez")
        return self

    def stop(self) -> None:
        if self.process and self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGUSR1)  # soft stop: finish the connections in flight
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait(5)
        if self._log_handle:
            self._log_handle.close()
            self._log_handle = None
