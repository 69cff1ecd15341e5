"""wurfwerk: resolution service for Beutelschneider, Paws, Weltenbuch, Proben and Malmsturm."""

from __future__ import annotations

import logging
from collections.abc import Mapping
from importlib.metadata import version
from typing import Any

from flask import Flask

from service.config import Config, config_from_env
from service.platform.dice.receipts import KeyRing, generate_private_key_pem
from service.platform.endpoints.api import WurfwerkApi
from service.platform.endpoints.routes import platform_blueprint
from service.platform.endpoints.web import install_web
from service.platform.http.caching import revalidated
from service.platform.http.cors import install_cors
from service.platform.http.flaskapp import ServiceFlask
from service.platform.http.hooks import answer_options, check_request, echo_request_id, install_too_large_problem
from service.platform.http.http_json import OrjsonProvider
from service.platform.http.i18n import language_headers
from service.platform.http.metrics import install_metrics, observe, start_timer
from service.platform.http.problems import register_glossaries, register_problem_handlers
from service.platform.http.request_steps import install_request_steps
from service.platform.http.runtime import Runtime
from service.platform.operations.contract import signed_examples
from service.platform.operations.openapi import document_systems
from service.platform.operations.operations import EXAMPLE_RECEIPT, operations_of, route
from service.systems import discover

__version__ = version("wurfwerk-service")  # written once, in pyproject.toml
log = logging.getLogger("wurfwerk")


def create_app(test_config: Mapping[str, Any] | Config | None = None) -> Flask:
    """The app factory. ``test_config`` overrides settings read from the environment: a ``Config``,
    or a mapping of ``Config`` fields (tests pass ``{"signing_key_pem": ...}`` and limits)."""
    config = _resolve_config(test_config)
    logging.basicConfig(level=config.log_level, format="%(asctime)s %(levelname)s %(name)s %(message)s")

    app = ServiceFlask(__name__)
    app.json = OrjsonProvider(app)
    app.config.update(
        MAX_CONTENT_LENGTH=config.limits.body_bytes,
        API_TITLE="wurfwerk",
        API_VERSION=__version__,
        OPENAPI_VERSION="3.1.0",
        OPENAPI_URL_PREFIX="/",
        OPENAPI_JSON_PATH="openapi.json",
        API_SPEC_OPTIONS=_spec_options(),
    )
    app.extensions["wurfwerk"] = _runtime(config)

    register_problem_handlers(app)
    install_too_large_problem(app)
    install_metrics(app)
    cors_headers = install_cors(app, config.cors_origins)
    install_request_steps(app, before=[check_request, start_timer], after=[
        cors_headers,
        signed_examples(app.extensions["wurfwerk"].keys, EXAMPLE_RECEIPT),  # first: the ETag is of the signed spec
        revalidated,
        observe,  # the status as answered so far: a preflight counts as 200
        language_headers,
        answer_options,
        echo_request_id,
    ])
    install_web(app)

    api = WurfwerkApi(app)
    _register_systems(app, api)
    return app


def _resolve_config(test_config: Mapping[str, Any] | Config | None) -> Config:
    if isinstance(test_config, Config):
        return test_config
    config = config_from_env()
    return config.with_overrides(test_config) if test_config else config


def _runtime(config: Config) -> Runtime:
    ephemeral = not config.signing_key_pem
    if ephemeral:
        log.warning("no WURFWERK_SIGNING_KEY configured: using a key for this process only; "
                    "receipts will not verify on other processes")
    keys = KeyRing.from_pem(config.signing_key_pem or generate_private_key_pem(), config.verify_keys_pem,
                           config.retired_keys_pem)
    return Runtime(config=config, keys=keys, ephemeral_key=ephemeral)


def _register_systems(app: Flask, api: WurfwerkApi) -> None:
    """Route and document every declared operation; the platform's endpoints list them."""
    systems = discover()
    route(app, systems)
    register_glossaries(app, {system.id: system.glossary for system in systems})
    api.register_blueprint(platform_blueprint(operations_of(app)))
    document_systems(api, app, systems)


def _spec_options() -> dict:
    return {
        "info": {
            "description": (
                "Typed, signed, exact resolution of the German indie systems Beutelschneider, Paws, "
                "Weltenbuch, Proben and Malmsturm. Every rolling operation accepts `seed` or `manual`, "
                "returns a signed envelope (Ed25519 over RFC 8785 JSON, keys at /v1/keys) and has an "
                "`/odds` twin with exact fractions. Errors are RFC 9457 problem details."
            ),
            "license": {"name": "MIT", "identifier": "MIT"},
            "contact": {"name": "wurfwerk", "url": "https://wurfwerk.dev/"},  # the problem types' home
        },
        "servers": [{"url": "/"}],
    }
