"""``SystemBlueprint``: how a system declares its operations, so every one gets the same treatment.

A system writes a thin view per operation and declares it with one of four decorators:

- ``rolling``: rolls; gets a random source, returns ``(result, summary)``; enveloped and signed;
- ``odds``: the exact twin of a rolling operation; returns ``Odds``;
- ``resolving``: no randomness (validation, applying a choice); enveloped and signed;
- ``lookup``: a GET without a body (e.g. a table), enveloped and signed.

Each decorator sets the explicit ``operationId``, the summary and description (from the view's
docstring, which must state the rulings it applies), request and response examples (computed from
the request example, so they are real output), and the problem responses.
"""

from __future__ import annotations

import dataclasses
import enum
import inspect
from http import HTTPStatus
from typing import Any, Callable, Mapping, Type

import marshmallow as ma

from service.platform import odds as odds_json
from service.platform.api import WurfwerkBlueprint as Blueprint
from service.platform.errors import ReceiptError
from service.platform.i18n import LANG_PARAMETER, request_lang
from service.platform.jsonio import json_response
from service.platform.randomness import make_source
from service.platform.runtime import Operation, current_runtime
from service.platform.schemas import (envelope_schema, odds_response_schema, renamed,
                                      rolling_request_schema)

PROBLEM_STATUSES = (400, 401, 413, 415, 422)
EXAMPLE_SEED = 20261129
EXAMPLE_RECEIPT = {
    "id": "00000000-0000-4000-8000-000000000000",
    "issued_at": "2026-11-29T12:00:00.000Z",
    "alg": "Ed25519",
    "kid": "example-kid",
    "signature": "example-signature",
}


def plain(value: Any) -> Any:
    """Dataclasses, enums and tuples -> JSON-ready dicts, strings and lists."""
    kind = type(value)
    convert = _CONVERTERS.get(kind)
    if convert is None:  # first value of this type: decide once how to convert every later one
        convert = _CONVERTERS[kind] = _converter_for(kind)
    return convert(value)


def _converter_for(kind: type) -> Callable[[Any], Any]:
    # Most members are scalars: they are kept without a call to plain().
    if dataclasses.is_dataclass(kind):
        names = tuple(field.name for field in dataclasses.fields(kind))
        return lambda value: {name: member if type(member) in _SCALARS else plain(member)
                              for name in names for member in (getattr(value, name),)}
    if issubclass(kind, enum.Enum):
        return lambda value: value.value
    if issubclass(kind, Mapping):
        return lambda value: {(k.value if isinstance(k, enum.Enum) else k): plain(v) for k, v in value.items()}
    if issubclass(kind, (list, tuple)):
        return lambda value: [item if type(item) in _SCALARS else plain(item) for item in value]
    return lambda value: value


_SCALARS = frozenset((str, int, bool, type(None)))
_CONVERTERS: dict[type, Callable[[Any], Any]] = {kind: (lambda value: value) for kind in _SCALARS}


def _doc_parts(view: Callable) -> tuple[str, str]:
    doc = inspect.getdoc(view) or ""
    summary, _, description = doc.partition("\n")
    if not summary or not description.strip():
        raise TypeError(f"{view.__name__} needs a docstring: a summary line, then the rulings it applies")
    return summary.strip(), description.strip()


class SystemBlueprint(Blueprint):
    """A system's blueprint under ``/v1/<system_id>`` that knows its operations and catalogue entry."""

    def __init__(self, system_id: str, import_name: str, *, title: str, description: str,
                 rules_file: str, enums: Mapping[str, list] | None = None,
                 glossary: Mapping[str, str] | None = None, extra: Mapping[str, Any] | None = None):
        super().__init__(system_id, import_name, url_prefix=f"/v1/{system_id}", description=description)
        self.system_id = system_id
        self.title = title
        self.rules_file = rules_file
        self.enums = dict(enums or {})
        self.glossary = dict(glossary or {})
        self.extra = dict(extra or {})
        self.declared: list[Operation] = []

    # -- the four kinds of operation -------------------------------------------------------------

    def rolling(self, path: str, *, operation: str, request: Type[ma.Schema],
                result: Type[ma.Schema], example: Mapping[str, Any]):
        operation_id = f"{self.system_id}.{operation}"
        request_schema = rolling_request_schema(operation_id, request)
        response_schema = envelope_schema(operation_id, request_schema, result, rolling=True)

        def decorator(view):
            def endpoint(body):
                seed, manual = body.pop("seed", None), body.pop("manual", None)
                return _signed(_roll(operation_id, view, body, seed, manual, request_lang()))

            response_example = _roll(operation_id, view, request_schema().load(example),
                                          EXAMPLE_SEED, None, "en")
            response_example["receipt"] = dict(EXAMPLE_RECEIPT)
            self._register(path, "POST", operation_id, view, endpoint, request_schema,
                           response_schema, example, response_example)
            return view

        return decorator

    def odds(self, path: str, *, operation: str, request: Type[ma.Schema],
             example: Mapping[str, Any]):
        """``operation`` is the rolling operation's name; the id gets ``.odds``."""
        operation_id = f"{self.system_id}.{operation}.odds"
        request_schema = renamed(operation_id, request, "Request")
        response_schema = odds_response_schema(operation_id, request_schema)

        def decorator(view):
            def endpoint(body):
                request_lang()  # odds carry no text, but a wrong ?lang= is still refused
                return json_response(_odds_document(operation_id, view, body))

            response_example = _odds_document(operation_id, view, request_schema().load(example))
            self._register(path, "POST", operation_id, view, endpoint, request_schema,
                           response_schema, example, response_example)
            return view

        return decorator

    def resolving(self, path: str, *, operation: str, request: Type[ma.Schema],
                  result: Type[ma.Schema], example: Mapping[str, Any],
                  response_example: Mapping[str, Any] | None = None):
        """``response_example`` is needed where the example cannot be resolved offline (an apply
        operation verifies a signed draw, which a fixed example cannot carry)."""
        operation_id = f"{self.system_id}.{operation}"
        request_schema = renamed(operation_id, request, "Request")
        response_schema = envelope_schema(operation_id, request_schema, result, rolling=False)

        def decorator(view):
            def endpoint(body):
                return _signed(_resolve(operation_id, view, body, request_lang()))

            computed = response_example
            if computed is None:
                computed = _resolve(operation_id, view, request_schema().load(example), "en")
                computed["receipt"] = dict(EXAMPLE_RECEIPT)
            self._register(path, "POST", operation_id, view, endpoint, request_schema,
                           response_schema, example, computed)
            return view

        return decorator

    def lookup(self, path: str, *, operation: str, result: Type[ma.Schema]):
        operation_id = f"{self.system_id}.{operation}"
        response_schema = envelope_schema(operation_id, None, result, rolling=False)

        def decorator(view):
            def endpoint():
                return _signed(_resolve(operation_id, lambda _body, lang: view(lang), {}, request_lang()))

            response_example = _resolve(operation_id, lambda _body, lang: view(lang), {}, "en")
            response_example["receipt"] = dict(EXAMPLE_RECEIPT)
            self._register(path, "GET", operation_id, view, endpoint, None, response_schema,
                           None, response_example)
            return view

        return decorator

    # -- shared machinery ------------------------------------------------------------------------

    def _register(self, path, method, operation_id, view, endpoint, request_schema,
                  response_schema, example, response_example):
        summary, description = _doc_parts(view)
        endpoint.__name__ = operation_id.replace(".", "_").replace("-", "_")
        decorated = endpoint
        # An instance, built once: webargs would build a new schema from a class on every request.
        schema = request_schema() if request_schema is not None else None
        if schema is not None:
            decorated = self.arguments(schema, example=dict(example))(decorated)
        decorated = self.response(200, response_schema, example=response_example)(decorated)
        # The problem responses go in through `doc`: each `alt_response` would add a wrapper layer
        # that runs on every request for documentation alone.
        problems = {status: _problem_response_name(status) for status in PROBLEM_STATUSES}
        decorated = self.doc(operationId=operation_id, summary=summary, description=description,
                             parameters=[LANG_PARAMETER], responses=problems)(decorated)
        self.route(path, methods=[method], endpoint=endpoint.__name__)(decorated)
        self.declared.append(Operation(operation_id, method, self.url_prefix + path,
                                       f"{self.name}.{endpoint.__name__}", schema, endpoint))

    def catalogue_entry(self, operations: list[dict]) -> dict:
        return {
            "id": self.system_id,
            "name": self.title,
            "rules_file": self.rules_file,
            "operations": operations,
            "enums": self.enums,
            "glossary": self.glossary,
            **self.extra,
        }


def _problem_response_name(status: int) -> str:
    """The name under which flask-smorest registered the problem response of ``status``."""
    return HTTPStatus(status).name


def _roll(operation_id, view, body, seed, manual, lang) -> dict:
    source = make_source(seed, manual)
    result, summary = view(body, source, lang)
    source.finish()
    echo = dict(body)
    if seed is not None:
        echo["seed"] = seed
    if manual is not None:
        echo["manual"] = manual
    return {
        "operation": operation_id,
        "request": echo,
        "result": plain(result),
        "randomness": {"source": source.name, "events": source.events},
        "summary": summary,
        "lang": lang,
    }


def _resolve(operation_id, view, body, lang) -> dict:
    result, summary = view(body, lang)
    return {
        "operation": operation_id,
        "request": dict(body),
        "result": plain(result),
        "summary": summary,
        "lang": lang,
    }


def _odds_document(operation_id, view, body) -> dict:
    return {"operation": operation_id, "request": dict(body), "odds": odds_json.as_json(view(body))}


def _signed(document: dict):
    return json_response(current_runtime().keys.sign(document))


def verified_response(document: Any, *, operation: str, field: str) -> dict:
    """A signed response a client handed back (a draw to apply, a conflict to narrate), after
    checking that its receipt verifies with our keys and that it is a response of ``operation``.
    Raises ``ReceiptError`` (422, naming ``field``) otherwise."""
    if not isinstance(document, dict) or not isinstance(document.get("result"), dict):
        raise ReceiptError(field, "must be the complete signed response object")
    verification = current_runtime().keys.verify(document)
    if not verification.valid:
        raise ReceiptError(f"{field}.receipt", f"does not verify: {verification.reason}")
    if document.get("operation") != operation:
        raise ReceiptError(f"{field}.operation",
                           f"must be a {operation} response, got {document.get('operation')!r}")
    return document
