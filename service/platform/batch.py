"""``POST /v1/batch``: many operations in one round trip, each answered exactly as on its own.

Each item is dispatched through the app itself (same hooks, validation, problems and receipt), so a
batch can never drift from the single calls. Item bodies are embedded as the bytes the single call
produced, not parsed and re-serialized, which keeps a 500-item batch cheap.
"""

from __future__ import annotations

import marshmallow as ma
from flask import Response, current_app, request
from marshmallow import fields, validate

from service.platform.fields import StrictSchema
from service.platform.limits import LengthAtMost

# Headers an item inherits from the batch request (auth and language must apply to every item).
_INHERITED_HEADERS = ("Authorization", "Accept-Language", "X-Request-ID")


def batch_request_schema(operation_ids: list[str]) -> type[ma.Schema]:
    item = ma.Schema.from_dict(
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


def run_batch(items: list[dict], paths: dict[str, str]) -> Response:
    app = current_app._get_current_object()
    headers = {name: request.headers[name] for name in _INHERITED_HEADERS if name in request.headers}
    query = request.query_string.decode("latin-1")
    parts = []
    for item in items:
        with app.test_request_context(paths[item["operation"]], method="POST", json=item["body"],
                                      headers=headers, query_string=query):
            response = app.full_dispatch_request()
            parts.append(b'{"status":%d,"body":%s}' % (response.status_code, response.get_data()))
    return app.response_class(b'{"results":[' + b",".join(parts) + b"]}", mimetype="application/json")
