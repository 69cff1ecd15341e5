"""Offline receipt verification with the published keys (needs the ``verify`` extra).

The signature is Ed25519 over the RFC 8785 canonical JSON of the response without
``receipt.signature``; integers beyond 2^53 are canonicalized as the doubles they become.
"""

from __future__ import annotations

import base64
import importlib.util
from collections.abc import Mapping
from typing import Any

from wurfwerk.result import plain

_SAFE_INTEGER = 2**53 - 1


def available() -> bool:
    """Whether the ``verify`` extra (cryptography, rfc8785) is installed."""
    return all(importlib.util.find_spec(name) is not None for name in ("cryptography", "rfc8785"))


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


def verify_offline(document: Mapping[str, Any], jwks: Mapping[str, Any]) -> dict:
    """``{"valid", "kid", "reason"}`` like ``POST /v1/receipts/verify``, computed locally."""
    import rfc8785
    from cryptography.exceptions import InvalidSignature
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

    document = plain(document)
    receipt = document.get("receipt")
    if not isinstance(receipt, dict):
        return {"valid": False, "kid": None, "reason": "the document has no receipt object"}
    kid = receipt.get("kid")
    keys = {key["kid"]: key for key in plain(jwks).get("keys", [])}
    if kid not in keys:
        return {"valid": False, "kid": kid, "reason": "unknown key id (kid)"}
    unsigned = dict(document)
    unsigned["receipt"] = {k: v for k, v in receipt.items() if k != "signature"}
    try:
        public_key = Ed25519PublicKey.from_public_bytes(_b64url_decode(keys[kid]["x"]))
        public_key.verify(_b64url_decode(receipt.get("signature") or ""), rfc8785.dumps(_ijson(unsigned)))
    except (InvalidSignature, ValueError, TypeError):
        return {"valid": False, "kid": kid, "reason": "the signature does not match the document"}
    return {"valid": True, "kid": kid, "reason": "the signature matches the document"}
