"""Ed25519 receipts over RFC 8785 JSON (API.md §1.2): any changed value fails, online and offline."""

from __future__ import annotations

import copy

import pytest
import rfc8785

from service.platform.dice.receipts import (
    KeyRing,
    generate_private_key_pem,
    load_private_key,
    public_key_pem,
    signing_payload,
)
from tests.conftest import make_app
from wurfwerk.verify import verify_offline

BODY = {"name": "Alrik", "attribute": 5, "skill": 1, "difficulty": 2, "seed": 2**53 - 1}


@pytest.fixture
def signed(post):
    status, body = post("/v1/proben/test", BODY)
    assert status == 200
    return body


def _leaves(value, path=()):
    if isinstance(value, dict):
        for key, item in value.items():
            yield from _leaves(item, path + (key,))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from _leaves(item, path + (index,))
    else:
        yield path, value


def _changed(document, path):
    altered = copy.deepcopy(document)
    target = altered
    for key in path[:-1]:
        target = target[key]
    old = target[path[-1]]
    if isinstance(old, bool):
        target[path[-1]] = not old
    elif isinstance(old, int):
        target[path[-1]] = old - 1
    else:
        target[path[-1]] = f"{old}x"
    return altered


def test_signature_is_over_jcs_without_the_signature(app, signed):
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

    from service.platform.dice.receipts import b64url_decode

    jwks = app.test_client().get("/v1/keys").get_json()
    key = jwks["keys"][0]
    unsigned = copy.deepcopy(signed)
    signature = unsigned["receipt"].pop("signature")
    payload = rfc8785.dumps(unsigned)
    Ed25519PublicKey.from_public_bytes(b64url_decode(key["x"])).verify(b64url_decode(signature), payload)
    assert signed["receipt"]["kid"] == key["kid"]
    assert payload == signing_payload(signed)


def test_every_changed_value_fails_verification(client, signed):
    assert client.post("/v1/receipts/verify", json=signed).get_json()["valid"] is True
    for path, _value in _leaves(signed):
        if path == ("receipt", "signature"):
            continue
        verdict = client.post("/v1/receipts/verify", json=_changed(signed, path)).get_json()
        assert verdict["valid"] is False, path


def test_every_changed_value_fails_offline_too(client, signed):
    jwks = client.get("/v1/keys").get_json()
    assert verify_offline(signed, jwks)["valid"]
    for path, _value in _leaves(signed):
        if path != ("receipt", "signature"):
            assert not verify_offline(_changed(signed, path), jwks)["valid"], path


def test_added_member_fails(client, signed):
    extra = {**signed, "note": "added"}
    assert client.post("/v1/receipts/verify", json=extra).get_json()["valid"] is False


def test_verify_needs_an_object_with_a_receipt(client):
    assert client.post("/v1/receipts/verify", json={"no": "receipt"}).status_code == 422
    assert client.post("/v1/receipts/verify", json=[1]).status_code == 422


def test_another_key_is_refused_and_rotation_keys_verify(signing_key_pem, signed):
    other = make_app(generate_private_key_pem())
    verdict = other.test_client().post("/v1/receipts/verify", json=signed).get_json()
    assert verdict == {"valid": False, "kid": signed["receipt"]["kid"], "reason": "unknown key id (kid)"}
    old_public = public_key_pem(load_private_key(signing_key_pem).public_key())
    rotated = make_app(generate_private_key_pem(), verify_keys_pem=old_public)
    assert rotated.test_client().post("/v1/receipts/verify", json=signed).get_json()["valid"] is True
    assert len(rotated.test_client().get("/v1/keys").get_json()["keys"]) == 2


def test_same_key_same_kid_everywhere(signing_key_pem):
    first = make_app(signing_key_pem).test_client().get("/v1/keys").get_json()
    second = make_app(signing_key_pem).test_client().get("/v1/keys").get_json()
    assert first == second
    assert first["keys"][0] | {"x": "", "kid": ""} == {"kty": "OKP", "crv": "Ed25519", "x": "", "kid": "",
                                                       "use": "sig", "alg": "EdDSA"}


def test_keyring_refuses_non_ed25519_keys():
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric import ec

    from service.platform.dice.receipts import KeyConfigError

    pem = ec.generate_private_key(ec.SECP256R1()).private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()).decode()
    with pytest.raises(KeyConfigError):
        KeyRing.from_pem(pem)


def test_seeds_beyond_exact_json_integers_are_refused(post):
    """Above 2^53 two seeds share one RFC 8785 form, so an altered seed could not be detected."""
    status, problem = post("/v1/proben/test", {**BODY, "seed": 2**53})
    assert status == 422 and "2^53-1" in problem["errors"]["seed"][0]


def test_canonical_form_of_huge_integers_follows_jcs():
    """Integers a client smuggles into a document are canonicalized as the doubles they become,
    like a JavaScript verifier would, instead of crashing the verifier."""
    from service.platform.dice.receipts import canonical_bytes

    assert canonical_bytes({"n": 2**63 - 1}) == b'{"n":9223372036854776000}'


def test_receipt_ids_are_distinct_uuid4_and_times_are_rfc3339_utc(signing_key_pem):
    """API.md §1: receipt ``id`` is a UUID4, ``issued_at`` RFC 3339 UTC."""
    import re
    import uuid

    keys = KeyRing.from_pem(signing_key_pem)
    receipts = [keys.sign({"n": n})["receipt"] for n in range(500)]
    assert len({receipt["id"] for receipt in receipts}) == 500
    for receipt in receipts:
        parsed = uuid.UUID(receipt["id"])
        assert (parsed.version, parsed.variant, str(parsed)) == (4, uuid.RFC_4122, receipt["id"])
        assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z", receipt["issued_at"])
