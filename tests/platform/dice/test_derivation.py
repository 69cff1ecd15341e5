"""A session seat's dice recomputed from the README's derivation alone (README "How the session's dice
are derived" and "How the dice are derived"), with nothing of the service but the signing key of the
shared vectors: d6 (Proben, Paws), dF (Malmsturm), d10 (Weltenbuch) and marble draws
(Beutelschneider)."""

from __future__ import annotations

import base64
import hashlib

import pytest
import rfc8785
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.ciphers import Cipher, algorithms
from cryptography.hazmat.primitives.kdf.hkdf import HKDF, HKDFExpand

from tests.platform.dice.vectors import VECTORS


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def derivation_key() -> bytes:
    """HKDF-SHA256 of the Ed25519 private seed, salt `wurfwerk derived randomness salt v1`, info
    `wurfwerk/randomness/derivation-key/v1`."""
    private = serialization.load_pem_private_key(VECTORS["signing_key_pem"].encode(), password=None)
    seed = private.private_bytes_raw()  # type: ignore[union-attr]
    return HKDF(hashes.SHA256(), 32, b"wurfwerk derived randomness salt v1",
                b"wurfwerk/randomness/derivation-key/v1").derive(seed)


def session_secret(session_id: str) -> bytes:
    return HKDFExpand(hashes.SHA256(), 32, b"wurfwerk/session/secret/v2\x00" + session_id.encode()).derive(
        derivation_key())


def seed_of(seat: str, secret: bytes) -> str:
    """A player's seed as handed over after the evening; an open seat's key from the secret (HKDF-Expand
    under `wurfwerk/session/seat-key/v2`, a zero byte and the seat)."""
    if seat in VECTORS["session"]["open_seats"]:
        return b64url(HKDFExpand(hashes.SHA256(), 32, b"wurfwerk/session/seat-key/v2\x00" + seat.encode())
                      .derive(secret))
    return VECTORS["seeds"][seat]


class Stream:
    """ChaCha20 keystream, zero nonce and counter, read by rejection sampling."""

    def __init__(self, key: bytes) -> None:
        self.bytes = Cipher(algorithms.ChaCha20(key, bytes(16)), mode=None).encryptor().update(bytes(4096))
        self.position = 0

    def below(self, bound: int) -> int:
        width = max(1, ((bound - 1).bit_length() + 7) // 8)
        span = 256 ** width
        while True:
            value = int.from_bytes(self.bytes[self.position:self.position + width], "big")
            self.position += width
            if value < span - span % bound:
                return value % bound


def stream_for(card: dict) -> Stream:
    use = card["request"]["session"]
    secret = session_secret(use["header"]["id"])
    label = rfc8785.dumps({"domain": "session", "operation": card["operation"], "seat": use["seat"],
                           "seed": seed_of(use["seat"], secret), "index": use["index"]})
    key = HKDFExpand(hashes.SHA256(), 32, b"wurfwerk/randomness/stream/v1\x00" + label).derive(secret)
    return Stream(key)


def test_each_seats_commitment_is_the_hash_of_its_seed():
    secret = session_secret(VECTORS["session"]["id"])
    for seat in VECTORS["session"]["seats"]:
        seed = base64.urlsafe_b64decode(seed_of(seat, secret) + "=" * (-len(seed_of(seat, secret)) % 4))
        assert b64url(hashlib.sha256(seed).digest()) == VECTORS["session"]["seat_commits"][seat]


def test_the_commit_is_the_hash_of_the_secret_and_the_reveal_shows_that_secret():
    secret = session_secret(VECTORS["session"]["id"])
    assert b64url(hashlib.sha256(secret).digest()) == VECTORS["session"]["commit"]
    assert VECTORS["reveal"]["secret"] == b64url(secret)


@pytest.mark.parametrize("position, kind", [(0, "d6"), (1, "dF"), (2, "d10"), (3, "draw"), (4, "d6"), (5, "d6")])
def test_a_seats_dice_follow_from_the_derivation(position, kind):
    card = VECTORS["log"][position]
    events = card["randomness"]["events"]
    assert {event["kind"] for event in events} == {kind}
    stream = stream_for(card)
    for event in events:
        if kind == "dF":
            expected = [stream.below(3) - 1 for _ in event["values"]]
        elif kind == "draw":
            # the bag the rules drew from (as the request gave it, the event names it), marbles sorted
            # by colour, then a partial Fisher-Yates shuffle
            bag = card["request"]["bag"]
            assert event["bag"] == {colour: count for colour, count in sorted(bag.items()) if count}
            marbles = [colour for colour in sorted(bag) for _ in range(bag[colour])]
            for place in range(len(event["values"])):
                chosen = place + stream.below(len(marbles) - place)
                marbles[place], marbles[chosen] = marbles[chosen], marbles[place]
            expected = marbles[:len(event["values"])]
        else:
            sides = int(kind[1:])
            expected = [stream.below(sides) + 1 for _ in event["values"]]
        assert event["values"] == expected


def test_other_seats_indices_and_operations_get_other_streams():
    card = VECTORS["log"][0]
    streams = set()
    for seat, index, operation in [("Rynn", 0, "proben.test"), ("Alva", 0, "proben.test"),
                                   ("Rynn", 1, "proben.test"), ("Rynn", 0, "paws.test")]:
        changed = {**card, "operation": operation,
                   "request": {**card["request"], "session": {**card["request"]["session"], "seat": seat,
                                                              "index": index}}}
        streams.add(stream_for(changed).bytes[:32])
    assert len(streams) == 4
