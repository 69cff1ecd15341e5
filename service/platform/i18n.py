"""The language of human-readable text: ``?lang=``, else ``Accept-Language``, else English.

The languages are those with a message catalog (``service.platform.catalogs``)."""

from __future__ import annotations

from functools import lru_cache

from flask import request
from werkzeug.datastructures import LanguageAccept
from werkzeug.http import parse_accept_header

from service.platform.catalogs import LANGUAGES
from service.platform.errors import InputError

__all__ = ["LANGUAGES", "LANG_PARAMETER", "request_lang"]

LANG_PARAMETER = {
    "in": "query",
    "name": "lang",
    "required": False,
    "schema": {"type": "string", "enum": list(LANGUAGES)},
    "description": "Language of `summary` and labels (default: Accept-Language, then en). "
                   "Never changes field names or enum values.",
}


def request_lang() -> str:
    environ = request.environ
    if environ.get("QUERY_STRING"):  # most calls have no query string: skip parsing one
        requested = request.args.get("lang")
        if requested is not None:
            if requested not in LANGUAGES:
                raise InputError("lang", f"must be one of {', '.join(LANGUAGES)}, got {requested!r}")
            return requested
    return _best_language(environ.get("HTTP_ACCEPT_LANGUAGE", ""))


@lru_cache(maxsize=512)
def _best_language(accept_language: str) -> str:
    """The client's most preferred language we write, by primary subtag (``de-AT`` is ``de``).

    Tried in the client's order of preference: werkzeug's ``best_match`` prefers any exact match
    to a better-liked regional one, so ``en-US,de;q=0.5`` would get German. A client sends the
    same header on every call, so each distinct header is parsed once."""
    for tag, quality in parse_accept_header(accept_language, LanguageAccept):
        if quality <= 0:
            break  # q=0 means "not this one", and the list is sorted by quality
        primary = tag.replace("_", "-").split("-", 1)[0].lower()
        if primary in LANGUAGES:
            return primary
    return "en"
