"""Operations as data, and the one request path every call of them takes.

A system declares each operation once, as a frozen ``Operation`` in the table of its ``routes.py``::

    SYSTEM = System("proben", title=..., description=..., rules_file=..., operations=(
        Operation.rolling("/test", test, operation="test", request=schemas.ProbenTestRequest,
                          result=schemas.ProbenTestResult, example=TEST_EXAMPLE, odds=test_odds),
    ))

There are five kinds (``Kind``), and the view of each takes what its kind gives it:

- ``rolling``: ``view(body, source, lang) -> (result, summary)``; enveloped with its randomness, signed;
- ``odds``: ``view(body) -> Odds``, the exact twin of a rolling operation, declared on it (``odds=``):
  its path is the rolling one's plus ``/odds``, its request and example the same; not signed;
- ``advice``: ``view(body, lang) -> (advice, summary)``, the advice twin of a rolling operation,
  declared on it (``advice=``): its path is the rolling one's plus ``/advice``, its request the odds
  twin's plus ``advise`` (API.md §1.10, service/platform/operations/advice.py); no randomness; signed;
- ``resolving``: ``view(body, lang) -> (result, summary)``, no randomness; enveloped and signed;
- ``lookup``: ``view(lang) -> (result, summary)``, a GET without a body; enveloped and signed.

What a kind decides is its ``KindRules``, given with its member of ``Kind`` (at the end of this
module); everything else asks the rules, not the kind.

Plain consumers read the declarations: Flask routes each path to ``serve``, which hands the parsed
body to ``respond`` (below: load, source, view, envelope, sign, JSON); ``POST /v1/batch`` runs the
same ``respond`` per item (batch.py); the spec writer (openapi.py) builds each path entry from the
same declaration; ``GET /v1/systems`` lists them (``System.catalogue_entry``).
"""

from __future__ import annotations

import dataclasses
import enum
import functools
import inspect
from collections.abc import Callable, Mapping
from functools import cached_property
from typing import Any, TypeVar

import marshmallow as ma
from flask import Flask, Response
from marshmallow import ValidationError
from werkzeug.datastructures import Headers

from service.platform.dice.derived_randomness import (
    IDEMPOTENCY_HEADER,
    IdempotencyKeyError,
    check_idempotency_header,
    request_source,
)
from service.platform.dice.randomness import RandomSource, make_source
from service.platform.dice.sessions import SessionSource, session_source
from service.platform.http.hooks import request_body
from service.platform.http.http_json import json_response
from service.platform.http.i18n import request_lang
from service.platform.http.problems import input_error_problem, unexpected_problem, validation_problem
from service.platform.http.request_steps import current_request
from service.platform.http.runtime import current_runtime
from service.platform.maths import odds as odds_json
from service.platform.maths import time_slicing
from service.platform.maths.luck import Luck
from service.platform.operations.fastload import fast_loader
from service.platform.operations.schemas import (
    advice_request_schema,
    advice_response_schema,
    envelope_schema,
    odds_request_schema,
    odds_response_schema,
    renamed,
    rolling_request_schema,
)
from service.platform.values.errors import InputError, ReceiptError
from service.platform.values.plain_data import plain
from service.platform.words.messages import say

EXAMPLE_SEED = 20261129
EXAMPLE_RECEIPT = {
    "id": "00000000-0000-4000-8000-000000000000",
    "issued_at": "2026-11-29T12:00:00.000Z",
    "alg": "Ed25519",
    "kid": "example-kid",
    "signature": "example-signature",
}
ODDS_IGNORE_NOTE = ("The odds do not depend on where the dice come from: `ticket`, `session` and "
                    "`idempotency_key` in the body and the `Idempotency-Key` header are accepted and ignored.")

# The members of a rolling request that choose where its random values come from
# (schemas.RandomnessFields); they are echoed after the operation's own members.
RANDOMNESS_MEMBERS = ("seed", "manual", "ticket", "session", "idempotency_key")
_DERIVING_MEMBERS = frozenset(("ticket", "session", "idempotency_key"))


# -- the declaration ---------------------------------------------------------------------------

Body = Mapping[str, Any]  # a request body as its schema loaded it (the schema vouches for each member's type)
# What the view of each kind is called with, and answers (the result is a rules dataclass).
RollingView = Callable[[Body, RandomSource, str], tuple[object, str]]
OddsView = Callable[[Body], odds_json.Odds]
ResolvingView = Callable[[Body, str], tuple[object, str]]
AdviceView = Callable[[Body, str], tuple[dict[str, Any], str]]
LookupView = Callable[[str], tuple[object, str]]


@dataclasses.dataclass(frozen=True)
class Operation:
    """One operation, declared once: everything the router, the batch, the spec and the catalogue read.

    ``request`` and ``result`` are the system's own schemas: ``schema`` adds the members every
    operation of the kind shares (randomness for a rolling one), ``response_schema`` the envelope.
    ``response_example`` is needed only where the example cannot be resolved offline (an apply
    operation verifies a signed draw, which a fixed example cannot carry). ``system`` is filled in
    by the ``System`` whose table holds the declaration."""

    kind: Kind
    path: str  # below the system's base path /v1/<system>
    view: Callable[..., Any]
    operation: str  # the name in the operation id; an odds twin has its rolling operation's name
    request: type[ma.Schema] | None = None
    result: type[ma.Schema] | None = None
    example: Mapping[str, Any] | None = None
    response_example: Mapping[str, Any] | None = None
    encounter: bool = False  # an encounter's odds carry their solver and may be float64 (API.md §1.7)
    odds_view: OddsView | None = None  # a rolling operation's odds twin, declared on it (``odds_twin``)
    advice_view: AdviceView | None = None  # a rolling operation's advice twin, declared on it (``advice_twin``)
    advice_example: Mapping[str, Any] | None = None  # the advice twin's own, where several options of the
    # rolling example would be over the encounter limit together (None: the rolling example)
    advice_request: type[ma.Schema] | None = None  # the advice twin's body where it adds policy fields
    # of its own (None: the rolling request)
    system: str = ""
    manual_value: Mapping[str, Any] | None = None  # the system's: the JSON Schema of one `manual` value
    luck: Luck | None = None  # a rolling operation's: the ordered quantity the luck report measures (luck.py)
    unmeasured: str | None = None  # or why the luck report cannot measure it (a rolling operation has one of the two)

    @classmethod
    def rolling(cls, path: str, view: RollingView, *, operation: str, request: type[ma.Schema],
                result: type[ma.Schema], example: Mapping[str, Any], odds: OddsView | None = None,
                encounter: bool = False, luck: Luck | None = None, unmeasured: str | None = None,
                advice: AdviceView | None = None, advice_example: Mapping[str, Any] | None = None,
                advice_request: type[ma.Schema] | None = None) -> Operation:
        """A rolling operation; with ``odds`` its odds twin too, at ``<path>/odds`` with the same
        request and example (``encounter``: a whole encounter, whose odds name their solver); with
        ``advice`` its advice twin at ``<path>/advice`` (the odds body plus ``advise``). The luck
        report measures it by ``luck``, or says why it cannot: ``unmeasured`` (an encounter's is said
        here: the luck report measures single rolls); ``advice_example`` the advice twin's example
        and ``advice_request`` its body where they differ (a single roll's advice adds the choice it
        weighs, which the roll itself does not take)."""
        if encounter and luck is None and unmeasured is None:
            unmeasured = "a whole encounter: a chain of rolls, not one ordered quantity"
        return cls(Kind.ROLLING, path, view, operation, request, result, example, encounter=encounter,
                   odds_view=odds, luck=luck, unmeasured=unmeasured, advice_view=advice,
                   advice_example=advice_example, advice_request=advice_request)

    def odds_twin(self) -> Operation:
        """The exact odds of this rolling operation: the same body answered with every outcome."""
        if self.odds_view is None:
            raise TypeError(f"{self.id}: declares no odds twin")
        return Operation(Kind.ODDS, f"{self.path}/odds", self.odds_view, self.operation, self.request,
                         None, self.example, encounter=self.encounter)

    def advice_twin(self) -> Operation:
        """The advice on the choices of this rolling operation's body (API.md §1.10): no randomness."""
        if self.advice_view is None:
            raise TypeError(f"{self.id}: declares no advice twin")
        return Operation(Kind.ADVICE, f"{self.path}/advice", self.advice_view, self.operation,
                         self.advice_request or self.request, None, self.advice_example or self.example,
                         encounter=self.encounter)

    def twins(self) -> tuple[Operation, ...]:
        """The twins declared on this operation, in the order the table lists them after it."""
        return ((self.odds_twin(),) if self.odds_view else ()) + ((self.advice_twin(),) if self.advice_view else ())

    @classmethod
    def resolving(cls, path: str, view: ResolvingView, *, operation: str, request: type[ma.Schema],
                  result: type[ma.Schema], example: Mapping[str, Any],
                  response_example: Mapping[str, Any] | None = None) -> Operation:
        return cls(Kind.RESOLVING, path, view, operation, request, result, example, response_example)

    @classmethod
    def lookup(cls, path: str, view: LookupView, *, operation: str,
               result: type[ma.Schema]) -> Operation:
        return cls(Kind.LOOKUP, path, view, operation, None, result)

    # -- what the declaration implies (worked out once, on first use) ---------------------------

    @property
    def id(self) -> str:
        return f"{self.system}.{self.operation}{self.kind.rules.id_suffix}"

    @property
    def url(self) -> str:
        return f"/v1/{self.system}{self.path}"

    @property
    def method(self) -> str:
        return self.kind.rules.method

    @property
    def endpoint(self) -> str:
        """Flask's name for the route (and the metrics' label): ``<system>.<operation id as a name>``."""
        return f"{self.system}.{self.id.replace('.', '_').replace('-', '_')}"

    @cached_property
    def request_schema(self) -> type[ma.Schema] | None:
        """The request schema class: the system's, plus what every operation of the kind takes."""
        if self.request is None:
            return None
        return self.kind.rules.request_schema(self, self.request)

    @cached_property
    def schema(self) -> ma.Schema | None:
        """The request schema, instantiated once (marshmallow deep-copies the fields per instance)."""
        return self.request_schema() if self.request_schema is not None else None

    @cached_property
    def load(self) -> Callable[[object], dict]:
        """``schema.load``, compiled for the bodies it can vouch for (fastload.py); a lookup takes none."""
        if self.schema is None:
            return lambda _body: {}
        return fast_loader(self.schema)

    @cached_property
    def response_schema(self) -> type[ma.Schema]:
        return self.kind.rules.response_schema(self)

    @cached_property
    def docs(self) -> tuple[str, str]:
        """Summary and description, from the view's docstring: a summary line, then the rulings."""
        summary, _, description = (inspect.getdoc(self.view) or "").partition("\n")
        if not summary or not description.strip():
            raise TypeError(f"{self.id}: {self.view.__name__} needs a docstring: a summary line, "
                            "then the rulings it applies")
        description = description.strip()
        if self.kind.rules.note:
            description = f"{description}\n\n{self.kind.rules.note}"
        return summary.strip(), description

    @cached_property
    def documented_response(self) -> dict[str, Any]:
        """The response example of the spec: the request example really answered (seeded), with a
        placeholder receipt."""
        if self.response_example is not None:
            return dict(self.response_example)
        example = dict(self.example or {})
        if self.kind.rules.rolls:
            example["seed"] = EXAMPLE_SEED
        body = self.schema.load(example) if self.schema is not None else {}
        document = plain(self.kind.rules.answer(self, body, EXAMPLE_CALL))
        assert isinstance(document, dict)  # every answer is a JSON object
        if self.kind.rules.signed:
            document["receipt"] = dict(EXAMPLE_RECEIPT)
        return document


@dataclasses.dataclass(frozen=True)
class System:
    """A rule system under ``/v1/<id>``: its catalogue entry and its table of operations."""

    id: str
    title: str
    description: str
    rules_file: str
    operations: tuple[Operation, ...]
    tagline: str = ""  # what the system rolls, in a few words (README's systems table)
    enums: Mapping[str, Any] = dataclasses.field(default_factory=dict)
    glossary: Mapping[str, str] = dataclasses.field(default_factory=dict)
    extra: Mapping[str, Any] = dataclasses.field(default_factory=dict)
    # What one `manual` value of this system's rolls is, in JSON Schema (a d6 face: 1..6); the spec
    # states it, the random source checks it as each value is consumed.
    manual_value: Mapping[str, Any] | None = None

    def __post_init__(self) -> None:
        # The declarations of the table are written without their system and their twins (odds, advice);
        # they get both here, once, each twin right after its rolling operation.
        declared = [(operation, *operation.twins()) for operation in self.operations]
        bound = tuple(dataclasses.replace(operation, system=self.id, manual_value=self.manual_value)
                      for pair in declared for operation in pair)
        object.__setattr__(self, "operations", bound)

    def catalogue_entry(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "name": self.title,
            "rules_file": self.rules_file,
            "operations": [{"id": o.id, "method": o.method, "path": o.url} for o in self.operations],
            "enums": dict(self.enums),
            "glossary": dict(self.glossary),
            **self.extra,
        }


_View = TypeVar("_View", bound=Callable[..., Any])


def quoting(rulings: str) -> Callable[[_View], _View]:
    """Writes ``rulings`` where a view's docstring says ``{rulings}``, so that twins (an encounter and its
    odds) quote one text in their descriptions."""
    def write_in(view: _View) -> _View:
        view.__doc__ = (view.__doc__ or "").replace("{rulings}", rulings.replace("\n", "\n    "))
        return view
    return write_in


# -- one call of an operation ------------------------------------------------------------------

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
        return cls(current_request().headers, item)

    def lang(self) -> str:
        """``?lang=``, else Accept-Language, else English; a wrong ``?lang=`` raises InputError."""
        return self.given_lang or request_lang()


EXAMPLE_CALL = Call(given_lang="en")
_TABLE = "wurfwerk.operations"  # the app's extension holding its operations by id
_SYSTEMS = "wurfwerk.systems"  # and its systems, in order


def route(app: Flask, systems: list[System]) -> None:
    """Route every declared path of ``systems`` to ``serve``, and keep the systems (``systems_of``)
    and the table of operations by id (``operations_of``) for the batch, the catalogue and the tickets."""
    app.extensions[_SYSTEMS] = list(systems)
    table = app.extensions[_TABLE] = {}
    for system in systems:
        for operation in system.operations:
            app.add_url_rule(operation.url, operation.endpoint, functools.partial(serve, operation),
                             methods=[operation.method])
            table[operation.id] = operation


def operations_of(app: Flask) -> Mapping[str, Operation]:
    """The app's declared operations by id, in the order of the systems and their tables."""
    return app.extensions[_TABLE]


def systems_of(app: Flask) -> list[System]:
    """The app's systems, in the order they were routed."""
    return app.extensions[_SYSTEMS]


def serve(operation: Operation) -> Response:
    """Flask's view of every declared path: the body the request hooks parsed (hooks.py), as a call
    on this request."""
    return respond(operation, request_body(), Call.of_request())


def respond(operation: Operation, body: object, call: Call) -> Response:
    """The request path of every operation, for a single call and a batch item alike: load the body,
    answer it (source, view, envelope), sign, write JSON. Errors become the problems the API
    documents, naming the operation's path."""
    try:
        if operation.encounter:  # a turn between the request's head and the body's loading (time_slicing.py)
            time_slicing.cooperate()
        rules = operation.kind.rules
        document = rules.answer(operation, operation.load(body), call)
        return json_response(current_runtime().keys.sign(document) if rules.signed else document)
    except ValidationError as error:
        return validation_problem(error.messages, instance=operation.url)
    except InputError as error:
        return input_error_problem(error, instance=operation.url)
    except Exception as error:  # a fault: logged, answered with a plain 500 problem
        return unexpected_problem(error, instance=operation.url)


def answer(operation: Operation, body: dict, call: Call) -> dict[str, Any]:
    """The document a call of ``operation`` answers, not yet signed: what its kind answers."""
    return operation.kind.rules.answer(operation, body, call)


def _rolled(operation: Operation, body: dict, call: Call) -> dict[str, Any]:
    """A rolling call's envelope: the view given its random source, the randomness echoed and its
    events recorded. Its result is still the rules' value (dataclasses, enums, tuples): orjson writes
    it into the response, and sorted into the signed payload (receipts.canonical_bytes), rather than
    converting it to dicts first."""
    lang = call.lang()
    randomness = {name: body.pop(name) for name in RANDOMNESS_MEMBERS if name in body}
    source = randomness_source(operation.id, body, randomness, call)
    result, summary = operation.view(body, source, lang)
    source.finish()
    if isinstance(source, SessionSource):  # the seat's seed or key is never echoed
        randomness["session"] = source.use
    document = envelope(operation, {**body, **randomness}, result, summary, lang)
    document["randomness"] = {"source": source.name, "events": source.events}
    if source.idempotency_key is not None:
        document["randomness"]["idempotency_key"] = source.idempotency_key
    if isinstance(source, SessionSource) and source.hidden:  # the table's part of a hidden roll
        document["public"] = source.public_part(current_runtime().keys, result)
    return document


def _resolved(operation: Operation, body: dict, call: Call) -> dict[str, Any]:
    lang = call.lang()
    result, summary = operation.view(body, lang)
    return envelope(operation, dict(body), result, summary, lang)


def _looked_up(operation: Operation, body: dict, call: Call) -> dict[str, Any]:
    lang = call.lang()
    result, summary = operation.view(lang)
    return envelope(operation, {}, result, summary, lang)


def _odds(operation: Operation, body: dict, call: Call) -> dict[str, Any]:
    call.lang()  # odds carry no text, but a wrong ?lang= is still refused
    return odds_document(operation, body)


def _advised(operation: Operation, body: dict, call: Call) -> dict[str, Any]:
    """The advice envelope (API.md §1.10): ``advice`` where a result would be; an encounter's advice
    solves every option, so it yields its worker's turn as an encounter's odds do."""
    lang = call.lang()
    echoed = dict(body)
    if operation.encounter:
        time_slicing.cooperate()
        with time_slicing.long_computation():
            advice, summary = operation.view(body, lang)
        time_slicing.cooperate()
    else:
        advice, summary = operation.view(body, lang)
    return {"operation": operation.id, "request": echoed, "advice": advice, "summary": summary, "lang": lang}


def envelope(operation: Operation, echoed: dict, result: object, summary: str, lang: str) -> dict[str, Any]:
    return {"operation": operation.id, "request": echoed, "result": result, "summary": summary, "lang": lang}


def odds_document(operation: Operation, body: dict) -> dict[str, Any]:
    if operation.encounter:  # a turn for the worker's other requests before and after a long solve
        time_slicing.cooperate()
        with time_slicing.long_computation():
            odds = operation.view(body)
        time_slicing.cooperate()
    else:
        odds = operation.view(body)
    document = {"operation": operation.id, "request": dict(body), "odds": odds_json.as_json(odds)}
    if odds.solver is not None:  # an encounter's: how it was solved (API.md §1.7)
        document["solver"] = odds_json.solver_json(odds.solver)
    return document


def randomness_source(operation_id: str, request_body: Mapping[str, Any], randomness: Mapping[str, Any],
                      call: Call) -> RandomSource:
    """Where a rolling call's random values come from: the one place that decides it, per call.

    ``request_body`` is the loaded body without the randomness members, ``randomness`` the members
    of ``RANDOMNESS_MEMBERS`` the request gave; ``call`` what the call knows of its HTTP request
    (the ``Idempotency-Key`` header, its place in a batch). A ticket or an idempotency key derives
    the dice from the service's secret (derived_randomness.request_source); otherwise seed, manual or the
    CSPRNG."""
    header_key = call.headers.get(IDEMPOTENCY_HEADER)
    if header_key is None and _DERIVING_MEMBERS.isdisjoint(randomness):
        return make_source(randomness.get("seed"), randomness.get("manual"))
    if randomness.get("session") is not None:  # a seat's roll: the session decides the dice
        if header_key is not None and call.item is None:
            check_idempotency_header(header_key)
            raise IdempotencyKeyError(IDEMPOTENCY_HEADER, say("cannot be combined with %(source)s, which is "
                                                              "reproducible already", source="session"))
        runtime = current_runtime()
        return session_source(runtime.keys, operation_id, randomness["session"],
                              max_index=runtime.config.limits.session_index)
    return request_source(current_runtime().keys, operation_id, request_body, randomness,
                          header_key=header_key, batch_item=call.item)


# -- the kinds: what each decides, in one place ----------------------------------------------

def _envelope_schema(operation: Operation) -> type[ma.Schema]:
    if operation.result is None:
        raise TypeError(f"{operation.id}: a {operation.kind.value} operation declares its result schema")
    return envelope_schema(operation.id, operation.request_schema, operation.result,
                           rolling=operation.kind.rules.rolls)


def _odds_schema(operation: Operation) -> type[ma.Schema]:
    if operation.request_schema is None:
        raise TypeError(f"{operation.id}: an odds operation has its rolling operation's request")
    return odds_response_schema(operation.id, operation.request_schema, encounter=operation.encounter)


def _advice_schema(operation: Operation) -> type[ma.Schema]:
    if operation.request_schema is None:
        raise TypeError(f"{operation.id}: an advice operation has its rolling operation's request")
    return advice_response_schema(operation.id, operation.request_schema)


@dataclasses.dataclass(frozen=True, eq=False)
class KindRules:
    """Everything an operation's kind decides: its method and id, its request and response schemas,
    how a call is answered (``respond``, the spec's examples) and whether it is signed. The router,
    the spec writer, the batch, the tickets and the README read these, never the kind itself, so a
    new kind is one more member of ``Kind`` with its rules."""

    method: str
    request_schema: Callable[[Operation, type[ma.Schema]], type[ma.Schema]]  # given the declared request
    response_schema: Callable[[Operation], type[ma.Schema]]
    answer: Callable[[Operation, dict, Call], dict[str, Any]]  # the document of a loaded call, unsigned
    signed: bool = True
    rolls: bool = False  # takes a random source: randomness members, tickets, the Idempotency-Key header
    twin: bool = False  # declared on a rolling operation, beside it (the README lists only the rolling one)
    id_suffix: str = ""  # after ``<system>.<operation>``: a twin's id differs from its rolling operation's
    note: str = ""  # added to every description of the kind
    # How the batch learns an encounter item's work without solving it: the view called inside
    # ``limits.pricing()`` (odds and advice of an encounter); None: the kind costs no encounter work.
    priced: Callable[[Operation, dict], object] | None = None


class Kind(enum.Enum):
    """The kinds of operation (the module's docstring), each with its rules."""

    _value_: str
    rules: KindRules

    def __new__(cls, value: str, rules: KindRules) -> Kind:
        member = object.__new__(cls)
        member._value_ = value
        member.rules = rules
        return member

    ROLLING = "rolling", KindRules(
        "POST", lambda operation, request: rolling_request_schema(operation.id, request, operation.manual_value),
        _envelope_schema, _rolled, rolls=True)
    ODDS = "odds", KindRules(
        "POST", lambda operation, request: odds_request_schema(operation.id, request),
        _odds_schema, _odds, signed=False, twin=True, id_suffix=".odds", note=ODDS_IGNORE_NOTE,
        priced=lambda operation, body: operation.view(body))
    ADVICE = "advice", KindRules(
        "POST", lambda operation, request: advice_request_schema(operation.id, request),
        _advice_schema, _advised, twin=True, id_suffix=".advice", note=ODDS_IGNORE_NOTE,
        priced=lambda operation, body: operation.view(body, "en"))
    RESOLVING = "resolving", KindRules(
        "POST", lambda operation, request: renamed(operation.id, request, "Request"), _envelope_schema, _resolved)
    LOOKUP = "lookup", KindRules(
        "GET", lambda operation, request: renamed(operation.id, request, "Request"), _envelope_schema, _looked_up)


# The reasons of a receipt that does not verify (receipts.Verification.reason, English in the 200 answer of
# /v1/receipts/verify), as catalog messages for a problem in the request's language.
RECEIPT_REASONS = {str(reason): reason for reason in (
    say("the document has no receipt object"), say("receipt.alg is not Ed25519"), say("unknown key id (kid)"),
    say("receipt.signature is missing"), say("the signature does not match the document"),
    say("the document cannot be canonicalized (RFC 8785)"))}


def verified_response(document: object, *, operation: str, field: str) -> dict:
    """A signed response a client handed back (a draw to apply, a conflict to narrate), after
    checking that its receipt verifies with our keys and that it is a response of ``operation``.
    Raises ``ReceiptError`` (422, naming ``field``) otherwise."""
    if not isinstance(document, dict) or not isinstance(document.get("result"), dict):
        raise ReceiptError(field, say("must be the complete signed response object"))
    verification = current_runtime().keys.verify(document)
    if not verification.valid:
        raise ReceiptError(f"{field}.receipt", say("does not verify: %(reason)s",
                           reason=RECEIPT_REASONS.get(verification.reason, verification.reason)))
    if document.get("operation") != operation:
        raise ReceiptError(f"{field}.operation", say("must be a %(operation)s response, got %(given)s",
                                                     operation=operation, given=repr(document.get("operation"))))
    return document
