"""RFC 9457 problem details for every error a client can cause, and a plain 500 for the rest.

Nothing here knows a system: rules raise ``InputError`` subclasses, webargs raises 422 with
marshmallow messages, werkzeug raises HTTP errors; each becomes ``application/problem+json``.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from http import HTTPStatus
from typing import Any

import marshmallow as ma
from flask import Flask, Response, current_app, g, request
from werkzeug.exceptions import HTTPException

from service.platform.http.http_json import json_response
from service.platform.http.i18n import request_lang
from service.platform.values.errors import InputError
from service.platform.words.catalogs import marked, translations
from service.platform.words.messages import Message, localized, say, say_n

PROBLEM_MEDIA_TYPE = "application/problem+json"
PROBLEM_BASE = "https://wurfwerk.dev/problems/"

# Every problem type the service emits: slug -> (status, when). The README lists this table.
PROBLEM_TYPES: dict[str, tuple[int, str]] = {
    "malformed-json": (400, "The body is not valid JSON (or nests deeper than the parser allows)."),
    "bad-request": (400, "The request is malformed in another way (e.g. a bad query parameter)."),
    "unauthorized": (401, "API keys are configured and the bearer key is missing or wrong."),
    "forbidden": (403, "The bearer key is valid but may not do this (issuing tickets, opening sessions: "
                          "WURFWERK_TICKET_KEYS)."),
    "not-found": (404, "No such path."),
    "method-not-allowed": (405, "The path exists, the method does not; `Allow` lists the methods."),
    "payload-too-large": (413, "The body is larger than WURFWERK_MAX_BODY_BYTES."),
    "unsupported-media-type": (415, "A body was sent that is not `application/json`."),
    "validation-error": (422, "A field is missing, of the wrong type, out of range or over a limit."),
    "invalid-input": (422, "The rules cannot resolve the request (e.g. `manual` values that do not fit)."),
    "rule-violation": (422, "A choice the rules forbid; the message names the rule."),
    "encounter-too-large": (422, "An encounter has more states than WURFWERK_MAX_ENCOUNTER_STATES (or, with "
                                 "`exact: required`, than WURFWERK_MAX_ENCOUNTER_EXACT_STATES); members `states` "
                                 "and `limit`. Refused before solving."),
    "invalid-receipt": (422, "A signed response handed back does not verify or is of the wrong operation."),
    "invalid-ticket": (422, "A roll ticket is forged, altered, expired, for another operation or from a retired key."),
    "invalid-session": (422, "A session is forged, altered, ended or from a retired key, names a seat it does not "
                             "have, a wrong seed or seat key, an index above WURFWERK_MAX_SESSION_INDEX or a "
                             "wrong `prev`; a reveal of a key whose private half is gone; or a reveal handed to "
                             "the report does not verify."),
    "session-open": (409, "A session's secret was asked for before `expires_at` (no key may reveal early)."),
    "request-timeout": (408, "The body did not arrive within WURFWERK_READ_TIMEOUT; the connection is closed."),
    "uri-too-long": (414, "The request line is longer than WURFWERK_MAX_REQUEST_LINE."),
    "header-fields-too-large": (431, "More header fields than WURFWERK_MAX_HEADER_FIELDS, "
                                     "or one longer than WURFWERK_MAX_HEADER_BYTES."),
    "rate-limited": (429, "Sent by the balancer (deploy/balancer): too many requests from this API key "
                          "or address; `Retry-After` says when to retry."),
    "internal-error": (500, "A fault in the service; the log has the details, the response never does."),
    "overloaded": (503, "The replica is at capacity and refused the request unprocessed; "
                        "retry after `Retry-After` seconds."),
    "not-ready": (503, "`/readyz` of a replica that must get no traffic: WURFWERK_REQUIRE_SIGNING_KEY is on "
                       "and no key is configured."),
    "http-error": (0, "Any other HTTP error, with its status."),
}

# The problem responses every /v1 operation documents (what a client's request can cause anywhere).
DOCUMENTED_STATUSES = (400, 401, 413, 415, 422)

_SLUG_BY_STATUS = {400: "bad-request", 401: "unauthorized", 403: "forbidden", 404: "not-found",
                   405: "method-not-allowed", 413: "payload-too-large",
                   415: "unsupported-media-type", 422: "validation-error", 500: "internal-error"}

# Every problem's title: the phrase of its status, in the request's language.
TITLES = {
    400: marked("problem title", "Bad Request"),
    401: marked("problem title", "Unauthorized"),
    403: marked("problem title", "Forbidden"),
    404: marked("problem title", "Not Found"),
    405: marked("problem title", "Method Not Allowed"),
    409: marked("problem title", "Conflict"),
    408: marked("problem title", "Request Timeout"),
    413: marked("problem title", "Content Too Large"),
    414: marked("problem title", "URI Too Long"),
    415: marked("problem title", "Unsupported Media Type"),
    417: marked("problem title", "Expectation Failed"),
    422: marked("problem title", "Unprocessable Content"),
    429: marked("problem title", "Too Many Requests"),
    431: marked("problem title", "Request Header Fields Too Large"),
    500: marked("problem title", "Internal Server Error"),
    501: marked("problem title", "Not Implemented"),
    503: marked("problem title", "Service Unavailable"),
}
# werkzeug's own descriptions of the HTTP errors a client meets, in our words.
_HTTP_DETAILS = {
    404: say("There is no such path; GET /v1/systems lists the operations."),
    405: say("This path does not take this method; the Allow header lists those it takes."),
}

log = logging.getLogger("wurfwerk")


class LimitSchema(ma.Schema):
    """The configured limit a value went over, for operators (the message names it in words)."""

    name = ma.fields.String(required=True, metadata={"description": "The limit, e.g. pool_dice."})
    value = ma.fields.Integer(required=True, metadata={"description": "Its value on this deployment."})
    setting = ma.fields.String(required=True,
                               metadata={"description": "The environment variable that sets it."})


class ProblemSchema(ma.Schema):
    """RFC 9457 problem details (documentation only; problems are built by ``problem``). ``title``,
    ``detail`` and the ``errors`` messages are in the request's language (Content-Language)."""

    type = ma.fields.String(required=True, metadata={"description": "Stable URI of the problem type (see README)."})
    title = ma.fields.String(required=True, metadata={"description": "Short summary of the problem type."})
    status = ma.fields.Integer(required=True, metadata={"description": "The HTTP status code."})
    detail = ma.fields.String(required=True, metadata={"description": "What went wrong in this request."})
    instance = ma.fields.String(required=True, metadata={"description": "The path of the request."})
    request_id = ma.fields.String(metadata={"description": "The X-Request-ID of the request, for the logs."})
    errors = ma.fields.Dict(
        keys=ma.fields.String(),
        values=ma.fields.List(ma.fields.String()),
        metadata={"description": "Validation failures: dotted field path -> messages (422 only), in the "
                                 "request's language."},
    )
    states = ma.fields.Integer(metadata={"description": "`encounter-too-large` only: the encounter's state "
                                                        "bound, computed from the body."})
    limit = ma.fields.Nested(LimitSchema, metadata={
        "description": "Present when a value is over a configured limit (422, 413; `encounter-too-large`: "
                       "the state limit, value 0 when the system answers in float64 only)."})


def problem_title(status: int, lang: str = "en") -> str:
    phrase = TITLES.get(status)
    if phrase is None:
        return HTTPStatus(status).phrase
    return translations(lang).pgettext("problem title", phrase)


def problem_document(status: int, detail: str, *, slug: str, instance: str, request_id: str,
                     title: str | None = None) -> dict[str, Any]:
    """The problem details body, also for the answers written outside Flask (the worker's refusals
    of unparsable requests, the load shedder's 503); ``title`` defaults to the status's phrase."""
    return {"type": PROBLEM_BASE + slug, "title": title or HTTPStatus(status).phrase, "status": status,
            "detail": detail, "instance": instance, "request_id": request_id}


def problem(status: int, detail: str, *, slug: str | None = None,
            errors: Mapping[str, list[str]] | None = None, headers: Mapping[str, str] | None = None,
            instance: str | None = None, members: Mapping[str, Any] | None = None) -> Response:
    """``instance`` is the request's path unless a batch answers for one of its items; ``members``
    are a problem type's own extension members (RFC 9457 §3.2). ``detail`` and the ``errors``
    messages are said in the request's language (messages.Message); a message that reports a limit
    adds the ``limit`` member."""
    lang = request_lang()
    instance = instance or request.path
    glossary = _glossary_for(instance)
    body = problem_document(status, localized(detail, lang, glossary),
                            slug=slug or _SLUG_BY_STATUS.get(status, "http-error"), instance=instance,
                            request_id=getattr(g, "request_id", ""), title=problem_title(status, lang))
    if errors:
        body["errors"] = {path: [localized(message, lang, glossary) for message in messages]
                          for path, messages in errors.items()}
    limit = _limit_of(detail, errors)
    if limit is not None:
        body["limit"] = limit
    if members:
        body.update(members)
    return json_response(body, status, mimetype=PROBLEM_MEDIA_TYPE, headers=headers)


def _limit_of(detail: str, errors: Mapping[str, list[str]] | None) -> dict | None:
    candidates = [detail, *(message for messages in (errors or {}).values() for message in messages)]
    for message in candidates:
        if isinstance(message, Message) and (limit := message.limit()) is not None:
            return limit
    return None


_GLOSSARIES = "wurfwerk.glossaries"  # the app's extension: system id -> German term -> API word


def register_glossaries(app: Flask, glossaries: Mapping[str, Mapping[str, str]]) -> None:
    """Keep each system's glossary (German term -> API word) for the problems of its paths, its
    paired terms ("gering / deutlich / besonders groß": "low / clear / grave") split into single ones."""
    table = app.extensions[_GLOSSARIES] = {}
    for system_id, glossary in glossaries.items():
        single: dict[str, str] = {}
        for term, api in glossary.items():
            terms, words = term.split(" / "), api.split(" / ")
            for one_term, word in (zip(terms, words) if len(terms) == len(words) else [(term, api)]):
                single.setdefault(one_term.strip(), word.strip())
        table[system_id] = single


def _glossary_for(path: str) -> dict[str, str]:
    """The glossary of the system whose path this is (``/v1/<system>/...``), else none."""
    parts = path.split("/", 3)
    return current_app.extensions.get(_GLOSSARIES, {}).get(parts[2], {}) if len(parts) > 2 else {}


def flatten_messages(messages: object, prefix: str = "") -> dict[str, list[str]]:
    """marshmallow's nested messages -> {"dotted.path": [messages]}; schema-level errors keep the
    path of the object they belong to ("body" at the top)."""
    if isinstance(messages, Mapping):
        flat: dict[str, list[str]] = {}
        for key, value in messages.items():
            if key == "_schema":
                path = prefix or "body"
            else:
                path = f"{prefix}.{key}" if prefix else str(key)
            for sub_path, sub_messages in flatten_messages(value, path).items():
                flat.setdefault(sub_path, []).extend(sub_messages)
        return flat
    if isinstance(messages, (list, tuple)):
        if all(isinstance(item, str) for item in messages):
            return {prefix or "body": list(messages)}
        flat = {}
        for item in messages:
            for sub_path, sub_messages in flatten_messages(item, prefix).items():
                flat.setdefault(sub_path, []).extend(sub_messages)
        return flat
    return {prefix or "body": [str(messages)]}


def _validation_detail(errors: Mapping[str, list[str]]) -> Message:
    first_path, first_messages = next(iter(errors.items()))
    if len(errors) == 1:
        return say("%(path)s: %(message)s", path=first_path, message=first_messages[0])
    return say_n("%(path)s: %(message)s (and %(count)d more)", "%(path)s: %(message)s (and %(count)d more)",
                 len(errors) - 1, path=first_path, message=first_messages[0])


def validation_problem(messages: object, slug: str = "validation-error", instance: str | None = None) -> Response:
    errors = flatten_messages(messages)
    return problem(422, _validation_detail(errors), slug=slug, errors=errors, instance=instance)


def http_exception_problem(error: HTTPException) -> Response:
    """The problem for an HTTP error (werkzeug's, or webargs' 422); flask-smorest's handler calls it."""
    data = getattr(error, "data", None) or {}
    if error.code == 422 and "messages" in data:
        messages = data["messages"]
        # webargs nests by location ("json", "query"); the body is what clients think in.
        if isinstance(messages, Mapping) and set(messages) <= {"json", "query"}:
            messages = _merge_locations(messages)
        return validation_problem(messages)
    headers = {}
    if error.code == 405:
        headers = {k: v for k, v in error.get_headers() if k == "Allow"}
    elif error.code == 401:
        headers = {"WWW-Authenticate": 'Bearer realm="wurfwerk"'}
    slug = getattr(error, "wurfwerk_slug", None)
    detail = getattr(error, "wurfwerk_detail", None) or _HTTP_DETAILS.get(error.code or 0) \
        or error.description or error.name
    return problem(error.code or 500, detail, slug=slug, headers=headers)


def _merge_locations(messages: Mapping[str, Any]) -> dict[str, Any]:
    merged: dict[str, Any] = {}
    for location_messages in messages.values():
        if isinstance(location_messages, Mapping):
            merged.update(location_messages)
        else:
            merged["_schema"] = location_messages
    return merged


def input_error_problem(error: InputError, instance: str | None = None) -> Response:
    return problem(422, say("%(path)s: %(message)s", path=error.field, message=error.message),
                   slug=error.problem_type, errors={error.field: [error.message]}, instance=instance,
                   members=error.members)


def unexpected_problem(error: Exception, instance: str | None = None) -> Response:
    log.exception("unhandled error in %s %s", request.method, instance or request.path)
    return problem(500, say("The service failed to handle this request; it has been logged."),
                   instance=instance)


def register_problem_handlers(app: Flask) -> None:
    """Problems for the errors raised outside an operation's request path (in hooks and the platform's
    endpoints); HTTP errors go through flask-smorest's handler (``WurfwerkApi.handle_http_exception``)."""
    app.register_error_handler(InputError, input_error_problem)
    app.register_error_handler(Exception, unexpected_problem)


def http_error(status: int, detail: str, slug: str | None = None) -> HTTPException:
    """An HTTPException carrying our detail and slug, for ``raise`` in request hooks."""
    from werkzeug.exceptions import default_exceptions

    error = default_exceptions[status]()
    error.wurfwerk_detail = detail  # type: ignore[attr-defined]  # read by http_exception_problem
    error.wurfwerk_slug = slug  # type: ignore[attr-defined]
    return error
