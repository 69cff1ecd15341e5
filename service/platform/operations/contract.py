"""The answers every operation can get besides its own, documented once: an apispec plugin.

What the platform adds to every request (hooks.py, worker.py, overload.py, caching.py) is not in any
operation's declaration, so it is written here, per operation, by the same rules the code follows:

- every response carries ``X-Request-ID``; every answer of the app ``Content-Language`` and
  ``Vary`` (the language it is in, and that it depends on ``Accept-Language``);
- gunicorn refuses any request whose line or header fields are over the limits (414, 431), and a
  request with a body whose body does not arrive in time (408);
- under ``/v1/`` the load shedder may answer 503 with ``Retry-After``, and with API keys configured
  every path the key check covers answers 401 with ``WWW-Authenticate`` (the rest says
  ``security: []``: open);
- an operation without a body cannot get 413 or 415;
- the keys, the catalogue and the spec carry ``ETag`` and ``Cache-Control`` and answer 304.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterator
from typing import Any

import orjson
from apispec import APISpec, BasePlugin
from flask import Request, Response
from marshmallow import Schema, fields
from marshmallow.decorators import VALIDATES_SCHEMA

from service.platform.dice.receipts import KeyRing
from service.platform.http.hooks import needs_api_key
from service.platform.http.http_json import dumps

HEADERS: dict[str, dict[str, Any]] = {
    "X-Request-ID": {
        "description": "The request's own `X-Request-ID` when it sent a plausible one (1..128 of "
                       "`A-Za-z0-9._:-`), else a new id; logged with the request.",
        "required": True,
        "schema": {"type": "string", "maxLength": 128},
    },
    "Content-Language": {
        "description": "The language of the answer's text (`summary`, labels, problem messages): "
                       "`?lang=`, else `Accept-Language`, else `en`.",
        "schema": {"type": "string", "enum": ["en", "de"]},
    },
    "Vary": {
        "description": "`Accept-Language`: caches keep one copy per language.",
        "schema": {"type": "string", "maxLength": 200},
    },
    "Retry-After": {
        "description": "Seconds after which a retry is likely to be served (WURFWERK_RETRY_AFTER).",
        "required": True,
        "schema": {"type": "integer", "minimum": 0},
    },
    "WWW-Authenticate": {
        "description": "`Bearer`: the scheme the API keys use.",
        "required": True,
        "schema": {"type": "string", "maxLength": 200},
    },
    "ETag": {
        "description": "A strong validator of the answer's bytes; send it back as `If-None-Match`.",
        "required": True,
        "schema": {"type": "string", "maxLength": 200},
    },
    "Cache-Control": {
        "description": "`no-cache`: a copy may be kept, but is revalidated before use (keys rotate).",
        "required": True,
        "schema": {"type": "string", "maxLength": 200},
    },
}
_APP_HEADERS = ("X-Request-ID", "Content-Language", "Vary")  # what every answer of the Flask app carries
_REVALIDATED_PATHS = frozenset(("/v1/keys", "/v1/systems", "/openapi.json"))
IF_NONE_MATCH = {
    "in": "header",
    "name": "If-None-Match",
    "required": False,
    "description": "The `ETag` of the copy the client holds: 304 without a body when it is current.",
    "schema": {"type": "string"},  # any length up to WURFWERK_MAX_HEADER_BYTES; one that matches nothing is ignored
}

# Responses the platform answers itself (no app behind them, so only X-Request-ID among the app's
# headers): name -> (status, description, extra headers).
_PLATFORM_RESPONSES = {
    "Overloaded": ("503", "Overloaded: the replica is at capacity and refused the request unprocessed "
                          "(`overloaded`); retry after `Retry-After` seconds.", ("Retry-After",)),
    "UriTooLong": ("414", "The request line is longer than WURFWERK_MAX_REQUEST_LINE (`uri-too-long`).", ()),
    "HeaderFieldsTooLarge": ("431", "More header fields than WURFWERK_MAX_HEADER_FIELDS, or one "
                                               "longer than WURFWERK_MAX_HEADER_BYTES "
                                               "(`header-fields-too-large`).", ()),
}
_BODY_ONLY_STATUSES = ("413", "415")


class ContractDocs(BasePlugin):
    """Document the platform's answers and headers on every operation (see the module docstring)."""

    def init_spec(self, spec: APISpec) -> None:
        super().init_spec(spec)
        for name, header in HEADERS.items():
            spec.components.header(name, header)
        for name, (_status, description, extra) in _PLATFORM_RESPONSES.items():
            spec.components.response(name, {
                "description": description,
                "content": {"application/problem+json": {"schema": {"$ref": "#/components/schemas/Problem"}}},
                "headers": {"X-Request-ID": "X-Request-ID", **{header: header for header in extra}},
            }, platform=True)

    def response_helper(self, response: dict, **kwargs: Any) -> dict | None:
        """Every response component carries the app's headers; the 401 the scheme it asks for."""
        if kwargs.get("platform"):
            return None
        headers = dict(response.get("headers", {}))
        for name in _APP_HEADERS:
            headers.setdefault(name, name)
        if response.get("description") == "Unauthorized":
            headers["WWW-Authenticate"] = "WWW-Authenticate"
        return {"headers": headers}

    def operation_helper(self, path: str | None = None, operations: dict | None = None, **kwargs: Any) -> None:
        if path is None:
            return
        for method, operation in (operations or {}).items():
            # flask-smorest keys its responses by int, a plugin's by str: one key per status.
            responses = operation["responses"] = {str(status): response for status, response
                                                  in operation.get("responses", {}).items()}
            self._with_headers(responses)
            if "requestBody" not in operation:
                for status in _BODY_ONLY_STATUSES:
                    responses.pop(status, None)
            else:
                responses.setdefault("408", "REQUEST_TIMEOUT")
            responses["414"] = "UriTooLong"
            responses["431"] = "HeaderFieldsTooLarge"
            if path.startswith("/v1/"):
                responses["503"] = "Overloaded"
            if needs_api_key(path):
                responses["401"] = "UNAUTHORIZED"
            else:
                operation["security"] = []  # open whatever WURFWERK_API_KEYS says
            if path in _REVALIDATED_PATHS and method == "get":
                self._revalidated(operation, responses)

    @staticmethod
    def _with_headers(responses: dict) -> None:
        for response in responses.values():
            if isinstance(response, dict):  # the operation's own answers; the shared ones are components
                headers = response.setdefault("headers", {})
                for name in _APP_HEADERS:
                    headers.setdefault(name, name)

    @staticmethod
    def _revalidated(operation: dict, responses: dict) -> None:
        operation.setdefault("parameters", []).append(IF_NONE_MATCH)
        responses["200"]["headers"].update({"ETag": "ETag", "Cache-Control": "Cache-Control"})
        responses["304"] = {"description": "Not Modified: the `If-None-Match` copy is current; no body.",
                            "headers": {name: name for name in ("X-Request-ID", "ETag", "Cache-Control")}}


# -- rules across members, in JSON Schema 2020-12 -------------------------------------------------
#
# A request schema states the rules that tie its members together (one of two members, a member
# required by another's value) as ``JSON_SCHEMA_RULES``: a list of JSON Schema objects, each added
# to its component as one ``allOf`` entry. marshmallow's ``validates_schema`` hooks enforce the
# same rules; a hook's docstring says in one line what it checks, and the operation's description
# lists them (most are what no schema can say: unique names, sums against limits), with the lines of
# a schema's ``CHECKED_BEYOND_SCHEMA`` (rules checked outside marshmallow: manual values, receipts).
# ``LINKS`` on a request schema become the OpenAPI links of the operation's 200 (two-phase flows).

def given(name: str) -> dict:
    """``name`` is present and not null (an optional member given as null counts as not given)."""
    return {"required": [name], "properties": {name: {"not": {"type": "null"}}}}


def not_given(*names: str) -> dict:
    """Each of ``names`` is absent or null."""
    return {"properties": {name: {"type": "null"} for name in names}}


def _declared_rules(schema_class: type) -> list[dict]:
    return [rule for klass in reversed(schema_class.__mro__) for rule in vars(klass).get("JSON_SCHEMA_RULES", ())]


def _declared_links(schema_class: type) -> dict:
    """The OpenAPI links of an operation whose answer feeds another (``LINKS`` of its request schema:
    name -> link object): a two-phase flow, for tools (schemathesis' stateful phase) and readers."""
    return {name: link for klass in reversed(schema_class.__mro__)
            for name, link in vars(klass).get("LINKS", {}).items()}


def _schema_class(schema: Schema | type[Schema] | None) -> type[Schema] | None:
    return schema if isinstance(schema, type) else type(schema) if schema is not None else None


class SchemaRules(BasePlugin):
    """Write each schema's ``JSON_SCHEMA_RULES`` into its component, and list on each operation the
    rules its request schemas check beyond the schema (their ``validates_schema`` docstrings)."""

    def __init__(self) -> None:
        super().__init__()
        self._classes: dict[str, type] = {}  # component name -> its marshmallow schema class

    def schema_helper(self, name: str, definition: dict, **kwargs: Any) -> dict | None:
        schema_class = _schema_class(kwargs.get("schema"))
        if schema_class is None or not issubclass(schema_class, Schema):
            return None
        self._classes[name] = schema_class
        rules = _declared_rules(schema_class)
        return {"allOf": rules} if rules else None

    def operation_helper(self, path: str | None = None, operations: dict | None = None, **kwargs: Any) -> None:
        for operation in (operations or {}).values():
            body = operation.get("requestBody", {}).get("content", {}).get("application/json", {})
            reference = body.get("schema", {})  # the marshmallow plugin has made it a $ref already
            schema_class = self._classes.get(str(reference.get("$ref", "")).rsplit("/", 1)[-1]) \
                if isinstance(reference, dict) else None
            if schema_class is None:
                continue
            links = _declared_links(schema_class)
            # a twin (odds, advice) answers no result to link from
            if links and not operation.get("operationId", "").endswith((".odds", ".advice")):
                operation["responses"]["200"]["links"] = links
            checks = list(dict.fromkeys(checked_rules(schema_class)))
            if checks:
                listed = "\n".join(f"- {check}" for check in checks)
                operation["description"] = (f"{operation.get('description', '')}\n\n"
                                            f"Checked beyond the schema (422 naming the field):\n{listed}").strip()


def checked_rules(schema_class: type[Schema], seen: set[type[Schema]] | None = None) -> Iterator[str]:
    """The one-line docstrings of the ``validates_schema`` hooks of ``schema_class`` and of every
    schema nested in it, in body order."""
    seen = set() if seen is None else seen
    if schema_class in seen:
        return
    seen.add(schema_class)
    for klass in reversed(schema_class.__mro__):
        yield from vars(klass).get("CHECKED_BEYOND_SCHEMA", ())
    for attr_name, _pass_collection, _options in schema_class.resolve_hooks().get(VALIDATES_SCHEMA, []):
        doc = (getattr(schema_class, attr_name).__doc__ or "").strip()
        if doc:
            yield " ".join(doc.split())
    for field in schema_class().fields.values():
        for nested in _nested_schemas(field):
            yield from checked_rules(nested, seen)


def _nested_schemas(field: fields.Field) -> Iterator[type[Schema]]:
    if isinstance(field, fields.Nested):
        yield type(field.schema)
    for inner in (getattr(field, "inner", None), getattr(field, "value_field", None)):
        if inner is not None:
            yield from _nested_schemas(inner)


# -- examples that carry a signed response ---------------------------------------------------------
#
# A second phase (healing-apply, experience-apply, narration) takes a signed first-phase response.
# Its documented example is a real first phase made when the app is built, with a placeholder
# receipt in the committed spec (a signature there would change with every key). The spec the app
# serves (/openapi.json, and so /docs) carries that first phase signed with the app's own key, so
# "Try it out" sends a body that verifies.

def with_signed_examples(spec: dict, keys: KeyRing, placeholder: dict) -> dict:
    """``spec`` with every first-phase response in a request example signed by ``keys`` (the same
    signed document in the response example's ``request``)."""
    spec = copy.deepcopy(spec)
    for item in spec.get("paths", {}).values():
        for operation in item.values():
            if isinstance(operation, dict):
                _sign_request_example(operation, keys, placeholder)
    return spec


def _sign_request_example(operation: dict, keys: KeyRing, placeholder: dict) -> None:
    example = operation.get("requestBody", {}).get("content", {}).get("application/json", {}).get("example")
    if not isinstance(example, dict):
        return
    echoed = (operation.get("responses", {}).get("200", {}).get("content", {}).get("application/json", {})
              .get("example", {}).get("request"))
    for member, value in example.items():
        if isinstance(value, dict) and value.get("receipt") == placeholder:
            signed = keys.sign({name: part for name, part in value.items() if name != "receipt"})
            example[member] = signed
            if isinstance(echoed, dict) and member in echoed:
                echoed[member] = signed


def signed_examples(keys: KeyRing, placeholder: dict) -> Callable[[Request, Response], Response]:
    """The step (service/platform/http/request_steps.py) serving /openapi.json with the signed examples,
    worked out once per app, on first request."""
    served: dict = {}

    def _signed_examples(current: Request, response: Response) -> Response:
        if current.endpoint != "api-docs.openapi_json" or response.status_code != 200:
            return response
        if "body" not in served:
            served["body"] = dumps(with_signed_examples(orjson.loads(response.get_data()), keys, placeholder))
        response.set_data(served["body"])
        return response

    return _signed_examples
