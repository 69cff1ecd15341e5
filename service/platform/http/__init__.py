"""HTTP around every view: request steps and checks, problems (RFC 9457), JSON, language, CORS,
metrics, caching, limits."""
