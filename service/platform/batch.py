"""``POST /v1/batch``: many operations in one round trip, each answered exactly as on its own.

An item runs the operation's own request schema and handler, the very ones its single call runs
after the request hooks, so a successful item body is what the single call returns (its own
receipt); a failing item gets the problem the single call would get, naming the item's path. The
batch request itself passed the hooks once (API key, JSON syntax, size); items inherit its language.
Item bodies are embedded as the bytes the handler produced, not parsed and re-serialized.
"""

from __future__ import annotations

import marshmallow as ma
from flask import Response, current_app
from marshmallow import ValidationError, fields, validate

from service.platform.errors import InputError
from service.platform.fields import StrictSchema
from service.platform.hooks import request_body
from service.platform.limits import LengthAtMost
from service.platform.problems import input_error_problem, unexpected_problem, validation_problem
from service.platform.runtime import Operation


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


def run_item(operation: Operation, body: object) -> Response:
    """Validate ``body`` with the operation's schema and run its handler; errors become the problems
    the app's error handlers would give. Single calls are served by this function too."""
    try:
        if operation.schema is None:
            return operation.handler()
        return operation.handler(operation.load(body))
    except ValidationError as error:
        return validation_problem(error.messages, instance=operation.path)
    except InputError as error:
        return input_error_problem(error, instance=operation.path)
    except Exception as error:  # one broken item must not cost the others their answers
        return unexpected_problem(error, instance=operation.path)


def direct_view(operation: Operation):
    """The view Flask runs for ``operation``: the batch's item path with the request's body.

    flask-smorest's decorators still describe the operation in the spec; at run time their wrapper
    layers (one per decorator, each re-checking for coroutines) are skipped, and single calls and
    batch items share one code path."""
    def view():
        return run_item(operation, request_body())

    view.__name__ = operation.endpoint
    return view


def run_batch(items: list[dict], operations: dict[str, Operation]) -> Response:
    parts = []
    for item in items:
        response = run_item(operations[item["operation"]], item["body"])
        parts.append(b'{"status":%d,"body":%s}' % (response.status_code, response.get_data()))
    return current_app.response_class(b'{"results":[' + b",".join(parts) + b"]}",
                                      mimetype="application/json")
