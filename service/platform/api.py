"""flask-smorest wired for wurfwerk: problem+json error responses and one JSON parse per request."""

from __future__ import annotations

import http

from flask_smorest import Api, Blueprint
from flask_smorest.spec import prepare_response
from webargs import core
from webargs.flaskparser import FlaskParser

from service.platform.hooks import request_body
from service.platform.problems import PROBLEM_MEDIA_TYPE, ProblemSchema


class CachedJsonParser(FlaskParser):
    """Reuse the body the request hook already parsed (with orjson) instead of parsing it again."""

    DEFAULT_VALIDATION_STATUS = 422

    def _raw_load_json(self, req):
        if not req.get_data(cache=True):
            return core.missing
        return request_body()


class WurfwerkBlueprint(Blueprint):
    ARGUMENTS_PARSER = CachedJsonParser()


class WurfwerkApi(Api):
    ERROR_SCHEMA = ProblemSchema

    def _register_responses(self):
        """Every error response in the spec is ``application/problem+json`` with ``ProblemSchema``."""
        for status in http.HTTPStatus:
            response = {"description": status.phrase}
            if not (100 <= status < 200) and status not in (204, 304):
                response["schema"] = self.ERROR_SCHEMA
            content_type = PROBLEM_MEDIA_TYPE if status >= 400 else self.DEFAULT_RESPONSE_CONTENT_TYPE
            prepare_response(response, self.spec, content_type)
            self.spec.components.response(status.name, response, lazy=True)
        response = {"description": "Default error response", "schema": self.ERROR_SCHEMA}
        prepare_response(response, self.spec, PROBLEM_MEDIA_TYPE)
        self.spec.components.response("DEFAULT_ERROR", response, lazy=True)
