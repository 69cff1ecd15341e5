"""Settings from ``WURFWERK_*`` environment variables, typed and documented in one place.

The README's configuration table is written from ``SETTINGS`` below, so a variable that is not
listed here does not exist.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field, fields, replace
from typing import Mapping

from service.platform.limits import Limits


@dataclass(frozen=True)
class Setting:
    env: str
    default: str
    help: str


SETTINGS: tuple[Setting, ...] = (
    Setting("WURFWERK_SIGNING_KEY", "", "PEM (PKCS#8) Ed25519 private key that signs receipts."),
    Setting("WURFWERK_SIGNING_KEY_FILE", "", "File holding that key (used when WURFWERK_SIGNING_KEY is empty)."),
    Setting("WURFWERK_VERIFY_KEYS", "", "Extra PEM public keys that verify but never sign (key rotation)."),
    Setting("WURFWERK_VERIFY_KEYS_FILE", "", "File holding such PEM public keys."),
    Setting("WURFWERK_DEV_KEY_FILE", ".dev/signing-key.pem", "Where `make run` creates a development key when no key is configured."),
    Setting("WURFWERK_API_KEYS", "", "Comma-separated API keys; when set, every /v1 call except /v1/keys needs `Authorization: Bearer <key>`."),
    Setting("WURFWERK_CORS_ORIGINS", "*", "Comma-separated origins allowed by CORS (`*` for any)."),
    Setting("WURFWERK_MAX_BODY_BYTES", "65536", "Largest request body in bytes (413 above)."),
    Setting("WURFWERK_MAX_POOL_DICE", "100", "Most dice in one pool."),
    Setting("WURFWERK_MAX_BAG_MARBLES", "100", "Most marbles in one bag."),
    Setting("WURFWERK_MAX_PARTICIPANTS", "20", "Most participants in one contest or party."),
    Setting("WURFWERK_MAX_PARTIES", "8", "Most parties in one conflict."),
    Setting("WURFWERK_MAX_BATCH_ITEMS", "500", "Most requests in one batch."),
    Setting("WURFWERK_MAX_DIE_SIDES", "100", "Most sides of one die (the least is 2)."),
    Setting("WURFWERK_MAX_EXTENDED_TARGET", "100", "Highest `required` of an extended test."),
    Setting("WURFWERK_LOG_LEVEL", "INFO", "Python log level of the service."),
)

_LIMIT_FIELDS = {
    "WURFWERK_MAX_BODY_BYTES": "body_bytes",
    "WURFWERK_MAX_POOL_DICE": "pool_dice",
    "WURFWERK_MAX_BAG_MARBLES": "bag_marbles",
    "WURFWERK_MAX_PARTICIPANTS": "participants",
    "WURFWERK_MAX_PARTIES": "parties",
    "WURFWERK_MAX_BATCH_ITEMS": "batch_items",
    "WURFWERK_MAX_DIE_SIDES": "die_sides",
    "WURFWERK_MAX_EXTENDED_TARGET": "extended_target",
}


class ConfigError(ValueError):
    """A WURFWERK_* variable has a value the service cannot use."""


@dataclass(frozen=True)
class Config:
    signing_key_pem: str = ""
    verify_keys_pem: str = ""
    api_keys: tuple[str, ...] = ()
    cors_origins: tuple[str, ...] = ("*",)
    limits: Limits = field(default_factory=Limits)
    log_level: str = "INFO"

    def with_overrides(self, overrides: Mapping[str, object]) -> "Config":
        known = {f.name for f in fields(self)}
        unknown = set(overrides) - known
        if unknown:
            raise ConfigError(f"unknown config keys: {sorted(unknown)}")
        return replace(self, **overrides)


def _read_file(path: str, variable: str) -> str:
    try:
        with open(path, encoding="utf-8") as handle:
            return handle.read()
    except OSError as error:
        raise ConfigError(f"{variable}={path!r} cannot be read: {error.strerror}") from error


def _value_or_file(env: Mapping[str, str], name: str) -> str:
    if env.get(name):
        return env[name]
    if env.get(f"{name}_FILE"):
        return _read_file(env[f"{name}_FILE"], f"{name}_FILE")
    return ""


def _positive_int(env: Mapping[str, str], name: str, default: str) -> int:
    raw = env.get(name, default)
    try:
        value = int(raw)
    except ValueError as error:
        raise ConfigError(f"{name}={raw!r} is not an integer") from error
    if value < 1:
        raise ConfigError(f"{name}={raw!r} must be at least 1")
    return value


def _csv(raw: str) -> tuple[str, ...]:
    return tuple(part.strip() for part in raw.split(",") if part.strip())


def config_from_env(env: Mapping[str, str] | None = None) -> Config:
    env = os.environ if env is None else env
    defaults = {setting.env: setting.default for setting in SETTINGS}
    limits = Limits(
        **{attr: _positive_int(env, name, defaults[name]) for name, attr in _LIMIT_FIELDS.items()}
    )
    return Config(
        signing_key_pem=_value_or_file(env, "WURFWERK_SIGNING_KEY"),
        verify_keys_pem=_value_or_file(env, "WURFWERK_VERIFY_KEYS"),
        api_keys=_csv(env.get("WURFWERK_API_KEYS", "")),
        cors_origins=_csv(env.get("WURFWERK_CORS_ORIGINS", "*")) or ("*",),
        limits=limits,
        log_level=env.get("WURFWERK_LOG_LEVEL", "INFO").upper(),
    )
