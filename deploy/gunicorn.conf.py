"""gunicorn settings for `make run` and the container (`gunicorn --config deploy/gunicorn.conf.py`).

Every value can be moved by the environment; the defaults are the production ones.
"""

import logging
import os
import shutil
import signal
import sys
import tempfile

# In a container gunicorn is PID 1, and PID 1 ignores every signal it has no handler for: a SIGTERM
# that came while the master was still starting (before gunicorn installs its handlers) would be
# lost and the container killed after the grace period. Until then, SIGTERM simply ends the start.
# (Only at the first load: on SIGHUP gunicorn reads this file again, and its own handler must stay.)
if signal.getsignal(signal.SIGTERM) == signal.SIG_DFL:
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))

# prometheus_client chooses between in-memory and multiprocess samples once, when it is first imported,
# and the import below imports it (through the service package): the directory must be in the
# environment before, or every worker counts in memory that /metrics never reads (it reads the files).
if not os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
    os.environ["PROMETHEUS_MULTIPROC_DIR"] = tempfile.mkdtemp(prefix="wurfwerk-metrics-")

from service.config import ConfigError, config_from_env  # noqa: E402  (after the handler: a slow import)


def _fail(message: str):
    """One `Error:` line and exit 1 before any worker exists: no traceback, no workers failing to boot
    in a loop. (SystemExit passes through gunicorn's config loader, which reports other errors.)"""
    print(f"Error: {message}", file=sys.stderr, flush=True)
    sys.exit(1)


def _checked_settings():
    """The settings, with the signing key checked as far as the master can: the file readable, the
    PEM a key, and present when WURFWERK_REQUIRE_SIGNING_KEY is on."""
    key_file = os.environ.get("WURFWERK_SIGNING_KEY_FILE")
    if key_file and not os.environ.get("WURFWERK_SIGNING_KEY"):
        _check_key_file_readable(key_file)
    try:
        settings = config_from_env()
    except ConfigError as error:
        _fail(str(error))
    if settings.signing_key_pem:
        _check_keys_load(settings)
    elif settings.require_signing_key:
        _fail("no signing key: set WURFWERK_SIGNING_KEY (the PEM) or WURFWERK_SIGNING_KEY_FILE (a file holding "
              "it); create one with `openssl genpkey -algorithm ed25519 -out signing-key.pem` "
              "(WURFWERK_REQUIRE_SIGNING_KEY=1 forbids a key made up at startup)")
    return settings


def _check_key_file_readable(path: str) -> None:
    try:
        with open(path, "rb"):
            return
    except FileNotFoundError:
        _fail(f"WURFWERK_SIGNING_KEY_FILE={path}: no such file")
    except PermissionError:
        _fail(f"WURFWERK_SIGNING_KEY_FILE={path} is not readable by uid {os.getuid()} (gid {os.getgid()}); "
              f"{_ownership(path)}: make it readable by that user")
    except OSError as error:
        _fail(f"WURFWERK_SIGNING_KEY_FILE={path} cannot be read: {error.strerror}")


def _ownership(path: str) -> str:
    try:
        status = os.stat(path)
    except OSError:
        return "its directory is not searchable"
    return f"the file belongs to uid {status.st_uid} gid {status.st_gid} with mode {status.st_mode & 0o777:04o}"


def _check_keys_load(settings) -> None:
    from service.platform.dice.receipts import KeyConfigError, KeyRing

    try:
        KeyRing.from_pem(settings.signing_key_pem, settings.verify_keys_pem)
    except KeyConfigError as error:
        _fail(f"{error} (WURFWERK_SIGNING_KEY / WURFWERK_SIGNING_KEY_FILE, WURFWERK_VERIFY_KEYS)")


bind = f"0.0.0.0:{os.environ.get('PORT', '8000')}"
workers = int(os.environ.get("WEB_CONCURRENCY", "2"))
# The service's gevent worker (service/serving/worker.py: why gevent, deadlines, problem+json
# answers, load shedding); the variables exist to compare worker models (bench/load.py).
worker_class = os.environ.get("GUNICORN_WORKER_CLASS", "service.serving.worker.Worker")
threads = int(os.environ.get("GUNICORN_THREADS", "1"))
# Each worker listens on a socket of its own (SO_REUSEPORT): the kernel spreads new connections
# evenly over the workers, and each worker accepts all that wait (service/serving/worker.py).
reuse_port = True
# Open connections per worker (greenlets); beyond it the worker stops accepting.
worker_connections = int(os.environ.get("GUNICORN_WORKER_CONNECTIONS", "1000"))
# What a client may send, from the settings table (service/config.py); gunicorn answers beyond it.
_settings = _checked_settings()  # a bad WURFWERK_* value or key stops gunicorn here, before any fork
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
# gunicorn's default line, then the X-Request-ID the answer carried: the id a user is shown (a problem's
# `request_id`, /play's receipt) finds its line. The response's header, not the request's: the service
# makes an id where the client sent none or an implausible one.
access_log_format = '%(h)s %(l)s %(u)s %(t)s "%(r)s" %(s)s %(b)s "%(f)s" "%(a)s" request_id=%({x-request-id}o)s'
errorlog = "-"
# The app is built in each worker after the fork: nothing random or keyed is shared by fork.
preload_app = False
# gunicorn's control socket lives in $HOME, which the container's user may not own; nothing uses it.
control_socket_disable = True


def on_starting(server):
    """In the master, before any worker exists: the metrics directory, the development key, and the
    address in gunicorn's "Listening at:" line."""
    _empty_metrics_dir()
    _ensure_signing_key(server)
    server.log.error_log.addFilter(_ListeningAddresses(server.cfg))


def _empty_metrics_dir():
    """Samples of an earlier run would be counted again: start empty (set at the top of this file)."""
    directory = os.environ["PROMETHEUS_MULTIPROC_DIR"]
    shutil.rmtree(directory, ignore_errors=True)
    os.makedirs(directory, exist_ok=True)


class _ListeningAddresses(logging.Filter):
    """With reuse_port the master binds nothing (each worker binds its own socket), so gunicorn's
    "Listening at: %s (%s)" names no address; this fills in the configured ones."""

    def __init__(self, cfg):
        super().__init__()
        scheme = "https" if cfg.is_ssl else "http"
        self.addresses = ",".join(_url(scheme, address) for address in cfg.address)

    def filter(self, record):
        if record.msg == "Listening at: %s (%s)" and not record.args[0]:
            record.args = (self.addresses, *record.args[1:])
        return True


def _url(scheme: str, address) -> str:
    if isinstance(address, str):
        return f"unix:{address}"
    host, port = address[:2]
    return f"{scheme}://[{host}]:{port}" if ":" in host else f"{scheme}://{host}:{port}"


def when_ready(server):
    """Which key the workers sign with, by its kid (the public thumbprint; never the key)."""
    from service.platform.dice.receipts import KeyRing

    settings = config_from_env()  # now with the development key file, if _ensure_signing_key chose one
    source = ("WURFWERK_SIGNING_KEY" if os.environ.get("WURFWERK_SIGNING_KEY")
              else f"WURFWERK_SIGNING_KEY_FILE={os.environ['WURFWERK_SIGNING_KEY_FILE']}")
    server.log.info("Signing receipts with kid %s (from %s)",
                    KeyRing.from_pem(settings.signing_key_pem, settings.verify_keys_pem).kid, source)


def _ensure_signing_key(server):
    """With no key configured (and none required: `make run`), create a development key file once
    (outside git) and point every worker at it, so all workers sign with the same key."""
    if _settings.signing_key_pem:
        return
    from service.platform.dice.receipts import generate_private_key_pem

    path = _settings.dev_key_file
    if not os.path.exists(path):
        try:
            os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
            descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        except OSError as error:
            _fail(f"cannot create the development signing key WURFWERK_DEV_KEY_FILE={path} as uid {os.getuid()}: "
                  f"{error.strerror}; point WURFWERK_DEV_KEY_FILE at a writable place or configure "
                  "WURFWERK_SIGNING_KEY_FILE")
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
