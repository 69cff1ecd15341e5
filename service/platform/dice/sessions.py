"""Sessions (version 2): an evening's rolls, fair against the people at the table, kept by nobody.

Who can do what (API.md §1.8; README "What is guaranteed, and what is not" states each line):

- anyone holding cards, public parts or headers learns no die of a slot before the reveal: a slot's
  dice need the seat's *seed*, which only the seat's own client knows;
- the opener cannot learn, choose or grind a player seat's dice: the seat's seed enters them, and
  the seat's commitment to it is in the signed header before any die exists, so the seat cannot
  grind its seed either (it does not know the session's secret when it commits);
- one reveal per session, only after it ended, signed by the key that opened it: the same answer
  whenever and by whomever asked;
- an *open* seat (given without a commitment) gets a seat key the service derives; the opener
  receives it, so its dice are the opener's to know. Tables use it for the game master's own seat.

A session header is ``{version, id, seats, seat_commits, open_seats, context, opened_at, expires_at,
commit, kid, signature}``, signed like a ticket. The construction (README "How the session's dice are
derived"):

    session secret = HKDF-Expand-SHA256(PRK = derivation key of the header's kid,
                                        info = SECRET_INFO || UTF-8 id, L = 32)
    commit         = base64url(SHA-256(session secret))
    seat key       = base64url(HKDF-Expand-SHA256(PRK = session secret, info = SEAT_KEY_INFO || UTF-8 seat))
                     (an open seat's seed; its SHA-256 is in ``seat_commits`` like every other seat's)
    roll stream    = HKDF-Expand-SHA256(PRK = session secret, info = STREAM_INFO || RFC 8785 JSON of
                     {"domain": "session", "operation", "seat", "seed", "index"}, L = 32), then
                     ChaCha20 and the rejection sampling of derived_randomness.py
    commitment     = base64url(SHA-256(RFC 8785 JSON of {"events", "result", "salt"})), salt as in
                     version 1 (from the secret, the operation, the seat and the index)

Signatures cannot be confused: a receipt's payload has a ``receipt`` member, a ticket's exactly the
ticket's members, a header's ``commit``, a public part's ``commitment``, a reveal's ``secret``.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import os
from collections.abc import Mapping, Sequence
from datetime import UTC, datetime, timedelta
from typing import Any

from service.platform.dice.derived_randomness import DerivedSource, KeyStream, derivation_key, stream_key
from service.platform.dice.receipts import KeyRing, b64url, canonical_bytes
from service.platform.values.errors import InputError
from service.platform.words.messages import say

VERSION = 2
DEFAULT_TTL_S = 14_400
MAX_TTL_S = 604_800
MAX_SEATS = 20
MAX_SEAT_CHARS = 64
MAX_CONTEXT_CHARS = 200
SEED_BYTES = (16, 64)
HEADER_MEMBERS = ("version", "id", "seats", "seat_commits", "open_seats", "context", "opened_at",
                  "expires_at", "commit", "kid", "signature")
PUBLIC_MEMBERS = ("operation", "session", "commitment", "issued_at", "kid", "signature")
REVEAL_MEMBERS = ("session", "secret", "revealed_at", "kid", "signature")
SECRET_INFO = b"wurfwerk/session/secret/v2\x00"
SEAT_KEY_INFO = b"wurfwerk/session/seat-key/v2\x00"
SALT_INFO = b"wurfwerk/session/commitment-salt/v1\x00"
_TIME_FORMAT = "%Y-%m-%dT%H:%M:%SZ"


class SessionError(InputError):
    """A session that is forged, altered, expired or from a retired key, or a seat, seed or index
    it does not have."""

    problem_type = "invalid-session"


class SessionOpen(Exception):
    """A reveal asked for before the session ended (409 ``session-open``)."""


def _utc_now() -> datetime:
    return datetime.now(UTC)


def timestamp(moment: datetime) -> str:
    """RFC 3339 UTC with milliseconds, as receipts write ``issued_at``."""
    return moment.isoformat(timespec="milliseconds").replace("+00:00", "Z")


def parse_time(text: str) -> datetime:
    return datetime.fromisoformat(text.replace("Z", "+00:00"))


def _signed(keys: KeyRing, unsigned: dict[str, Any], kid: str | None = None) -> dict[str, Any]:
    return {**unsigned, "signature": keys.signature_of(canonical_bytes(unsigned), kid)}


def _unsigned(document: Mapping[str, Any]) -> dict[str, Any]:
    return {name: value for name, value in document.items() if name != "signature"}


def _expand(key: bytes, info: bytes) -> bytes:
    """HKDF-Expand-SHA256 for one 32-byte block (RFC 5869 §2.3)."""
    return hmac.digest(key, info + b"\x01", hashlib.sha256)


# -- seeds: a seat's own contribution ---------------------------------------------------------------

def canonical_bytes_of(text: object, least: int, most: int) -> bytes | None:
    """The ``least`` to ``most`` bytes ``text`` spells in canonical base64url (no padding, no other
    spelling of the same bytes); None otherwise."""
    if not isinstance(text, str) or not text.isascii() or "=" in text:
        return None
    try:
        data = base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
    except (binascii.Error, ValueError):
        return None
    if b64url(data) != text or not least <= len(data) <= most:
        return None
    return data


def seed_bytes(text: object) -> bytes | None:
    """The bytes of a seed (or seat key): 16 to 64 in canonical base64url; None otherwise."""
    return canonical_bytes_of(text, *SEED_BYTES)


def is_commit(text: object) -> bool:
    """A seat's commitment: a SHA-256 (32 bytes) in canonical base64url."""
    return canonical_bytes_of(text, 32, 32) is not None


def seed_commit(seed: bytes) -> str:
    """What a header holds for a seat: base64url(SHA-256(seed))."""
    return b64url(hashlib.sha256(seed).digest())


def make_seed() -> str:
    """A fresh seed, as a seat's own client makes one (the SDKs and /play do the same)."""
    return b64url(os.urandom(32))


# -- the secret and what derives from it ----------------------------------------------------------

def session_secret(keys: KeyRing, kid: str, session_id: str) -> bytes:
    """HKDF-Expand of the derivation key of ``kid`` (the signing key or a retired one) under the id."""
    return _expand(derivation_key(keys, kid), SECRET_INFO + session_id.encode())


def commit_of(secret: bytes) -> str:
    return b64url(hashlib.sha256(secret).digest())


def seat_key(secret: bytes, seat: str) -> bytes:
    """An open seat's credential: only the service (and, after the reveal, everybody) can derive it."""
    return _expand(secret, SEAT_KEY_INFO + seat.encode())


def roll_label(operation: str, seat: str, seed: str, index: int) -> dict[str, Any]:
    return {"domain": "session", "operation": operation, "seat": seat, "seed": seed, "index": index}


def commitment_salt(secret: bytes, operation: str, seat: str, index: int) -> str:
    label = canonical_bytes({"operation": operation, "seat": seat, "index": index})
    return b64url(_expand(secret, SALT_INFO + label))


def commitment(secret: bytes, operation: str, seat: str, index: int, result: object, events: object) -> str:
    salt = commitment_salt(secret, operation, seat, index)
    return b64url(hashlib.sha256(canonical_bytes({"events": events, "result": result, "salt": salt})).digest())


class SessionSource(DerivedSource):
    """The dice of one seat's roll: a ticket-like stream under the session secret and the seat's
    seed. A draw's event also records the bag it was drawn from (colour -> marbles), so a verifier
    that does not know the rules can still recompute the draw."""

    def __init__(self, secret: bytes, operation: str, use: Mapping[str, Any], seed: str) -> None:
        label = roll_label(operation, use["seat"], seed, use["index"])
        super().__init__(KeyStream(stream_key(secret, canonical_bytes(label))), "session")
        self.secret = secret
        self.operation = operation
        self.use = echoed_use(use)

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


def echoed_use(use: Mapping[str, Any]) -> dict[str, Any]:
    """A roll's ``session`` member as the card shows it: the seed or seat key never, its commitment
    (``seed_commit``) instead."""
    echoed = {name: value for name, value in use.items() if name not in ("seed", "seat_key")}
    echoed["seed_commit"] = use["header"]["seat_commits"][use["seat"]]
    return echoed


# -- opening, checking, revealing ------------------------------------------------------------------

def open_session(keys: KeyRing, *, seats: Sequence[Mapping[str, Any]], context: str | None = None,
                 ttl_s: int = DEFAULT_TTL_S, now: datetime | None = None) -> dict[str, Any]:
    """``{session, seat_keys}``: the signed header, and the credentials of the open seats (the
    seats given without ``commit``), which only the opener receives."""
    opened = (now or _utc_now()).replace(microsecond=0)
    session_id = b64url(os.urandom(16))
    secret = session_secret(keys, keys.kid, session_id)
    open_keys = {seat["name"]: seat_key(secret, seat["name"]) for seat in seats if seat.get("commit") is None}
    commits = {seat["name"]: seed_commit(open_keys[seat["name"]]) if seat.get("commit") is None else seat["commit"]
               for seat in seats}
    header = _signed(keys, {
        "version": VERSION, "id": session_id, "seats": [seat["name"] for seat in seats],
        "seat_commits": commits, "open_seats": list(open_keys), "context": context,
        "opened_at": opened.strftime(_TIME_FORMAT),
        "expires_at": (opened + timedelta(seconds=ttl_s)).strftime(_TIME_FORMAT),
        "commit": commit_of(secret), "kid": keys.kid,
    })
    return {"session": header, "seat_keys": {seat: b64url(key) for seat, key in open_keys.items()}}


def check_header(keys: KeyRing, header: object, field: str) -> dict[str, Any]:
    """The header, after checking that this service signed it (with its current key or a key it
    still verifies with); not when it expires: rolling checks that, revealing needs it."""
    if not isinstance(header, Mapping) or set(header) != set(HEADER_MEMBERS) or header["version"] != VERSION:
        raise SessionError(field, say("must be a session exactly as POST /v1/sessions opened it "
                                      "(members %(members)s)", members=", ".join(HEADER_MEMBERS)))
    if not isinstance(header["kid"], str) or not isinstance(header["signature"], str) \
            or not keys.signature_matches(header["kid"], canonical_bytes(_unsigned(header)), header["signature"]):
        raise SessionError(f"{field}.signature", say("does not verify with this service's keys: the session "
                                                     "was altered or not opened here"))
    return dict(header)


def session_source(keys: KeyRing, operation: str, use: Mapping[str, Any], *, max_index: int,
                   field: str = "session", now: datetime | None = None) -> SessionSource:
    """The dice of a roll in a session, after checking the header, the seat, its seed or key, the
    index, ``prev`` and the expiry; ``SessionError`` naming the member otherwise."""
    header = check_header(keys, use["header"], f"{field}.header")
    if header["kid"] != keys.kid:
        raise SessionError(f"{field}.header.kid", say("was opened under a signing key that has since been "
                                                      "retired; open a new session"))
    if (now or _utc_now()) >= parse_time(header["expires_at"]):
        raise SessionError(f"{field}.header.expires_at", say("the session ended at %(time)s",
                                                             time=header["expires_at"]))
    seat = use["seat"]
    if seat not in header["seats"]:
        raise SessionError(f"{field}.seat", say("%(seat)s is not a seat of this session (%(seats)s)",
                                                seat=seat, seats=", ".join(header["seats"])))
    seed = _proven_seed(header, use, field)
    if not 0 <= use["index"] <= max_index:
        raise SessionError(f"{field}.index", say("must be from 0 to %(max)s: a seat's rolls are numbered from 0 "
                                                 "(WURFWERK_MAX_SESSION_INDEX)", max=max_index))
    if use["index"] == 0 and use.get("prev") is not None:
        raise SessionError(f"{field}.prev", say("must be null for a seat's first roll (index 0)"))
    if use["index"] > 0 and not use.get("prev"):
        raise SessionError(f"{field}.prev", say("must be the signature of this seat's previous card"))
    return SessionSource(session_secret(keys, header["kid"], header["id"]), operation, use, seed)


def _proven_seed(header: Mapping[str, Any], use: Mapping[str, Any], field: str) -> str:
    """The seat's seed (or an open seat's key), after checking it against the header's commitment."""
    seat = use["seat"]
    member = "seat_key" if seat in header["open_seats"] else "seed"
    other = "seed" if member == "seat_key" else "seat_key"
    if use.get(other) is not None:
        raise SessionError(f"{field}.{other}", say("%(seat)s is an open seat: its rolls carry the seat_key the "
                                                   "opener received, not a seed", seat=seat)
                           if member == "seat_key" else
                           say("%(seat)s committed to its own seed: its rolls carry that seed, not a seat_key",
                               seat=seat))
    given = use.get(member)
    data = seed_bytes(given)
    if data is None or not hmac.compare_digest(seed_commit(data), header["seat_commits"][seat]):
        raise SessionError(f"{field}.{member}", say("is not the %(what)s of %(seat)s in this session",
                                                    what=member, seat=seat))
    assert isinstance(given, str)
    return given


def has_ended(header: Mapping[str, Any], now: datetime | None = None) -> bool:
    return (now or _utc_now()) >= parse_time(header["expires_at"])


def reveal(keys: KeyRing, header: Mapping[str, Any], *, now: datetime | None = None) -> dict[str, Any]:
    """The session's secret, signed by the key that opened it, dated at the session's end: only
    after the end, and the same document every time (Ed25519 signatures are deterministic)."""
    if not has_ended(header, now):
        raise SessionOpen(say("The session is open until %(time)s; it can be revealed only after it ends.",
                              time=header["expires_at"]))
    kid = header["kid"]
    if not keys.holds_private_key(kid):
        raise SessionError("session.kid", say("was opened under a signing key whose private key this service no "
                                              "longer holds; its operator keeps retired keys in "
                                              "WURFWERK_RETIRED_SIGNING_KEYS (README \"Key rotation\")"))
    secret = session_secret(keys, kid, header["id"])
    return _signed(keys, {"session": dict(header), "secret": b64url(secret),
                          "revealed_at": header["expires_at"], "kid": kid}, kid)
