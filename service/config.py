"""Every ``WURFWERK_*`` setting, declared once, as a typed field of ``Config`` or ``Limits``.

A field gives the attribute's type and, through ``setting(...)``, the variable's name, its kind,
its default (as the text an operator would write) and its meaning. From those two frozen
dataclasses come:

- the values the app reads (``current_runtime().config``, typed for mypy and readers alike);
- ``config_from_env()``, which reads and checks every variable (a bad value is a ``ConfigError``
  naming the variable; an empty variable means unset);
- the limits the schemas enforce (a field of ``Limits``; its variable is named in every "over the
  limit" message);
- ``SETTINGS``, the table in declaration order, which writes the README's configuration table and
  ``.env.example`` (``make generate`` writes both; tests/test_config.py fails when either
  drifts).

Adding a setting is one field, e.g. in ``Limits``::

    dice_per_side: int = setting("WURFWERK_MAX_DICE_PER_SIDE", POSITIVE_INT, "10", "Most dice of one side.")

then ``make generate``. The app reads it as ``config.<attribute>`` (``config.limits.<attribute>``
for a limit). Kinds: ``TEXT``, ``CSV`` (comma-separated, a tuple), ``POSITIVE_INT``, ``SECONDS``
(a positive number), ``FLAG`` (``1/true/yes/on`` or ``0/false/no/off``), ``LOG_LEVEL``; a new kind
is a ``Kind`` (its Python type and a parse function). ``with_file=True`` also accepts
``<NAME>_FILE``, a file holding the value (for secrets)."""

from __future__ import annotations

import logging
import os
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, fields, replace
from pathlib import Path
from typing import Any, Generic, TypeVar

T = TypeVar("T")


class ConfigError(ValueError):
    """A WURFWERK_* variable has a value the service cannot use."""


@dataclass(frozen=True)
class Kind(Generic[T]):
    """How the text of a variable becomes a value: ``parse(text, variable)`` raises ``ConfigError``."""

    type: Any  # the value's type as a field declares it (``tuple[str, ...]`` is no class)
    parse: Callable[[str, str], T]


def _text(raw: str, _variable: str) -> str:
    return raw


def _csv(raw: str, _variable: str) -> tuple[str, ...]:
    return tuple(part.strip() for part in raw.split(",") if part.strip())


def _positive_int(raw: str, variable: str) -> int:
    try:
        value = int(raw)
    except ValueError as error:
        raise ConfigError(f"{variable}={raw!r} is not an integer") from error
    if value < 1:
        raise ConfigError(f"{variable}={raw!r} must be at least 1")
    return value


def _seconds(raw: str, variable: str) -> float:
    try:
        value = float(raw)
    except ValueError as error:
        raise ConfigError(f"{variable}={raw!r} is not a number of seconds") from error
    if not value > 0 or value == float("inf"):
        raise ConfigError(f"{variable}={raw!r} must be a positive number of seconds")
    return value


_FLAG_WORDS = {"1": True, "true": True, "yes": True, "on": True,
               "0": False, "false": False, "no": False, "off": False}


def _flag(raw: str, variable: str) -> bool:
    try:
        return _FLAG_WORDS[raw.strip().lower()]
    except KeyError:
        raise ConfigError(f"{variable}={raw!r} must be one of {', '.join(_FLAG_WORDS)}") from None


def _log_level(raw: str, variable: str) -> str:
    level = raw.strip().upper()
    if not isinstance(logging.getLevelName(level), int):
        raise ConfigError(f"{variable}={raw!r} is not a log level (DEBUG, INFO, WARNING, ERROR)")
    return level


TEXT = Kind(str, _text)
CSV = Kind(tuple[str, ...], _csv)
POSITIVE_INT = Kind(int, _positive_int)
SECONDS = Kind(float, _seconds)
FLAG = Kind(bool, _flag)
LOG_LEVEL = Kind(str, _log_level)


@dataclass(frozen=True)
class Setting(Generic[T]):
    """What a field of ``Config`` or ``Limits`` declares: its variable, kind, default text and help."""

    env: str
    kind: Kind[T]
    default: str
    help: str
    with_file: bool = False
    attribute: str = ""  # the field it fills (set when the table is read)
    limit: bool = False  # a field of Limits

    def value(self, env: Mapping[str, str]) -> T:
        return self.kind.parse(self.raw(env), self.env)

    def raw(self, env: Mapping[str, str]) -> str:
        if env.get(self.env):
            return env[self.env]
        file_variable = f"{self.env}_FILE"
        if self.with_file and env.get(file_variable):
            return _read_file(env[file_variable], file_variable)
        return self.default


def setting(env: str, kind: Kind[T], default: str, help: str, *, with_file: bool = False) -> T:
    """A field of the settings table: its default is ``default`` parsed as ``kind`` (so mypy checks
    the kind against the field's declared type)."""
    declared = Setting(env, kind, default, help, with_file)
    return field(default=kind.parse(default, env), metadata={"setting": declared})


# The settings table: one field per setting. Limits are caps on work; schemas enforce them.
@dataclass(frozen=True)
class Limits:
    """Caps on work, by attribute; an over-the-limit message names the limit's variable."""

    body_bytes: int = setting("WURFWERK_MAX_BODY_BYTES", POSITIVE_INT, "65536", "Largest request body in bytes (413 above).")
    pool_dice: int = setting("WURFWERK_MAX_POOL_DICE", POSITIVE_INT, "100", "Most dice in one pool.")
    bag_marbles: int = setting("WURFWERK_MAX_BAG_MARBLES", POSITIVE_INT, "100", "Most marbles in one bag.")
    participants: int = setting("WURFWERK_MAX_PARTICIPANTS", POSITIVE_INT, "20", "Most participants in one contest or party.")
    parties: int = setting("WURFWERK_MAX_PARTIES", POSITIVE_INT, "8", "Most parties in one conflict.")
    batch_items: int = setting("WURFWERK_MAX_BATCH_ITEMS", POSITIVE_INT, "500", "Most requests in one batch.")
    die_sides: int = setting("WURFWERK_MAX_DIE_SIDES", POSITIVE_INT, "100", "Most sides of one die (the least is 2).")
    extended_target: int = setting("WURFWERK_MAX_EXTENDED_TARGET", POSITIVE_INT, "100", "Highest `required` of an extended test.")
    encounter_states: int = setting("WURFWERK_MAX_ENCOUNTER_STATES", POSITIVE_INT, "8000000", "Most states of one encounter (`/encounter/odds`), bounded from the body before solving (422 `encounter-too-large` above), counted for the fastest solver (a reduced space swept with numpy); a solver that takes longer per state may have proportionally fewer (the 422 names its share: 20,000 for a chain walked state by state). A batch's encounter odds together count against it.")
    session_index: int = setting("WURFWERK_MAX_SESSION_INDEX", POSITIVE_INT, "10000", "Highest roll number (`index`) of a seat in a session (422 above; a card above it is `malformed` in a log).")
    encounter_exact_states: int = setting("WURFWERK_MAX_ENCOUNTER_EXACT_STATES", POSITIVE_INT, "300", "Most states an encounter is solved for in exact fractions; above, `exact: auto` answers in float64 and `exact: required` is refused.")


@dataclass(frozen=True)
class Config:
    """Every setting by attribute; the limits under ``limits``."""

    signing_key_pem: str = setting("WURFWERK_SIGNING_KEY", TEXT, "", "PEM (PKCS#8) Ed25519 private key that signs receipts.", with_file=True)
    verify_keys_pem: str = setting("WURFWERK_VERIFY_KEYS", TEXT, "", "Extra PEM public keys that verify but never sign (key rotation).", with_file=True)
    retired_keys_pem: str = setting("WURFWERK_RETIRED_SIGNING_KEYS", TEXT, "", "PEM private keys of earlier signing keys (key rotation): they never sign a new receipt, ticket or session, but they verify, and sessions opened under them can still be revealed.", with_file=True)
    require_signing_key: bool = setting("WURFWERK_REQUIRE_SIGNING_KEY", FLAG, "0", "1 (the image, the Kubernetes manifests): no configured key is a startup error, and a key made up at startup makes /readyz answer 503.")
    dev_key_file: str = setting("WURFWERK_DEV_KEY_FILE", TEXT, ".dev/signing-key.pem", "Where `make run` creates a development key when no key is configured.")
    api_keys: tuple[str, ...] = setting("WURFWERK_API_KEYS", CSV, "", "Comma-separated API keys; when set, every /v1 call except /v1/keys needs `Authorization: Bearer <key>`.")
    ticket_keys: tuple[str, ...] = setting("WURFWERK_TICKET_KEYS", CSV, "", "Comma-separated API keys that may issue roll tickets (`POST /v1/tickets`, e.g. the game master's) and open sessions (`POST /v1/sessions`); empty: every API key may. Each must also be in WURFWERK_API_KEYS.")
    cors_origins: tuple[str, ...] = setting("WURFWERK_CORS_ORIGINS", CSV, "*", "Comma-separated origins allowed by CORS (`*` for any).")
    metrics_token: str = setting("WURFWERK_METRICS_TOKEN", TEXT, "", "When set, `/metrics` answers only `Authorization: Bearer <token>` (401 otherwise); empty: open to whoever reaches the replica. The example balancer refuses /metrics from outside either way (WURFWERK_METRICS_ALLOW).", with_file=True)
    # Serving (service/serving/worker.py, deploy/gunicorn.conf.py): what a client may send, how long it may take, overload.
    read_timeout: float = setting("WURFWERK_READ_TIMEOUT", SECONDS, "10", "Seconds a client has to send a request's head (from connecting or from the previous answer, so idle kept-alive connections close too), and again its body (408 after it); then the connection is closed.")
    request_line_bytes: int = setting("WURFWERK_MAX_REQUEST_LINE", POSITIVE_INT, "4094", "Longest request line (method, path with query, version) in bytes (414 above; at most 8190).")
    header_fields: int = setting("WURFWERK_MAX_HEADER_FIELDS", POSITIVE_INT, "100", "Most header fields in one request (431 above).")
    header_field_bytes: int = setting("WURFWERK_MAX_HEADER_BYTES", POSITIVE_INT, "8190", "Longest header field, name and value, in bytes (431 above).")
    max_queue_delay: float = setting("WURFWERK_MAX_QUEUE_DELAY", SECONDS, "1", "Seconds a /v1 request may wait for its worker; while a worker's measured wait is longer it refuses /v1 requests with 503 and Retry-After.")
    retry_after: int = setting("WURFWERK_RETRY_AFTER", POSITIVE_INT, "1", "Seconds an overloaded replica's 503 asks the client to wait (`Retry-After`).")
    limits: Limits = field(default_factory=Limits)  # the limit settings, in this place of the table
    log_level: str = setting("WURFWERK_LOG_LEVEL", LOG_LEVEL, "INFO", "Python log level of the service.")

    def with_overrides(self, overrides: Mapping[str, object]) -> Config:
        """A copy with some attributes replaced (tests pass ``{"signing_key_pem": ..., "limits": ...}``)."""
        unknown = set(overrides) - {f.name for f in fields(self)}
        if unknown:
            raise ConfigError(f"unknown config keys: {sorted(unknown)}")
        return replace(self, **overrides)  # type: ignore[arg-type]  # checked by name above


def _settings(table: type, *, limit: bool = False) -> tuple[Setting, ...]:
    """The declared settings of ``table`` in order, the limits in their place."""
    found: list[Setting] = []
    for column in fields(table):
        if column.name == "limits":
            found += _settings(Limits, limit=True)
        else:
            found.append(replace(column.metadata["setting"], attribute=column.name, limit=limit))
    return tuple(found)


SETTINGS = _settings(Config)
LIMIT_SETTINGS = tuple(declared for declared in SETTINGS if declared.limit)


def _read_file(path: str, variable: str) -> str:
    try:
        with open(path, encoding="utf-8") as handle:
            return handle.read()
    except OSError as error:
        raise ConfigError(f"{variable}={path!r} cannot be read: {error.strerror}") from error


def config_from_env(env: Mapping[str, str] | None = None) -> Config:
    env = os.environ if env is None else env
    limits = Limits(**{s.attribute: s.value(env) for s in LIMIT_SETTINGS})
    config = Config(**{s.attribute: s.value(env) for s in SETTINGS if not s.limit}, limits=limits)
    _check_ticket_keys(config)
    return config


def _check_ticket_keys(config: Config) -> None:
    """Ticket keys name API keys: one that is not an API key could never pass the bearer check."""
    strangers = set(config.ticket_keys) - set(config.api_keys)
    if strangers:
        raise ConfigError(f"WURFWERK_TICKET_KEYS lists {len(strangers)} key(s) that are not in "
                          "WURFWERK_API_KEYS; a ticket key must also be an API key")


# -- the documentation written from SETTINGS ---------------------------------------------------

def _documented() -> list[tuple[str, str, str]]:
    """(variable, default, meaning) of every variable, ``_FILE`` variants included."""
    rows = []
    for setting in SETTINGS:
        rows.append((setting.env, setting.default, setting.help))
        if setting.with_file:
            rows.append((f"{setting.env}_FILE", "",
                         f"File holding the value of {setting.env} (read when {setting.env} is empty)."))
    return rows


def readme_table() -> str:
    lines = ["| variable | default | meaning |", "|---|---|---|"]
    for env, default, meaning in _documented():
        lines.append(f"| `{env}` | {f'`{default}`' if default else '(empty)'} | {meaning} |")
    return "\n".join(lines) + "\n"


def env_example() -> str:
    lines = ["# wurfwerk settings (see README.md; written by `make generate`). Empty means unset."]
    for env, default, meaning in _documented():
        lines += [f"# {meaning}", f"{env}={default}"]
    return "\n".join(lines) + "\n"


README_BEGIN = "<!-- settings table: written from service/config.py by `make generate` -->"
README_END = "<!-- end of settings table -->"
_README_BLOCK = re.compile(re.escape(README_BEGIN) + r"\n.*?" + re.escape(README_END), re.S)


def with_readme_table(readme: str) -> str:
    """``readme`` with the block between the markers replaced by ``readme_table()``."""
    if not _README_BLOCK.search(readme):
        raise ValueError(f"README.md lacks the markers {README_BEGIN!r} ... {README_END!r}")
    return _README_BLOCK.sub(lambda _: f"{README_BEGIN}\n{readme_table()}{README_END}", readme)


def write_docs(root: Path) -> None:
    readme = root / "README.md"
    readme.write_text(with_readme_table(readme.read_text(encoding="utf-8")), encoding="utf-8")
    (root / ".env.example").write_text(env_example(), encoding="utf-8")
