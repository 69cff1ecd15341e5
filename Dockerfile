# wurfwerk service image: slim Python, non-root, read-only root filesystem friendly, gunicorn from
# deploy/gunicorn.conf.py. PYTHON_IMAGE lets a machine without registry access build from a local
# stand-in (CI bootstraps one from Debian packages: tests/deploy/base_image.sh).
ARG PYTHON_IMAGE=python:3.11-slim
FROM ${PYTHON_IMAGE} AS runtime

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    PIP_ROOT_USER_ACTION=ignore \
    PORT=8000 \
    PROMETHEUS_MULTIPROC_DIR=/tmp/wurfwerk-metrics \
    WURFWERK_REQUIRE_SIGNING_KEY=1 \
    WURFWERK_DEV_KEY_FILE=/tmp/wurfwerk-dev/signing-key.pem

WORKDIR /app
# Dependencies first: this layer is rebuilt only when pyproject.toml changes, not on every code edit.
COPY pyproject.toml README.md ./
RUN python -c "import tomllib; print('\n'.join(tomllib.load(open('pyproject.toml','rb'))['project']['dependencies']))" \
      > /tmp/requirements.txt \
 && pip install -r /tmp/requirements.txt \
 && rm /tmp/requirements.txt
COPY service ./service
# The JavaScript client's modules, which /play serves as they are: service/web/client links to them,
# and `pip install` below copies them into the installed package (pyproject.toml's package data).
COPY client-js/src ./client-js/src
COPY deploy/gunicorn.conf.py deploy/signing_key.py ./deploy/
# The Discord app (integrations/discord) and the SDK it calls the service with: the same image runs it
# with another command (docker-compose.yml's profile `discord`, deploy/k8s's wurfwerk-discord).
COPY client/pyproject.toml client/README.md ./client/
COPY client/wurfwerk ./client/wurfwerk
COPY integrations/discord/pyproject.toml integrations/discord/README.md ./integrations/discord/
COPY integrations/discord/wurfwerk_discord ./integrations/discord/wurfwerk_discord
# The app stays root-owned and read-only for the service user, which owns nothing in the image.
RUN pip install --no-deps . \
 && pip install ./client ./integrations/discord \
 && useradd --uid 10001 --user-group --shell /usr/sbin/nologin --no-create-home --home-dir /nonexistent wurfwerk

USER 10001:10001
EXPOSE 8000
# /livez only: readiness (/readyz) is the orchestrator's business, liveness decides restarts.
HEALTHCHECK --interval=10s --timeout=3s --start-period=10s --retries=3 \
  CMD ["python", "-c", "import os, urllib.request; urllib.request.urlopen('http://127.0.0.1:%s/livez' % os.environ.get('PORT', '8000'), timeout=2)"]
# SIGTERM to gunicorn (PID 1 via exec): it stops accepting, finishes the requests it holds within
# graceful_timeout and exits; the orchestrator's grace period must be longer.
STOPSIGNAL SIGTERM
CMD ["gunicorn", "--config", "deploy/gunicorn.conf.py", "service:create_app()"]
