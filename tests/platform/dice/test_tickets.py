"""Roll tickets (issue 14): `POST /v1/tickets` issues signed tickets; a forged, altered, expired,
wrong-operation or retired-key ticket is refused with its own problem type."""

from __future__ import annotations

import copy
from datetime import UTC, datetime, timedelta

import pytest
import rfc8785
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

from service.platform.dice.receipts import KeyRing, b64url_decode, generate_private_key_pem, load_private_key
from service.platform.dice.tickets import TICKET_MEMBERS, TicketError, check_ticket, issue_tickets

PROBLEM = "https://wurfwerk.dev/problems/invalid-ticket"


@pytest.fixture(scope="module")
def keys() -> KeyRing:
    return KeyRing.from_pem(generate_private_key_pem())


def test_the_endpoint_issues_signed_tickets_verifiable_with_the_jwks(client):
    response = client.post("/v1/tickets", json={"count": 3, "operation": "paws.test", "context": "world-7/msg-42",
                                                "ttl_s": 60})
    assert response.status_code == 200
    tickets = response.get_json()["tickets"]
    assert len(tickets) == 3 and len({ticket["id"] for ticket in tickets}) == 3
    jwks = {key["kid"]: key for key in client.get("/v1/keys").get_json()["keys"]}
    for ticket in tickets:
        assert tuple(ticket) == TICKET_MEMBERS
        assert len(b64url_decode(ticket["id"])) == 16  # 128 random bits
        assert ticket["operation"] == "paws.test" and ticket["context"] == "world-7/msg-42"
        expires = datetime.strptime(ticket["expires_at"], "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=UTC)
        assert timedelta(seconds=58) <= expires - datetime.now(UTC) <= timedelta(seconds=60)
        unsigned = {name: value for name, value in ticket.items() if name != "signature"}
        public_key = Ed25519PublicKey.from_public_bytes(b64url_decode(jwks[ticket["kid"]]["x"]))
        public_key.verify(b64url_decode(ticket["signature"]), rfc8785.dumps(unsigned))


def test_defaults_one_ticket_for_any_operation_valid_for_a_day(client):
    (ticket,) = client.post("/v1/tickets", json={}).get_json()["tickets"]
    assert ticket["operation"] is None and ticket["context"] is None
    expires = datetime.strptime(ticket["expires_at"], "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=UTC)
    assert timedelta(hours=23, minutes=59) < expires - datetime.now(UTC) <= timedelta(days=1)


@pytest.mark.parametrize("body, field", [
    ({"count": 0}, "count"), ({"count": 501}, "count"), ({"ttl_s": 0}, "ttl_s"),
    ({"ttl_s": 604_801}, "ttl_s"), ({"context": "x" * 201}, "context"),
    ({"operation": "paws.nonsense"}, "operation"),
    ({"operation": "paws.test.odds"}, "operation"),  # odds do not roll
    ({"operation": "proben.test", "extra": 1}, "extra"),
])
def test_the_endpoint_refuses_bodies_out_of_range(client, body, field):
    response = client.post("/v1/tickets", json=body)
    assert response.status_code == 422
    assert field in response.get_json()["errors"]


def test_a_valid_ticket_passes_and_comes_back_unchanged(keys):
    (ticket,) = issue_tickets(keys, operation="paws.test", context="c")
    assert check_ticket(keys, ticket, operation="paws.test") == ticket
    (any_operation,) = issue_tickets(keys)
    assert check_ticket(keys, any_operation, operation="malmsturm.action") == any_operation


@pytest.mark.parametrize("member", [name for name in TICKET_MEMBERS if name not in ("kid", "signature")])
def test_an_altered_member_fails_the_signature(keys, member):
    (ticket,) = issue_tickets(keys, operation="paws.test", context="world")
    altered = copy.deepcopy(ticket)
    altered[member] = "paws.comparison" if member == "operation" else \
        ("2099-01-01T00:00:00Z" if member == "expires_at" else (ticket[member] or "") + "x")
    with pytest.raises(TicketError) as refused:
        check_ticket(keys, altered, operation=altered["operation"] or "paws.test")
    assert refused.value.field == "ticket.signature" and refused.value.problem_type == "invalid-ticket"


def test_a_null_operation_cannot_be_widened_or_narrowed(keys):
    (ticket,) = issue_tickets(keys)
    with pytest.raises(TicketError, match="altered"):
        check_ticket(keys, {**ticket, "operation": "paws.test"}, operation="paws.test")


def test_a_ticket_forged_with_another_key_is_refused(keys):
    forger = KeyRing.from_pem(generate_private_key_pem())
    (forged,) = issue_tickets(forger, operation="paws.test")
    with pytest.raises(TicketError) as refused:
        check_ticket(keys, forged, operation="paws.test")
    assert refused.value.field == "ticket.signature"
    # Claiming our kid does not help: the signature is still the forger's.
    with pytest.raises(TicketError, match="does not verify"):
        check_ticket(keys, {**forged, "kid": keys.kid}, operation="paws.test")


def test_an_expired_ticket_is_refused(keys):
    issued = datetime(2026, 11, 30, 12, 0, tzinfo=UTC)
    (ticket,) = issue_tickets(keys, ttl_s=60, now=issued)
    assert check_ticket(keys, ticket, operation="paws.test", now=issued + timedelta(seconds=59))
    with pytest.raises(TicketError) as refused:
        check_ticket(keys, ticket, operation="paws.test", now=issued + timedelta(seconds=60))
    assert refused.value.field == "ticket.expires_at" and "2026-11-30T12:01:00Z" in refused.value.message


def test_a_ticket_for_another_operation_is_refused(keys):
    (ticket,) = issue_tickets(keys, operation="paws.test")
    with pytest.raises(TicketError) as refused:
        check_ticket(keys, ticket, operation="proben.test")
    assert refused.value.field == "ticket.operation"
    assert refused.value.message == "the ticket is for paws.test, not for proben.test"


def test_a_ticket_of_a_retired_key_is_refused_after_rotation():
    """After rotation the old key only verifies: its tickets' dice can no longer be derived."""
    old_pem = generate_private_key_pem()
    old = KeyRing.from_pem(old_pem)
    (ticket,) = issue_tickets(old, operation="paws.test")
    rotated = KeyRing(load_private_key(generate_private_key_pem()), [load_private_key(old_pem).public_key()])
    with pytest.raises(TicketError) as refused:
        check_ticket(rotated, ticket, operation="paws.test")
    assert refused.value.field == "ticket.kid" and "retired" in refused.value.message


@pytest.mark.parametrize("shape", [None, [], {"id": "x"}, "ticket"])
def test_something_that_is_not_a_ticket_is_refused(keys, shape):
    with pytest.raises(TicketError) as refused:
        check_ticket(keys, shape, operation="paws.test")
    assert refused.value.field == "ticket"


def test_a_ticket_with_a_malformed_signature_is_refused(keys):
    (ticket,) = issue_tickets(keys)
    for signature in ("", "!!!", "A" * 86, 5):
        with pytest.raises(TicketError):
            check_ticket(keys, {**ticket, "signature": signature}, operation="paws.test")
