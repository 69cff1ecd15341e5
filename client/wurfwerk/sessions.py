"""``verify_session(cards, reveal, jwks)``: a session's log checked offline, dice recomputed here.

The verdict is the one ``POST /v1/sessions/report`` and the JavaScript client's ``verifySession``
answer (tests/sessions/vectors.json holds the three to it). Nothing is taken from the service but
the JWKS: signatures are checked with ``cryptography``'s Ed25519, the dice recomputed with its HKDF
and ChaCha20 and the rejection sampling of the service's README (needs the ``verify`` extra).

A *card* in a log is either a signed response of a roll in the session (open or hidden: the full
card) or the ``public`` part of a hidden roll (what the table saw). The verdict:

- ``invalid``: ``[{card, reason}]`` by position in the log, one reason per card, the first that
  applies in this order: ``malformed`` (not a card), ``signature`` (its receipt or public part does
  not verify: altered or forged), ``session`` (another session, or a seat or index it does not
  have), ``time`` (issued outside the session), ``dice`` (the events are not the dice the secret
  gives that seat, index and operation), ``commitment`` (a hidden card whose result and events do
  not match the commitment its public part showed), ``link`` (``prev`` is not the link signature
  of a card in the seat's previous slot, or not null at index 0);
- ``after_reveal``: positions of cards issued after ``revealed_at`` (never valid; not in the chain);
- ``duplicates``: ``[{seat, index, cards, repeat}]``: a slot with more than one card; ``repeat``
  true when they are copies of one card, false when they are different rolls (a re-roll);
- ``gaps``: ``[{seat, index}]``: a slot below a seat's highest valid card that no card claims;
- ``unshown``: ``[{seat, index}]``: hidden rolls whose full card is not in the log (the table saw
  the commitment; the dice cannot be checked without the card);
- ``complete``: none of the above.

A card's *link signature*, which the seat's next card names as ``prev``: ``receipt.signature`` of
an open card, ``public.signature`` of a hidden one (the table only ever saw that).
"""

from __future__ import annotations

import base64
import hashlib
import hmac
from collections.abc import Callable, Mapping, Sequence
from datetime import datetime
from typing import Any

from wurfwerk.verify import verify_offline

STREAM_INFO = b"wurfwerk/randomness/stream/v1\x00"
SALT_INFO = b"wurfwerk/session/commitment-salt/v1\x00"
HEADER_MEMBERS = ("id", "seats", "context", "opened_at", "expires_at", "commit", "kid", "signature")
REVEAL_MEMBERS = ("session", "secret", "revealed_at", "kid", "signature")
PUBLIC_MEMBERS = ("operation", "session", "commitment", "issued_at", "kid", "signature")

REASONS = ("malformed", "signature", "session", "time", "dice", "commitment", "link")

SignatureCheck = Callable[[str, bytes, str], bool]  # (kid, payload, signature) -> valid
ReceiptCheck = Callable[[Mapping[str, Any]], bool]  # a signed response -> its receipt verifies


class RevealError(ValueError):
    """The reveal itself cannot be trusted; ``reason``: malformed, signature, session or secret."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


def _b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def _b64url_decode(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


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


# -- the dice, recomputed from the secret alone --------------------------------------------------

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


def roll_stream_key(secret: bytes, operation: str, seat: str, index: int) -> bytes:
    """HKDF-Expand-SHA256 (``cryptography``'s) of the secret under the roll's label."""
    from cryptography.hazmat.primitives import hashes
    from cryptography.hazmat.primitives.kdf.hkdf import HKDFExpand

    label = _canonical({"domain": "session", "operation": operation, "seat": seat, "index": index})
    return HKDFExpand(algorithm=hashes.SHA256(), length=32, info=STREAM_INFO + label).derive(secret)


def recompute_events(secret: bytes, operation: str, seat: str, index: int,
                     events: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]] | None:
    """The events the secret gives this roll, in the shape (kinds, counts, bags) of ``events``;
    None when ``events`` has a shape no roll has."""
    stream = _Stream(roll_stream_key(secret, operation, seat, index))
    recomputed: list[dict[str, Any]] = []
    for event in events:
        if not isinstance(event, Mapping) or not isinstance(event.get("values"), list):
            return None
        kind, count = event.get("kind"), len(event["values"])
        if kind == "dF":
            values: list[Any] = [stream.below(3) - 1 for _ in range(count)]
        elif isinstance(kind, str) and kind.startswith("d") and kind[1:].isdigit() and int(kind[1:]) > 0:
            sides = int(kind[1:])
            values = [stream.below(sides) + 1 for _ in range(count)]
        elif kind == "draw" and isinstance(event.get("bag"), Mapping):
            bag = event["bag"]
            marbles = [colour for colour in sorted(bag) for _ in range(bag[colour])]
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
    salt = _b64url(hmac.digest(secret, SALT_INFO + label + b"\x01", hashlib.sha256))
    return _b64url(hashlib.sha256(_canonical({"events": events, "result": result, "salt": salt})).digest())


# -- the verdict ------------------------------------------------------------------------------------

def check_reveal(reveal: object, signature_ok: SignatureCheck) -> tuple[dict[str, Any], bytes]:
    """The session header and its secret, after checking the reveal's signature, the header's and
    that the secret is the one the header committed to; ``RevealError`` otherwise."""
    if not isinstance(reveal, Mapping) or set(reveal) != set(REVEAL_MEMBERS) \
            or not all(isinstance(reveal[name], str) for name in ("secret", "revealed_at", "kid", "signature")) \
            or _time(reveal["revealed_at"]) is None:
        raise RevealError("malformed")
    header = reveal["session"]
    if not isinstance(header, Mapping) or set(header) != set(HEADER_MEMBERS) \
            or not isinstance(header["kid"], str) or not isinstance(header["signature"], str) \
            or not isinstance(header["seats"], list) or _time(header["opened_at"]) is None \
            or _time(header["expires_at"]) is None:
        raise RevealError("malformed")
    if not signature_ok(reveal["kid"], _canonical(_unsigned(reveal)), reveal["signature"]):
        raise RevealError("signature")
    if not signature_ok(header["kid"], _canonical(_unsigned(header)), header["signature"]):
        raise RevealError("session")
    try:
        secret = _b64url_decode(reveal["secret"])
    except ValueError:
        raise RevealError("secret") from None
    if _b64url(hashlib.sha256(secret).digest()) != header["commit"]:
        raise RevealError("secret")
    return dict(header), secret


def verify_log(cards: Sequence[object], reveal: object, *, signature_ok: SignatureCheck,
               receipt_ok: ReceiptCheck) -> dict[str, Any]:
    """The verdict on ``cards`` (see the module docstring); ``RevealError`` when the reveal fails."""
    header, secret = check_reveal(reveal, signature_ok)
    assert isinstance(reveal, Mapping)
    revealed_at = _time(reveal["revealed_at"])
    opened_at, expires_at = _time(header["opened_at"]), _time(header["expires_at"])
    seats = list(header["seats"])
    invalid: dict[int, str] = {}
    after_reveal: list[int] = []
    entries: list[dict[str, Any]] = []  # the cards that name a slot: position, seat, index, link, prev, form
    for position, card in enumerate(cards):
        entry = _read_card(card)
        if entry is None:
            invalid[position] = "malformed"
            continue
        entry["card"] = position
        use = entry["use"]
        slotted = use.get("seat") in seats and _is_index(use.get("index"))
        if slotted:
            entries.append(entry)
        try:
            reason = _card_reason(entry, header, secret, opened_at, expires_at, slotted, signature_ok, receipt_ok)
        except (TypeError, ValueError):  # no JSON a signature could cover (rfc8785's errors are ValueErrors)
            reason = "malformed"
        if reason is not None:
            invalid[position] = reason
        elif revealed_at is not None and entry["issued_at"] > revealed_at:
            after_reveal.append(position)
    valid = [entry for entry in entries if entry["card"] not in invalid and entry["card"] not in after_reveal]
    slots: dict[tuple[str, int], list[dict[str, Any]]] = {}
    for entry in valid:
        slots.setdefault((entry["use"]["seat"], entry["use"]["index"]), []).append(entry)
    for (seat, index), here in slots.items():  # the links, now that every slot is known
        before = slots.get((seat, index - 1))
        for entry in here:
            prev = entry["use"].get("prev")
            if (index == 0 and prev is not None) or \
                    (index > 0 and before is not None and prev not in {other["link"] for other in before}):
                invalid[entry["card"]] = "link"
    valid = [entry for entry in valid if entry["card"] not in invalid]
    slots = {}
    for entry in valid:
        slots.setdefault((entry["use"]["seat"], entry["use"]["index"]), []).append(entry)
    order = {seat: number for number, seat in enumerate(seats)}
    duplicates, unshown = [], []
    for (seat, index), here in sorted(slots.items(), key=lambda item: (order[item[0][0]], item[0][1])):
        links = {entry["link"] for entry in here}
        forms = [(entry["link"], entry["form"]) for entry in here]
        if len(links) > 1 or len(set(forms)) < len(forms):
            duplicates.append({"seat": seat, "index": index, "cards": sorted(entry["card"] for entry in here),
                               "repeat": len(links) == 1})
        if any(entry["hidden"] for entry in here) and not any(entry["form"] == "full" for entry in here):
            unshown.append({"seat": seat, "index": index})
    claimed = {(entry["use"]["seat"], entry["use"]["index"]) for entry in entries}
    gaps = []
    for seat in seats:
        highest = max((index for (name, index) in slots if name == seat), default=-1)
        gaps += [{"seat": seat, "index": index} for index in range(highest) if (seat, index) not in claimed]
    invalid_list = [{"card": position, "reason": reason} for position, reason in sorted(invalid.items())]
    return {
        "complete": not (gaps or duplicates or invalid_list or after_reveal or unshown),
        "gaps": gaps,
        "duplicates": duplicates,
        "invalid": invalid_list,
        "after_reveal": sorted(after_reveal),
        "unshown": unshown,
    }


def _is_index(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def _read_card(card: object) -> dict[str, Any] | None:
    """A card's form (``full`` or ``public``), its ``session`` member, link signature and time; None
    when it is neither form."""
    if not isinstance(card, Mapping):
        return None
    if "receipt" in card:
        request, receipt = card.get("request"), card.get("receipt")
        randomness = card.get("randomness")
        if not isinstance(request, Mapping) or not isinstance(receipt, Mapping) \
                or not isinstance(request.get("session"), Mapping) or not isinstance(randomness, Mapping) \
                or not isinstance(randomness.get("events"), list) or not isinstance(card.get("operation"), str):
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
    if not isinstance(link, str) or issued_at is None or not isinstance(use, Mapping):
        return None
    return {"form": form, "card_object": card, "use": use, "hidden": hidden, "link": link, "issued_at": issued_at}


def _is_public(part: object) -> bool:
    return isinstance(part, Mapping) and set(part) == set(PUBLIC_MEMBERS) \
        and isinstance(part["session"], Mapping) and isinstance(part["operation"], str) \
        and all(isinstance(part[name], str) for name in ("commitment", "issued_at", "kid", "signature"))


def _card_reason(entry: dict[str, Any], header: Mapping[str, Any], secret: bytes, opened_at: datetime | None,
                 expires_at: datetime | None, slotted: bool, signature_ok: SignatureCheck,
                 receipt_ok: ReceiptCheck) -> str | None:
    card, use = entry["card_object"], entry["use"]
    public = card if entry["form"] == "public" else card.get("public")
    if entry["form"] == "full" and not receipt_ok(card):
        return "signature"
    if entry["hidden"] and not signature_ok(public["kid"], _canonical(_unsigned(public)), public["signature"]):
        return "signature"
    if use.get("header") != header or not slotted:
        return "session"
    if entry["hidden"] and entry["form"] == "full" \
            and (public["session"] != use or public["operation"] != card["operation"]):
        return "session"
    if opened_at is None or expires_at is None or not opened_at <= entry["issued_at"] < expires_at:
        return "time"
    operation = card["operation"]
    if entry["form"] == "full":
        events = card["randomness"]["events"]
        if recompute_events(secret, operation, use["seat"], use["index"], events) != events:
            return "dice"
        if entry["hidden"] and commitment(secret, operation, use["seat"], use["index"], card.get("result"),
                                          events) != public["commitment"]:
            return "commitment"
    return None


# -- against a JWKS -------------------------------------------------------------------------------

def _jwks_signature_check(jwks: Mapping[str, Any]) -> SignatureCheck:
    from cryptography.exceptions import InvalidSignature
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

    keys = {key.get("kid"): key for key in jwks.get("keys", []) if isinstance(key, Mapping)}

    def signature_ok(kid: str, payload: bytes, signature: str) -> bool:
        if kid not in keys:
            return False
        try:
            public_key = Ed25519PublicKey.from_public_bytes(_b64url_decode(keys[kid]["x"]))
            public_key.verify(_b64url_decode(signature), payload)
        except (InvalidSignature, ValueError, TypeError, KeyError):
            return False
        return True

    return signature_ok


def verify_session(cards: Sequence[object], reveal: Mapping[str, Any],
                   jwks: Mapping[str, Any]) -> dict[str, Any]:
    """The verdict ``{complete, gaps, duplicates, invalid, after_reveal, unshown}`` on a session's
    log (signed cards and public parts of hidden ones, any order), from the reveal and the service's
    JWKS (``GET /v1/keys``); ``RevealError`` (reason malformed, signature, session or secret) when
    the reveal itself does not verify. ``reveal`` may be the reveal or ``{"reveal": ...}`` as the
    service answered it."""
    if isinstance(reveal, Mapping) and set(reveal) == {"reveal"}:
        reveal = reveal["reveal"]
    jwks_plain = dict(jwks)
    return verify_log(cards, reveal, signature_ok=_jwks_signature_check(jwks_plain),
                      receipt_ok=lambda card: bool(verify_offline(dict(card), jwks_plain)["valid"]))
