"""Receipt verification, one path for ``Client`` and ``AsyncClient``.

Offline (the ``verify`` extra): the signature is Ed25519 over the RFC 8785 canonical JSON of the response
without ``receipt.signature``; integers beyond 2^53 are canonicalized as the doubles they become. The
clients only fetch the published keys (``GET /v1/keys``, cached) or ask the service; the decision and
the check are here.
"""

from __future__ import annotations

import base64
from collections.abc import Mapping
from typing import Any

from wurfwerk._models import Model, to_json
from wurfwerk.models import Jwks, Verification

_SAFE_INTEGER = 2**53 - 1
MAX_DEPTH = 32  # the service refuses deeper request bodies; none of its documents comes near
UNKNOWN_KID = "unknown key id (kid)"


def available() -> bool:
    """Whether offline verification can run (the ``verify`` extra is installed)."""
    try:
        import cryptography  # noqa: F401
        import rfc8785  # noqa: F401
    except ImportError:
        return False
    return True


def check(document: Mapping[str, Any] | Model, jwks: Jwks) -> Verification:
    """Offline verification of ``document`` against the published keys, typed like the service's answer."""
    return Verification.from_json(verify_offline(to_json(document), jwks.to_dict()))


def needs_fresh_keys(verification: Verification) -> bool:
    """A key id the cached keys do not know may be a key the service rotated in since: fetch once more."""
    return not verification.valid and verification.reason == UNKNOWN_KID


def _b64url_decode(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def _ijson(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _ijson(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_ijson(v) for v in value]
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) > _SAFE_INTEGER:
        return float(value)
    return value


def _nests_deeper_than(value: object, limit: int) -> bool:
    """Whether ``value`` nests objects and arrays more than ``limit`` levels deep (without recursion)."""
    pending: list[tuple[object, int]] = [(value, 0)]
    while pending:
        item, depth = pending.pop()
        children = item.values() if isinstance(item, Mapping) else item if isinstance(item, list) else None
        if children is None:
            continue
        if depth >= limit:
            return True
        pending.extend((child, depth + 1) for child in children)
    return False


def verify_offline(document: Mapping[str, Any], jwks: Mapping[str, Any]) -> dict[str, Any]:
    """``{"valid", "kid", "reason"}`` like ``POST /v1/receipts/verify``, computed locally."""
    import rfc8785
    from cryptography.exceptions import InvalidSignature
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

    if _nests_deeper_than(document, MAX_DEPTH):  # no response of the service does; it would exhaust recursion
        return {"valid": False, "kid": None, "reason": "the document cannot be canonicalized (RFC 8785)"}
    plain = to_json(document)
    receipt = plain.get("receipt")
    if not isinstance(receipt, dict):
        return {"valid": False, "kid": None, "reason": "the document has no receipt object"}
    kid = receipt.get("kid")
    keys = {key["kid"]: key for key in to_json(jwks).get("keys", [])}
    if kid not in keys:
        return {"valid": False, "kid": kid, "reason": UNKNOWN_KID}
    unsigned = dict(plain)
    unsigned["receipt"] = {k: v for k, v in receipt.items() if k != "signature"}
    try:
        public_key = Ed25519PublicKey.from_public_bytes(_b64url_decode(keys[kid]["x"]))
        public_key.verify(_b64url_decode(receipt.get("signature") or ""), rfc8785.dumps(_ijson(unsigned)))
    except (InvalidSignature, ValueError, TypeError):
        return {"valid": False, "kid": kid, "reason": "the signature does not match the document"}
    return {"valid": True, "kid": kid, "reason": "the signature matches the document"}
