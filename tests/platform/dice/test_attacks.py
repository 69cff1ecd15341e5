"""Sessions v2 against the people at the table (issue 48): each attack played through the public API
only, by an outsider holding cards, a player calling the API directly, and the game master with his
key, asserting the property of API.md §1.8 it would break; then the same attacks on the SDK offline.

API.md §1.8, "Who can do what":
- "anyone holding cards, public parts or headers learns no die of a slot before the reveal";
- "the opener (game master) cannot learn, choose or grind a player seat's dice";
- "a seat cannot grind its seed: its commitment is in the signed header before any die exists";
- "one reveal per session, the same whenever and by whomever asked".
"""

from __future__ import annotations

import json
import time
import tracemalloc
from datetime import timedelta

import pytest

from service.platform.dice import sessions
from tests.conftest import make_app
from tests.platform.dice.vectors import CASES, VECTORS, case_inputs

INVALID = "https://wurfwerk.dev/problems/invalid-session"
PAWS = {"rank": 4}
GM, PLAYER = {"Authorization": "Bearer gm-key"}, {"Authorization": "Bearer player-key"}


@pytest.fixture
def table(signing_key_pem):
    """A game master with his key, Rynn and Alva with their own seeds (their clients made them)."""
    client = make_app(signing_key_pem, api_keys=("gm-key", "player-key"), ticket_keys=("gm-key",)).test_client()
    seeds = {"Rynn": sessions.make_seed(), "Alva": sessions.make_seed()}
    seats = ["GM", *({"name": seat, "commit": commit_of(seed)} for seat, seed in seeds.items())]
    opened = client.post("/v1/sessions", json={"seats": seats, "ttl_s": 3600}, headers=GM).get_json()
    return {"client": client, "header": opened["session"], "gm_key": opened["seat_keys"]["GM"], "seeds": seeds}


def commit_of(seed: str) -> str:
    return sessions.seed_commit(sessions.seed_bytes(seed) or b"")


def roll(table, seat, proof, *, index=0, prev=None, hidden=False, headers=PLAYER, body=PAWS):
    use = {"header": table["header"], "seat": seat, **proof, "index": index, "prev": prev}
    if hidden:
        use["hidden"] = True
    response = table["client"].post("/v1/paws/test", json={**body, "session": use}, headers=headers)
    return response.status_code, response.get_json()


# -- an outsider holding cards -----------------------------------------------------------------------

def test_an_outsider_with_a_public_part_cannot_roll_the_hidden_slot_openly(table):
    """Version 1 gave the same dice to anyone who rolled the GM's hidden slot with the header."""
    status, hidden = roll(table, "GM", {"seat_key": table["gm_key"]}, hidden=True, headers=GM)
    assert status == 200
    public = hidden["public"]  # what the table (and anyone it shows) holds
    header = public["session"]["header"]
    assert "seat_key" not in json.dumps(public) and table["gm_key"] not in json.dumps(hidden)
    for proof in ({}, {"seat_key": sessions.make_seed()}, {"seed": sessions.make_seed()},
                  {"seat_key": public["session"]["seed_commit"]}):
        use = {"header": header, "seat": "GM", **proof, "index": 0, "prev": None}
        response = table["client"].post("/v1/paws/test", json={**PAWS, "session": use}, headers=PLAYER)
        assert response.status_code == 422, proof
        assert "randomness" not in response.get_json()


def test_nothing_a_card_carries_rolls_a_players_next_slot(table):
    status, card = roll(table, "Rynn", {"seed": table["seeds"]["Rynn"]})
    assert status == 200 and table["seeds"]["Rynn"] not in json.dumps(card)
    # every string of the card, tried as Rynn's seed for the next slot
    strings = set()

    def collect(value):
        if isinstance(value, dict):
            for item in value.values():
                collect(item)
        elif isinstance(value, list):
            for item in value:
                collect(item)
        elif isinstance(value, str):
            strings.add(value)

    collect(card)
    for candidate in strings:
        status, problem = roll(table, "Rynn", {"seed": candidate}, index=1, prev=card["receipt"]["signature"])
        assert status == 422 and problem["type"] in (INVALID, "https://wurfwerk.dev/problems/validation-error")


# -- a player calling the API directly --------------------------------------------------------------

def test_a_player_cannot_roll_the_game_masters_or_another_players_slots(table):
    rynn = {"seed": table["seeds"]["Rynn"]}
    status, problem = roll(table, "GM", rynn, hidden=True)
    assert status == 422 and problem["type"] == INVALID and "session.seed" in problem["errors"]
    status, problem = roll(table, "Alva", rynn, index=3, prev="A" * 86)
    assert status == 422 and problem["type"] == INVALID and "session.seed" in problem["errors"]


def test_a_player_cannot_grind_a_seed_after_the_session_is_opened(table):
    """The commitment is in the signed header: another seed is refused, so the dice of a slot are
    fixed before any die exists (the seat does not know the secret when it commits)."""
    for _ in range(5):
        status, problem = roll(table, "Rynn", {"seed": sessions.make_seed()})
        assert status == 422 and "session.seed" in problem["errors"]
    changed = {**table["header"], "seat_commits": {**table["header"]["seat_commits"],
                                                   "Rynn": commit_of(sessions.make_seed())}}
    use = {"header": changed, "seat": "Rynn", "seed": table["seeds"]["Rynn"], "index": 0, "prev": None}
    problem = table["client"].post("/v1/paws/test", json={**PAWS, "session": use}, headers=PLAYER).get_json()
    assert problem["type"] == INVALID and "session.header.signature" in problem["errors"]


def test_a_roll_never_echoes_the_seed_or_seat_key(table):
    for seat, proof, headers in (("Rynn", {"seed": table["seeds"]["Rynn"]}, PLAYER),
                                 ("GM", {"seat_key": table["gm_key"]}, GM)):
        status, card = roll(table, seat, proof, hidden=seat == "GM", headers=headers)
        assert status == 200
        text = json.dumps(card)
        assert next(iter(proof.values())) not in text
        assert card["request"]["session"]["seed_commit"] == table["header"]["seat_commits"][seat]


# -- the game master with his key --------------------------------------------------------------------

def test_the_game_master_cannot_try_sessions_until_a_players_dice_suit_him(table):
    """Ten sessions opened with Rynn's commitment: without Rynn's seed he rolls none of Rynn's slots."""
    client = table["client"]
    rynn = {"name": "Rynn", "commit": table["header"]["seat_commits"]["Rynn"]}
    for _ in range(10):
        opened = client.post("/v1/sessions", json={"seats": ["GM", rynn]}, headers=GM).get_json()
        assert set(opened["seat_keys"]) == {"GM"}  # no credential for a seat with its own seed
        for proof in ({"seat_key": opened["seat_keys"]["GM"]}, {"seed": opened["seat_keys"]["GM"]}):
            use = {"header": opened["session"], "seat": "Rynn", **proof, "index": 0, "prev": None}
            response = client.post("/v1/paws/test", json={**PAWS, "session": use}, headers=GM)
            assert response.status_code == 422


def test_no_reveal_before_the_end_not_even_for_the_game_master(table, monkeypatch):
    client, header = table["client"], table["header"]
    for headers in (GM, PLAYER):
        response = client.post("/v1/sessions/reveal", json={"session": header}, headers=headers)
        assert response.status_code == 409
    later = sessions.parse_time(header["expires_at"]) + timedelta(seconds=5)
    monkeypatch.setattr(sessions, "_utc_now", lambda: later)
    first = client.post("/v1/sessions/reveal", json={"session": header}, headers=GM).get_json()
    monkeypatch.setattr(sessions, "_utc_now", lambda: later + timedelta(days=3))
    second = client.post("/v1/sessions/reveal", json={"session": header}, headers=PLAYER).get_json()
    assert first == second and first["reveal"]["revealed_at"] == header["expires_at"]


def test_an_open_seats_dice_are_the_openers_to_know_and_only_his(table):
    """The README says so: the opener holds an open seat's key. Nobody else does."""
    status, card = roll(table, "GM", {"seat_key": table["gm_key"]}, headers=GM)
    again_status, again = roll(table, "GM", {"seat_key": table["gm_key"]}, headers=GM)
    assert status == again_status == 200
    assert card["randomness"]["events"] == again["randomness"]["events"]  # he can see them first


# -- the report and the verifiers, knocked at ------------------------------------------------------

def test_the_worst_report_body_is_answered_fast_and_small(signing_key_pem):
    """Version 1: twelve cards claiming index 999,999 (17 KB) took 10–18 s, 3.2 GB and a 359 MB answer."""
    client = make_app(VECTORS["signing_key_pem"]).test_client()
    cards, reveal, seeds = case_inputs(CASES["beyond-limit"])
    far = case_inputs(CASES["far-slot"])[0][-1]
    log = list(cards)
    while len(json.dumps({"reveal": reveal, "cards": [*log, far], "seeds": seeds})) < 65_000:
        log.append(far)
    body = json.dumps({"reveal": reveal, "cards": log, "seeds": seeds})
    tracemalloc.start()
    started = time.perf_counter()
    response = client.post("/v1/sessions/report", data=body, content_type="application/json")
    elapsed = time.perf_counter() - started
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    assert response.status_code == 200
    assert elapsed < 1.0 and peak < 20_000_000, (elapsed, peak)
    assert len(response.get_data()) < 20_000
    assert response.get_json()["gaps"] == [{"seat": "Rynn", "from": 3, "to": 9_999}]


@pytest.mark.parametrize("path", ["/v1/receipts/verify", "/v1/sessions/report", "/v1/sessions/reveal",
                                  "/v1/beutelschneider/healing/apply", "/v1/weltenbuch/narration"])
def test_deep_nesting_in_a_signed_document_is_a_422_everywhere(client, path):
    deep: dict = {}
    for _ in range(600):
        deep = {"a": deep}
    body = {"reveal": deep, "cards": [deep], "session": deep, "draw": deep, "conflict": deep,
            "receipt": deep, "replacements": [], "toughness": {}, "spends": []}
    response = client.post(path, data=json.dumps(body), content_type="application/json")
    assert response.status_code == 422, response.get_data()[:300]
    assert "body" in response.get_json()["errors"]
    assert b"Traceback" not in response.get_data()


def test_the_sdk_finds_a_deep_card_malformed_without_recursion_error():
    from wurfwerk import verify_session
    from wurfwerk.verify import verify_offline

    cards, reveal, seeds = case_inputs(CASES["deep-nesting"])
    verdict = verify_session(cards, reveal, VECTORS["jwks"], seeds=seeds)
    assert verdict["invalid"] == [{"card": 9, "reason": "malformed"}]
    assert verify_offline(cards[-1], VECTORS["jwks"])["valid"] is False


def test_an_exact_copy_with_an_alias_signature_is_not_a_reroll_offline():
    from wurfwerk import verify_session

    cards, reveal, seeds = case_inputs(CASES["signature-alias"])
    verdict = verify_session(cards, reveal, VECTORS["jwks"], seeds=seeds)
    assert verdict["duplicates"] == [] and verdict["invalid"] == [{"card": 9, "reason": "malformed"}]


# -- tickets said exactly -----------------------------------------------------------------------------

def test_a_ticket_used_with_another_body_shows_as_the_same_ticket_twice(client):
    """README "Fair play": the same ticket and request give the same card; another body is a second roll
    whose card carries the same ticket id (version 1 read the same dice against rank 1 and rank 5)."""
    (ticket,) = client.post("/v1/tickets", json={"operation": "paws.test"}).get_json()["tickets"]
    weak = client.post("/v1/paws/test", json={"rank": 1, "ticket": ticket}).get_json()
    strong = client.post("/v1/paws/test", json={"rank": 5, "ticket": ticket}).get_json()
    again = client.post("/v1/paws/test", json={"rank": 5, "ticket": ticket}).get_json()
    assert strong["randomness"] == again["randomness"] and strong["result"] == again["result"]
    assert weak["request"]["ticket"]["id"] == strong["request"]["ticket"]["id"]  # what a table checks
    streams = {json.dumps(client.post("/v1/paws/test", json={"rank": 6, "fit": fit, "ticket": ticket})
                          .get_json()["randomness"]["events"]) for fit in ("fallback", "matching", "specialized")}
    assert len(streams) == 3  # each body its own dice: 5, 6 and 7 dice
