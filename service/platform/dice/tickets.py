"""Roll tickets: signed, single-purpose permissions to roll, kept by nobody.

A ticket is ``{id, operation, context, expires_at, kid, signature}``: 128 random bits of id, the
operation it is for (or null for any rolling operation), the caller's context (a VTT's world or
message id), its expiry, and an Ed25519 signature by the service over the RFC 8785 JSON of the
other five members, exactly as receipts are signed. A rolling request that carries a ticket derives
its dice from the ticket id, the operation and the request as understood (derived_randomness.py):
the same ticket and request always give the same dice, and every card a ticket gives carries its id,
so the service stores nothing, yet a second use of a ticket is visible to whoever keeps the ids
(README "Fair play" says exactly what a ticket does and does not stop).

Ticket signatures cannot be confused with receipt signatures: a receipt's payload is a response
object that always has a ``receipt`` member, a ticket's payload never has one, and RFC 8785 gives
equal bytes only for equal JSON values.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from datetime import UTC, datetime, timedelta
from typing import Any

from service.platform.dice.receipts import KeyRing, b64url, canonical_bytes
from service.platform.values.errors import InputError
from service.platform.words.messages import say

MAX_COUNT = 500
MAX_CONTEXT_CHARS = 200
DEFAULT_TTL_S = 86_400
MAX_TTL_S = 604_800
TICKET_MEMBERS = ("id", "operation", "context", "expires_at", "kid", "signature")
_EXPIRY_FORMAT = "%Y-%m-%dT%H:%M:%SZ"


class TicketError(InputError):
    """A ticket that is forged, altered, expired, for another operation or from a retired key."""

    problem_type = "invalid-ticket"


def _utc_now() -> datetime:
    return datetime.now(UTC)


def issue_tickets(keys: KeyRing, *, count: int = 1, operation: str | None = None,
                  context: str | None = None, ttl_s: int = DEFAULT_TTL_S,
                  now: datetime | None = None) -> list[dict[str, Any]]:
    """``count`` fresh tickets signed with the current signing key."""
    expires_at = ((now or _utc_now()) + timedelta(seconds=ttl_s)).strftime(_EXPIRY_FORMAT)
    return [_signed(keys, {"id": b64url(os.urandom(16)), "operation": operation, "context": context,
                           "expires_at": expires_at, "kid": keys.kid})
            for _ in range(count)]


def _signed(keys: KeyRing, unsigned: dict[str, Any]) -> dict[str, Any]:
    return {**unsigned, "signature": keys.signature_of(canonical_bytes(unsigned))}


def check_ticket(keys: KeyRing, ticket: Mapping[str, Any], *, operation: str, field: str = "ticket",
                 now: datetime | None = None) -> dict[str, Any]:
    """The ticket, after checking that this service signed it with its current key, that it has
    not expired and that it is valid for ``operation``; ``TicketError`` naming ``field`` otherwise.

    A ticket signed by a key that now only verifies (after rotation) is refused: its dice derive
    from the retired key's secret, which is gone, and deriving them from the new one would give the
    holder a second roll."""
    if not isinstance(ticket, Mapping) or set(ticket) != set(TICKET_MEMBERS):
        raise TicketError(field, say("must be a ticket object exactly as POST /v1/tickets issued it "
                                     "(members %(members)s)", members=", ".join(TICKET_MEMBERS)))
    unsigned = {name: ticket[name] for name in TICKET_MEMBERS if name != "signature"}
    if not isinstance(ticket["kid"], str) or not isinstance(ticket["signature"], str) \
            or not keys.signature_matches(ticket["kid"], canonical_bytes(unsigned), ticket["signature"]):
        raise TicketError(f"{field}.signature", say("does not verify with this service's keys: "
                                                    "the ticket was altered or not issued here"))
    if ticket["kid"] != keys.kid:
        raise TicketError(f"{field}.kid", say("was issued under a signing key that has since been "
                                              "retired; fetch a new ticket"))
    expires_at = datetime.strptime(ticket["expires_at"], _EXPIRY_FORMAT).replace(tzinfo=UTC)
    if (now or _utc_now()) >= expires_at:
        raise TicketError(f"{field}.expires_at", say("the ticket expired at %(time)s", time=ticket["expires_at"]))
    if ticket["operation"] is not None and ticket["operation"] != operation:
        raise TicketError(f"{field}.operation",
                          say("the ticket is for %(ticket_operation)s, not for %(operation)s",
                              ticket_operation=ticket["operation"], operation=operation))
    return dict(ticket)
