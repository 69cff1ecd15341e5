"""The language of human-readable text: ``?lang=``, else ``Accept-Language``, else English.

``?lang=`` is read in any case and with a region (``DE``, ``de-AT`` and ``de_AT`` are ``de``); a
language without a catalog falls back to English, never a refusal (API.md §1): a bot passing on its
user's locale must work for a French user too. Every answer names its language in
``Content-Language``; an answer whose text was written in it also varies on ``Accept-Language``.

The languages are those with a message catalog (``service.platform.words.catalogs``)."""

from __future__ import annotations

from functools import lru_cache
from urllib.parse import parse_qs

from flask import Request, Response
from werkzeug.datastructures import LanguageAccept
from werkzeug.http import parse_accept_header

from service.platform.http.request_steps import current_request
from service.platform.words.catalogs import LANGUAGES, SOURCE_LANGUAGE

__all__ = ["LANGUAGES", "LANG_PARAMETER", "request_lang", "negotiated_language", "supported_language",
           "language_headers"]

LANG_PARAMETER = {
    "in": "query",
    "name": "lang",
    "required": False,
    "schema": {"type": "string", "examples": list(LANGUAGES)},
    "description": "Language of `summary`, labels and problem messages: "
                   f"{', '.join(LANGUAGES)}, in any case and with a region (`de-AT` is `de`); any other "
                   "language falls back to `en`. Without it, Accept-Language (with q-values) decides, then "
                   "`en`. The answer's `Content-Language` names the language. Never changes field names or "
                   "enum values.",
}


def supported_language(tag: str) -> str | None:
    """The language we write for a language tag (``de-AT`` -> ``de``), or None."""
    primary = tag.strip().replace("_", "-").split("-", 1)[0].lower()
    return primary if primary in LANGUAGES else None


# Kept in the WSGI environ (as the metrics' start time): one dict per request, where ``g`` is a
# proxy's lookup per read and the answer's headers read both again.
_LANG = "wurfwerk.lang"
_TEXT_WRITTEN = "wurfwerk.text_language"


def request_lang() -> str:
    """The language of this request's text; the answer then varies on Accept-Language."""
    environ = current_request().environ
    environ[_TEXT_WRITTEN] = True
    return _negotiated(environ)


def _negotiated(environ: dict) -> str:
    cached = environ.get(_LANG)
    if cached is None:
        cached = environ[_LANG] = _from_request(environ)
    return cached


def _from_request(environ: dict) -> str:
    if environ.get("QUERY_STRING"):  # most calls have no query string: skip parsing one
        requested = current_request().args.get("lang")
        if requested is not None:
            return supported_language(requested) or SOURCE_LANGUAGE
    return _best_language(environ.get("HTTP_ACCEPT_LANGUAGE", ""))


def negotiated_language(query_string: str, accept_language: str) -> str:
    """The same choice as ``request_lang`` for answers written outside Flask (the worker's refusals
    of unparsable requests, the load shedder's 503): ``lang`` of the query, else Accept-Language."""
    if query_string:
        requested = parse_qs(query_string).get("lang")
        if requested:
            return supported_language(requested[0]) or SOURCE_LANGUAGE
    return _best_language(accept_language)


@lru_cache(maxsize=512)
def _best_language(accept_language: str) -> str:
    """The client's most preferred language we write, by primary subtag (``de-AT`` is ``de``).

    Tried in the client's order of preference: werkzeug's ``best_match`` prefers any exact match
    to a better-liked regional one, so ``en-US,de;q=0.5`` would get German. A client sends the
    same header on every call, so each distinct header is parsed once."""
    for tag, quality in parse_accept_header(accept_language, LanguageAccept):
        if quality <= 0:
            break  # q=0 means "not this one", and the list is sorted by quality
        language = supported_language(tag)
        if language is not None:
            return language
    return SOURCE_LANGUAGE


def language_headers(current: Request, response: Response) -> Response:
    """``Content-Language`` on every answer; ``Vary: Accept-Language`` where text was written
    (a step of service/platform/http/request_steps.py). No view sets either header itself, so both are
    added (``set`` first looks for one to replace, at twice the cost); tests/platform/http/test_request_ids.py
    checks that every kind of answer carries each once."""
    environ = current.environ
    headers = response.headers
    headers.add("Content-Language", _negotiated(environ))
    if environ.get(_TEXT_WRITTEN):
        if any(name.lower() == "vary" for name, _value in headers):
            response.vary.add("Accept-Language")  # joined to what is there (flask-cors's Origin)
        else:  # what response.vary.add writes on its own, without parsing an empty header set first
            headers.add("Vary", "Accept-Language")
    return response
