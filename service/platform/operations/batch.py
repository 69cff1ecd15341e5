"""``POST /v1/batch``: many operations in one round trip, each answered exactly as on its own.

An item takes its operation's own request path (``respond``, operations.py), the very one
its single call takes after the request hooks, so a successful item body is what the single call
returns (its own receipt); a failing item gets the problem the single call would get, naming the
item's path. The batch request itself passed the hooks once (API key, JSON syntax, size); items
are calls on it (its headers and language, and their index). Item bodies are embedded as the bytes
the handler produced, not parsed and re-serialized.
"""

from __future__ import annotations

from collections.abc import Mapping

import marshmallow as ma
from flask import Response, current_app
from marshmallow import fields, validate

from service.platform.http.limits import LengthAtMost
from service.platform.operations.fields import StrictSchema, WordedSchema
from service.platform.operations.operations import Call, Operation, respond


def batch_request_schema(operation_ids: list[str]) -> type[ma.Schema]:
    item = WordedSchema.from_dict(
        {
            "operation": fields.String(required=True, validate=validate.OneOf(operation_ids),
                                       metadata={"description": "An operation id, e.g. paws.test."}),
            "body": fields.Dict(required=True, metadata={"description": "Exactly the body of the single call."}),
        },
        name="BatchItem",
    )
    return type("BatchRequest", (StrictSchema,), {
        "requests": fields.List(fields.Nested(item), required=True,
                                validate=LengthAtMost("batch_items", min=1)),
    })


class BatchResultSchema(ma.Schema):
    status = fields.Integer(required=True)
    body = fields.Dict(required=True, metadata={"description": "The single call's response or problem."})


class BatchResponseSchema(ma.Schema):
    results = fields.List(fields.Nested(BatchResultSchema), required=True)


def run_batch(items: list[dict], operations: Mapping[str, Operation]) -> Response:
    """Each item takes its operation's own request path, as a call on the batch's request."""
    parts = []
    for index, item in enumerate(items):
        response = respond(operations[item["operation"]], item["body"], Call.of_request(item=index))
        parts.append(b'{"status":%d,"body":%s}' % (response.status_code, response.get_data()))
    return current_app.response_class(b'{"results":[' + b",".join(parts) + b"]}",
                                      mimetype="application/json")
