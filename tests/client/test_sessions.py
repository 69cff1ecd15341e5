"""wurfwerk.verify_session (issue 41): the verdict of every case of the shared session vectors,
computed offline from the JWKS with the dice recomputed by the SDK itself."""

from __future__ import annotations

import copy

import pytest

from tests.platform.dice.vectors import CASES, VECTORS, case_inputs
from wurfwerk import RevealError, verify_session


@pytest.mark.parametrize("name", sorted(CASES))
def test_each_vector_gets_its_verdict(name):
    case = CASES[name]
    cards, reveal, seeds = case_inputs(case)
    if "expect_error" in case:
        with pytest.raises(RevealError) as raised:
            verify_session(cards, reveal, VECTORS["jwks"], seeds=seeds)
        assert raised.value.reason == case["expect_error"]
    else:
        assert verify_session(cards, reveal, VECTORS["jwks"], seeds=seeds) == case["expect"]


def test_the_reveal_is_taken_as_the_service_answered_it_too():
    cards, reveal, seeds = case_inputs(CASES["complete"])
    assert verify_session(cards, {"reveal": reveal}, VECTORS["jwks"], seeds=seeds)["complete"] is True


def test_without_the_services_key_nothing_verifies():
    cards, reveal, _seeds = case_inputs(CASES["complete"])
    with pytest.raises(RevealError) as raised:
        verify_session(cards, reveal, {"keys": []})
    assert raised.value.reason == "signature"


def test_a_changed_die_in_any_card_is_found():
    """Every die of every open card, changed to another face and re-signed by no one: the receipt
    fails first; the dice check itself is the wrong-dice vector (a card the service signed)."""
    cards, reveal, seeds = case_inputs(CASES["complete"])
    for position, card in enumerate(cards):
        if "receipt" not in card:
            continue
        changed = copy.deepcopy(card)
        event = changed["randomness"]["events"][0]
        event["values"][0] = {"d6": 7, "d10": 11, "dF": 2}.get(event["kind"], "gold")  # no such face
        verdict = verify_session([*cards[:position], changed, *cards[position + 1:]], reveal, VECTORS["jwks"],
                                 seeds=seeds)
        assert {"card": position, "reason": "signature"} in verdict["invalid"]


# -- an evening through the SDK, in-process ---------------------------------------------------------

def test_an_evening_through_the_sdk_verifies_offline_as_the_report_says(signing_key_pem, monkeypatch):
    from service.platform.dice import sessions
    from tests.conftest import make_app
    from tests.wsgi_session import WsgiSession
    from wurfwerk import Client, make_seed, seed_commit

    app = make_app(signing_key_pem, api_keys=("gm-key", "player-key"), ticket_keys=("gm-key",))
    sent: list[dict] = []

    class Recording(WsgiSession):
        def request(self, method, url, **kwargs):
            sent.append({"headers": dict(kwargs.get("headers") or {}), "json": kwargs.get("json"),
                         "data": kwargs.get("data")})
            return super().request(method, url, **kwargs)

    gm = Client("http://wurfwerk.test", session=Recording(app), max_retries=0, api_key="gm-key")
    player = Client("http://wurfwerk.test", session=Recording(app), max_retries=0, api_key="player-key")
    seed = make_seed()  # Rynn's own client: only the commitment goes to the game master
    opened = gm.sessions.open(seats=["GM", {"name": "Rynn", "commit": seed_commit(seed)}], context="world-7",
                              ttl_s=3600).to_dict()
    header, gm_key = opened["session"], opened["seat_keys"]["GM"]
    assert seed not in repr(sent[-1]) and set(opened["seat_keys"]) == {"GM"}
    cards, prev = [], None
    for index in range(3):
        card = player.proben.test(attribute=3, difficulty=2, session={
            "header": header, "seat": "Rynn", "seed": seed, "index": index, "prev": prev})
        assert "Idempotency-Key" not in sent[-1]["headers"], "a session refuses the automatic key"
        assert card.randomness.source == "session" and seed not in repr(card.to_dict())
        cards.append(card.to_dict())
        prev = card.receipt.signature
    hidden = gm.paws.test(rank=2, session={"header": header, "seat": "GM", "seat_key": gm_key, "index": 0,
                                           "prev": None, "hidden": True})
    cards += [hidden.to_dict(), hidden.to_dict()["public"]]
    later = sessions.parse_time(header["expires_at"])
    monkeypatch.setattr(sessions, "_utc_now", lambda: later)  # the evening is over
    reveal = player.sessions.reveal(session=header).reveal.to_dict()
    jwks = gm.keys().to_dict()
    verdict = verify_session(cards, reveal, jwks, seeds={"Rynn": seed})
    assert verdict == {"complete": True, "gaps": [], "duplicates": [], "invalid": [], "after_reveal": [],
                       "unshown": [], "unverified": []}
    assert verify_session(cards, reveal, jwks)["unverified"] == ["Rynn"]
    dropped = verify_session([cards[0], *cards[2:]], reveal, jwks, seeds={"Rynn": seed})
    assert dropped["gaps"] == [{"seat": "Rynn", "from": 1, "to": 1}]
    report = gm.sessions.report(reveal=reveal, seeds={"Rynn": seed}, cards=[cards[0], *cards[2:]]).to_dict()
    assert {name: value for name, value in report.items() if name != "luck"} == dropped
