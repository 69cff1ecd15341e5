"""Randomness derived from the service's secret: HKDF keys, the ChaCha20 stream, the labels that
name what a roll derives from (an idempotency key or a roll ticket), and the ``Idempotency-Key``
header's rules. ``request_source`` picks a rolling call's source, derived or not.
"""

from __future__ import annotations

import hashlib
import hmac
import re
from collections.abc import Mapping
from typing import Any

from cryptography.hazmat.primitives.ciphers import Cipher, algorithms

from service.platform.dice.randomness import RandomSource, make_source
from service.platform.dice.receipts import KeyRing, canonical_bytes
from service.platform.dice.tickets import check_ticket
from service.platform.values.errors import InputError
from service.platform.words.messages import say

# The construction (README "Fair play" explains it for users):
#
#   derivation key  = HKDF-SHA256(IKM  = the Ed25519 signing key's 32-byte private seed,
#                                 salt = DERIVATION_SALT, info = DERIVATION_INFO, L = 32)
#   stream key      = HKDF-Expand-SHA256(PRK = derivation key,
#                                        info = STREAM_INFO || RFC 8785 JSON of the label, L = 32)
#   random bytes    = the ChaCha20 keystream under the stream key (nonce and counter 0)
#
# The label names the input: {"domain": "idempotency-key", "operation", "idempotency_key",
# "request"} or {"domain": "ticket", "operation", "ticket", "request"}. RFC 8785 is injective (equal bytes only
# for equal JSON values), so no two different labels share a stream, and the domain member keeps
# idempotency keys and tickets apart even for equal strings. Without the derivation key the stream
# key is a PRF output an outsider cannot compute, and the keystream of an unknown ChaCha20 key cannot
# be told from random bytes: nobody without the secret can predict the dice. The signing key itself
# never meets a second algorithm: HKDF's own info label separates this use from signing.

DERIVATION_SALT = b"wurfwerk derived randomness salt v1"
DERIVATION_INFO = b"wurfwerk/randomness/derivation-key/v1"
STREAM_INFO = b"wurfwerk/randomness/stream/v1\x00"
_CHACHA_BLOCK = 64
_ZERO_NONCE = bytes(16)  # cryptography's ChaCha20 nonce: 32-bit counter || 96-bit nonce


def derivation_key(keys: KeyRing, kid: str | None = None) -> bytes:
    """The secret every derived stream comes from: HKDF of the signing key's private seed (or of the
    retired key ``kid``'s), under this module's own salt and info label (so it is never the signing
    key itself)."""
    return keys.derived_secret(DERIVATION_SALT, DERIVATION_INFO, kid)


def stream_key(key: bytes, label_bytes: bytes) -> bytes:
    """HKDF-Expand (RFC 5869 §2.3) for one 32-byte block: HMAC(PRK, info || 0x01). Written out
    because it runs on every derived roll and ``cryptography``'s HKDFExpand object costs more than
    the HMAC itself; tests hold it to HKDFExpand's output."""
    return hmac.digest(key, STREAM_INFO + label_bytes + b"\x01", hashlib.sha256)


class KeyStream:
    """The DRBG: the ChaCha20 keystream of one stream key, read byte by byte (64 at a time)."""

    def __init__(self, key: bytes) -> None:
        self._cipher = Cipher(algorithms.ChaCha20(key, _ZERO_NONCE), mode=None).encryptor()
        self._buffer = b""
        self._position = 0

    def read(self, count: int) -> bytes:
        if self._position + count > len(self._buffer):
            blocks = -(-(count + _CHACHA_BLOCK) // _CHACHA_BLOCK)
            self._buffer = self._buffer[self._position:] + self._cipher.update(bytes(blocks * _CHACHA_BLOCK))
            self._position = 0
        chunk = self._buffer[self._position:self._position + count]
        self._position += count
        return chunk

    def below(self, bound: int) -> int:
        """A uniform integer in [0, bound) by rejection sampling: read the fewest bytes that can
        hold ``bound`` values, discard values at or above the largest multiple of ``bound`` they can
        hold, and take the rest modulo ``bound``; every residue then has exactly equally many
        preimages."""
        if bound < 1:
            raise ValueError("bound must be at least 1")
        width = max(1, ((bound - 1).bit_length() + 7) // 8)
        span = 256 ** width
        accepted_below = span - span % bound
        while True:
            value = int.from_bytes(self.read(width), "big")
            if value < accepted_below:
                return value % bound


class DerivedSource(RandomSource):
    """Dice and draws from a ``KeyStream``: the same label and secret give the same values."""

    def __init__(self, stream: KeyStream, name: str) -> None:
        super().__init__()
        self._stream = stream
        self.name = name

    def _roll_one(self, sides: int) -> int:
        return self._stream.below(sides) + 1

    def _fudge_one(self) -> int:
        return self._stream.below(3) - 1

    def _draw(self, bag: Mapping[str, int], count: int) -> list[str]:
        # A partial Fisher-Yates shuffle of the sorted marbles: every ordered draw is equally likely,
        # and the order the client wrote the bag in does not matter.
        marbles = [colour for colour in sorted(bag) for _ in range(bag[colour])]
        for position in range(count):
            chosen = position + self._stream.below(len(marbles) - position)
            marbles[position], marbles[chosen] = marbles[chosen], marbles[position]
        return marbles[:count]


def idempotency_label(operation: str, idempotency_key: str, request: Mapping[str, Any]) -> dict:
    """What an ``Idempotency-Key`` roll derives from: the key, the operation and the request as
    understood (defaults filled in, without the randomness members)."""
    return {"domain": "idempotency-key", "operation": operation, "idempotency_key": idempotency_key,
            "request": dict(request)}


def ticket_label(operation: str, ticket_id: str, request: Mapping[str, Any]) -> dict:
    """What a ticket roll derives from: the ticket id, the operation and the request as understood
    (defaults filled in, without the randomness members). The same ticket and request always give
    the same card; any other request with it is a second roll, and every card it gives carries the
    ticket's id, so a table that remembers the ids it has seen sees the ticket used twice."""
    return {"domain": "ticket", "operation": operation, "ticket": ticket_id, "request": dict(request)}


def derived_source(keys: KeyRing, label: Mapping[str, Any], name: str) -> DerivedSource:
    """The source for ``label`` (one of the two above) under the key configuration ``keys``."""
    return DerivedSource(KeyStream(stream_key(derivation_key(keys), canonical_bytes(label))), name)


# -- choosing a request's source ------------------------------------------------------------------

# 1 to 255 visible ASCII characters. The spec states it as a JSON Schema pattern; Python checks it
# with fullmatch, because a ``$`` would also match before a trailing newline.
IDEMPOTENCY_KEY_PATTERN = "^[!-~]{1,255}$"
_IDEMPOTENCY_KEY = re.compile("[!-~]{1,255}")
IDEMPOTENCY_HEADER = "Idempotency-Key"


class IdempotencyKeyError(InputError):
    """An ``Idempotency-Key`` that is malformed or comes with a source that needs none."""

    problem_type = "validation-error"


def is_idempotency_key(value: object) -> bool:
    return isinstance(value, str) and _IDEMPOTENCY_KEY.fullmatch(value) is not None


def check_idempotency_header(value: str | None) -> None:
    if value is not None and not is_idempotency_key(value):
        raise IdempotencyKeyError(IDEMPOTENCY_HEADER, say("must be 1 to 255 visible ASCII characters (! to ~)"))


def request_source(keys: KeyRing, operation: str, request: Mapping[str, Any],
                   randomness: Mapping[str, Any], *, header_key: str | None = None,
                   batch_item: int | None = None) -> RandomSource:
    """The source of one rolling call, a fresh one per call.

    ``request`` is the loaded body without the randomness members, ``randomness`` those members
    (``seed``, ``manual``, ``ticket``, ``idempotency_key``) as given, ``header_key`` the
    ``Idempotency-Key`` header of the HTTP request, ``batch_item`` the call's index in a batch.
    A ticket decides the dice when there is one (a key given with it is only recorded); else an
    idempotency key derives them; else seed, manual or the CSPRNG, as before. In a batch, an item
    without its own ``idempotency_key`` (and without seed or manual) takes the batch's header key
    followed by ``#<index>``, so retrying the whole batch reproduces every item."""
    key = _idempotency_key(randomness, header_key, batch_item)
    ticket = randomness.get("ticket")
    if ticket is not None:
        check_ticket(keys, ticket, operation=operation)
        source: RandomSource = derived_source(keys, ticket_label(operation, ticket["id"], request), "ticket")
    elif key is not None:
        source = derived_source(keys, idempotency_label(operation, key, request), "secure")
    else:
        return make_source(randomness.get("seed"), randomness.get("manual"))
    source.idempotency_key = key
    return source


def _idempotency_key(randomness: Mapping[str, Any], header_key: str | None,
                     batch_item: int | None) -> str | None:
    member = randomness.get("idempotency_key")
    reproducible = next((name for name in ("seed", "manual") if name in randomness), None)
    if header_key is None:
        return member
    if batch_item is not None:  # the batch's key: checked once for the batch, applies where it can
        if member is not None or reproducible:
            return member
        return f"{header_key}#{batch_item}"
    check_idempotency_header(header_key)
    if reproducible:
        raise IdempotencyKeyError(IDEMPOTENCY_HEADER, say("cannot be combined with %(source)s, which is "
                                                          "reproducible already", source=reproducible))
    if member is not None and member != header_key:
        raise IdempotencyKeyError("idempotency_key", say("differs from the Idempotency-Key header; give the key "
                                                         "once"))
    return header_key
