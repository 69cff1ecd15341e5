"""flask-smorest wired for wurfwerk through its public hooks: problem+json errors, one JSON parse.

- ``WurfwerkApi.handle_http_exception`` (flask-smorest's handler of every ``HTTPException``) answers
  with an RFC 9457 problem;
- ``ProblemResponses``, an apispec plugin (flask-smorest's ``extra_plugins``), documents the error
  responses flask-smorest registers as ``application/problem+json`` with ``ProblemSchema``;
- the webargs parser of the platform's own endpoints loads ``json`` through ``location_loader`` from
  the body the request hook already parsed;
- ``Endpoint`` declares one of the platform's own endpoints as data, as a system declares an
  operation, and ``blueprint`` applies flask-smorest's decorators to a table of them in one place.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping, Sequence
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
from service.platform.operations.operations import Operation


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


@dataclasses.dataclass(frozen=True)
class Endpoint:
    """One of the platform's own endpoints, declared once: everything its route and its spec entry
    read. ``view`` is a module-level function whose docstring gives the summary and description
    (flask-smorest reads it); it takes the loaded body when the endpoint has a request. ``request``
    is its request schema, or ``request_for`` makes it from the app's operations (a schema that
    lists operation ids). ``problems`` are the statuses of the problems it documents."""

    method: str
    path: str
    view: Callable[..., Response]
    operation_id: str
    response: type[ma.Schema]
    example: Mapping[str, Any] | None = None  # of the 200 response
    request: type[ma.Schema] | None = None
    request_for: Callable[[Mapping[str, Operation]], type[ma.Schema]] | None = None
    request_example: Mapping[str, Any] | None = None
    problems: tuple[int, ...] = ()
    parameters: tuple[Mapping[str, Any], ...] = ()  # header parameters the spec names

    @classmethod
    def get(cls, path: str, view: Callable[..., Response], **declared: Any) -> Endpoint:
        return cls("GET", path, view, **declared)

    @classmethod
    def post(cls, path: str, view: Callable[..., Response], **declared: Any) -> Endpoint:
        return cls("POST", path, view, **declared)

    def request_schema(self, operations: Mapping[str, Operation]) -> type[ma.Schema] | None:
        return self.request_for(operations) if self.request_for is not None else self.request


def blueprint(name: str, description: str, endpoints: Sequence[Endpoint],
              operations: Mapping[str, Operation]) -> WurfwerkBlueprint:
    """A blueprint routing and documenting ``endpoints``; ``operations`` are the app's, for the
    request schemas made from them. Each view's Flask endpoint is ``<name>.<view's name>``."""
    blp = WurfwerkBlueprint(name, __name__, description=description)
    for endpoint in endpoints:
        view: Callable[..., Response] = blp.doc(operationId=endpoint.operation_id, **(
            {"parameters": [dict(parameter) for parameter in endpoint.parameters]} if endpoint.parameters else {}
        ))(endpoint.view)
        for status in endpoint.problems:
            view = blp.alt_response(status, response=HTTPStatus(status).name)(view)
        view = blp.response(200, endpoint.response, example=endpoint.example)(view)
        request = endpoint.request_schema(operations)
        if request is not None:
            view = blp.arguments(request(), example=endpoint.request_example)(view)
        blp.route(endpoint.path, methods=[endpoint.method])(view)
    return blp
