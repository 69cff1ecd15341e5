"""Put the signing key where the replicas read it: compose's one-shot `keygen` service runs this.

    python deploy/signing_key.py /keys/signing-key.pem --owner 10001

A key provided in WURFWERK_SIGNING_KEY (the PEM) or as the file /run/secrets/signing_key is
installed; otherwise a key already in place is kept; otherwise a new Ed25519 key is made, once. The
file ends up owned by the service user with mode 0400, written atomically, so replicas never read
half a key. Runs as root (the only user that may hand a file to another uid).
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from pathlib import Path

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

PROVIDED_SECRET = Path("/run/secrets/signing_key")


def provided_key() -> str:
    if os.environ.get("WURFWERK_SIGNING_KEY", "").strip():
        return os.environ["WURFWERK_SIGNING_KEY"].strip() + "\n"
    if PROVIDED_SECRET.is_file():
        return PROVIDED_SECRET.read_text()
    return ""


def refuse_a_host_key_file() -> None:
    """WURFWERK_SIGNING_KEY_FILE in compose's environment (or .env) names a file of the host, which no
    container sees: said at once rather than ignored for a key made up instead."""
    path = os.environ.get("WURFWERK_SIGNING_KEY_FILE", "").strip()
    if path:
        raise SystemExit(f"WURFWERK_SIGNING_KEY_FILE={path} names a file the containers cannot see: provide it with "
                         f"WURFWERK_SIGNING_KEY_PEM={path} docker compose -f docker-compose.yml "
                         "-f deploy/compose.key-file.yml up, or its PEM in WURFWERK_SIGNING_KEY")


def new_key() -> str:
    return Ed25519PrivateKey.generate().private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()).decode()


def check_key(pem: str) -> None:
    try:
        key = serialization.load_pem_private_key(pem.encode(), password=None)
    except (ValueError, TypeError):
        raise SystemExit("the provided signing key is not a PEM private key") from None
    if not isinstance(key, Ed25519PrivateKey):
        raise SystemExit("the provided signing key is not an Ed25519 private key")


def install(target: Path, pem: str, owner: int) -> None:
    target.parent.mkdir(parents=True, exist_ok=True)
    descriptor, temporary = tempfile.mkstemp(dir=target.parent, prefix=".signing-key-")
    try:
        with os.fdopen(descriptor, "w") as handle:
            handle.write(pem)
        os.chmod(temporary, 0o400)
        if os.getuid() == 0:
            os.chown(temporary, owner, owner)
        os.replace(temporary, target)
    except BaseException:
        os.unlink(temporary)
        raise


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("target", type=Path)
    parser.add_argument("--owner", type=int, default=10001, help="uid (and gid) of the service user")
    args = parser.parse_args(argv)
    refuse_a_host_key_file()
    pem = provided_key()
    if pem:
        check_key(pem)
        if args.target.exists() and args.target.read_text() == pem:
            print(f"provided signing key already at {args.target}")
            return 0
        install(args.target, pem, args.owner)
        print(f"installed the provided signing key at {args.target}")
    elif args.target.exists():
        print(f"kept the signing key at {args.target}")
    else:
        install(args.target, new_key(), args.owner)
        print(f"created a new signing key at {args.target}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
