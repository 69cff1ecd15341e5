"""The language of human-readable text: ``?lang=``, else ``Accept-Language``, else English."""

from __future__ import annotations

from flask import request

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
    requested = request.args.get("lang")
    if requested is not None:
        if requested not in LANGUAGES:
            raise InputError("lang", f"must be one of {', '.join(LANGUAGES)}, got {requested!r}")
        return requested
    return request.accept_languages.best_match(LANGUAGES) or "en"
