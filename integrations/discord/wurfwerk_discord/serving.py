"""gunicorn settings of the Discord app: ``gunicorn --config python:wurfwerk_discord.serving
'wurfwerk_discord:create_app()'`` (``make discord``, the compose profile, the Kubernetes Deployment and
bench/discord_speed.py start it so).

The service's own worker (service/serving/worker.py): gevent, so a connection is a greenlet and a client
that sends half a request, or nothing, costs memory, never a thread that a signed PING then waits for;
the head and the body each have ``WURFWERK_READ_TIMEOUT`` seconds (10) to arrive. A deferred answer's
follow-up runs as a greenlet after the response has gone (``threading`` is gevent's there)."""

import os

bind = f"0.0.0.0:{os.environ.get('DISCORD_PORT', '8010')}"
workers = int(os.environ.get("DISCORD_WORKERS", "2"))
worker_class = "service.serving.worker.Worker"
worker_connections = 1000
timeout = 30
graceful_timeout = 20
accesslog = "-"
errorlog = "-"
control_socket_disable = True  # gunicorn's control socket lives in $HOME, which the container's user may not own
