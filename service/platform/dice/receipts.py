"""Ed25519 receipts over RFC 8785 (JCS) canonical JSON, and the JWKS that publishes the keys.

The signature covers the whole response with the single member ``receipt.signature`` removed, so a
changed value anywhere (result, request echo, events, summary, receipt id or time) fails to verify.
The ``kid`` is the RFC 7638 thumbprint of the public key: every replica with the same key publishes
the same ``kid`` without any coordination.
"""

from __future__ import annotations

import base64
import hashlib
import re
import uuid
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, TypeAlias

import orjson
import rfc8785
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey
from cryptography.hazmat.primitives.kdf.hkdf import HKDF
from nacl.bindings import crypto_sign, crypto_sign_seed_keypair

from service.platform.values.plain_data import plain
from service.platform.values.results import result_members

ALGORITHM = "Ed25519"
_SAFE_INTEGER = 2**53 - 1
JSONValue: TypeAlias = None | bool | int | float | str | Sequence["JSONValue"] | Mapping[str, "JSONValue"]


class KeyConfigError(ValueError):
    """A configured key is not a usable Ed25519 key."""


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def b64url_decode(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def _as_ijson_numbers(value: JSONValue) -> JSONValue:
    """JCS numbers are IEEE doubles: integers beyond 2^53 are canonicalized as the double they become
    (a JavaScript verifier parses them that way too)."""
    if isinstance(value, dict):
        return {key: _as_ijson_numbers(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_as_ijson_numbers(item) for item in value]
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) > _SAFE_INTEGER:
        return float(value)
    return value


# orjson with sorted keys writes exactly the RFC 8785 form (the same string escapes, no whitespace)
# for documents without floats, without integers beyond 2^53 and without keys outside the Basic
# Multilingual Plane (JCS sorts keys by UTF-16 code units, orjson by code points). Receipts are
# signed on every request, so that common case takes the fast path; anything else goes through the
# reference implementation. tests/platform/dice/test_canonical.py holds the two to the same bytes.
# The checks run on orjson's bytes (figures: bench/history/2026-12-01-to-03.md, "Signatures"): OPT_STRICT_INTEGER
# refuses integers beyond 2^53; a float is a number token with a `.` or an exponent right after
# `":`, `,` or `[` (a match inside a string only costs the slow path); a character outside the BMP
# is a four-byte UTF-8 sequence, found by deleting their lead bytes.
_FLOAT_AFTER_KEY = re.compile(rb'":-?\d+[.eE]')
_FLOAT_AFTER_COMMA = re.compile(rb",-?\d+[.eE]")
_FLOAT_FIRST_IN_ARRAY = re.compile(rb"\[-?\d+[.eE]")
_FOUR_BYTE_UTF8_LEADS = b"\xf0\xf1\xf2\xf3\xf4"


# A document may hold the rules' results as they are (dataclasses, enums, tuples; operations.answer).
# orjson writes a dataclass's fields in declaration order even with OPT_SORT_KEYS, so dataclasses are
# handed to ``result_members`` instead, whose dict orjson then sorts like any other; the response is
# written from the same members (http_json.dumps).
_CANONICAL_OPTIONS = (orjson.OPT_SORT_KEYS | orjson.OPT_STRICT_INTEGER | orjson.OPT_NON_STR_KEYS
                      | orjson.OPT_PASSTHROUGH_DATACLASS)


def canonical_bytes(document: Mapping[str, Any]) -> bytes:
    try:
        fast = orjson.dumps(document, default=result_members, option=_CANONICAL_OPTIONS)
        if _is_plain_json(fast):
            return fast
    except (orjson.JSONEncodeError, TypeError):
        pass  # what orjson cannot write canonically goes to the reference implementation, as floats do
    return rfc8785.dumps(_as_ijson_numbers(plain(document)))


def _is_plain_json(serialized: bytes) -> bool:
    """No float and no character outside the BMP in ``serialized`` (orjson's compact output)."""
    if not serialized.isascii() and len(serialized.translate(None, _FOUR_BYTE_UTF8_LEADS)) != len(serialized):
        return False
    return not (_FLOAT_AFTER_KEY.search(serialized) or _FLOAT_AFTER_COMMA.search(serialized)
                or _FLOAT_FIRST_IN_ARRAY.search(serialized))


def signing_payload(document: Mapping[str, Any]) -> bytes:
    """The bytes that are signed: the document without ``receipt.signature``, canonicalized."""
    unsigned = dict(document)
    receipt = dict(unsigned["receipt"])
    receipt.pop("signature", None)
    unsigned["receipt"] = receipt
    return canonical_bytes(unsigned)


def raw_public_bytes(public_key: Ed25519PublicKey) -> bytes:
    return public_key.public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)


def key_id(public_key: Ed25519PublicKey) -> str:
    """RFC 7638 JWK thumbprint (SHA-256) of the public key."""
    members = {"crv": "Ed25519", "kty": "OKP", "x": b64url(raw_public_bytes(public_key))}
    return b64url(hashlib.sha256(canonical_bytes(members)).digest())


def load_private_key(pem: str) -> Ed25519PrivateKey:
    try:
        key = serialization.load_pem_private_key(pem.encode("utf-8"), password=None)
    except (ValueError, TypeError) as error:
        raise KeyConfigError(f"signing key is not a PEM private key: {error}") from error
    if not isinstance(key, Ed25519PrivateKey):
        raise KeyConfigError("signing key is not an Ed25519 key")
    return key


def load_public_keys(pem_text: str) -> list[Ed25519PublicKey]:
    """Every PEM public key block in ``pem_text`` (several may be concatenated)."""
    keys = []
    marker = "-----END PUBLIC KEY-----"
    for block in pem_text.split(marker):
        if "-----BEGIN PUBLIC KEY-----" not in block:
            continue
        try:
            key = serialization.load_pem_public_key((block.strip() + "\n" + marker + "\n").encode())
        except ValueError as error:
            raise KeyConfigError(f"verify key is not a PEM public key: {error}") from error
        if not isinstance(key, Ed25519PublicKey):
            raise KeyConfigError("verify key is not an Ed25519 key")
        keys.append(key)
    return keys


def load_private_keys(pem_text: str) -> list[Ed25519PrivateKey]:
    """Every Ed25519 private key of a PEM bundle (retired keys); none for an empty text."""
    blocks = re.findall(r"-----BEGIN PRIVATE KEY-----.*?-----END PRIVATE KEY-----", pem_text, re.DOTALL)
    if pem_text.strip() and not blocks:
        raise KeyConfigError("no PEM private key found")
    return [load_private_key(block) for block in blocks]


def private_key_pem(key: Ed25519PrivateKey) -> str:
    return key.private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
    ).decode("ascii")


def public_key_pem(key: Ed25519PublicKey) -> str:
    return key.public_bytes(
        serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo
    ).decode("ascii")


@dataclass(frozen=True)
class Verification:
    valid: bool
    kid: str | None
    reason: str

    def as_dict(self) -> dict[str, Any]:
        return {"valid": self.valid, "kid": self.kid, "reason": self.reason}


class KeyRing:
    """One key that signs, and every key (that one included) that verifies."""

    def __init__(self, signing_key: Ed25519PrivateKey, extra_verify_keys: Iterable[Ed25519PublicKey] = (),
                 retired_keys: Iterable[Ed25519PrivateKey] = ()) -> None:
        # Signing goes through libsodium (PyNaCl): the same deterministic Ed25519 signature as
        # OpenSSL's, in about two thirds of the time, and every response is signed.
        self._private_seed = signing_key.private_bytes_raw()
        _public, self._sodium_secret = crypto_sign_seed_keypair(self._private_seed)
        self._derived_secrets: dict[tuple[str, bytes, bytes], bytes] = {}
        self.kid = key_id(signing_key.public_key())
        self._verify_keys = {self.kid: signing_key.public_key()}
        for public_key in extra_verify_keys:
            self._verify_keys[key_id(public_key)] = public_key
        # A retired key signs no new receipt, ticket or session; it verifies, and it still derives the
        # secrets of the sessions opened under it, so they can be revealed after a rotation.
        self._private_seeds = {self.kid: self._private_seed}
        for private_key in retired_keys:
            kid = key_id(private_key.public_key())
            self._private_seeds.setdefault(kid, private_key.private_bytes_raw())
            self._verify_keys.setdefault(kid, private_key.public_key())

    @classmethod
    def from_pem(cls, signing_pem: str, verify_pem: str = "", retired_pem: str = "") -> KeyRing:
        return cls(load_private_key(signing_pem), load_public_keys(verify_pem), load_private_keys(retired_pem))

    def holds_private_key(self, kid: str) -> bool:
        """Whether secrets derived under ``kid`` can still be computed (the signing key or a retired one)."""
        return kid in self._private_seeds

    def sign(self, document: dict[str, Any]) -> dict[str, Any]:
        """Attach a receipt to ``document`` (in place) and return it."""
        document["receipt"] = receipt = {
            "id": str(uuid.uuid4()),
            "issued_at": datetime.now(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z"),
            "alg": ALGORITHM,
            "kid": self.kid,
        }
        # The receipt has no signature member yet: the document as it stands is the payload.
        signature = crypto_sign(canonical_bytes(document), self._sodium_secret)[:64]
        receipt["signature"] = b64url(signature)
        return document

    def derived_secret(self, salt: bytes, info: bytes, kid: str | None = None) -> bytes:
        """A 32-byte secret derived from the signing key (or the retired key ``kid``) with
        HKDF-SHA256 under ``info``, a label naming its one use: the private key itself never leaves
        this class, and two uses with different labels get independent secrets. Rotating the signing
        key changes every one; ``KeyError`` for a ``kid`` whose private key is not held."""
        kid = kid or self.kid
        secret = self._derived_secrets.get((kid, salt, info))
        if secret is None:
            seed = self._private_seeds[kid]
            secret = HKDF(algorithm=hashes.SHA256(), length=32, salt=salt, info=info).derive(seed)
            self._derived_secrets[(kid, salt, info)] = secret
        return secret

    def signature_of(self, payload: bytes, kid: str | None = None) -> str:
        """base64url Ed25519 signature of ``payload`` with the signing key, or with the retired key
        ``kid`` (a session's reveal is signed by the key that opened it, so it never changes)."""
        if kid is None or kid == self.kid:
            return b64url(crypto_sign(payload, self._sodium_secret)[:64])
        _public, secret = crypto_sign_seed_keypair(self._private_seeds[kid])
        return b64url(crypto_sign(payload, secret)[:64])

    def signature_matches(self, kid: str, payload: bytes, signature: str) -> bool:
        """Whether ``signature`` is the Ed25519 signature of ``payload`` by the key ``kid``."""
        public_key = self._verify_keys.get(kid)
        if public_key is None:
            return False
        try:
            public_key.verify(b64url_decode(signature), payload)
        except (InvalidSignature, ValueError, TypeError):
            return False
        return True

    def verify(self, document: object) -> Verification:
        receipt = document.get("receipt") if isinstance(document, dict) else None
        if not isinstance(document, dict) or not isinstance(receipt, dict):
            return Verification(False, None, "the document has no receipt object")
        kid = receipt.get("kid")
        signature = receipt.get("signature")
        if receipt.get("alg") != ALGORITHM:
            return Verification(False, kid if isinstance(kid, str) else None, "receipt.alg is not Ed25519")
        if not isinstance(kid, str) or kid not in self._verify_keys:
            return Verification(False, kid if isinstance(kid, str) else None, "unknown key id (kid)")
        if not isinstance(signature, str):
            return Verification(False, kid, "receipt.signature is missing")
        try:
            signature_bytes = b64url_decode(signature)
            self._verify_keys[kid].verify(signature_bytes, signing_payload(document))
        except rfc8785.CanonicalizationError:  # a ValueError: caught before the clause below
            return Verification(False, kid, "the document cannot be canonicalized (RFC 8785)")
        except (InvalidSignature, ValueError, TypeError):
            return Verification(False, kid, "the signature does not match the document")
        return Verification(True, kid, "the signature matches the document")

    def jwks(self) -> dict[str, Any]:
        return {
            "keys": [
                {
                    "kty": "OKP",
                    "crv": "Ed25519",
                    "x": b64url(raw_public_bytes(public_key)),
                    "kid": kid,
                    "use": "sig",
                    "alg": "EdDSA",
                }
                for kid, public_key in self._verify_keys.items()
            ]
        }


def generate_private_key_pem() -> str:
    return private_key_pem(Ed25519PrivateKey.generate())

