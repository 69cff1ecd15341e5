# wurfwerk service image: slim Python, non-root, gunicorn from deploy/gunicorn.conf.py.
FROM python:3.11-slim AS runtime

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PORT=8000 \
    PROMETHEUS_MULTIPROC_DIR=/tmp/wurfwerk-metrics

WORKDIR /app
COPY pyproject.toml README.md ./
COPY service ./service
COPY deploy ./deploy
RUN pip install . \
 && useradd --system --uid 10001 --home-dir /app wurfwerk

USER wurfwerk
EXPOSE 8000
HEALTHCHECK --interval=10s --timeout=3s --start-period=10s --retries=3 \
  CMD python -c "import urllib.request,os; urllib.request.urlopen(f'http://127.0.0.1:{os.environ.get(\"PORT\",\"8000\")}/livez', timeout=2)"

# The signing key comes from WURFWERK_SIGNING_KEY_FILE (a compose secret); exec keeps gunicorn PID 1's child signals.
CMD ["sh", "-c", "exec gunicorn --config deploy/gunicorn.conf.py 'service:create_app()'"]
