"""JSON in and out through orjson (fast, strict UTF-8, rejects NaN and nesting over 1024)."""

from __future__ import annotations

from typing import Any

import orjson
from flask import Response, current_app
from flask.json.provider import JSONProvider

from service.platform.results import result_members

# Result dataclasses are written from their fields (results.result_members), as in the signed payload.
_OPTIONS = orjson.OPT_NON_STR_KEYS | orjson.OPT_PASSTHROUGH_DATACLASS


class OrjsonProvider(JSONProvider):
    def dumps(self, obj: Any, **kwargs: Any) -> str:
        return dumps(obj).decode("utf-8")

    def loads(self, s: str | bytes, **kwargs: Any) -> Any:
        return orjson.loads(s)


def dumps(obj: Any) -> bytes:
    return orjson.dumps(obj, default=result_members, option=_OPTIONS)


def json_response(body: Any, status: int = 200, *, mimetype: str = "application/json",
                  headers=None) -> Response:
    return current_app.response_class(dumps(body), status=status, mimetype=mimetype,
                                      headers=headers)
