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

from service.platform.http.limits import (
    MAX_REPORTED_STATES,
    SWEPT,
    LengthAtMost,
    Priced,
    encounter_share,
    pricing,
    too_large,
)
from service.platform.http.problems import input_error_problem
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
    """Each item takes its operation's own request path, as a call on the batch's request. The
    encounter odds and advice among them are priced first: their work together over the encounter
    limit refuses the whole batch before anything is solved (one request asking for as many solves as it likes
    would hold its worker for as long)."""
    work = sum(_encounter_work(operations[item["operation"]], item["body"]) for item in items)
    share = encounter_share(SWEPT)
    if work > share:
        return input_error_problem(too_large("requests", min(work, MAX_REPORTED_STATES), share),
                                   instance="/v1/batch")
    parts = []
    for index, item in enumerate(items):
        response = respond(operations[item["operation"]], item["body"], Call.of_request(item=index))
        parts.append(b'{"status":%d,"body":%s}' % (response.status_code, response.get_data()))
    return current_app.response_class(b'{"results":[' + b",".join(parts) + b"]}",
                                      mimetype="application/json")


def _encounter_work(operation: Operation, body: object) -> int:
    """An encounter odds or advice item's work (its state bound × its solver's cost per state, an
    advice's summed over its options), learnt by
    running its view up to the bound; 0 for any other item, and for one refused on its own (it gets
    its own problem when the batch runs it)."""
    price = operation.kind.rules.priced
    if not operation.encounter or price is None:
        return 0
    try:
        with pricing():
            price(operation, operation.load(body))
    except Priced as priced:
        return priced.work
    except Exception:  # noqa: BLE001 - the item answers its own problem in the batch
        return 0
    return 0
