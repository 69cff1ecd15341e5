"""gunicorn settings for `make run` and the container (`gunicorn --config deploy/gunicorn.conf.py`).

Every value can be moved by the environment; the defaults are the production ones.
"""

import os
import shutil
import tempfile

from service.config import config_from_env

bind = f"0.0.0.0:{os.environ.get('PORT', '8000')}"
workers = int(os.environ.get("WEB_CONCURRENCY", "2"))
# The service's gevent worker (service/platform/worker.py: why gevent, deadlines, problem+json
# answers, load shedding); the variables exist to compare worker models (bench/load.py).
worker_class = os.environ.get("GUNICORN_WORKER_CLASS", "service.platform.worker.Worker")
threads = int(os.environ.get("GUNICORN_THREADS", "1"))
# Open connections per worker (greenlets); beyond it the worker stops accepting.
worker_connections = int(os.environ.get("GUNICORN_WORKER_CONNECTIONS", "1000"))
# What a client may send, from the settings table (service/config.py); gunicorn answers beyond it.
_settings = config_from_env()  # a bad WURFWERK_* value stops gunicorn here, before any fork
limit_request_line = _settings.request_line_bytes
limit_request_fields = _settings.header_fields
limit_request_field_size = _settings.header_field_bytes
# Idle kept-alive connections of the other worker classes; the service's worker uses
# WURFWERK_READ_TIMEOUT for them.
keepalive = 5
timeout = 30
graceful_timeout = 20
max_requests = int(os.environ.get("GUNICORN_MAX_REQUESTS", "0"))
max_requests_jitter = max_requests // 10
accesslog = "-" if os.environ.get("GUNICORN_ACCESS_LOG", "1") == "1" else None
errorlog = "-"
# The app is built in each worker after the fork: nothing random or keyed is shared by fork.
preload_app = False
# gunicorn's control socket lives in $HOME, which the container's user may not own; nothing uses it.
control_socket_disable = True


def on_starting(server):
    """In the master, before any worker exists: the metrics directory and the development key."""
    _prepare_metrics_dir()
    _ensure_signing_key(server)


def _prepare_metrics_dir():
    directory = os.environ.get("PROMETHEUS_MULTIPROC_DIR")
    if not directory:
        directory = tempfile.mkdtemp(prefix="wurfwerk-metrics-")
        os.environ["PROMETHEUS_MULTIPROC_DIR"] = directory
    # Samples of an earlier run would be counted again: start empty.
    shutil.rmtree(directory, ignore_errors=True)
    os.makedirs(directory, exist_ok=True)


def _ensure_signing_key(server):
    """With no key configured, create a development key file once (outside git) and point every
    worker at it, so all workers sign with the same key."""
    if os.environ.get("WURFWERK_SIGNING_KEY") or os.environ.get("WURFWERK_SIGNING_KEY_FILE"):
        return
    from service.config import config_from_env
    from service.platform.receipts import generate_private_key_pem

    path = config_from_env().dev_key_file  # also refuses a bad WURFWERK_* value before any fork
    if not os.path.exists(path):
        os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
        descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(descriptor, "w") as handle:
            handle.write(generate_private_key_pem())
        server.log.warning("created a development signing key at %s (do not use in production)", path)
    os.environ["WURFWERK_SIGNING_KEY_FILE"] = os.path.abspath(path)


def child_exit(server, worker):
    from prometheus_client import multiprocess

    multiprocess.mark_process_dead(worker.pid)


def post_worker_init(worker):
    """Logged once the app is built in the worker: from here on it serves requests."""
    worker.log.info("worker %s ready", worker.pid)
