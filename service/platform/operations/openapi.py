"""The OpenAPI description of the declared operations, written from the declarations alone.

Each operation's path entry is built from its ``Operation`` and handed to apispec's public
``APISpec.path`` (with the Flask rule it is routed by, as flask-smorest hands its own views' entries
over), so the schemas become ``$ref``s through the marshmallow plugin and the problem responses
references to the components flask-smorest registers (``api.py`` serves them as problem+json).
"""

from __future__ import annotations

import copy
from http import HTTPStatus
from typing import Any

from flask import Flask
from flask_smorest import Api

from service.platform.http.i18n import LANG_PARAMETER
from service.platform.http.problems import DOCUMENTED_STATUSES
from service.platform.operations.operations import Operation, System
from service.platform.operations.schemas import IDEMPOTENCY_KEY_PARAMETER

JSON = "application/json"


def document_systems(api: Api, app: Flask, systems: list[System]) -> None:
    """Add each system's tag and the path entries of its operations to the API's spec."""
    for system in systems:
        for operation in system.operations:
            rule = next(app.url_map.iter_rules(operation.endpoint))
            api.spec.path(rule=rule, operations={operation.method.lower(): path_entry(operation)})
        api.spec.tag({"name": system.id, "description": system.description})


def path_entry(operation: Operation) -> dict[str, Any]:
    """The OpenAPI operation object of ``operation``. Its examples are copies: an example shared with
    another (a request echoed in its response) would be written as a YAML alias."""
    summary, description = operation.docs
    parameters = [LANG_PARAMETER]
    if operation.kind.rules.rolls:
        parameters.append(IDEMPOTENCY_KEY_PARAMETER)
    entry: dict[str, Any] = {
        "operationId": operation.id,
        "summary": summary,
        "description": description,
        "tags": [operation.system],
        "parameters": parameters,
        "responses": {
            200: {"description": HTTPStatus.OK.phrase, "content": {JSON: {
                "schema": operation.response_schema, "example": copy.deepcopy(operation.documented_response)}}},
            **{status: HTTPStatus(status).name for status in DOCUMENTED_STATUSES},
            "default": "DEFAULT_ERROR",  # flask-smorest's default error response, a problem too
        },
    }
    if operation.schema is not None:
        entry["requestBody"] = {"required": True, "content": {JSON: {
            "schema": operation.schema, "example": copy.deepcopy(dict(operation.example or {}))}}}
    return entry
