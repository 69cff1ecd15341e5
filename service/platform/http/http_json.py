"""JSON bodies over HTTP through orjson (fast, strict UTF-8, rejects NaN and nesting over 1024):
Flask's JSON provider, which parses request bodies, and the JSON responses every route answers with."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import orjson
from flask import Response, current_app
from flask.json.provider import JSONProvider
from werkzeug.datastructures import Headers

from service.platform.values.plain_data import JSONValue
from service.platform.values.results import result_members

# Result dataclasses are written from their fields (results.result_members), as in the signed payload.
_OPTIONS = orjson.OPT_NON_STR_KEYS | orjson.OPT_PASSTHROUGH_DATACLASS


class OrjsonProvider(JSONProvider):
    def dumps(self, obj: object, **kwargs: Any) -> str:
        return dumps(obj).decode("utf-8")

    def loads(self, s: str | bytes, **kwargs: Any) -> JSONValue:
        return orjson.loads(s)


def dumps(obj: object) -> bytes:
    """``obj`` as JSON bytes: dataclasses from their fields, enums by value, tuples as lists."""
    return orjson.dumps(obj, default=result_members, option=_OPTIONS)


def json_response(body: object, status: int = 200, *, mimetype: str = "application/json",
                  headers: Headers | Mapping[str, str] | None = None) -> Response:
    # The app itself, once: each attribute of the proxy is a lookup of the app context of its own.
    response_class = current_app._get_current_object().response_class  # type: ignore[attr-defined]
    return response_class(dumps(body), status=status, mimetype=mimetype, headers=headers)
