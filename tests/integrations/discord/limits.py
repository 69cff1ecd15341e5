"""Discord's documented limits, written down here on their own (not imported from the app), to hold the
app's answers and command list against. Sources: Discord's developer documentation (Channel: Embed
Limits; Message Components; Application Commands: naming, option types, limits; Reference: Locales),
as cited in wurfwerk_discord's package docstring."""

from __future__ import annotations

import unicodedata
from typing import Any

LOCALES = {"id", "da", "de", "en-GB", "en-US", "es-ES", "es-419", "fr", "hr", "it", "lt", "hu", "nl", "no", "pl",
           "pt-BR", "ro", "fi", "sv-SE", "vi", "tr", "cs", "el", "bg", "ru", "uk", "hi", "th", "zh-CN", "ja",
           "zh-TW", "ko"}
OPTION_TYPES = set(range(1, 12))


def name_ok(name: str) -> bool:
    """^[-_'\\p{L}\\p{N}\\p{sc=Deva}\\p{sc=Thai}]{1,32}$ with the unicode flag, lowercase where possible."""
    if not 1 <= len(name) <= 32 or name != name.lower():
        return False
    return all(ch in "-_'" or unicodedata.category(ch)[0] in "LN" or 0x0900 <= ord(ch) <= 0x097F
               or 0x0E00 <= ord(ch) <= 0x0E7F for ch in name)


def message_errors(data: dict[str, Any]) -> list[str]:
    errors = []
    content = data.get("content") or ""
    embeds = data.get("embeds") or []
    if not content and not embeds:
        errors.append("empty message")
    if len(content) > 2000:
        errors.append("content > 2000")
    if len(embeds) > 10:
        errors.append("more than 10 embeds")
    total = 0
    for embed in embeds:
        title, description = embed.get("title") or "", embed.get("description") or ""
        footer, author = (embed.get("footer") or {}).get("text") or "", (embed.get("author") or {}).get("name") or ""
        fields = embed.get("fields") or []
        bounded = (("title", title, 256), ("description", description, 4096), ("footer", footer, 2048),
                   ("author", author, 256), ("url", embed.get("url") or "", 2048))
        errors += [f"{what} too long" for what, text, limit in bounded if len(text) > limit]
        if len(fields) > 25:
            errors.append("more than 25 fields")
        for item in fields:
            if not 1 <= len(item["name"]) <= 256 or not 1 <= len(item["value"]) <= 1024:
                errors.append(f"field {item['name'][:20]!r} out of bounds")
        total += len(title) + len(description) + len(footer) + len(author) + sum(
            len(item["name"]) + len(item["value"]) for item in fields)
    if total > 6000:
        errors.append("embeds together > 6000")
    rows = data.get("components") or []
    if len(rows) > 5:
        errors.append("more than 5 action rows")
    for row in rows:
        if row["type"] != 1 or not 1 <= len(row["components"]) <= 5:
            errors.append("bad action row")
        for button in row["components"]:
            if button["type"] != 2 or len(button.get("label", "")) > 80:
                errors.append("bad button")
            if button.get("style") != 5 and not 1 <= len(button.get("custom_id", "")) <= 100:
                errors.append("custom_id empty or > 100")
    return errors


def modal_errors(modal: dict[str, Any]) -> list[str]:
    """A modal: title ≤ 45, custom_id ≤ 100, ≤ 5 rows of one text input (type 4, style 1 or 2, label ≤ 45,
    placeholder ≤ 100, value ≤ 4,000)."""
    errors = []
    if not 1 <= len(modal.get("title", "")) <= 45 or not 1 <= len(modal.get("custom_id", "")) <= 100:
        errors.append("modal title or custom_id")
    rows = modal.get("components") or []
    if not 1 <= len(rows) <= 5:
        errors.append("modal rows")
    for row in rows:
        if row.get("type") != 1 or len(row.get("components") or []) != 1:
            errors.append("modal row")
        for item in row.get("components") or []:
            if item.get("type") != 4 or item.get("style") not in (1, 2) or not 1 <= len(item.get("label", "")) <= 45:
                errors.append("text input")
            if len(item.get("placeholder", "")) > 100 or len(item.get("value", "")) > 4000:
                errors.append("text input placeholder or value")
    return errors


def response_errors(response: dict[str, Any]) -> list[str]:
    if response.get("type") == 9:
        return modal_errors(response.get("data") or {})
    if response.get("type") == 1:
        return [] if response == {"type": 1} else ["PONG with data"]
    if response.get("type") == 5:
        return []
    if response.get("type") not in (4, 7):
        return [f"type {response.get('type')}"]
    return message_errors(response.get("data") or {})
