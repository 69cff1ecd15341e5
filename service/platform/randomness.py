"""Where every random value comes from: the OS CSPRNG, a seeded generator, the table's own dice, or
a stream derived from the service's secret and something the request carries (an idempotency key
or a roll ticket).

Rules never import ``random``: they call ``roll``, ``fudge`` and ``draw`` on the source they are
given. Each call is recorded as one event, so a response can list every value consumed, and those
values fed back as ``manual`` reproduce it. Sources are made per request, never at import time:
gunicorn forks its workers, and a generator made before the fork would repeat in every worker.
"""

from __future__ import annotations

import functools
import hashlib
import hmac
import json
import os
import random
import re
from collections.abc import Mapping, Sequence
from typing import Any

from cryptography.hazmat.primitives.ciphers import Cipher, algorithms

from service.platform.errors import InputError, ManualEntryError
from service.platform.messages import say, say_n
from service.platform.receipts import KeyRing, canonical_bytes
from service.platform.tickets import check_ticket

FUDGE_FACES = (-1, 0, 1)
D10 = 10


class RandomSource:
    """The interface the rules see. Subclasses supply ``_roll_one``/``_fudge_one``/``_draw``, or a
    whole roll (``_roll``, ``_fudge``) where they produce its dice at once; ``roll`` and ``fudge``
    record the event either way."""

    name = "abstract"
    idempotency_key: str | None = None  # recorded in the response when the call gave one

    def __init__(self) -> None:
        self.events: list[dict[str, Any]] = []

    def roll(self, count: int, sides: int, *, zero_is_ten: bool = False) -> list[int]:
        """``count`` dice with faces 1..``sides``. ``zero_is_ten``: the system reads a d10's ten written
        as 0, as a d10 is printed; only a manual source reads written faces, and it records 10."""
        values = self._roll(count, sides, zero_is_ten)
        self._record(f"d{sides}", values)
        return values

    def fudge(self, count: int) -> list[int]:
        """``count`` FUDGE dice, each -1, 0 or +1."""
        values = self._fudge(count)
        self._record("dF", values)
        return values

    def draw(self, bag: Mapping[str, int], count: int) -> list[str]:
        """``count`` marbles drawn without replacement from ``bag`` (colour -> number)."""
        if count > sum(bag.values()):
            raise ValueError("cannot draw more marbles than the bag holds")  # rules check this first
        values = self._draw(bag, count)
        self._record("draw", values)
        return values

    def finish(self) -> None:
        """Called after the rules ran: a manual source checks nothing was left over."""

    def _record(self, kind: str, values: list) -> None:
        if values:
            self.events.append({"kind": kind, "values": values})

    def _roll(self, count: int, sides: int, zero_is_ten: bool) -> list[int]:
        return [self._roll_one(sides) for _ in range(count)]  # only written faces can be a 0

    def _fudge(self, count: int) -> list[int]:
        return [self._fudge_one() for _ in range(count)]

    def _roll_one(self, sides: int) -> int:
        raise NotImplementedError

    def _fudge_one(self) -> int:
        raise NotImplementedError

    def _draw(self, bag: Mapping[str, int], count: int) -> list[str]:
        raise NotImplementedError


class GeneratorSource(RandomSource):
    """Values from a ``random.Random`` (seeded) or ``random.SystemRandom`` (secure)."""

    def __init__(self, generator: random.Random, name: str) -> None:
        super().__init__()
        self._generator = generator
        self.name = name

    def _roll_one(self, sides: int) -> int:
        return self._generator.randrange(sides) + 1

    def _fudge_one(self) -> int:
        return self._generator.randrange(3) - 1

    def _draw(self, bag: Mapping[str, int], count: int) -> list[str]:
        # Sorted colours make a seeded draw independent of the order the client wrote the bag in.
        marbles = [colour for colour in sorted(bag) for _ in range(bag[colour])]
        return self._generator.sample(marbles, count)


class SecureSource(GeneratorSource):
    """The OS CSPRNG. Dice come from one ``os.urandom`` read per roll rather than one per die (a
    system call each): every byte below the largest multiple of ``sides`` gives a face, the others
    are discarded (rejection sampling), so each face is exactly equally likely."""

    def __init__(self) -> None:
        super().__init__(_SYSTEM_RANDOM, "secure")

    def _roll(self, count: int, sides: int, zero_is_ten: bool) -> list[int]:
        if sides > 255:  # a face must fit in a byte
            return super()._roll(count, sides, zero_is_ten)
        return _uniform(count, sides, lowest=1)

    def _fudge(self, count: int) -> list[int]:
        return [face - 1 for face in _uniform(count, 3, lowest=0)]


# SystemRandom keeps no state (each value is read from os.urandom), so unlike a seeded generator one
# instance can serve every request, in every forked worker.
_SYSTEM_RANDOM = random.SystemRandom()


def _uniform(count: int, bound: int, *, lowest: int) -> list[int]:
    """``count`` independent uniform integers in [lowest, lowest + bound) from urandom bytes, all of
    them below 256. ``bytes.translate`` turns the bytes into faces and deletes the rejected ones."""
    faces, rejected = _byte_faces(bound, lowest)
    values: list[int] = []
    while len(values) < count:
        # A few spare bytes: at worst (bound 129) about half the bytes are discarded, so one read
        # nearly always suffices.
        values += os.urandom(count + count // 2 + 8).translate(faces, rejected)
    del values[count:]
    return values


@functools.cache
def _byte_faces(bound: int, lowest: int) -> tuple[bytes, bytes]:
    """Rejection sampling as a translation table: each byte's face (``lowest + byte % bound``), and
    the bytes at or above the largest multiple of ``bound``, which are discarded so that every face
    is exactly equally likely."""
    accepted_below = 256 - 256 % bound
    return bytes(lowest + byte % bound for byte in range(256)), bytes(range(accepted_below, 256))


class ManualSource(RandomSource):
    """The values a table rolled or drew by hand, consumed in order."""

    name = "manual"

    def __init__(self, values: Sequence[Any]) -> None:
        super().__init__()
        self._values = list(values)
        self._position = 0

    def _next(self, expected: str) -> tuple[int, Any]:
        index = self._position
        if index >= len(self._values):
            raise ManualEntryError("manual", say_n(
                "too few values: %(count)d was given, the rules need at least one more (%(expected)s)",
                "too few values: %(count)d were given, the rules need at least one more (%(expected)s)",
                len(self._values), expected=expected))
        self._position += 1
        return index, self._values[index]

    def _roll(self, count: int, sides: int, zero_is_ten: bool) -> list[int]:
        return [self._read_face(sides, zero_is_ten and sides == D10) for _ in range(count)]

    def _read_face(self, sides: int, ten_as_zero: bool) -> int:
        expected = (say("a d%(sides)s face 1..%(sides)s (0 for the ten)", sides=sides) if ten_as_zero
                    else say("a d%(sides)s face 1..%(sides)s", sides=sides))
        index, value = self._next(expected)
        if ten_as_zero and value == 0 and _is_int(value):
            return D10  # a d10 is printed 0..9 and tables write its ten as 0; events record 10
        if not _is_int(value) or not 1 <= value <= sides:
            raise ManualEntryError(f"manual.{index}", say("expected %(expected)s, got %(value)s",
                                                          expected=expected, value=_shown(value)))
        return value

    def _fudge_one(self) -> int:
        index, value = self._next(say("a dF face -1, 0 or 1"))
        if not _is_int(value) or value not in FUDGE_FACES:
            raise ManualEntryError(f"manual.{index}", say("expected a dF face -1, 0 or 1, got %(value)s",
                                                          value=_shown(value)))
        return value

    def _draw(self, bag: Mapping[str, int], count: int) -> list[str]:
        remaining = dict(bag)
        drawn = []
        for _ in range(count):
            present = sorted(colour for colour, number in remaining.items() if number > 0)
            index, value = self._next(say("a marble in the bag (%(colours)s)", colours=", ".join(present)))
            if not isinstance(value, str) or remaining.get(value, 0) < 1:
                raise ManualEntryError(f"manual.{index}", say(
                    "expected a marble in the bag (%(colours)s), got %(value)s: no such marble is left in the bag",
                    colours=", ".join(present), value=_shown(value)))
            remaining[value] -= 1
            drawn.append(value)
        return drawn

    def finish(self) -> None:
        if self._position < len(self._values):
            raise ManualEntryError(f"manual.{self._position}", say_n(
                "too many values: the rules used %(used)d, %(count)d was given",
                "too many values: the rules used %(used)d, %(count)d were given",
                len(self._values), used=self._position))


def _shown(value: Any) -> str:
    """A manual value as JSON writes it ("red", 7, true), for a message."""
    if isinstance(value, (str, bool, int, float, type(None))):
        return json.dumps(value, ensure_ascii=False)
    return repr(value)


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def make_source(seed: int | None = None, manual: Sequence[Any] | None = None) -> RandomSource:
    """The source a request asked for; a fresh one per request."""
    if manual is not None:
        return ManualSource(manual)
    if seed is not None:
        return GeneratorSource(random.Random(seed), "seeded")
    return SecureSource()


def manual_values(events: Sequence[Mapping[str, Any]]) -> list[Any]:
    """The recorded events flattened into a ``manual`` list that replays them."""
    return [value for event in events for value in event["values"]]


# -- derived randomness ---------------------------------------------------------------------------
#
# The construction (README "Fair play" explains it for users):
#
#   derivation key  = HKDF-SHA256(IKM  = the Ed25519 signing key's 32-byte private seed,
#                                 salt = DERIVATION_SALT, info = DERIVATION_INFO, L = 32)
#   stream key      = HKDF-Expand-SHA256(PRK = derivation key,
#                                        info = STREAM_INFO || RFC 8785 JSON of the label, L = 32)
#   random bytes    = the ChaCha20 keystream under the stream key (nonce and counter 0)
#
# The label names the input: {"domain": "idempotency-key", "operation", "idempotency_key",
# "request"} or {"domain": "ticket", "operation", "ticket"}. RFC 8785 is injective (equal bytes only
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


def derivation_key(keys: KeyRing) -> bytes:
    """The secret every derived stream comes from: HKDF of the signing key's private seed, under
    this module's own salt and info label (so it is never the signing key itself)."""
    return keys.derived_secret(DERIVATION_SALT, DERIVATION_INFO)


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


def ticket_label(operation: str, ticket_id: str) -> dict:
    """What a ticket roll derives from: the ticket id and the operation, not the body, so changing
    the body cannot buy other dice with the same ticket."""
    return {"domain": "ticket", "operation": operation, "ticket": ticket_id}


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


def is_idempotency_key(value: Any) -> bool:
    return isinstance(value, str) and _IDEMPOTENCY_KEY.fullmatch(value) is not None


def check_idempotency_header(value: str | None) -> None:
    if value is not None and not is_idempotency_key(value):
        raise IdempotencyKeyError(IDEMPOTENCY_HEADER, "must be 1 to 255 visible ASCII characters (! to ~)")


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
        source: RandomSource = derived_source(keys, ticket_label(operation, ticket["id"]), "ticket")
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
        raise IdempotencyKeyError(IDEMPOTENCY_HEADER, f"cannot be combined with {reproducible}, "
                                                      "which is reproducible already")
    if member is not None and member != header_key:
        raise IdempotencyKeyError("idempotency_key", "differs from the Idempotency-Key header; give the key once")
    return header_key
