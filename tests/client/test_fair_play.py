"""The SDK and the service's fair-play contract in-process: the automatic Idempotency-Key is echoed and
repeatable, tickets travel as ``ticket=``, and a batch is retry-safe as a whole."""

from __future__ import annotations

import pytest

from tests.wsgi_session import WsgiSession
from wurfwerk import Client


class HeaderRecording(WsgiSession):
    def __init__(self, app):
        super().__init__(app)
        self.headers: list[dict] = []

    def request(self, method, url, **kwargs):
        self.headers.append(dict(kwargs.get("headers") or {}))
        return super().request(method, url, **kwargs)


@pytest.fixture
def recording(app):
    return HeaderRecording(app)


@pytest.fixture
def client(recording):
    return Client("http://wurfwerk.test", session=recording, max_retries=0)


def test_the_automatic_key_is_echoed_and_the_same_key_gives_the_same_dice(client, recording):
    roll = client.proben.test(attribute=12, difficulty=3)
    key = recording.headers[-1]["Idempotency-Key"]
    assert roll.randomness.idempotency_key == key and roll.randomness.source == "secure"
    # What a retry does: the same request with the same key.
    again = client.proben.test(attribute=12, difficulty=3, idempotency_key=key)
    assert again.result.dice == roll.result.dice
    assert "Idempotency-Key" not in recording.headers[-1], "the caller's own key replaces the automatic one"


def test_a_ticket_goes_as_ticket_and_fixes_the_dice(client, recording):
    ticket = client.tickets(count=1, operation="proben.test", context="chat-7").tickets[0]
    first = client.proben.test(attribute=12, difficulty=3, ticket=ticket)
    replay = client.proben.test(attribute=12, difficulty=3, ticket=ticket.to_dict())
    assert first.result.dice == replay.result.dice
    assert "Idempotency-Key" not in recording.headers[-1], "a ticket fixes the dice already"


def test_seeded_and_manual_rolls_carry_no_key(client, recording):
    client.paws.test(rank=3, seed=4)
    client.paws.test(rank=1, manual=[6])
    client.paws.test_odds(rank=3)
    assert not any("Idempotency-Key" in headers for headers in recording.headers)


def test_a_batch_carries_one_key_for_its_rolling_items(client, recording):
    items = [{"operation": "proben.test", "body": {"attribute": 12, "difficulty": 3}}] * 2
    results = client.batch(requests=items).results
    key = recording.headers[-1]["Idempotency-Key"]
    assert [result.body["randomness"]["idempotency_key"] for result in results] == [f"{key}#0", f"{key}#1"]
