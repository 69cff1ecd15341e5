"""``SystemBlueprint``: how a system declares its operations, and the one path their requests take.

A system writes a thin view per operation and declares it with one of four decorators:

- ``rolling``: rolls; gets a random source, returns ``(result, summary)``; enveloped and signed;
- ``odds``: the exact twin of a rolling operation; returns ``Odds``;
- ``resolving``: no randomness (validation, applying a choice); enveloped and signed;
- ``lookup``: a GET without a body (e.g. a table), enveloped and signed.

Each decorator sets the explicit ``operationId``, the summary and description (from the view's
docstring, which must state the rulings it applies), request and response examples (computed from
the request example, so they are real output), and the problem responses.

The request path, the same for a single call and for each item of a batch:

1. the request hooks (hooks.py) check the API key, the media type and the JSON syntax, and parse
   the body once;
2. ``Operation.respond(body, call)`` loads the body with the operation's request schema (compiled by
   fastload.py for the bodies it can vouch for, by marshmallow otherwise) and runs the handler its
   decorator made: a rolling handler first picks the random source (``randomness_source``), then
   calls the view; the envelope is signed;
3. a ``ValidationError``, an ``InputError`` or any other exception becomes the problem the API
   documents for it, naming the operation's path.

``Call`` carries what a call knows of its HTTP request (headers, language, its place in a batch).
flask-smorest writes each operation's OpenAPI description, and nothing of it runs per request; so
a flask-smorest decorator added to a declared view would never run, and is refused at start-up.
"""

from __future__ import annotations

import dataclasses
import functools
import inspect
import sys
from collections.abc import Callable, Mapping
from http import HTTPStatus
from typing import Any

import marshmallow as ma
from flask import Response, request
from marshmallow import ValidationError
from werkzeug.datastructures import Headers

from service.platform import odds as odds_json
from service.platform.api import WurfwerkBlueprint as Blueprint
from service.platform.errors import InputError, ReceiptError
from service.platform.fastload import fast_loader
from service.platform.hooks import request_body
from service.platform.i18n import LANG_PARAMETER, request_lang
from service.platform.jsondata import plain
from service.platform.jsonio import json_response
from service.platform.messages import say
from service.platform.problems import input_error_problem, unexpected_problem, validation_problem
from service.platform.randomness import IDEMPOTENCY_HEADER, RandomSource, make_source, request_source
from service.platform.runtime import current_runtime
from service.platform.schemas import (
    IDEMPOTENCY_KEY_PARAMETER,
    envelope_schema,
    odds_request_schema,
    odds_response_schema,
    renamed,
    rolling_request_schema,
)

PROBLEM_STATUSES = (400, 401, 413, 415, 422)
EXAMPLE_SEED = 20261129
EXAMPLE_RECEIPT = {
    "id": "00000000-0000-4000-8000-000000000000",
    "issued_at": "2026-11-29T12:00:00.000Z",
    "alg": "Ed25519",
    "kid": "example-kid",
    "signature": "example-signature",
}


def _doc_parts(view: Callable) -> tuple[str, str]:
    doc = inspect.getdoc(view) or ""
    summary, _, description = doc.partition("\n")
    if not summary or not description.strip():
        raise TypeError(f"{view.__name__} needs a docstring: a summary line, then the rulings it applies")
    return summary.strip(), description.strip()


# -- one call of an operation -------------------------------------------------------------------

@dataclasses.dataclass(frozen=True)
class Call:
    """What one call of an operation knows besides its body: the HTTP request that carried it.

    A single call is a request of its own; a batch item is a call on the batch's request (the same
    headers and language), numbered ``item``."""

    headers: Headers = dataclasses.field(default_factory=Headers)
    item: int | None = None  # the item's index in a batch; None for a single call
    given_lang: str | None = None  # where no request is asked (the spec's examples)

    @classmethod
    def of_request(cls, item: int | None = None) -> Call:
        return cls(request.headers, item)

    def lang(self) -> str:
        """``?lang=``, else Accept-Language, else English; a wrong ``?lang=`` raises InputError."""
        return self.given_lang or request_lang()


EXAMPLE_CALL = Call(given_lang="en")
ODDS_IGNORE_NOTE = ("The odds do not depend on where the dice come from: `ticket` and `idempotency_key` "
                    "in the body and the `Idempotency-Key` header are accepted and ignored.")

# The members of a rolling request that choose where its random values come from
# (schemas.RandomnessFields); they are echoed after the operation's own members.
RANDOMNESS_MEMBERS = ("seed", "manual", "ticket", "idempotency_key")
_DERIVING_MEMBERS = frozenset(("ticket", "idempotency_key"))


def randomness_source(operation_id: str, request_body: Mapping[str, Any], randomness: Mapping[str, Any],
                      call: Call) -> RandomSource:
    """Where a rolling call's random values come from: the one place that decides it, per call.

    ``request_body`` is the loaded body without the randomness members, ``randomness`` the members
    of ``RANDOMNESS_MEMBERS`` the request gave; ``call`` what the call knows of its HTTP request
    (the ``Idempotency-Key`` header, its place in a batch). A ticket or an idempotency key derives
    the dice from the service's secret (randomness.request_source); otherwise seed, manual or the
    CSPRNG."""
    header_key = call.headers.get(IDEMPOTENCY_HEADER)
    if header_key is None and _DERIVING_MEMBERS.isdisjoint(randomness):
        return make_source(randomness.get("seed"), randomness.get("manual"))
    return request_source(current_runtime().keys, operation_id, request_body, randomness,
                          header_key=header_key, batch_item=call.item)


@dataclasses.dataclass
class Operation:
    """One declared operation: what the catalogue lists, what a batch item names, and its request path.

    ``schema`` is the request schema instance (None for a lookup, which takes no body); ``handler``
    takes the loaded body and the ``Call`` and returns the signed response."""

    id: str
    method: str
    path: str
    endpoint: str
    schema: ma.Schema | None
    handler: Callable[[dict, Call], Response]
    load: Callable[[object], dict] | None = dataclasses.field(init=False, repr=False)

    def __post_init__(self) -> None:
        # ``schema.load``, compiled for bodies it can vouch for (service/platform/fastload.py).
        self.load = fast_loader(self.schema) if self.schema is not None else None

    def respond(self, body: object, call: Call) -> Response:
        """The request path of this operation, for a single call and a batch item alike: load the
        body, run the handler; errors become the problems the API documents, naming this path."""
        try:
            return self.handler(self.load(body) if self.load is not None else {}, call)
        except ValidationError as error:
            return validation_problem(error.messages, instance=self.path)
        except InputError as error:
            return input_error_problem(error, instance=self.path)
        except Exception as error:  # a fault: logged, answered with a plain 500 problem
            return unexpected_problem(error, instance=self.path)


# -- declaring operations ----------------------------------------------------------------------

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
        self._declared_views: dict[int, str] = {}  # id(view) -> operation id

    # -- the four kinds of operation -------------------------------------------------------------

    def rolling(self, path: str, *, operation: str, request: type[ma.Schema],
                result: type[ma.Schema], example: Mapping[str, Any]):
        operation_id = f"{self.system_id}.{operation}"
        request_schema = rolling_request_schema(operation_id, request)
        response_schema = envelope_schema(operation_id, request_schema, result, rolling=True)

        def decorator(view):
            _refuse_decorated(view, operation_id)
            def handler(body, call):
                return _signed(_roll(operation_id, view, body, call))

            example_body = request_schema().load({**example, "seed": EXAMPLE_SEED})
            response_example = plain(_roll(operation_id, view, example_body, EXAMPLE_CALL))
            response_example["receipt"] = dict(EXAMPLE_RECEIPT)
            self._register(path, "POST", operation_id, view, handler, request_schema,
                           response_schema, example, response_example,
                           parameters=[IDEMPOTENCY_KEY_PARAMETER])
            return view

        return decorator

    def odds(self, path: str, *, operation: str, request: type[ma.Schema],
             example: Mapping[str, Any]):
        """``operation`` is the rolling operation's name; the id gets ``.odds``."""
        operation_id = f"{self.system_id}.{operation}.odds"
        request_schema = odds_request_schema(operation_id, request)
        response_schema = odds_response_schema(operation_id, request_schema)

        def decorator(view):
            _refuse_decorated(view, operation_id)
            def handler(body, call):
                call.lang()  # odds carry no text, but a wrong ?lang= is still refused
                return json_response(_odds_document(operation_id, view, body))

            response_example = _odds_document(operation_id, view, request_schema().load(example))
            self._register(path, "POST", operation_id, view, handler, request_schema,
                           response_schema, example, response_example, note=ODDS_IGNORE_NOTE)
            return view

        return decorator

    def resolving(self, path: str, *, operation: str, request: type[ma.Schema],
                  result: type[ma.Schema], example: Mapping[str, Any],
                  response_example: Mapping[str, Any] | None = None):
        """``response_example`` is needed where the example cannot be resolved offline (an apply
        operation verifies a signed draw, which a fixed example cannot carry)."""
        operation_id = f"{self.system_id}.{operation}"
        request_schema = renamed(operation_id, request, "Request")
        response_schema = envelope_schema(operation_id, request_schema, result, rolling=False)

        def decorator(view):
            _refuse_decorated(view, operation_id)
            def handler(body, call):
                return _signed(_resolve(operation_id, view, body, call.lang()))

            computed = response_example
            if computed is None:
                computed = plain(_resolve(operation_id, view, request_schema().load(example), "en"))
                computed["receipt"] = dict(EXAMPLE_RECEIPT)
            self._register(path, "POST", operation_id, view, handler, request_schema,
                           response_schema, example, computed)
            return view

        return decorator

    def lookup(self, path: str, *, operation: str, result: type[ma.Schema]):
        operation_id = f"{self.system_id}.{operation}"
        response_schema = envelope_schema(operation_id, None, result, rolling=False)

        def decorator(view):
            _refuse_decorated(view, operation_id)
            def without_body(_body, lang):
                return view(lang)

            def handler(_body, call):
                return _signed(_resolve(operation_id, without_body, {}, call.lang()))

            response_example = plain(_resolve(operation_id, without_body, {}, "en"))
            response_example["receipt"] = dict(EXAMPLE_RECEIPT)
            self._register(path, "GET", operation_id, view, handler, None, response_schema,
                           None, response_example)
            return view

        return decorator

    # -- shared machinery ------------------------------------------------------------------------

    def _register(self, path, method, operation_id, view, handler, request_schema,
                  response_schema, example, response_example, *, parameters=(), note=""):
        """Route the operation to its request path and document it (``parameters`` and ``note``
        add to what every operation documents)."""
        name = operation_id.replace(".", "_").replace("-", "_")
        # Instantiated once, here: marshmallow deep-copies a schema's declared fields for every instance.
        schema = request_schema() if request_schema is not None else None
        operation = Operation(operation_id, method, self.url_prefix + path, f"{self.name}.{name}",
                              schema, handler)

        def respond():
            return operation.respond(request_body(), Call.of_request())

        documented = self._documented(respond, operation_id, view, schema, example, response_schema,
                                      response_example, parameters, note)
        self.route(path, methods=[method], endpoint=name)(documented)
        self.declared.append(operation)
        self._declared_views[id(view)] = operation_id

    def _documented(self, respond, operation_id, view, schema, example, response_schema,
                    response_example, parameters=(), note=""):
        """``respond`` carrying the operation's OpenAPI description, written by flask-smorest.

        flask-smorest's decorators record what they describe on the function they return and hand it
        on through ``functools.wraps``, each to the next. Their wrappers would also run their own
        request-time layers (webargs parsing, response dumping) around the view; so they decorate a
        stand-in that is never called, and ``respond`` takes the description over the same way.
        That flask-smorest (0.46, 0.47) keeps the description in the function's attributes is the one
        thing relied on here; tests/test_openapi.py fails should it change (the spec would lose the
        request bodies, examples and responses)."""
        summary, description = _doc_parts(view)
        if note:
            description = f"{description}\n\n{note}"

        def stand_in(*args, **kwargs):  # no docstring: flask-smorest would read it as the summary
            raise AssertionError(f"{operation_id}: only Operation.respond serves requests")

        described = stand_in
        if schema is not None:
            described = self.arguments(schema, example=dict(example))(described)
        described = self.response(200, response_schema, example=response_example)(described)
        problems = {status: _problem_response_name(status) for status in PROBLEM_STATUSES}
        described = self.doc(operationId=operation_id, summary=summary, description=description,
                             parameters=[LANG_PARAMETER, *parameters], responses=problems)(described)
        return functools.wraps(described)(respond)

    def register(self, app, options):
        """Flask registers the blueprint with an app: first refuse decorators stacked over a declaration."""
        _refuse_decorators_over(sys.modules[self.import_name], self._declared_views)
        super().register(app, options)

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


def _refuse_decorated(view: Callable, operation_id: str) -> None:
    """A decorator under a declaration would run inside the request path with arguments it does not
    expect (flask-smorest's would parse or dump a second time): refused."""
    if hasattr(view, "__wrapped__"):
        raise TypeError(f"{operation_id}: {view.__name__} is decorated below its declaration; a declared "
                        "view takes no other decorator (the declaration sets schemas, responses and "
                        "docs, and Operation.respond is the whole request path)")


def _refuse_decorators_over(module, declared_views: Mapping[int, str]) -> None:
    """A decorator over a declaration (``@blp.response`` above ``@blp.rolling``) wraps a view that is
    already routed, so it would never run: refused at start-up rather than ignored."""
    for name, value in vars(module).items():
        if not callable(value) or not hasattr(value, "__wrapped__") or id(value) in declared_views:
            continue
        inner = inspect.unwrap(value, stop=lambda function: id(function) in declared_views)
        if id(inner) in declared_views:
            raise TypeError(f"{module.__name__}.{name}: a decorator over the declaration of "
                            f"{declared_views[id(inner)]} would never run (Operation.respond is the "
                            "whole request path); remove it, or extend the declaration in "
                            "service/platform/operations.py")


def _problem_response_name(status: int) -> str:
    """The name under which flask-smorest registered the problem response of ``status``."""
    return HTTPStatus(status).name


def _roll(operation_id, view, body, call) -> dict:
    lang = call.lang()
    randomness = {name: body.pop(name) for name in RANDOMNESS_MEMBERS if name in body}
    source = randomness_source(operation_id, body, randomness, call)
    result, summary = view(body, source, lang)
    source.finish()
    randomness_record = {"source": source.name, "events": source.events}
    if source.idempotency_key is not None:
        randomness_record["idempotency_key"] = source.idempotency_key
    return {
        "operation": operation_id,
        "request": {**body, **randomness},
        "result": result,  # see _signed
        "randomness": randomness_record,
        "summary": summary,
        "lang": lang,
    }


def _resolve(operation_id, view, body, lang) -> dict:
    result, summary = view(body, lang)
    return {
        "operation": operation_id,
        "request": dict(body),
        "result": result,  # see _signed
        "summary": summary,
        "lang": lang,
    }


def _odds_document(operation_id, view, body) -> dict:
    return {"operation": operation_id, "request": dict(body), "odds": odds_json.as_json(view(body))}


def _signed(document: dict):
    """The signed response. Its result is still the rules' value (dataclasses, enums, tuples): orjson
    writes it into the response, and sorted into the signed payload (receipts.canonical_bytes),
    rather than converting it to dicts first and writing those twice."""
    return json_response(current_runtime().keys.sign(document))


def verified_response(document: Any, *, operation: str, field: str) -> dict:
    """A signed response a client handed back (a draw to apply, a conflict to narrate), after
    checking that its receipt verifies with our keys and that it is a response of ``operation``.
    Raises ``ReceiptError`` (422, naming ``field``) otherwise."""
    if not isinstance(document, dict) or not isinstance(document.get("result"), dict):
        raise ReceiptError(field, say("must be the complete signed response object"))
    verification = current_runtime().keys.verify(document)
    if not verification.valid:
        raise ReceiptError(f"{field}.receipt", say("does not verify: %(reason)s", reason=verification.reason))
    if document.get("operation") != operation:
        raise ReceiptError(f"{field}.operation", say("must be a %(operation)s response, got %(given)s",
                                                     operation=operation, given=repr(document.get("operation"))))
    return document
