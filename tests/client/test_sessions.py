"""wurfwerk.verify_session (issue 41): the verdict of every case of the shared session vectors,
computed offline from the JWKS with the dice recomputed by the SDK itself."""

from __future__ import annotations

import copy

import pytest

from tests.sessions.vectors import CASES, VECTORS, case_inputs
from wurfwerk import RevealError, verify_session


@pytest.mark.parametrize("name", sorted(CASES))
def test_each_vector_gets_its_verdict(name):
    case = CASES[name]
    cards, reveal = case_inputs(case)
    if "expect_error" in case:
        with pytest.raises(RevealError) as raised:
            verify_session(cards, reveal, VECTORS["jwks"])
        assert raised.value.reason == case["expect_error"]
    else:
        assert verify_session(cards, reveal, VECTORS["jwks"]) == case["expect"]


def test_the_reveal_is_taken_as_the_service_answered_it_too():
    cards, reveal = case_inputs(CASES["complete"])
    assert verify_session(cards, {"reveal": reveal}, VECTORS["jwks"])["complete"] is True


def test_without_the_services_key_nothing_verifies():
    cards, reveal = case_inputs(CASES["complete"])
    with pytest.raises(RevealError) as raised:
        verify_session(cards, reveal, {"keys": []})
    assert raised.value.reason == "signature"


def test_a_changed_die_in_any_card_is_found():
    """Every die of every open card, changed to another face and re-signed by no one: the receipt
    fails first; the dice check itself is the wrong-dice vector (a card the service signed)."""
    cards, reveal = case_inputs(CASES["complete"])
    for position, card in enumerate(cards):
        if "receipt" not in card:
            continue
        changed = copy.deepcopy(card)
        event = changed["randomness"]["events"][0]
        event["values"][0] = {"d6": 7, "d10": 11, "dF": 2}.get(event["kind"], "gold")  # no such face
        verdict = verify_session([*cards[:position], changed, *cards[position + 1:]], reveal, VECTORS["jwks"])
        assert {"card": position, "reason": "signature"} in verdict["invalid"]
