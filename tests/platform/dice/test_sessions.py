"""Sessions (issue 41): opening, rolling by seat, hidden rolls, the reveal and its rules, the refusals,
and the report's verdict on the shared vectors."""

from __future__ import annotations

import base64
import copy
import hashlib
import json
from datetime import UTC, datetime, timedelta

import pytest
import rfc8785
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

from service.platform.dice import sessions
from service.platform.dice.receipts import KeyRing, generate_private_key_pem
from tests.conftest import make_app
from tests.platform.dice.vectors import CASES, VECTORS, case_inputs

PROBLEM = "https://wurfwerk.dev/problems/invalid-session"
TEST = {"attribute": 3, "skill": 1, "difficulty": 2}


def b64url_decode(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def verifies(document: dict, jwks: dict) -> bool:
    key = next(key for key in jwks["keys"] if key["kid"] == document["kid"])
    unsigned = {name: value for name, value in document.items() if name != "signature"}
    try:
        Ed25519PublicKey.from_public_bytes(b64url_decode(key["x"])).verify(
            b64url_decode(document["signature"]), rfc8785.dumps(unsigned))
    except Exception:
        return False
    return True


RYNN_SEED = sessions.make_seed()  # Rynn's own client's seed: only its commitment goes to the opener
SEAT_KEYS: dict[str, str] = {}  # the open seats' keys of the sessions the fixtures open, by session id


def open_evening(client, seats=("GM", "Rynn"), **body) -> dict:
    """Opens a session: GM an open seat, Rynn a seat with its own seed; remembers the open seats' keys."""
    given = [{"name": seat, "commit": sessions.seed_commit(sessions.seed_bytes(RYNN_SEED) or b"")}
             if seat == "Rynn" else seat for seat in seats]
    opened = client.post("/v1/sessions", json={"seats": given, **body}).get_json()
    SEAT_KEYS[opened["session"]["id"]] = opened["seat_keys"]
    return opened["session"]


@pytest.fixture
def header(client):
    return open_evening(client, context="world-7")


def use(header, seat="Rynn", index=0, prev=None, **more):
    """A roll's session member, with the seat's proof: Rynn's seed, an open seat's key."""
    proof = {"seed": RYNN_SEED} if seat == "Rynn" else \
        {"seat_key": SEAT_KEYS.get(header["id"], {}).get(seat, sessions.make_seed())}
    return {"header": header, "seat": seat, **proof, "index": index, "prev": prev, **more}


def echoed(given: dict) -> dict:
    """The session member as a card shows it: no seed or key, the seat's commitment instead."""
    return sessions.echoed_use(given)


def test_open_answers_a_signed_header_with_the_commit(client):
    commit = sessions.seed_commit(sessions.seed_bytes(RYNN_SEED) or b"")
    response = client.post("/v1/sessions", json={"seats": ["GM", {"name": "Rynn", "commit": commit}, "Alva"],
                                                 "context": "w", "ttl_s": 60})
    assert response.status_code == 200
    header, seat_keys = response.get_json()["session"], response.get_json()["seat_keys"]
    assert tuple(header) == sessions.HEADER_MEMBERS and header["version"] == 2
    assert header["seats"] == ["GM", "Rynn", "Alva"] and header["context"] == "w"
    assert header["open_seats"] == ["GM", "Alva"] and set(seat_keys) == {"GM", "Alva"}
    assert header["seat_commits"]["Rynn"] == commit
    for seat, key in seat_keys.items():  # an open seat's commitment is its key's, like any seed's
        assert header["seat_commits"][seat] == sessions.seed_commit(sessions.seed_bytes(key) or b"")
    opened = datetime.strptime(header["opened_at"], "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=UTC)
    expires = datetime.strptime(header["expires_at"], "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=UTC)
    assert expires - opened == timedelta(seconds=60) and abs(datetime.now(UTC) - opened) < timedelta(seconds=5)
    assert verifies(header, client.get("/v1/keys").get_json())
    assert len(b64url_decode(header["commit"])) == 32


def test_open_defaults_to_four_hours(client):
    header = client.post("/v1/sessions", json={"seats": ["GM"]}).get_json()["session"]
    opened, expires = (datetime.fromisoformat(header[name].replace("Z", "+00:00"))
                       for name in ("opened_at", "expires_at"))
    assert expires - opened == timedelta(hours=4) and header["context"] is None


@pytest.mark.parametrize("body, field", [
    ({}, "seats"), ({"seats": []}, "seats"), ({"seats": ["a", "a"]}, "seats"), ({"seats": [""]}, "seats.0"),
    ({"seats": ["a"], "ttl_s": 0}, "ttl_s"), ({"seats": ["a"], "ttl_s": 604_801}, "ttl_s"),
    ({"seats": ["a"] * 1 + [f"s{n}" for n in range(20)]}, "seats"), ({"seats": ["a"], "context": "x" * 201}, "context"),
    ({"seats": [{"name": "a", "commit": "too-short"}]}, "seats.0"), ({"seats": [{"name": "a"}]}, "seats.0"),
    ({"seats": [" "]}, "seats.0"), ({"seats": [{"name": "a", "commit": "A" * 42 + "B"}]}, "seats.0"),
    ({"seats": ["a", {"name": "a", "commit": "A" * 43}]}, "seats"),
])
def test_open_refuses_bodies_out_of_range(client, body, field):
    response = client.post("/v1/sessions", json=body)
    assert response.status_code == 422
    assert field in response.get_json()["errors"]


def test_only_the_game_masters_key_opens_a_session(signing_key_pem):
    client = make_app(signing_key_pem, api_keys=("gm-key", "player-key"), ticket_keys=("gm-key",)).test_client()
    body = {"seats": ["GM", "Rynn"]}
    assert client.post("/v1/sessions", json=body, headers={"Authorization": "Bearer gm-key"}).status_code == 200
    refused = client.post("/v1/sessions", json=body, headers={"Authorization": "Bearer player-key"})
    assert refused.status_code == 403 and refused.get_json()["type"].endswith("/forbidden")
    assert client.post("/v1/sessions", json=body).status_code == 401


def test_a_seats_roll_number_has_the_same_first_dice_whatever_the_body(client, header):
    first = client.post("/v1/proben/test", json={**TEST, "session": use(header)}).get_json()
    again = client.post("/v1/proben/test", json={**TEST, "attribute": 4, "session": use(header)}).get_json()
    assert first["randomness"]["source"] == "session"
    assert first["request"]["session"] == echoed(use(header))
    assert RYNN_SEED not in repr(first)
    rolled = first["randomness"]["events"][0]["values"]
    assert again["randomness"]["events"][0]["values"][:len(rolled)] == rolled  # one die more, the same first ones
    others = [client.post("/v1/proben/test", json={**TEST, "attribute": 6, "session": use(
        header, index=index, prev=first["receipt"]["signature"])}).get_json()["randomness"]["events"]
        for index in range(1, 4)]
    other_seat = client.post("/v1/proben/test", json={**TEST, "attribute": 6, "session": use(
        header, seat="GM")}).get_json()["randomness"]["events"]
    assert len({repr(events) for events in [*others, other_seat]}) == 4  # 6d6 each: equal by chance 4 in 10^4


def test_batch_items_roll_in_the_session_like_single_calls(client, header):
    single = client.post("/v1/proben/test", json={**TEST, "session": use(header)}).get_json()
    batch = client.post("/v1/batch", json={"requests": [
        {"operation": "proben.test", "body": {**TEST, "session": use(header)}},
        {"operation": "proben.test", "body": {**TEST, "session": use(header, seat="Nobody")}}]},
        headers={"Idempotency-Key": "evening-1"}).get_json()["results"]
    assert batch[0]["status"] == 200
    assert batch[0]["body"]["randomness"] == single["randomness"]  # the batch's key does not apply
    assert batch[1]["status"] == 422 and batch[1]["body"]["type"] == PROBLEM


@pytest.mark.parametrize("extra, field", [
    ({"seed": 1}, "session"), ({"manual": [1, 2, 3]}, "session"), ({"idempotency_key": "k"}, "idempotency_key"),
])
def test_other_sources_are_refused_beside_a_session(client, header, extra, field):
    response = client.post("/v1/proben/test", json={**TEST, **extra, "session": use(header)})
    assert response.status_code == 422
    assert field in response.get_json()["errors"]


def test_a_ticket_is_refused_beside_a_session(client, header):
    (ticket,) = client.post("/v1/tickets", json={}).get_json()["tickets"]
    response = client.post("/v1/proben/test", json={**TEST, "ticket": ticket, "session": use(header)})
    assert response.status_code == 422 and "session" in response.get_json()["errors"]


def test_the_idempotency_key_header_is_refused_beside_a_session(client, header):
    response = client.post("/v1/proben/test", json={**TEST, "session": use(header)},
                           headers={"Idempotency-Key": "abc"})
    assert response.status_code == 422 and "Idempotency-Key" in response.get_json()["errors"]


def _forged_header(header):
    other = KeyRing.from_pem(generate_private_key_pem())
    unsigned = {name: value for name, value in header.items() if name not in ("signature", "kid")}
    unsigned["kid"] = header["kid"]
    return {**unsigned, "signature": other.signature_of(rfc8785.dumps(unsigned))}


@pytest.mark.parametrize("lang, words", [("en", "not a seat"), ("de", "kein Platz")])
def test_an_unknown_seat_is_named_in_the_players_language(client, header, lang, words):
    response = client.post(f"/v1/proben/test?lang={lang}", json={**TEST, "session": use(header, seat="Mallory")})
    problem = response.get_json()
    assert response.status_code == 422 and problem["type"] == PROBLEM
    assert words in problem["errors"]["session.seat"][0]


@pytest.mark.parametrize("change, field", [
    (lambda h, u: u.update(header={**h, "seats": [*h["seats"], "Mallory"]}), "session.header.signature"),
    (lambda h, u: u.update(header=_forged_header(h)), "session.header.signature"),
    (lambda h, u: u["header"].pop("commit"), "session.header.commit"),
    (lambda h, u: u.update(seed=sessions.make_seed()), "session.seed"),
    (lambda h, u: u.update(seed=RYNN_SEED + "="), "session.seed"),
    (lambda h, u: u.pop("seed"), "session.seed"),
    (lambda h, u: u.update(seat_key=RYNN_SEED), "session.seat_key"),
    (lambda h, u: u.update(prev="abc"), "session.prev"),
    (lambda h, u: u.update(index=2), "session.prev"),
])
def test_forged_or_wrong_sessions_are_refused(client, header, change, field):
    given = use(copy.deepcopy(header))
    change(header, given)
    for lang in ("en", "de"):
        response = client.post(f"/v1/proben/test?lang={lang}", json={**TEST, "session": given})
        problem = response.get_json()
        assert response.status_code == 422, problem
        assert field in problem["errors"]


def test_german_reasons_differ_from_english(client, header):
    given = use(header, seed=sessions.make_seed())
    en = client.post("/v1/proben/test?lang=en", json={**TEST, "session": given}).get_json()
    de = client.post("/v1/proben/test?lang=de", json={**TEST, "session": given}).get_json()
    assert en["type"] == de["type"] == PROBLEM
    assert en["errors"]["session.seed"] != de["errors"]["session.seed"]


def _after_the_end(monkeypatch, header) -> None:
    """The service's clock moved past the session's end, instead of a test waiting for it."""
    later = sessions.parse_time(header["expires_at"]) + timedelta(seconds=1)
    monkeypatch.setattr(sessions, "_utc_now", lambda: later)


def test_a_roll_after_the_end_is_refused(client, monkeypatch):
    header = client.post("/v1/sessions", json={"seats": ["Rynn"], "ttl_s": 1}).get_json()["session"]
    _after_the_end(monkeypatch, header)
    problem = client.post("/v1/proben/test", json={**TEST, "session": use(header)}).get_json()
    assert problem["type"] == PROBLEM and "session.header.expires_at" in problem["errors"]


def test_a_session_of_a_retired_key_rolls_no_more_but_still_reveals(signing_key_pem, monkeypatch):
    """API.md §1.8: "a session opened under a key that has since been rotated can still be revealed"."""
    from service.platform.dice.receipts import public_key_pem
    old_client = make_app(signing_key_pem).test_client()
    header = open_evening(old_client, seats=("Rynn",), ttl_s=60)
    card = old_client.post("/v1/proben/test", json={**TEST, "session": use(header)}).get_json()
    old_public = KeyRing.from_pem(signing_key_pem)._verify_keys[header["kid"]]
    only_public = make_app(generate_private_key_pem(), verify_keys_pem=public_key_pem(old_public)).test_client()
    kept = make_app(generate_private_key_pem(), retired_keys_pem=signing_key_pem).test_client()
    for rotated in (only_public, kept):
        problem = rotated.post("/v1/proben/test", json={**TEST, "session": use(header)}).get_json()
        assert problem["type"] == PROBLEM and "session.header.kid" in problem["errors"]
    _after_the_end(monkeypatch, header)
    before = old_client.post("/v1/sessions/reveal", json={"session": header}).get_json()["reveal"]
    after = kept.post("/v1/sessions/reveal", json={"session": header})
    assert after.status_code == 200 and after.get_json()["reveal"] == before  # the same document
    lost = only_public.post("/v1/sessions/reveal", json={"session": header}).get_json()
    assert lost["type"] == PROBLEM and "WURFWERK_RETIRED_SIGNING_KEYS" in lost["detail"]
    report = kept.post("/v1/sessions/report", json={"reveal": before, "cards": [card], "seeds": {"Rynn": RYNN_SEED}})
    assert report.get_json()["complete"] is True
    assert kept.get("/v1/keys").get_json()["keys"][1]["kid"] == header["kid"]  # the retired key verifies


def test_a_hidden_roll_gives_the_table_a_signed_commitment_only(client, header):
    card = client.post("/v1/proben/test", json={**TEST, "session": use(header, seat="GM", hidden=True)}).get_json()
    public = card["public"]
    jwks = client.get("/v1/keys").get_json()
    assert tuple(public) == sessions.PUBLIC_MEMBERS and verifies(public, jwks)
    assert public["session"] == card["request"]["session"] and public["operation"] == "proben.test"
    assert "seat_key" not in repr(public) and SEAT_KEYS[header["id"]]["GM"] not in repr(card)
    shown = repr(public)
    assert "dice" not in shown and "successes" not in shown and "outcome" not in shown
    # after the reveal, anyone recomputes the commitment from the card and the secret
    with client.application.app_context():
        from service.platform.http.runtime import current_runtime
        reveal = sessions.reveal(current_runtime().keys, header,
                                 now=sessions.parse_time(header["expires_at"]) + timedelta(seconds=1))
    salt_label = rfc8785.dumps({"operation": "proben.test", "seat": "GM", "index": 0})
    from cryptography.hazmat.primitives import hashes
    from cryptography.hazmat.primitives.kdf.hkdf import HKDFExpand
    salt = HKDFExpand(hashes.SHA256(), 32, b"wurfwerk/session/commitment-salt/v1\x00" + salt_label).derive(
        b64url_decode(reveal["secret"]))
    committed = rfc8785.dumps({"events": card["randomness"]["events"], "result": card["result"],
                               "salt": base64.urlsafe_b64encode(salt).rstrip(b"=").decode()})
    assert base64.urlsafe_b64encode(hashlib.sha256(committed).digest()).rstrip(b"=").decode() == public["commitment"]


def test_nobody_reveals_early(signing_key_pem, client, header):
    """API.md §1.8: "only after expires_at ... no early reveal" — not even the game master's key."""
    response = client.post("/v1/sessions/reveal", json={"session": header})
    assert response.status_code == 409
    assert response.get_json()["type"] == "https://wurfwerk.dev/problems/session-open"
    de = client.post("/v1/sessions/reveal?lang=de", json={"session": header}).get_json()
    assert de["title"] != response.get_json()["title"] and de["detail"] != response.get_json()["detail"]
    with_keys = make_app(signing_key_pem, api_keys=("gm-key",), ticket_keys=("gm-key",)).test_client()
    gm = {"Authorization": "Bearer gm-key"}
    opened = with_keys.post("/v1/sessions", json={"seats": ["GM"]}, headers=gm).get_json()["session"]
    assert with_keys.post("/v1/sessions/reveal", json={"session": opened}, headers=gm).status_code == 409


def test_the_reveal_after_the_end_is_one_document_whoever_asks_whenever(client, monkeypatch):
    header = open_evening(client, seats=("Rynn",), ttl_s=1)
    _after_the_end(monkeypatch, header)
    response = client.post("/v1/sessions/reveal", json={"session": header})
    assert response.status_code == 200
    reveal = response.get_json()["reveal"]
    assert tuple(reveal) == sessions.REVEAL_MEMBERS and reveal["session"] == header
    assert reveal["revealed_at"] == header["expires_at"]
    assert verifies(reveal, client.get("/v1/keys").get_json())
    commit = base64.urlsafe_b64encode(hashlib.sha256(b64url_decode(reveal["secret"])).digest()).rstrip(b"=")
    assert commit.decode() == header["commit"]
    much_later = sessions.parse_time(header["expires_at"]) + timedelta(days=30)
    monkeypatch.setattr(sessions, "_utc_now", lambda: much_later)
    assert client.post("/v1/sessions/reveal", json={"session": header}).get_json()["reveal"] == reveal


def test_a_forged_session_is_not_revealed(client, header):
    response = client.post("/v1/sessions/reveal", json={"session": _forged_header(header)})
    assert response.status_code == 422 and response.get_json()["type"] == PROBLEM


# -- the report on the shared vectors ---------------------------------------------------------------

@pytest.fixture(scope="module")
def vector_client():
    return make_app(VECTORS["signing_key_pem"]).test_client()


@pytest.mark.parametrize("name", sorted(CASES))
def test_the_report_gives_each_vector_its_verdict(vector_client, name):
    case = CASES[name]
    cards, reveal, seeds = case_inputs(case)
    response = vector_client.post("/v1/sessions/report", data=json.dumps({"reveal": reveal, "cards": cards,
                                                                           "seeds": seeds}),
                                  content_type="application/json")
    body = response.get_json()
    if "expect_error" in case:
        assert response.status_code == 422 and body["type"] == PROBLEM and "reveal" in body["errors"]
    elif "service_status" in case:  # the service refuses the whole body; offline, the card is malformed
        assert response.status_code == case["service_status"] and "body" in body["errors"]
    else:
        assert response.status_code == 200, body
        assert {name: value for name, value in body.items() if name != "luck"} == case["expect"]


def test_an_index_beyond_the_limit_is_refused_at_roll_time(client, header):
    """API.md §1.8: "an index above WURFWERK_MAX_SESSION_INDEX (default 10,000) is refused at roll time"."""
    link = client.post("/v1/proben/test", json={**TEST, "session": use(header)}).get_json()["receipt"]["signature"]
    allowed = client.post("/v1/proben/test", json={**TEST, "session": use(header, index=10_000, prev=link)})
    assert allowed.status_code == 200
    refused = client.post("/v1/proben/test", json={**TEST, "session": use(header, index=10_001, prev=link)})
    assert refused.status_code == 422 and refused.get_json()["type"] == PROBLEM
    assert "session.index" in refused.get_json()["errors"]
    beyond = client.post("/v1/proben/test", json={**TEST, "session": use(header, index=1_000_000, prev=link)})
    assert beyond.status_code == 422 and beyond.get_json()["type"].endswith("/validation-error")


def test_a_version_1_session_is_refused_with_what_changed(client, header):
    version_1 = {name: value for name, value in header.items()
                 if name not in ("version", "seat_commits", "open_seats")}
    given = {"header": version_1, "seat": "Rynn", "index": 0, "prev": None}
    problem = client.post("/v1/proben/test", json={**TEST, "session": given}).get_json()
    assert problem["status"] == 422
    said = " ".join(message for messages in problem["errors"].values() for message in messages)
    assert "version 1" in said and "seed" in said
    without_seed = {"header": header, "seat": "Rynn", "index": 0, "prev": None}  # a version 1 roll's member
    problem = client.post("/v1/proben/test", json={**TEST, "session": without_seed}).get_json()
    assert "since sessions v2" in " ".join(problem["errors"]["session.seed"])
