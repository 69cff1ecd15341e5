"""Discord's interaction protocol as far as this app uses it: the numbers, the limits, the signature check,
and checks of a message and a command list against the documented limits (the tests hold every answer
against them). Sources in the package docstring (``wurfwerk_discord/__init__.py``)."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

# interaction types
PING, APPLICATION_COMMAND, MESSAGE_COMPONENT, AUTOCOMPLETE, MODAL_SUBMIT = 1, 2, 3, 4, 5
# interaction callback (response) types
PONG, CHANNEL_MESSAGE, DEFERRED_CHANNEL_MESSAGE, DEFERRED_UPDATE_MESSAGE, UPDATE_MESSAGE, MODAL = 1, 4, 5, 6, 7, 9
EPHEMERAL = 1 << 6  # message flag 64: only the user who invoked the interaction sees it
# application command and option types
COMMAND_CHAT_INPUT = 1
OPTION_SUB_COMMAND, OPTION_SUB_COMMAND_GROUP, OPTION_STRING, OPTION_INTEGER, OPTION_BOOLEAN = 1, 2, 3, 4, 5
OPTION_USER, OPTION_CHANNEL, OPTION_ROLE, OPTION_MENTIONABLE, OPTION_NUMBER, OPTION_ATTACHMENT = 6, 7, 8, 9, 10, 11
OPTION_TYPES = frozenset(range(1, 12))
# installation and interaction contexts
GUILD_INSTALL, USER_INSTALL = 0, 1
CONTEXT_GUILD, CONTEXT_BOT_DM, CONTEXT_PRIVATE_CHANNEL = 0, 1, 2
# components
ACTION_ROW, BUTTON, TEXT_INPUT = 1, 2, 4
SHORT, PARAGRAPH = 1, 2  # text input styles
PRIMARY, SECONDARY, SUCCESS, DANGER, LINK = 1, 2, 3, 4, 5

# limits of application commands
NAME_PATTERN = re.compile(r"^[-_'\w\u0900-\u097F\u0E00-\u0E7F]{1,32}$")  # see valid_name
NAME_MAX, DESCRIPTION_MAX, MAX_OPTIONS, MAX_CHOICES, CHOICE_NAME_MAX = 32, 100, 25, 25, 100
COMMAND_TOTAL_MAX = 4000
STRING_OPTION_MAX = 6000
INTEGER_OPTION_LIMIT = 2**53
LOCALES = frozenset({
    "id", "da", "de", "en-GB", "en-US", "es-ES", "es-419", "fr", "hr", "it", "lt", "hu", "nl", "no", "pl",
    "pt-BR", "ro", "fi", "sv-SE", "vi", "tr", "cs", "el", "bg", "ru", "uk", "hi", "th", "zh-CN", "ja",
    "zh-TW", "ko",
})
# limits of messages
CONTENT_MAX = 2000
EMBEDS_MAX = 10
EMBED_TITLE_MAX, EMBED_DESCRIPTION_MAX, EMBED_FIELDS_MAX = 256, 4096, 25
FIELD_NAME_MAX, FIELD_VALUE_MAX, FOOTER_MAX, AUTHOR_MAX, EMBED_TOTAL_MAX = 256, 1024, 2048, 256, 6000
EMBED_URL_MAX = 2048  # not in Discord's reference; the value its API enforces (discord-api-docs PR 6531)
CUSTOM_ID_MAX, BUTTON_LABEL_MAX, LINK_URL_MAX = 100, 80, 512
ACTION_ROWS_MAX, BUTTONS_PER_ROW = 5, 5
MODAL_TITLE_MAX, TEXT_INPUT_LABEL_MAX, PLACEHOLDER_MAX, TEXT_INPUT_VALUE_MAX = 45, 45, 100, 4000


TIMESTAMP_WINDOW = 300.0  # seconds: a signed interaction older or newer than this is refused (a replay)
# What starts or closes Discord's markdown: emphasis, code, spoilers, quotes, headings, lists, masked links
# (without their brackets no ``[text](url)``), mentions and timestamps (``<@id>``, ``<t:0>``).
MARKDOWN_SPECIALS = frozenset("\\*_~`|>#-[]<")


def fresh_timestamp(timestamp: str | None, now: float, window: float = TIMESTAMP_WINDOW) -> bool:
    """Whether ``X-Signature-Timestamp`` (Unix seconds) lies within ``window`` of ``now``, either way: a
    captured interaction cannot be replayed later, and a clock far ahead is no way around it."""
    if not timestamp or not timestamp.isascii() or not timestamp.isdigit() or len(timestamp) > 12:
        return False
    return abs(int(timestamp) - now) <= window


def verify_signature(public_key_hex: str, signature_hex: str | None, timestamp: str | None, body: bytes) -> bool:
    """Ed25519 over the timestamp header followed by the raw body, with the application's public key."""
    if not signature_hex or not timestamp:
        return False
    try:
        key = Ed25519PublicKey.from_public_bytes(bytes.fromhex(public_key_hex))
        key.verify(bytes.fromhex(signature_hex), timestamp.encode() + body)
    except (ValueError, InvalidSignature):
        return False
    return True


def clip(text: str, limit: int, *, lines: bool = False) -> str:
    """``text`` within ``limit`` characters (an ellipsis where it was cut); spaces collapsed, and line
    breaks too unless ``lines``."""
    if lines:
        text = "\n".join(" ".join(line.split()) for line in str(text).splitlines())
    else:
        text = " ".join(str(text).split())
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def escape_markdown(text: str) -> str:
    """Text a player typed, shown as typed: every character that Discord's markdown gives a meaning is
    escaped with a backslash, which Discord drops when it renders."""
    return "".join("\\" + character if character in MARKDOWN_SPECIALS else character for character in str(text))


def clip_escaped(text: str, limit: int, *, lines: bool = False) -> str:
    """``clip`` of escaped text that never ends in half an escape (a lone backslash)."""
    clipped = clip(text, limit, lines=lines)
    body = clipped.removesuffix("…")
    trailing = len(body) - len(body.rstrip("\\"))
    if trailing % 2:
        body = body[:-1]
        return body + "…" if clipped.endswith("…") else body
    return clipped


def valid_name(name: str) -> bool:
    """The naming rule of CHAT_INPUT commands and options: ``^[-_'\\p{L}\\p{N}\\p{sc=Deva}\\p{sc=Thai}]{1,32}$``
    (unicode), lowercase where a letter has a lowercase form. Python's ``\\w`` is letters, digits and ``_``
    (plus connector punctuation, which the check below refuses)."""
    if not NAME_PATTERN.match(name) or name != name.lower():
        return False
    import unicodedata

    return all(character in "-_'" or unicodedata.category(character)[0] in "LNM" for character in name)


# -- checks -----------------------------------------------------------------------------------------------

def message_problems(data: Mapping[str, Any]) -> list[str]:
    """Every way a message payload breaks Discord's documented limits (empty when it fits)."""
    problems: list[str] = []
    content = data.get("content") or ""
    if len(content) > CONTENT_MAX:
        problems.append(f"content has {len(content)} characters")
    embeds = data.get("embeds") or []
    if len(embeds) > EMBEDS_MAX:
        problems.append(f"{len(embeds)} embeds")
    if not content and not embeds:
        problems.append("neither content nor embeds")
    total = 0
    for index, embed in enumerate(embeds):
        for key, limit in (("title", EMBED_TITLE_MAX), ("description", EMBED_DESCRIPTION_MAX)):
            total += len(embed.get(key) or "")
            if len(embed.get(key) or "") > limit:
                problems.append(f"embeds[{index}].{key} too long")
        if len(embed.get("url") or "") > EMBED_URL_MAX:
            problems.append(f"embeds[{index}].url too long")
        footer = (embed.get("footer") or {}).get("text") or ""
        author = (embed.get("author") or {}).get("name") or ""
        total += len(footer) + len(author)
        if len(footer) > FOOTER_MAX or len(author) > AUTHOR_MAX:
            problems.append(f"embeds[{index}] footer or author too long")
        fields = embed.get("fields") or []
        if len(fields) > EMBED_FIELDS_MAX:
            problems.append(f"embeds[{index}] has {len(fields)} fields")
        for number, item in enumerate(fields):
            name, value = item.get("name") or "", item.get("value") or ""
            total += len(name) + len(value)
            if not name or not value or len(name) > FIELD_NAME_MAX or len(value) > FIELD_VALUE_MAX:
                problems.append(f"embeds[{index}].fields[{number}] empty or too long")
    if total > EMBED_TOTAL_MAX:
        problems.append(f"embeds have {total} characters together")
    rows = data.get("components") or []
    if len(rows) > ACTION_ROWS_MAX:
        problems.append(f"{len(rows)} action rows")
    ids: set[str] = set()
    for row in rows:
        buttons = row.get("components") or []
        if row.get("type") != ACTION_ROW or not 1 <= len(buttons) <= BUTTONS_PER_ROW:
            problems.append("an action row is malformed")
        for button in buttons:
            if button.get("type") != BUTTON or len(button.get("label") or "") > BUTTON_LABEL_MAX:
                problems.append("a button is malformed")
            if button.get("style") == LINK:
                if "custom_id" in button or len(button.get("url") or "") > LINK_URL_MAX:
                    problems.append("a link button is malformed")
            else:
                custom_id = button.get("custom_id") or ""
                if not custom_id or len(custom_id) > CUSTOM_ID_MAX or custom_id in ids:
                    problems.append(f"custom_id {custom_id!r} empty, too long or repeated")
                ids.add(custom_id)
    return problems


def response_problems(response: Mapping[str, Any]) -> list[str]:
    kind = response.get("type")
    if kind == PONG:
        return [] if set(response) == {"type"} else ["a PONG carries nothing else"]
    if kind in (DEFERRED_CHANNEL_MESSAGE, DEFERRED_UPDATE_MESSAGE):
        return []
    if kind == MODAL:
        return modal_problems(response.get("data") or {})
    if kind in (CHANNEL_MESSAGE, UPDATE_MESSAGE):
        return message_problems(response.get("data") or {})
    return [f"unexpected response type {kind}"]


def modal_problems(modal: Mapping[str, Any]) -> list[str]:
    problems = []
    if not 1 <= len(modal.get("title") or "") <= MODAL_TITLE_MAX:
        problems.append("modal title")
    if not 1 <= len(modal.get("custom_id") or "") <= CUSTOM_ID_MAX:
        problems.append("modal custom_id")
    rows = modal.get("components") or []
    if not 1 <= len(rows) <= ACTION_ROWS_MAX:
        problems.append("modal rows")
    for row in rows:
        for item in row.get("components") or []:
            if item.get("type") != TEXT_INPUT or item.get("style") not in (SHORT, PARAGRAPH):
                problems.append("a text input is malformed")
            if not 1 <= len(item.get("label") or "") <= TEXT_INPUT_LABEL_MAX:
                problems.append("text input label")
            if len(item.get("placeholder") or "") > PLACEHOLDER_MAX or len(item.get("value") or "") > \
                    TEXT_INPUT_VALUE_MAX or not 1 <= len(item.get("custom_id") or "") <= CUSTOM_ID_MAX:
                problems.append("text input placeholder, value or custom_id")
    return problems


def command_size(command: Mapping[str, Any], locale: str | None) -> int:
    """The characters Discord counts against a command's 4,000: names, descriptions and choice values (and
    names), in one locale (``None``: the default words)."""

    def words(item: Mapping[str, Any], key: str) -> str:
        localized = (item.get(f"{key}_localizations") or {}).get(locale) if locale else None
        return str(localized or item.get(key) or "")

    def size(item: Mapping[str, Any]) -> int:
        total = len(words(item, "name")) + len(words(item, "description"))
        for choice in item.get("choices") or []:
            total += len(words(choice, "name")) + len(str(choice.get("value", "")))
        return total + sum(size(option) for option in item.get("options") or [])

    return size(command)


def command_problems(commands: Sequence[Mapping[str, Any]]) -> list[str]:
    """Every way a command list breaks Discord's documented constraints (empty when it is valid)."""
    problems: list[str] = []
    names = [command["name"] for command in commands]
    if len(set(names)) != len(names):
        problems.append("command names repeat")

    def check_named(item: Mapping[str, Any], where: str) -> None:
        if not valid_name(item.get("name", "")):
            problems.append(f"{where}: name {item.get('name')!r}")
        description = item.get("description", "")
        if not 1 <= len(description) <= DESCRIPTION_MAX:
            problems.append(f"{where}: description has {len(description)} characters")
        for locale, text in (item.get("name_localizations") or {}).items():
            if locale not in LOCALES or not valid_name(text):
                problems.append(f"{where}: name_localizations[{locale}] {text!r}")
        for locale, text in (item.get("description_localizations") or {}).items():
            if locale not in LOCALES or not 1 <= len(text) <= DESCRIPTION_MAX:
                problems.append(f"{where}: description_localizations[{locale}]")

    def check_options(options: list[Mapping[str, Any]], where: str) -> None:
        if len(options) > MAX_OPTIONS:
            problems.append(f"{where}: {len(options)} options")
        seen: dict[str | None, set[str]] = {}
        required_done = False
        for option in options:
            here = f"{where} {option.get('name')}"
            check_named(option, here)
            for locale in (None, *(option.get("name_localizations") or {})):
                shown = str((option.get("name_localizations") or {}).get(locale) if locale else option["name"])
                if shown in seen.setdefault(locale, set()):
                    problems.append(f"{here}: name repeats in locale {locale}")
                seen[locale].add(shown)
            if option.get("type") not in OPTION_TYPES:
                problems.append(f"{here}: type {option.get('type')}")
            if option.get("type") in (OPTION_SUB_COMMAND, OPTION_SUB_COMMAND_GROUP):
                check_options(option.get("options") or [], here)
                continue
            if option.get("required") and required_done:
                problems.append(f"{here}: a required option after an optional one")
            required_done = required_done or not option.get("required")
            choices = option.get("choices") or []
            if len(choices) > MAX_CHOICES:
                problems.append(f"{here}: {len(choices)} choices")
            for choice in choices:
                if not 1 <= len(choice.get("name", "")) <= CHOICE_NAME_MAX:
                    problems.append(f"{here}: a choice name")
                for locale, text in (choice.get("name_localizations") or {}).items():
                    if locale not in LOCALES or not 1 <= len(text) <= CHOICE_NAME_MAX:
                        problems.append(f"{here}: a choice's name_localizations[{locale}]")
            if "max_length" in option and not 1 <= option["max_length"] <= STRING_OPTION_MAX:
                problems.append(f"{here}: max_length")
            for key in ("min_value", "max_value"):
                if key in option and abs(option[key]) > INTEGER_OPTION_LIMIT:
                    problems.append(f"{here}: {key}")

    for command in commands:
        where = f"/{command.get('name')}"
        check_named(command, where)
        if command.get("type", COMMAND_CHAT_INPUT) != COMMAND_CHAT_INPUT:
            problems.append(f"{where}: type")
        check_options(command.get("options") or [], where)
        locales = {None} | {locale for item in _walk(command) for key in ("name_localizations",
                                                                           "description_localizations")
                            for locale in (item.get(key) or {})}
        for locale in locales:
            size = command_size(command, locale)
            if size > COMMAND_TOTAL_MAX:
                problems.append(f"{where}: {size} characters in locale {locale}")
        if not set(command.get("integration_types", [0])) <= {GUILD_INSTALL, USER_INSTALL}:
            problems.append(f"{where}: integration_types")
        if not set(command.get("contexts", [0])) <= {CONTEXT_GUILD, CONTEXT_BOT_DM, CONTEXT_PRIVATE_CHANNEL}:
            problems.append(f"{where}: contexts")
    return problems


def _walk(item: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    found = [item]
    for option in item.get("options") or []:
        found += _walk(option)
    for choice in item.get("choices") or []:
        found.append(choice)
    return found
