"""Real gunicorn and nginx processes on loopback for the topology tests (no Docker engine here)."""

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
                 app: str = "service:create_app()"):
        self.app = app
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.log = tmp / f"{name}.log"
        self.env = {**os.environ, "PORT": str(self.port), "WEB_CONCURRENCY": str(workers),
                    "GUNICORN_ACCESS_LOG": "0", "WURFWERK_LOG_LEVEL": "WARNING",
                    "PROMETHEUS_MULTIPROC_DIR": str(tmp / f"{name}-metrics"),
                    **env}
        self.process: subprocess.Popen | None = None
        self._log_handle = None

    def start(self) -> Gunicorn:
        self._log_handle = open(self.log, "ab")
        self.process = subprocess.Popen(
            [GUNICORN, "--config", "deploy/gunicorn.conf.py", "--bind", f"127.0.0.1:{self.port}",
             self.app],
            cwd=ROOT, env=self.env, stdout=self._log_handle, stderr=subprocess.STDOUT,
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


NGINX_CONF = """
daemon off;
worker_processes 1;
pid {tmp}/nginx.pid;
error_log {tmp}/nginx-error.log warn;
events {{ worker_connections 256; }}
http {{
    access_log off;
    client_body_temp_path {tmp}/body;
    proxy_temp_path {tmp}/proxy;
    fastcgi_temp_path {tmp}/fastcgi;
    uwsgi_temp_path {tmp}/uwsgi;
    scgi_temp_path {tmp}/scgi;
    map $http_x_request_id $wurfwerk_request_id {{
        default $http_x_request_id;
        ""      $request_id;
    }}
    upstream wurfwerk_api {{
{servers}
        keepalive 32;
    }}
    server {{
        listen 127.0.0.1:{port};
        client_max_body_size 64k;
        location / {{
            include {root}/deploy/nginx.proxy.conf;
        }}
    }}
}}
"""


def nginx_available() -> bool:
    return shutil.which("nginx") is not None or Path("/usr/sbin/nginx").exists()


class Nginx:
    """Debian's nginx as the load balancer, configured with deploy/nginx.proxy.conf."""

    def __init__(self, tmp: Path, upstreams: list[int]):
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.tmp = tmp
        servers = "\n".join(f"        server 127.0.0.1:{port} max_fails=1 fail_timeout=2s;" for port in upstreams)
        self.conf = tmp / "nginx.conf"
        self.conf.write_text(NGINX_CONF.format(tmp=tmp, servers=servers, port=self.port, root=ROOT))
        self.process: subprocess.Popen | None = None

    def start(self) -> Nginx:
        binary = shutil.which("nginx") or "/usr/sbin/nginx"
        self.process = subprocess.Popen([binary, "-c", str(self.conf), "-p", str(self.tmp)],
                                        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                        start_new_session=True)
        wait_until_up(self.url + "/livez")
        return self

    def stop(self) -> None:
        if self.process and self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGQUIT)
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
