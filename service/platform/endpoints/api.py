"""flask-smorest wired for wurfwerk through its public hooks: problem+json errors, one JSON parse.

- ``WurfwerkApi.handle_http_exception`` (flask-smorest's handler of every ``HTTPException``) answers
  with an RFC 9457 problem;
- ``ProblemResponses``, an apispec plugin (flask-smorest's ``extra_plugins``), documents the error
  responses flask-smorest registers as ``application/problem+json`` with ``ProblemSchema``;
- the webargs parser of the platform's own endpoints loads ``json`` through ``location_loader`` from
  the body the request hook already parsed.
"""

from __future__ import annotations

from http import HTTPStatus
from typing import Any

import marshmallow as ma
from apispec import APISpec, BasePlugin
from flask import Flask, Request, Response
from flask_smorest import Api, Blueprint
from webargs import core
from webargs.flaskparser import FlaskParser
from werkzeug.exceptions import HTTPException

from service.platform.http.hooks import needs_api_key, request_body
from service.platform.http.problems import PROBLEM_MEDIA_TYPE, ProblemSchema, http_exception_problem
from service.platform.operations.contract import ContractDocs, SchemaRules


class CachedJsonParser(FlaskParser):
    DEFAULT_VALIDATION_STATUS = 422
    # location_loader writes into the class's location table: this class gets its own copy, so
    # webargs' other parsers keep theirs.
    __location_map__ = dict(FlaskParser.__location_map__)


PARSER = CachedJsonParser()


@PARSER.location_loader("json")
def _parsed_body(req: Request, _schema: ma.Schema) -> object:
    """The body the request hook parsed (with orjson), instead of parsing it a second time."""
    return request_body(core.missing)


class WurfwerkBlueprint(Blueprint):
    ARGUMENTS_PARSER = PARSER


# flask-smorest registers a reusable response per HTTP status, and its default error response, all
# with ERROR_SCHEMA as application/json; those of errors are problems.
_ERROR_DESCRIPTIONS = frozenset(status.phrase for status in HTTPStatus if status >= 400) | {
    "Default error response"}


class ProblemResponses(BasePlugin):
    """Serve the error responses flask-smorest registers as ``application/problem+json``."""

    def response_helper(self, response: dict, **kwargs: Any) -> dict | None:
        content = response.get("content", {})
        if response.get("description") in _ERROR_DESCRIPTIONS and set(content) == {"application/json"}:
            return {"content": {PROBLEM_MEDIA_TYPE: content["application/json"]}}
        return None


class BearerSecurity(BasePlugin):
    """Declare the optional API keys: a ``bearer`` scheme, required by every operation the key check
    covers (``needs_api_key``), with the empty alternative because keys are configured per
    deployment (without WURFWERK_API_KEYS the same calls need none). Swagger UI's "Authorize"
    then sends the key with "Try it out"."""

    SCHEME = {
        "type": "http",
        "scheme": "bearer",
        "description": "An API key as `Authorization: Bearer <key>`; needed only when the server sets "
                       "WURFWERK_API_KEYS. `/v1/keys`, health, metrics and the docs stay open.",
    }

    def init_spec(self, spec: APISpec) -> None:
        super().init_spec(spec)
        spec.components.security_scheme("bearer", self.SCHEME)

    def operation_helper(self, path: str | None = None, operations: dict | None = None, **kwargs: Any) -> None:
        if path is None or not needs_api_key(path):
            return
        for operation in (operations or {}).values():
            operation["security"] = [{"bearer": []}, {}]


class WurfwerkApi(Api):
    ERROR_SCHEMA = ProblemSchema

    def __init__(self, app: Flask | None = None, **kwargs: Any) -> None:
        kwargs.setdefault("spec_kwargs", {}).setdefault("extra_plugins", [ProblemResponses(), BearerSecurity(),
                                                                          ContractDocs(), SchemaRules()])
        super().__init__(app, **kwargs)
        # flask-smorest registers its pagination schema whatever the API; nothing here paginates.
        self.spec.components.schemas.pop("PaginationMetadata", None)

    def handle_http_exception(self, error: HTTPException) -> Response:
        return http_exception_problem(error)
