"""Platform endpoints: health, keys, receipt verification, the systems catalogue, batch, tickets and
sessions (session_routes.py).

Each is a module-level view declared in ``ENDPOINTS`` (an ``Endpoint`` each, api.py), as a system
declares its operations; ``platform_blueprint`` routes and documents the table. Nothing here knows a
system: the catalogue, the batch and the tickets read what the systems declared (``operations_of``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import marshmallow as ma
from flask import Response, current_app, request
from marshmallow import fields, validate

from service.platform.dice import tickets
from service.platform.dice.derived_randomness import IDEMPOTENCY_HEADER, check_idempotency_header
from service.platform.endpoints.api import Endpoint, WurfwerkBlueprint, blueprint
from service.platform.endpoints.session_routes import SESSION_ENDPOINTS
from service.platform.http.hooks import bearer_token_in
from service.platform.http.http_json import json_response
from service.platform.http.problems import DOCUMENTED_STATUSES, http_error, problem
from service.platform.http.runtime import current_runtime
from service.platform.operations.batch import BatchResponseSchema, batch_request_schema, run_batch
from service.platform.operations.fields import Int, StrictSchema, WordedSchema
from service.platform.operations.operations import Operation, operations_of, systems_of
from service.platform.operations.schemas import IDEMPOTENCY_KEY_PARAMETER, TicketSchema
from service.platform.words.messages import say


class StatusSchema(ma.Schema):
    status = fields.String(required=True)
    kid = fields.String()
    ephemeral_key = fields.Boolean()


class JwkSchema(ma.Schema):
    kty = fields.String(required=True)
    crv = fields.String(required=True)
    x = fields.String(required=True)
    kid = fields.String(required=True)
    use = fields.String(required=True)
    alg = fields.String(required=True)


class JwksSchema(ma.Schema):
    keys = fields.List(fields.Nested(JwkSchema), required=True)


class VerifyRequestSchema(WordedSchema):
    """Any complete signed response: its members are not fixed, so unknown ones are kept."""

    class Meta:
        unknown = ma.INCLUDE

    receipt = fields.Dict(required=True, metadata={"description": "The receipt of the response."})


class VerificationSchema(ma.Schema):
    valid = fields.Boolean(required=True)
    kid = fields.String(allow_none=True, required=True)
    reason = fields.String(required=True)


class CatalogueSchema(ma.Schema):
    systems = fields.List(fields.Dict(), required=True)


def tickets_request_schema(rolling_ids: list[str]) -> type[ma.Schema]:
    return type("TicketsRequest", (StrictSchema,), {
        "LINKS": {"roll": {
            "operationId": "paws.test",
            "description": "Roll with the first ticket (any rolling operation takes one; this link "
                           "shows `paws.test`): the same ticket and body again replay the same dice.",
            "requestBody": {"rank": 2, "ticket": "$response.body#/tickets/0"}}},
        "count": Int(load_default=1, validate=validate.Range(min=1, max=tickets.MAX_COUNT),
                     metadata={"description": "How many tickets."}),
        "operation": fields.String(load_default=None, allow_none=True, validate=validate.OneOf(rolling_ids),
                                   metadata={"description": "The rolling operation the tickets are for; "
                                                            "without it (or null) any rolling operation."}),
        "context": fields.String(load_default=None, allow_none=True,
                                 validate=validate.Length(max=tickets.MAX_CONTEXT_CHARS),
                                 metadata={"description": "Copied into each ticket and echoed by the roll: "
                                                          "a VTT's world or chat message id."}),
        "ttl_s": Int(load_default=tickets.DEFAULT_TTL_S, validate=validate.Range(min=1, max=tickets.MAX_TTL_S),
                     metadata={"description": "Seconds until the tickets expire (at most 7 days)."}),
    })


class TicketsResponseSchema(ma.Schema):
    tickets = fields.List(fields.Nested(TicketSchema), required=True)


def _rolling_ids(operations: Mapping[str, Operation]) -> list[str]:
    """The operations that roll, for which tickets can be issued."""
    return sorted(operation.id for operation in operations.values() if operation.kind.rules.rolls)


def _tickets_request(operations: Mapping[str, Operation]) -> type[ma.Schema]:
    return tickets_request_schema(_rolling_ids(operations))


def _batch_request(operations: Mapping[str, Operation]) -> type[ma.Schema]:
    """The batch takes every operation with a body."""
    return batch_request_schema(sorted(id_ for id_, operation in operations.items() if operation.method == "POST"))


def livez() -> Response:
    """Liveness: the process answers

    For orchestrators and the container HEALTHCHECK; no dependencies are checked.
    """
    return json_response({"status": "ok"})


def readyz() -> Response:
    """Readiness: the signing key is loaded

    `ephemeral_key` is true when no key was configured and the process made one for itself
    (receipts then do not verify on other processes). With `WURFWERK_REQUIRE_SIGNING_KEY` on,
    such a process answers 503 (`not-ready`), so no balancer sends it traffic.
    """
    runtime = current_runtime()
    if runtime.ephemeral_key and runtime.config.require_signing_key:
        return problem(503, say("no signing key is configured (WURFWERK_SIGNING_KEY or "
                                "WURFWERK_SIGNING_KEY_FILE) and WURFWERK_REQUIRE_SIGNING_KEY is on: receipts "
                                "of this process's own key would verify nowhere else"), slug="not-ready")
    return json_response({"status": "ready", "kid": runtime.keys.kid,
                          "ephemeral_key": runtime.ephemeral_key})


def keys() -> Response:
    """The public keys that verify receipts (JWKS)

    One key signs; every listed key verifies (rotation). The `kid` is the RFC 7638 thumbprint of
    the key, so replicas sharing a key publish the same `kid`. Open even when API keys are set.
    """
    return json_response(current_runtime().keys.jwks())


def verify(document: dict[str, Any]) -> Response:
    """Check a receipt against the published keys

    Takes a complete signed response and answers 200 with `valid` either way; 422 only when the
    body is not an object with a `receipt` object. The signature covers the RFC 8785 canonical
    JSON of the whole response without `receipt.signature`.
    """
    return json_response(current_runtime().keys.verify(document).as_dict())


def systems() -> Response:
    """The catalogue: systems, their operations, enums and glossary

    Each system lists its id, name, rules file, operations (id, method, path), the enums it uses
    and a glossary German term -> API term.
    """
    return json_response({"systems": [system.catalogue_entry() for system in systems_of(current_app)]})


def batch(body: dict[str, Any]) -> Response:
    """Run up to 500 operations in one request

    Each item is `{operation, body}`; each result is `{status, body}` in order, where `body` is
    exactly what the single call returns (its own receipt) or its problem. An item's failure does
    not fail the batch. Items inherit the batch's `Authorization`, `Accept-Language` and `?lang=`.
    A rolling item may carry its own `idempotency_key` member (what the header is to a single call).
    The encounter odds among the items are priced before any is solved: when their states add up
    to more than WURFWERK_MAX_ENCOUNTER_STATES (each counted at its solver's cost, as the single
    call's `limit` says), the whole batch is a 422 `encounter-too-large` with `states` (the sum)
    and `limit`.
    """
    check_idempotency_header(request.headers.get(IDEMPOTENCY_HEADER))
    return run_batch(body["requests"], operations_of(current_app))


def issue_tickets(body: dict[str, Any]) -> Response:
    """Issue signed roll tickets

    A rolling request that carries a ticket as `ticket` derives its dice from the ticket id, the
    operation and the request as understood, with a secret only the service holds: the same
    ticket and request give the same dice again (a replay, not a new roll); another request is
    a second roll, and every card carries the ticket's id, so a table that remembers the ids
    it has seen sees the ticket used twice. The service keeps no record: the ticket is its own
    proof (Ed25519 over RFC 8785, like receipts). Tickets are refused after `expires_at`, for
    another operation than `operation`, and after the signing key is rotated.
    With API keys configured, `WURFWERK_TICKET_KEYS` may limit issuing to some of them (the game
    master's): other keys get 403.
    """
    runtime = current_runtime()
    if runtime.config.ticket_keys and not bearer_token_in(runtime.config.ticket_keys, request):
        raise http_error(403, say("Only the keys in WURFWERK_TICKET_KEYS may issue tickets."), "forbidden")
    return json_response({"tickets": tickets.issue_tickets(runtime.keys, **body)})


ENDPOINTS = (
    Endpoint.get("/livez", livez, operation_id="health.live", response=StatusSchema, example={"status": "ok"}),
    Endpoint.get("/readyz", readyz, operation_id="health.ready", response=StatusSchema,
                 example={"status": "ready", "kid": "…", "ephemeral_key": False}, problems=(503,)),
    Endpoint.get("/v1/keys", keys, operation_id="keys.list", response=JwksSchema),
    Endpoint.post("/v1/receipts/verify", verify, operation_id="receipts.verify", request=VerifyRequestSchema,
                  request_example={"operation": "proben.test", "receipt": {"kid": "…"}},
                  response=VerificationSchema,
                  example={"valid": False, "kid": "…", "reason": "the signature does not match the document"},
                  problems=DOCUMENTED_STATUSES),
    Endpoint.get("/v1/systems", systems, operation_id="systems.list", response=CatalogueSchema),
    Endpoint.post("/v1/batch", batch, operation_id="batch.run", request_for=_batch_request, request_example={
        "requests": [{"operation": "proben.test", "body": {"attribute": 3, "difficulty": 2, "seed": 1}}]},
        response=BatchResponseSchema, example={"results": [
            {"status": 200, "body": {"operation": "proben.test", "result": {"successes": 1},
                                     "receipt": {"kid": "…"}}},
            {"status": 422, "body": {"type": "https://wurfwerk.dev/problems/validation-error", "status": 422,
                                     "errors": {"attribute": ["Missing data for required field."]}}}]},
        problems=DOCUMENTED_STATUSES, parameters=({
            **IDEMPOTENCY_KEY_PARAMETER,
            "description": "Makes the whole batch retry-safe: every rolling item without its own "
                           "`idempotency_key`, `seed` or `manual` derives its dice from the key "
                           "`<Idempotency-Key>#<item index>` (recorded as its `randomness.idempotency_key`)."},)),
    Endpoint.post("/v1/tickets", issue_tickets, operation_id="tickets.issue", request_for=_tickets_request,
                  request_example={"count": 2, "operation": "paws.test", "context": "world-7/message-42"},
                  response=TicketsResponseSchema, example={"tickets": [
                      {"id": "q3Lc9vYzR0C1l4oQ8nXwAg", "operation": "paws.test", "context": "world-7/message-42",
                       "expires_at": "2026-12-01T12:00:00Z", "kid": "…", "signature": "…"}]},
                  problems=DOCUMENTED_STATUSES + (403,)),
)


def platform_blueprint(operations: Mapping[str, Operation]) -> WurfwerkBlueprint:
    """The platform's endpoints (``ENDPOINTS`` and the sessions'), for an app of ``operations``."""
    return blueprint("platform", "Health, keys, receipts, catalogue and batch.", ENDPOINTS + SESSION_ENDPOINTS,
                     operations)
