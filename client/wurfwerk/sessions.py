"""``verify_session(cards, reveal, jwks, seeds=...)``: a session's log checked offline, dice recomputed here.

The verdict is the one ``POST /v1/sessions/report`` and the JavaScript client's ``verifySession``
answer (tests/platform/dice/vectors.json, with its hostile corpus, holds the three to it). Nothing is
taken from the service but the JWKS: signatures are checked with ``cryptography``'s Ed25519, the dice
recomputed with HMAC-SHA256 (HKDF-Expand) and ``cryptography``'s ChaCha20 and the rejection sampling
of the service's README (needs the ``verify`` extra). ``make_seed()`` makes a seat's seed and
``seed_commit(seed)`` the commitment the game master puts in the session when opening it: keep the
seed to yourself until the session has ended, then hand it to whoever checks the log.

A *card* in a log is either a signed response of a roll in the session (open or hidden: the full
card) or the ``public`` part of a hidden roll (what the table saw). Cards are read as JSON values,
as a JavaScript verifier sees them: a number written ``1.0`` is the number 1 (RFC 8785 signs both
alike). The verdict:

- ``invalid``: ``[{card, reason}]`` by position in the log, one reason per card, the first that
  applies in this order: ``malformed`` (not a card: nested more than 32 levels, a signature or
  ``prev`` not in canonical base64url, an index above the session limit, a bag no draw has),
  ``signature`` (its receipt or public part does not verify: altered or forged), ``session``
  (another session, or a seat or index it does not have), ``time`` (issued outside the session),
  ``dice`` (the events are not the dice the secret and the seat's seed give that slot),
  ``commitment`` (a hidden card whose result and events do not match the commitment its public part
  showed), ``link`` (``prev`` is not the link signature of a card in the seat's previous slot, or
  not null at index 0);
- ``after_reveal``: positions of cards issued after ``revealed_at`` (never valid; not in the chain);
- ``duplicates``: ``[{seat, index, cards, repeat}]``: a slot with more than one card; ``repeat``
  true when they are copies of one card, false when they are different rolls (a re-roll);
- ``gaps``: ``[{seat, from, to}]``: runs of slots below a seat's highest valid card that no card
  claims;
- ``unshown``: ``[{seat, index}]``: hidden rolls whose full card is not in the log;
- ``unverified``: seats with valid full cards whose dice could not be recomputed, because the
  seat's seed was not given (or does not match its commitment); open seats need none;
- ``complete``: none of the above.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import os
import re
from collections.abc import Callable, Mapping, Sequence
from datetime import datetime
from typing import Any

from wurfwerk.verify import verify_offline

STREAM_INFO = b"wurfwerk/randomness/stream/v1\x00"
SALT_INFO = b"wurfwerk/session/commitment-salt/v1\x00"
SEAT_KEY_INFO = b"wurfwerk/session/seat-key/v2\x00"
HEADER_MEMBERS = ("version", "id", "seats", "seat_commits", "open_seats", "context", "opened_at",
                  "expires_at", "commit", "kid", "signature")
REVEAL_MEMBERS = ("session", "secret", "revealed_at", "kid", "signature")
PUBLIC_MEMBERS = ("operation", "session", "commitment", "issued_at", "kid", "signature")

REASONS = ("malformed", "signature", "session", "time", "dice", "commitment", "link")
MAX_DEPTH = 32
MAX_INDEX = 10_000
MAX_BAG_MARBLES = 1000
SEED_BYTES = (16, 64)
_SAFE_INTEGER = 2**53 - 1
_DIE_KIND = re.compile("d[0-9]{1,4}")

SignatureCheck = Callable[[str, bytes, str], bool]  # (kid, payload, signature) -> valid
ReceiptCheck = Callable[[Mapping[str, Any]], bool]  # a signed response -> its receipt verifies


class RevealError(ValueError):
    """The reveal itself cannot be trusted; ``reason``: malformed, signature, session or secret."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class _Malformed(ValueError):
    """A value no signed document of the service has."""


def _b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def _canonical_bytes(text: object, sizes: tuple[int, int]) -> bytes | None:
    """The bytes ``text`` spells in canonical base64url (the one spelling the service writes), when
    there are ``sizes[0]`` to ``sizes[1]`` of them; None otherwise."""
    if not isinstance(text, str) or not text.isascii() or "=" in text or "+" in text or "/" in text:
        return None
    try:
        data = base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
    except (binascii.Error, ValueError):
        return None
    if _b64url(data) != text or not sizes[0] <= len(data) <= sizes[1]:
        return None
    return data


def _is_signature(text: object) -> bool:
    return _canonical_bytes(text, (64, 64)) is not None


def _canonical(value: Any) -> bytes:  # noqa: ANN401  # any JSON value
    import rfc8785

    return rfc8785.dumps(value)


def _unsigned(document: Mapping[str, Any]) -> dict[str, Any]:
    return {name: value for name, value in document.items() if name != "signature"}


def _time(text: object) -> datetime | None:
    if not isinstance(text, str):
        return None
    try:
        return datetime.fromisoformat(text.replace("Z", "+00:00"))
    except ValueError:
        return None


def json_value(value: object, depth: int = 0) -> Any:  # noqa: ANN401  # any JSON value
    """``value`` as a JavaScript verifier reads it: an integral number is an integer (``1.0`` is
    1); ``_Malformed`` when it nests deeper than ``MAX_DEPTH``."""
    if isinstance(value, (dict, list)) and depth >= MAX_DEPTH:
        raise _Malformed("nested too deeply")
    if isinstance(value, dict):
        return {key: json_value(item, depth + 1) for key, item in value.items()}
    if isinstance(value, list):
        return [json_value(item, depth + 1) for item in value]
    if isinstance(value, float) and value.is_integer() and abs(value) <= _SAFE_INTEGER:
        return int(value)
    return value


# -- the dice, recomputed from the secret and the seed ---------------------------------------------

class _Stream:
    """The ChaCha20 keystream (zero nonce, counter 0) under ``key``, read as uniform integers by
    rejection sampling (README "How the dice are derived")."""

    def __init__(self, key: bytes) -> None:
        from cryptography.hazmat.primitives.ciphers import Cipher, algorithms

        self._cipher = Cipher(algorithms.ChaCha20(key, bytes(16)), mode=None).encryptor()
        self._buffer = b""

    def _read(self, count: int) -> bytes:
        while len(self._buffer) < count:
            self._buffer += self._cipher.update(bytes(64))
        chunk, self._buffer = self._buffer[:count], self._buffer[count:]
        return chunk

    def below(self, bound: int) -> int:
        width = max(1, ((bound - 1).bit_length() + 7) // 8)
        span = 256 ** width
        while True:
            value = int.from_bytes(self._read(width), "big")
            if value < span - span % bound:
                return value % bound


def _expand(key: bytes, info: bytes) -> bytes:
    """HKDF-Expand-SHA256 for one 32-byte block (RFC 5869 §2.3)."""
    return hmac.digest(key, info + b"\x01", hashlib.sha256)


def seat_key(secret: bytes, seat: str) -> str:
    return _b64url(_expand(secret, SEAT_KEY_INFO + seat.encode()))


def roll_stream_key(secret: bytes, operation: str, seat: str, seed: str, index: int) -> bytes:
    label = _canonical({"domain": "session", "operation": operation, "seat": seat, "seed": seed, "index": index})
    return _expand(secret, STREAM_INFO + label)


def _draw_bag(bag: Mapping[str, Any]) -> list[str]:
    """The marbles of a draw's recorded bag, sorted; ``_Malformed`` for a bag no draw has."""
    counts = list(bag.values())
    if not all(isinstance(count, int) and not isinstance(count, bool) and count >= 0 for count in counts) \
            or sum(counts) > MAX_BAG_MARBLES:
        raise _Malformed("a bag no draw has")
    return [colour for colour in sorted(bag) for _ in range(bag[colour])]


def recompute_events(secret: bytes, operation: str, seat: str, seed: str, index: int,
                     events: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]] | None:
    """The events the secret and seed give this roll, in the shape (kinds, counts, bags) of
    ``events``; None when ``events`` has a shape no roll has."""
    stream = _Stream(roll_stream_key(secret, operation, seat, seed, index))
    recomputed: list[dict[str, Any]] = []
    for event in events:
        if not isinstance(event, Mapping) or not isinstance(event.get("values"), list):
            return None
        kind, count = event.get("kind"), len(event["values"])
        if kind == "dF":
            values: list[Any] = [stream.below(3) - 1 for _ in range(count)]
        elif isinstance(kind, str) and _DIE_KIND.fullmatch(kind) and 0 < int(kind[1:]) <= 1000:
            sides = int(kind[1:])
            values = [stream.below(sides) + 1 for _ in range(count)]
        elif kind == "draw" and isinstance(event.get("bag"), Mapping):
            marbles = _draw_bag(event["bag"])
            if count > len(marbles):
                return None
            for position in range(count):
                chosen = position + stream.below(len(marbles) - position)
                marbles[position], marbles[chosen] = marbles[chosen], marbles[position]
            values = marbles[:count]
        else:
            return None
        recomputed.append({**event, "values": values})
    return recomputed


def commitment(secret: bytes, operation: str, seat: str, index: int, result: object, events: object) -> str:
    label = _canonical({"operation": operation, "seat": seat, "index": index})
    salt = _b64url(_expand(secret, SALT_INFO + label))
    return _b64url(hashlib.sha256(_canonical({"events": events, "result": result, "salt": salt})).digest())


# -- the verdict ------------------------------------------------------------------------------------

def check_reveal(reveal: object, signature_ok: SignatureCheck) -> tuple[dict[str, Any], bytes]:
    """The session header and its secret, after checking the reveal's signature, the header's and
    that the secret is the one the header committed to; ``RevealError`` otherwise."""
    try:
        reveal = json_value(reveal)
    except _Malformed:
        raise RevealError("malformed") from None
    if not isinstance(reveal, Mapping) or set(reveal) != set(REVEAL_MEMBERS) \
            or not all(isinstance(reveal[name], str) for name in ("secret", "revealed_at", "kid")) \
            or not _is_signature(reveal["signature"]):
        raise RevealError("malformed")
    header = reveal["session"]
    if not isinstance(header, Mapping) or set(header) != set(HEADER_MEMBERS) or header["version"] != 2 \
            or not isinstance(header["kid"], str) or not _is_signature(header["signature"]) \
            or not isinstance(header["seats"], list) or not isinstance(header["seat_commits"], Mapping) \
            or not isinstance(header["open_seats"], list) or _time(header["opened_at"]) is None \
            or _time(header["expires_at"]) is None or reveal["revealed_at"] != header["expires_at"]:
        raise RevealError("malformed")
    if not signature_ok(reveal["kid"], _canonical(_unsigned(reveal)), reveal["signature"]):
        raise RevealError("signature")
    if not signature_ok(header["kid"], _canonical(_unsigned(header)), header["signature"]):
        raise RevealError("session")
    secret = _canonical_bytes(reveal["secret"], (32, 32))
    if secret is None or _b64url(hashlib.sha256(secret).digest()) != header["commit"]:
        raise RevealError("secret")
    return dict(header), secret


def proven_seeds(header: Mapping[str, Any], secret: bytes, seeds: Mapping[str, object]) -> dict[str, str]:
    """The seed of every seat whose dice can be recomputed: an open seat's from the secret, any
    other's as given, when its SHA-256 is the seat's commitment."""
    proven = {}
    for seat in header["seats"]:
        seed = seat_key(secret, seat) if seat in header["open_seats"] else seeds.get(seat)
        data = _canonical_bytes(seed, SEED_BYTES)
        if data is not None and _b64url(hashlib.sha256(data).digest()) == header["seat_commits"].get(seat):
            assert isinstance(seed, str)
            proven[seat] = seed
    return proven


def verify_log(cards: Sequence[object], reveal: object, *, seeds: Mapping[str, object] | None = None,
               signature_ok: SignatureCheck, receipt_ok: ReceiptCheck, max_index: int = MAX_INDEX) -> dict[str, Any]:
    """The verdict on ``cards`` (see the module docstring); ``RevealError`` when the reveal fails."""
    header, secret = check_reveal(reveal, signature_ok)
    revealed_at = _time(header["expires_at"])
    known_seeds = proven_seeds(header, secret, seeds if isinstance(seeds, Mapping) else {})
    context = _LogContext(header, secret, known_seeds, signature_ok, receipt_ok)
    invalid: dict[int, str] = {}
    after_reveal: list[int] = []
    entries: list[dict[str, Any]] = []  # the cards that name a slot
    for position, card in enumerate(cards):
        try:
            entry = _read_card(json_value(card), max_index)
        except _Malformed:
            entry = None
        if entry is None:
            invalid[position] = "malformed"
            continue
        entry["card"] = position
        use = entry["use"]
        entry["slotted"] = use.get("seat") in header["seats"] and _is_index(use.get("index"))
        if entry["slotted"]:
            entries.append(entry)
        try:
            reason = context.card_reason(entry)
        except (_Malformed, TypeError, ValueError):  # rfc8785's errors are ValueErrors
            reason = "malformed"  # no JSON a signature could cover, or a bag no draw has
        if reason is not None:
            invalid[position] = reason
        elif revealed_at is not None and entry["issued_at"] > revealed_at:
            after_reveal.append(position)
    valid = [entry for entry in entries if entry["card"] not in invalid and entry["card"] not in after_reveal]
    for entry in _broken_links(valid):
        invalid[entry["card"]] = "link"
    valid = [entry for entry in valid if entry["card"] not in invalid]
    duplicates, unshown = _slot_findings(valid, header["seats"])
    invalid_list = [{"card": position, "reason": reason} for position, reason in sorted(invalid.items())]
    unverified = [seat for seat in header["seats"] if seat not in known_seeds
                  and any(entry["use"]["seat"] == seat and entry["form"] == "full" for entry in valid)]
    gaps = _gaps(entries, valid, header["seats"])
    return {
        "complete": not (gaps or duplicates or invalid_list or after_reveal or unshown or unverified),
        "gaps": gaps,
        "duplicates": duplicates,
        "invalid": invalid_list,
        "after_reveal": sorted(after_reveal),
        "unshown": unshown,
        "unverified": unverified,
    }


def _by_slot(entries: Sequence[dict[str, Any]]) -> dict[tuple[str, int], list[dict[str, Any]]]:
    slots: dict[tuple[str, int], list[dict[str, Any]]] = {}
    for entry in entries:
        slots.setdefault((entry["use"]["seat"], entry["use"]["index"]), []).append(entry)
    return slots


def _broken_links(valid: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """The cards whose ``prev`` names no card of the seat's previous slot (when that slot is in the
    log), or is not null at index 0."""
    slots = _by_slot(valid)
    broken = []
    for (seat, index), here in slots.items():
        before = slots.get((seat, index - 1))
        links = {other["link"] for other in before or ()}
        for entry in here:
            prev = entry["use"].get("prev")
            if (index == 0 and prev is not None) or (index > 0 and before is not None and prev not in links):
                broken.append(entry)
    return broken


def _slot_findings(valid: Sequence[dict[str, Any]],
                   seats: Sequence[str]) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The duplicates and the unshown hidden rolls, in seat order, then by index."""
    order = {seat: number for number, seat in enumerate(seats)}
    duplicates, unshown = [], []
    for (seat, index), here in sorted(_by_slot(valid).items(), key=lambda item: (order[item[0][0]], item[0][1])):
        links = {entry["link"] for entry in here}
        forms = [(entry["link"], entry["form"]) for entry in here]
        if len(links) > 1 or len(set(forms)) < len(forms):
            duplicates.append({"seat": seat, "index": index, "cards": sorted(entry["card"] for entry in here),
                               "repeat": len(links) == 1})
        if any(entry["hidden"] for entry in here) and not any(entry["form"] == "full" for entry in here):
            unshown.append({"seat": seat, "index": index})
    return duplicates, unshown


def _gaps(entries: Sequence[dict[str, Any]], valid: Sequence[dict[str, Any]],
          seats: Sequence[str]) -> list[dict[str, Any]]:
    """Per seat, the runs of indices below its highest valid card that no card claims."""
    gaps = []
    for seat in seats:
        highest = max((entry["use"]["index"] for entry in valid if entry["use"]["seat"] == seat), default=-1)
        claimed = sorted({entry["use"]["index"] for entry in entries
                          if entry["use"]["seat"] == seat and entry["use"]["index"] < highest})
        expected = 0
        for index in [*claimed, highest]:
            if index > expected:
                gaps.append({"seat": seat, "from": expected, "to": index - 1})
            expected = index + 1
    return gaps


def _is_index(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def _read_card(card: object, max_index: int) -> dict[str, Any] | None:
    """A card's form (``full`` or ``public``), its ``session`` member, link signature and time; None
    when it is neither form or spells a signature, ``prev`` or an index as no card does."""
    if not isinstance(card, Mapping):
        return None
    if "receipt" in card:
        request, receipt = card.get("request"), card.get("receipt")
        randomness = card.get("randomness")
        if not isinstance(request, Mapping) or not isinstance(receipt, Mapping) \
                or not isinstance(request.get("session"), Mapping) or not isinstance(randomness, Mapping) \
                or not isinstance(randomness.get("events"), list) or not isinstance(card.get("operation"), str) \
                or not _is_signature(receipt.get("signature")):
            return None
        use = request["session"]
        hidden = use.get("hidden") is True
        public = card.get("public")
        if hidden and not (isinstance(public, Mapping) and _is_public(public)):
            return None
        link = public["signature"] if hidden and isinstance(public, Mapping) else receipt.get("signature")
        issued_at = _time(public["issued_at"] if hidden and isinstance(public, Mapping) else receipt.get("issued_at"))
        form = "full"
    elif _is_public(card):
        use, hidden, link, form = card["session"], True, card["signature"], "public"
        issued_at = _time(card["issued_at"])
    else:
        return None
    prev = use.get("prev")
    if issued_at is None or (prev is not None and not _is_signature(prev)) \
            or (_is_index(use.get("index")) and use["index"] > max_index):
        return None
    return {"form": form, "card_object": card, "use": use, "hidden": hidden, "link": link, "issued_at": issued_at}


def _is_public(part: object) -> bool:
    return isinstance(part, Mapping) and set(part) == set(PUBLIC_MEMBERS) \
        and isinstance(part["session"], Mapping) and isinstance(part["operation"], str) \
        and all(isinstance(part[name], str) for name in ("commitment", "issued_at", "kid")) \
        and _is_signature(part["signature"])


class _LogContext:
    """What every card of one log is checked against."""

    def __init__(self, header: Mapping[str, Any], secret: bytes, seeds: Mapping[str, str],
                 signature_ok: SignatureCheck, receipt_ok: ReceiptCheck) -> None:
        self.header, self.secret, self.seeds = header, secret, seeds
        self.signature_ok, self.receipt_ok = signature_ok, receipt_ok
        self.opened_at, self.expires_at = _time(header["opened_at"]), _time(header["expires_at"])

    def card_reason(self, entry: dict[str, Any]) -> str | None:
        """The first reason (REASONS' order, after ``malformed``) that ``entry``'s card is invalid."""
        card, use = entry["card_object"], entry["use"]
        public = card if entry["form"] == "public" else card.get("public")
        if entry["form"] == "full" and not self.receipt_ok(card):
            return "signature"
        if entry["hidden"] and not self.signature_ok(public["kid"], _canonical(_unsigned(public)),
                                                     public["signature"]):
            return "signature"
        if use.get("header") != self.header or not entry["slotted"] \
                or use.get("seed_commit") != self.header["seat_commits"].get(use["seat"]):
            return "session"
        if entry["hidden"] and entry["form"] == "full" \
                and (public["session"] != use or public["operation"] != card["operation"]):
            return "session"
        if self.opened_at is None or self.expires_at is None \
                or not self.opened_at <= entry["issued_at"] < self.expires_at:
            return "time"
        if entry["form"] == "full":
            return self._full_card_reason(card, use, public if entry["hidden"] else None)
        return None

    def _full_card_reason(self, card: Mapping[str, Any], use: Mapping[str, Any],
                          public: Mapping[str, Any] | None) -> str | None:
        operation, events = card["operation"], card["randomness"]["events"]
        seed = self.seeds.get(use["seat"])
        if seed is not None and \
                recompute_events(self.secret, operation, use["seat"], seed, use["index"], events) != events:
            return "dice"
        if public is not None and commitment(self.secret, operation, use["seat"], use["index"], card.get("result"),
                                             events) != public["commitment"]:
            return "commitment"
        return None


# -- seeds and the JWKS ------------------------------------------------------------------------------

def make_seed() -> str:
    """A new seat seed: 32 random bytes in base64url. Keep it; send only ``seed_commit(seed)`` to the
    game master, and the seed itself in every roll of your seat (the service never echoes it)."""
    return _b64url(os.urandom(32))


def seed_commit(seed: str) -> str:
    """What the session header holds for a seat: base64url(SHA-256(seed bytes))."""
    data = _canonical_bytes(seed, SEED_BYTES)
    if data is None:
        raise ValueError("a seed is 16 to 64 bytes in canonical base64url (make_seed() makes one)")
    return _b64url(hashlib.sha256(data).digest())


def _jwks_signature_check(jwks: Mapping[str, Any]) -> SignatureCheck:
    from cryptography.exceptions import InvalidSignature
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

    keys = {key.get("kid"): key for key in jwks.get("keys", []) if isinstance(key, Mapping)}

    def signature_ok(kid: str, payload: bytes, signature: str) -> bool:
        signature_bytes = _canonical_bytes(signature, (64, 64))
        if kid not in keys or signature_bytes is None:
            return False
        try:
            public_key = Ed25519PublicKey.from_public_bytes(
                base64.urlsafe_b64decode(keys[kid]["x"] + "=" * (-len(keys[kid]["x"]) % 4)))
            public_key.verify(signature_bytes, payload)
        except (InvalidSignature, ValueError, TypeError, KeyError):
            return False
        return True

    return signature_ok


def verify_session(cards: Sequence[object], reveal: Mapping[str, Any], jwks: Mapping[str, Any], *,
                   seeds: Mapping[str, str] | None = None, max_index: int = MAX_INDEX) -> dict[str, Any]:
    """The verdict ``{complete, gaps, duplicates, invalid, after_reveal, unshown, unverified}`` on a
    session's log (signed cards and public parts of hidden ones, any order), from the reveal, the
    seats' ``seeds`` (``{seat: seed}``; a seat without one is ``unverified``) and the service's JWKS
    (``GET /v1/keys``); ``RevealError`` (reason malformed, signature, session or secret) when the
    reveal itself does not verify. ``reveal`` may be the reveal or ``{"reveal": ...}`` as the
    service answered it."""
    if isinstance(reveal, Mapping) and set(reveal) == {"reveal"}:
        reveal = reveal["reveal"]
    jwks_plain = dict(jwks)
    return verify_log(cards, reveal, seeds=seeds or {}, signature_ok=_jwks_signature_check(jwks_plain),
                      receipt_ok=lambda card: bool(verify_offline(dict(card), jwks_plain)["valid"]),
                      max_index=max_index)
