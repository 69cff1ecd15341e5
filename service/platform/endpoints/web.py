"""The pages for people: ``/docs`` (Swagger UI) and ``/play`` (roll, see, verify), all from local files.

``/docs`` is Swagger UI 5 as shipped by the ``flask-swagger-ui`` package (it bundles the upstream
dist files and versions itself after them; Swagger UI 5 reads OpenAPI 3.1), in a page of our own
(``service/web/docs/``): a stylesheet over Swagger UI's where its colours fail contrast, and a plugin
for its markup that axe-core faults (tests/web/test_docs.py). ``/play`` is plain
HTML, CSS and JavaScript from ``service/web/`` and uses the JavaScript client's ES modules, served
as they are (no build step) from ``service/web/client``: a link to ``client-js/src`` in the checkout,
the files themselves in a wheel (pyproject.toml's package data), so an installed service serves them.
"""

from __future__ import annotations

import json
import logging
from pathlib import Path

import flask_swagger_ui
from flask import Blueprint, Flask, Response, abort, send_from_directory

log = logging.getLogger("wurfwerk")

PAGES = Path(__file__).resolve().parents[2] / "web"
CLIENT_JS = PAGES / "client"
DOCS = PAGES / "docs"
SWAGGER_UI = Path(flask_swagger_ui.__file__).parent / "dist"

SWAGGER_UI_CONFIG = {
    "url": "/openapi.json",
    "deepLinking": True,  # the address names the open operation, and opens it again
    "displayOperationId": True,  # operation ids are the names clients call; show them
    "layout": "BaseLayout",  # without the top bar that loads any other spec by URL
    "docExpansion": "list",
    "defaultModelsExpandDepth": 0,
    "tryItOutEnabled": False,
    "persistAuthorization": False,  # an API key typed into /docs stays in that tab only
    "validatorUrl": None,  # Swagger UI would otherwise send the spec to an online validator
    # Its default theme (agate) colours strings 3.45:1 against its background, under WCAG AA's 4.5:1.
    "syntaxHighlight": {"activated": True, "theme": "tomorrow-night"},
}


def install_web(app: Flask) -> None:
    """Register ``/docs`` and ``/play`` (with their assets) on ``app``."""
    app.register_blueprint(_docs_blueprint())
    app.register_blueprint(_play_blueprint())


def _docs_blueprint() -> Blueprint:
    docs = Blueprint("docs", __name__)
    # In a <script type="application/json">: no "</" may end it early.
    config = json.dumps(SWAGGER_UI_CONFIG).replace("</", "<\\/")
    page_html = (DOCS / "index.html").read_text(encoding="utf-8").replace("{{config}}", config)

    @docs.get("/docs")
    @docs.get("/docs/")
    @docs.get("/docs/index.html")
    def page() -> Response:
        return Response(page_html, content_type="text/html; charset=utf-8")

    @docs.get("/docs/<any('wurfwerk-docs.css', 'wurfwerk-docs.js'):filename>")
    def own_asset(filename: str) -> Response:
        return send_from_directory(DOCS, filename, max_age=300)

    @docs.get("/docs/<path:filename>")
    def swagger_ui_asset(filename: str) -> Response:
        return send_from_directory(SWAGGER_UI, filename, max_age=300)

    return docs


def _play_blueprint() -> Blueprint:
    play = Blueprint("play", __name__)
    if not (CLIENT_JS / "index.js").is_file():
        log.warning("service/web/client has no index.js: /play cannot load the JavaScript client")

    @play.get("/play")
    def page() -> Response:
        return send_from_directory(PAGES, "play.html", max_age=0)

    @play.get("/play/assets/<path:filename>")
    def assets(filename: str) -> Response:
        if filename.startswith("client/"):  # the client's files have their own route, below
            abort(404)
        return send_from_directory(PAGES, filename, max_age=300)

    @play.get("/play/client/<path:filename>")
    def client(filename: str) -> Response:
        if not filename.endswith(".js"):  # the module files only, not the type declarations
            abort(404)
        return send_from_directory(CLIENT_JS, filename, max_age=300)

    return play
