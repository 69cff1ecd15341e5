"""Sessions: an evening's rolls committed before the first one, kept by nobody (issue 41).

A session header is ``{id, seats, context, opened_at, expires_at, commit, kid, signature}``, signed
like a ticket (Ed25519 over the RFC 8785 JSON of the other members). Its *secret* derives from the
service's derivation key and the id, so nothing is stored; ``commit`` is the base64url SHA-256 of
that secret, published before the first roll. A roll in a session names ``{header, seat, index,
prev}``: its dice derive from the secret, the seat, the index and the operation, never from the
body, so a seat's roll number ``index`` has exactly one set of dice per operation. After the
reveal (``POST /v1/sessions/reveal``, the secret signed with ``revealed_at``) anyone recomputes
every card's dice and checks the log (session_log.py, the SDKs).

The construction (README "Sessions"):

    session secret = HKDF-Expand-SHA256(PRK = derivation key, info = SECRET_INFO || UTF-8 id, L = 32)
    commit         = base64url(SHA-256(session secret))
    roll stream    = HKDF-Expand-SHA256(PRK = session secret, info = STREAM_INFO || RFC 8785 JSON of
                     {"domain": "session", "operation", "seat", "index"}, L = 32), then ChaCha20 and
                     the rejection sampling of derived_randomness.py, exactly as for tickets
    commitment     = base64url(SHA-256(RFC 8785 JSON of {"events", "result", "salt"})), where salt =
                     base64url(HKDF-Expand-SHA256(PRK = session secret, info = SALT_INFO || RFC 8785 JSON
                     of {"operation", "seat", "index"}, L = 32)): a hidden roll's commitment cannot be
                     brute-forced over the few possible results before the secret is revealed.

Signatures cannot be confused: a receipt's payload has a ``receipt`` member, a ticket's exactly the
ticket's members, a header's ``commit``, a public part's ``commitment``, a reveal's ``secret``.
"""

from __future__ import annotations

import hashlib
import hmac
import os
from collections.abc import Mapping
from datetime import UTC, datetime, timedelta
from typing import Any

from service.platform.dice.derived_randomness import DerivedSource, KeyStream, derivation_key, stream_key
from service.platform.dice.receipts import KeyRing, b64url, canonical_bytes
from service.platform.values.errors import InputError
from service.platform.words.messages import say

DEFAULT_TTL_S = 14_400
MAX_TTL_S = 604_800
MAX_SEATS = 50
MAX_SEAT_CHARS = 64
MAX_CONTEXT_CHARS = 200
HEADER_MEMBERS = ("id", "seats", "context", "opened_at", "expires_at", "commit", "kid", "signature")
USE_MEMBERS = ("header", "seat", "index", "prev", "hidden")
PUBLIC_MEMBERS = ("operation", "session", "commitment", "issued_at", "kid", "signature")
REVEAL_MEMBERS = ("session", "secret", "revealed_at", "kid", "signature")
SECRET_INFO = b"wurfwerk/session/secret/v1\x00"
SALT_INFO = b"wurfwerk/session/commitment-salt/v1\x00"
_TIME_FORMAT = "%Y-%m-%dT%H:%M:%SZ"


class SessionError(InputError):
    """A session that is forged, altered, expired or from a retired key, or a seat or index it
    does not have."""

    problem_type = "invalid-session"


def _utc_now() -> datetime:
    return datetime.now(UTC)


def timestamp(moment: datetime) -> str:
    """RFC 3339 UTC with milliseconds, as receipts write ``issued_at``."""
    return moment.isoformat(timespec="milliseconds").replace("+00:00", "Z")


def parse_time(text: str) -> datetime:
    return datetime.fromisoformat(text.replace("Z", "+00:00"))


def _signed(keys: KeyRing, unsigned: dict[str, Any]) -> dict[str, Any]:
    return {**unsigned, "signature": keys.signature_of(canonical_bytes(unsigned))}


def _unsigned(document: Mapping[str, Any]) -> dict[str, Any]:
    return {name: value for name, value in document.items() if name != "signature"}


# -- the secret and what derives from it ----------------------------------------------------------

def session_secret(keys: KeyRing, session_id: str) -> bytes:
    """HKDF-Expand of the derivation key under the session's id (one 32-byte block)."""
    return hmac.digest(derivation_key(keys), SECRET_INFO + session_id.encode() + b"\x01", hashlib.sha256)


def commit_of(secret: bytes) -> str:
    return b64url(hashlib.sha256(secret).digest())


def roll_label(operation: str, seat: str, index: int) -> dict[str, Any]:
    return {"domain": "session", "operation": operation, "seat": seat, "index": index}


def commitment_salt(secret: bytes, operation: str, seat: str, index: int) -> str:
    label = canonical_bytes({"operation": operation, "seat": seat, "index": index})
    return b64url(hmac.digest(secret, SALT_INFO + label + b"\x01", hashlib.sha256))


def commitment(secret: bytes, operation: str, seat: str, index: int, result: object, events: object) -> str:
    salt = commitment_salt(secret, operation, seat, index)
    return b64url(hashlib.sha256(canonical_bytes({"events": events, "result": result, "salt": salt})).digest())


class SessionSource(DerivedSource):
    """The dice of one seat's roll: a ticket-like stream under the session secret. A draw's event
    also records the bag it was drawn from (colour -> marbles), so a verifier that does not know the
    rules can still recompute the draw."""

    def __init__(self, secret: bytes, operation: str, use: Mapping[str, Any]) -> None:
        label = roll_label(operation, use["seat"], use["index"])
        super().__init__(KeyStream(stream_key(secret, canonical_bytes(label))), "session")
        self.secret = secret
        self.operation = operation
        self.use = use

    def draw(self, bag: Mapping[str, int], count: int) -> list[str]:
        values = super().draw(bag, count)
        if values:
            self.events[-1]["bag"] = {str(colour): bag[colour] for colour in sorted(bag) if bag[colour] > 0}
        return values

    @property
    def hidden(self) -> bool:
        return bool(self.use.get("hidden"))

    def public_part(self, keys: KeyRing, result: object) -> dict[str, Any]:
        """What the table sees of a hidden roll: the slot and a commitment to the outcome, signed."""
        index, seat = self.use["index"], self.use["seat"]
        return _signed(keys, {
            "operation": self.operation,
            "session": dict(self.use),
            "commitment": commitment(self.secret, self.operation, seat, index, result, self.events),
            "issued_at": timestamp(_utc_now()),
            "kid": keys.kid,
        })


# -- opening, checking, revealing ------------------------------------------------------------------

def open_session(keys: KeyRing, *, seats: list[str], context: str | None = None,
                 ttl_s: int = DEFAULT_TTL_S, now: datetime | None = None) -> dict[str, Any]:
    opened = (now or _utc_now()).replace(microsecond=0)
    session_id = b64url(os.urandom(16))
    return _signed(keys, {
        "id": session_id, "seats": list(seats), "context": context,
        "opened_at": opened.strftime(_TIME_FORMAT),
        "expires_at": (opened + timedelta(seconds=ttl_s)).strftime(_TIME_FORMAT),
        "commit": commit_of(session_secret(keys, session_id)), "kid": keys.kid,
    })


def check_header(keys: KeyRing, header: object, field: str) -> dict[str, Any]:
    """The header, after checking that this service signed it with its current key (not when it
    expires: rolling checks that, revealing needs it)."""
    if not isinstance(header, Mapping) or set(header) != set(HEADER_MEMBERS):
        raise SessionError(field, say("must be a session exactly as POST /v1/sessions opened it "
                                      "(members %(members)s)", members=", ".join(HEADER_MEMBERS)))
    if not isinstance(header["kid"], str) or not isinstance(header["signature"], str) \
            or not keys.signature_matches(header["kid"], canonical_bytes(_unsigned(header)), header["signature"]):
        raise SessionError(f"{field}.signature", say("does not verify with this service's keys: the session "
                                                     "was altered or not opened here"))
    if header["kid"] != keys.kid:
        raise SessionError(f"{field}.kid", say("was opened under a signing key that has since been retired; "
                                               "open a new session"))
    return dict(header)


def session_source(keys: KeyRing, operation: str, use: Mapping[str, Any], *, field: str = "session",
                   now: datetime | None = None) -> SessionSource:
    """The dice of a roll in a session, after checking the header, the seat, the index, ``prev``
    and the expiry; ``SessionError`` naming the member otherwise."""
    header = check_header(keys, use["header"], f"{field}.header")
    if (now or _utc_now()) >= parse_time(header["expires_at"]):
        raise SessionError(f"{field}.header.expires_at", say("the session ended at %(time)s",
                                                             time=header["expires_at"]))
    if use["seat"] not in header["seats"]:
        raise SessionError(f"{field}.seat", say("%(seat)s is not a seat of this session (%(seats)s)",
                                                seat=use["seat"], seats=", ".join(header["seats"])))
    if use["index"] < 0:
        raise SessionError(f"{field}.index", say("must be 0 or more: a seat's rolls are numbered from 0"))
    if use["index"] == 0 and use.get("prev") is not None:
        raise SessionError(f"{field}.prev", say("must be null for a seat's first roll (index 0)"))
    if use["index"] > 0 and not use.get("prev"):
        raise SessionError(f"{field}.prev", say("must be the signature of this seat's previous card"))
    return SessionSource(session_secret(keys, header["id"]), operation, use)


def reveal(keys: KeyRing, header: Mapping[str, Any], *, now: datetime | None = None) -> dict[str, Any]:
    return _signed(keys, {"session": dict(header), "secret": b64url(session_secret(keys, header["id"])),
                          "revealed_at": timestamp(now or _utc_now()), "kid": keys.kid})


def has_ended(header: Mapping[str, Any], now: datetime | None = None) -> bool:
    return (now or _utc_now()) >= parse_time(header["expires_at"])
