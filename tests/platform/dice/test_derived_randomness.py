"""Derived randomness (issue 14): HKDF from the signing key, a ChaCha20 stream per label, rejection
sampling. The same label and key give the same values; the values are uniform exactly as the secure
source's are, checked with the same chi-square tests.

The keys here are fixed, so the streams, and therefore these tests' statistics, are the same on
every run: a test that passes cannot flake.
"""

from __future__ import annotations

import hashlib
from collections import Counter
from itertools import permutations

import pytest
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from cryptography.hazmat.primitives.ciphers import Cipher, algorithms
from cryptography.hazmat.primitives.kdf.hkdf import HKDF, HKDFExpand

from service.platform.dice.derived_randomness import (
    DERIVATION_INFO,
    DERIVATION_SALT,
    STREAM_INFO,
    KeyStream,
    derivation_key,
    derived_source,
    idempotency_label,
    stream_key,
    ticket_label,
)
from service.platform.dice.receipts import KeyRing, canonical_bytes
from tests.stats import chi_square_sf

P_MIN = 1e-6


def fixed_keys(name: str) -> KeyRing:
    return KeyRing(Ed25519PrivateKey.from_private_bytes(hashlib.sha256(name.encode()).digest()))


KEYS = fixed_keys("wurfwerk derived randomness tests")


def _uniformity_p(values, faces) -> float:
    counts = Counter(values)
    assert set(counts) <= set(faces)
    expected = len(values) / len(faces)
    statistic = sum((counts.get(face, 0) - expected) ** 2 / expected for face in faces)
    return chi_square_sf(statistic, len(faces) - 1)


def _source(label_number: int, name: str = "secure"):
    return derived_source(KEYS, ticket_label("paws.test", f"ticket-{label_number}", {}), name)


# -- the construction ----------------------------------------------------------------------------

def test_the_derivation_key_is_hkdf_of_the_signing_seed_under_its_own_label():
    seed = hashlib.sha256(b"wurfwerk derived randomness tests").digest()
    expected = HKDF(algorithm=hashes.SHA256(), length=32, salt=DERIVATION_SALT,
                    info=DERIVATION_INFO).derive(seed)
    assert derivation_key(KEYS) == expected
    assert expected != seed
    # Another use of the same key (another info label) gets an unrelated secret.
    assert KEYS.derived_secret(DERIVATION_SALT, b"wurfwerk/another-use/v1") != expected


def test_the_stream_key_is_hkdf_expand_of_the_canonical_label():
    label = idempotency_label("paws.test", "retry-1", {"rank": 3})
    expected = HKDFExpand(algorithm=hashes.SHA256(), length=32,
                          info=STREAM_INFO + canonical_bytes(label)).derive(derivation_key(KEYS))
    assert stream_key(derivation_key(KEYS), canonical_bytes(label)) == expected


def test_the_stream_is_the_chacha20_keystream_read_in_order():
    key = bytes(range(32))
    stream = KeyStream(key)
    pieces = [stream.read(size) for size in (1, 63, 2, 200, 7)]
    whole = KeyStream(key).read(273)
    assert b"".join(pieces) == whole and len(whole) == 273
    # Nonce 0, block counter from 0: the second block is the cipher's block at counter 1.
    counter_one = Cipher(algorithms.ChaCha20(key, (1).to_bytes(4, "little") + bytes(12)),
                         mode=None).encryptor().update(bytes(64))
    assert whole[64:128] == counter_one


class _ScriptedStream(KeyStream):
    """A stream that returns given bytes, to watch rejection sampling decide."""

    def __init__(self, data: bytes) -> None:
        self._data = data
        self._position = 0

    def read(self, count: int) -> bytes:
        chunk = self._data[self._position:self._position + count]
        assert len(chunk) == count, "the sampler read past the scripted bytes"
        self._position += count
        return chunk


def test_rejection_sampling_discards_bytes_at_or_above_the_largest_multiple():
    # d6: 252 = 42 * 6 is the largest multiple of 6 a byte holds; 252..255 are discarded.
    stream = _ScriptedStream(bytes([252, 253, 254, 255, 251, 0, 5, 6]))
    assert [stream.below(6) for _ in range(4)] == [251 % 6, 0, 5, 0]
    # 129 sides: only 0..128 are kept (129 * 1 = 129 fits, 258 does not).
    assert _ScriptedStream(bytes([129, 200, 128])).below(129) == 128
    # Above 256 two bytes are read: 1000 sides keep 0..64999, 65000 = 65 * 1000.
    assert _ScriptedStream((65000).to_bytes(2, "big") + (64999).to_bytes(2, "big")).below(1000) == 999
    assert _ScriptedStream(b"\x00").below(1) == 0


# -- same input, same dice; other input, other dice ------------------------------------------------

def test_the_same_label_gives_the_same_values():
    first, second = _source(1), _source(1)
    assert first.roll(20, 6) == second.roll(20, 6)
    assert first.fudge(4) == second.fudge(4)
    bag = {"white": 5, "red": 9, "green": 6}
    assert first.draw(bag, 3) == second.draw(dict(reversed(bag.items())), 3)  # bag order is irrelevant
    assert first.events == second.events and first.name == "secure"


def test_other_labels_keys_and_domains_give_other_values():
    reference = _source(1).roll(32, 100)
    assert _source(2).roll(32, 100) != reference
    assert derived_source(fixed_keys("another key"), ticket_label("paws.test", "ticket-1", {}),
                          "ticket").roll(32, 100) != reference
    assert derived_source(KEYS, ticket_label("proben.test", "ticket-1", {}), "ticket").roll(32, 100) != reference
    assert derived_source(KEYS, ticket_label("paws.test", "ticket-1", {"rank": 5}), "ticket").roll(32, 100) \
        != derived_source(KEYS, ticket_label("paws.test", "ticket-1", {"rank": 1}), "ticket").roll(32, 100)
    # The same string as an idempotency key and as a ticket id names two different streams.
    as_key = derived_source(KEYS, idempotency_label("paws.test", "ticket-1", {}), "secure").roll(32, 100)
    assert as_key != derived_source(KEYS, ticket_label("paws.test", "ticket-1", {}), "ticket").roll(32, 100)


def test_an_idempotency_label_covers_the_request_body():
    one = derived_source(KEYS, idempotency_label("paws.test", "k", {"rank": 3}), "secure").roll(32, 6)
    other = derived_source(KEYS, idempotency_label("paws.test", "k", {"rank": 4}), "secure").roll(32, 6)
    assert one != other


# -- uniform exactly as the secure source ----------------------------------------------------------

@pytest.mark.parametrize("sides", [2, 3, 6, 10, 20, 100, 129, 256, 1000])
def test_every_face_of_one_long_stream_is_equally_likely(sides):
    rolls = (400 if sides <= 256 else 100) * sides  # 100 per face keep the chi-square sound, and quick
    values = _source(sides).roll(rolls, sides)
    assert len(values) == rolls
    assert _uniformity_p(values, range(1, sides + 1)) > P_MIN


@pytest.mark.parametrize("sides", [6, 10, 20])
def test_the_first_die_over_many_labels_is_uniform(sides):
    """Independence across labels: the first value of 400·sides different streams."""
    values = [_source(number).roll(1, sides)[0] for number in range(400 * sides)]
    assert _uniformity_p(values, range(1, sides + 1)) > P_MIN


def test_fudge_dice_are_uniform_over_minus_one_to_one():
    assert _uniformity_p(_source(7).fudge(30_000), range(-1, 2)) > P_MIN


def test_every_ordered_draw_is_equally_likely():
    bag = {"red": 1, "green": 1, "blue": 1, "white": 1, "black": 1}
    ordered_pairs = list(permutations(sorted(bag), 2))
    values = [tuple(_source(number).draw(bag, 2)) for number in range(400 * len(ordered_pairs))]
    assert _uniformity_p(values, ordered_pairs) > P_MIN


def test_a_draw_takes_each_marble_with_its_share_of_the_bag():
    bag = {"red": 9, "green": 6, "white": 5}
    source = _source(11)
    values = [source.draw(bag, 1)[0] for _ in range(20_000)]
    counts = Counter(values)
    statistic = sum((counts[colour] - 20_000 * number / 20) ** 2 / (20_000 * number / 20)
                    for colour, number in bag.items())
    assert chi_square_sf(statistic, len(bag) - 1) > P_MIN


def test_a_draw_is_without_replacement():
    bag = {"red": 2, "white": 1}
    for number in range(200):
        assert sorted(_source(number).draw(bag, 3)) == ["red", "red", "white"]
