"""The pages for people: ``/docs`` (Swagger UI) and ``/play`` (roll, see, verify), all from local files.

``/docs`` is Swagger UI 5 as shipped by the ``flask-swagger-ui`` package (it bundles the upstream
dist files and versions itself after them; Swagger UI 5 reads OpenAPI 3.1). ``/play`` is plain
HTML, CSS and JavaScript from ``service/web/`` and uses the JavaScript client's ES modules, served
as they are (no build step) from ``service/web/client``: a link to ``client-js/src`` in the checkout,
the files themselves in a wheel (pyproject.toml's package data), so an installed service serves them.
"""

from __future__ import annotations

import logging
from pathlib import Path

from flask import Blueprint, Flask, Response, abort, send_from_directory
from flask_swagger_ui import get_swaggerui_blueprint

log = logging.getLogger("wurfwerk")

PAGES = Path(__file__).resolve().parents[2] / "web"
CLIENT_JS = PAGES / "client"

SWAGGER_UI_CONFIG = {
    "app_name": "wurfwerk API",
    "displayOperationId": True,  # operation ids are the names clients call; show them
    "layout": "BaseLayout",  # without the top bar that loads any other spec by URL
    "docExpansion": "list",
    "defaultModelsExpandDepth": 0,
    "tryItOutEnabled": False,
    "persistAuthorization": False,  # an API key typed into /docs stays in that tab only
    "validatorUrl": None,  # Swagger UI would otherwise send the spec to an online validator
}


def install_web(app: Flask) -> None:
    """Register ``/docs`` and ``/play`` (with their assets) on ``app``."""
    docs = get_swaggerui_blueprint("/docs", "/openapi.json", config=dict(SWAGGER_UI_CONFIG), blueprint_name="docs")
    app.register_blueprint(docs)
    # The blueprint's page is /docs/; /docs itself answers too, instead of a redirect.
    app.add_url_rule("/docs", "docs_page", app.view_functions["docs.show"])
    app.register_blueprint(_play_blueprint())


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
