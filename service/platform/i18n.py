"""The language of human-readable text: ``?lang=``, else ``Accept-Language``, else English."""

from __future__ import annotations

from functools import lru_cache

from flask import request
from werkzeug.datastructures import LanguageAccept
from werkzeug.http import parse_accept_header

from service.platform.errors import InputError

LANGUAGES = ("en", "de")

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
    """A client sends the same Accept-Language on every call: parse each distinct header once."""
    return parse_accept_header(accept_language, LanguageAccept).best_match(LANGUAGES) or "en"
