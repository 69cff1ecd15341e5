"""Sessions (issue 41): opening, rolling by seat, hidden rolls, the reveal and its rules, the refusals,
and the report's verdict on the shared vectors."""

from __future__ import annotations

import base64
import copy
import hashlib
from datetime import UTC, datetime, timedelta

import pytest
import rfc8785
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

from service.platform.dice import sessions
from service.platform.dice.receipts import KeyRing, generate_private_key_pem
from tests.conftest import make_app
from tests.sessions.vectors import CASES, VECTORS, case_inputs

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


@pytest.fixture
def header(client):
    return client.post("/v1/sessions", json={"seats": ["GM", "Rynn"], "context": "world-7"}).get_json()["session"]


def use(header, seat="Rynn", index=0, prev=None, **more):
    return {"header": header, "seat": seat, "index": index, "prev": prev, **more}


def test_open_answers_a_signed_header_with_the_commit(client):
    response = client.post("/v1/sessions", json={"seats": ["GM", "Rynn", "Alva"], "context": "w", "ttl_s": 60})
    assert response.status_code == 200
    header = response.get_json()["session"]
    assert tuple(header) == sessions.HEADER_MEMBERS
    assert header["seats"] == ["GM", "Rynn", "Alva"] and header["context"] == "w"
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
    ({"seats": ["a"] * 1 + [f"s{n}" for n in range(50)]}, "seats"), ({"seats": ["a"], "context": "x" * 201}, "context"),
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


def test_a_seats_roll_number_has_one_set_of_dice_whatever_the_body(client, header):
    first = client.post("/v1/proben/test", json={**TEST, "session": use(header)}).get_json()
    again = client.post("/v1/proben/test", json={**TEST, "attribute": 4, "session": use(header)}).get_json()
    assert first["randomness"]["source"] == "session"
    assert first["request"]["session"] == use(header)
    rolled = first["randomness"]["events"][0]["values"]
    assert again["randomness"]["events"][0]["values"][:len(rolled)] == rolled  # one die more, the same first ones
    others = [client.post("/v1/proben/test", json={**TEST, "attribute": 6, "session": use(
        header, index=index, prev="x")}).get_json()["randomness"]["events"] for index in range(1, 4)]
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
    (lambda h, u: u.update(index=-1), "session.index"),
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
    given = use(header, index=-1)
    en = client.post("/v1/proben/test?lang=en", json={**TEST, "session": given}).get_json()
    de = client.post("/v1/proben/test?lang=de", json={**TEST, "session": given}).get_json()
    assert en["type"] == de["type"] == PROBLEM
    assert en["errors"]["session.index"] != de["errors"]["session.index"]


def _after_the_end(monkeypatch, header) -> None:
    """The service's clock moved past the session's end, instead of a test waiting for it."""
    later = sessions.parse_time(header["expires_at"]) + timedelta(seconds=1)
    monkeypatch.setattr(sessions, "_utc_now", lambda: later)


def test_a_roll_after_the_end_is_refused(client, monkeypatch):
    header = client.post("/v1/sessions", json={"seats": ["Rynn"], "ttl_s": 1}).get_json()["session"]
    _after_the_end(monkeypatch, header)
    problem = client.post("/v1/proben/test", json={**TEST, "session": use(header)}).get_json()
    assert problem["type"] == PROBLEM and "session.header.expires_at" in problem["errors"]


def test_a_session_of_a_retired_key_is_refused(signing_key_pem):
    old = make_app(signing_key_pem).test_client()
    header = old.post("/v1/sessions", json={"seats": ["Rynn"]}).get_json()["session"]
    old_public = KeyRing.from_pem(signing_key_pem)._verify_keys[header["kid"]]
    from service.platform.dice.receipts import public_key_pem
    rotated = make_app(generate_private_key_pem(), verify_keys_pem=public_key_pem(old_public)).test_client()
    problem = rotated.post("/v1/proben/test", json={**TEST, "session": use(header)}).get_json()
    assert problem["type"] == PROBLEM and "session.header.kid" in problem["errors"]


def test_a_hidden_roll_gives_the_table_a_signed_commitment_only(client, header):
    card = client.post("/v1/proben/test", json={**TEST, "session": use(header, seat="GM", hidden=True)}).get_json()
    public = card["public"]
    jwks = client.get("/v1/keys").get_json()
    assert tuple(public) == sessions.PUBLIC_MEMBERS and verifies(public, jwks)
    assert public["session"] == card["request"]["session"] and public["operation"] == "proben.test"
    shown = repr(public)
    assert "dice" not in shown and "successes" not in shown and "outcome" not in shown
    # after the reveal, anyone recomputes the commitment from the card and the secret
    with client.application.app_context():
        from service.platform.http.runtime import current_runtime
        reveal = sessions.reveal(current_runtime().keys, header)
    salt_label = rfc8785.dumps({"operation": "proben.test", "seat": "GM", "index": 0})
    from cryptography.hazmat.primitives import hashes
    from cryptography.hazmat.primitives.kdf.hkdf import HKDFExpand
    salt = HKDFExpand(hashes.SHA256(), 32, b"wurfwerk/session/commitment-salt/v1\x00" + salt_label).derive(
        b64url_decode(reveal["secret"]))
    committed = rfc8785.dumps({"events": card["randomness"]["events"], "result": card["result"],
                               "salt": base64.urlsafe_b64encode(salt).rstrip(b"=").decode()})
    assert base64.urlsafe_b64encode(hashlib.sha256(committed).digest()).rstrip(b"=").decode() == public["commitment"]


def test_nobody_reveals_early_without_api_keys(client, header):
    response = client.post("/v1/sessions/reveal", json={"session": header})
    assert response.status_code == 409
    assert response.get_json()["type"] == "https://wurfwerk.dev/problems/session-open"
    de = client.post("/v1/sessions/reveal?lang=de", json={"session": header}).get_json()
    assert de["title"] != response.get_json()["title"] and de["detail"] != response.get_json()["detail"]


def test_anyone_reveals_after_the_end_and_the_secret_matches_the_commit(client, monkeypatch):
    header = client.post("/v1/sessions", json={"seats": ["Rynn"], "ttl_s": 1}).get_json()["session"]
    _after_the_end(monkeypatch, header)
    response = client.post("/v1/sessions/reveal", json={"session": header})
    assert response.status_code == 200
    reveal = response.get_json()["reveal"]
    assert tuple(reveal) == sessions.REVEAL_MEMBERS and reveal["session"] == header
    assert verifies(reveal, client.get("/v1/keys").get_json())
    commit = base64.urlsafe_b64encode(hashlib.sha256(b64url_decode(reveal["secret"])).digest()).rstrip(b"=")
    assert commit.decode() == header["commit"]


def test_the_game_master_ends_the_evening_early_others_may_not(signing_key_pem):
    client = make_app(signing_key_pem, api_keys=("gm-key", "player-key"), ticket_keys=("gm-key",)).test_client()
    gm, player = {"Authorization": "Bearer gm-key"}, {"Authorization": "Bearer player-key"}
    header = client.post("/v1/sessions", json={"seats": ["GM", "Rynn"]}, headers=gm).get_json()["session"]
    assert client.post("/v1/sessions/reveal", json={"session": header}, headers=player).status_code == 409
    assert client.post("/v1/sessions/reveal", json={"session": header}, headers=gm).status_code == 200


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
    cards, reveal = case_inputs(case)
    response = vector_client.post("/v1/sessions/report", json={"reveal": reveal, "cards": cards})
    body = response.get_json()
    if "expect_error" in case:
        assert response.status_code == 422 and body["type"] == PROBLEM and "reveal" in body["errors"]
    else:
        assert response.status_code == 200, body
        assert {name: value for name, value in body.items() if name != "luck"} == case["expect"]


def test_an_index_beyond_a_million_rolls_is_a_validation_error(client, header):
    response = client.post("/v1/proben/test", json={**TEST, "session": use(header, index=1_000_000, prev="x")})
    assert response.status_code == 422 and "session.index" in response.get_json()["errors"]
    assert response.get_json()["type"].endswith("/validation-error")
