"""Phrases that the chat lines of several dice systems share: the faces rolled, a count of
successes, a line spoken by a named character. They carry no rule of any system, only words."""

from __future__ import annotations

from service.platform.catalogs import translations


def faces(dice: list[int]) -> str:
    """``4, 1, 6``; a dash for no dice, so a sentence never shows an empty list."""
    return ", ".join(map(str, dice)) if dice else "–"


def successes(count: int, lang: str) -> str:
    t = translations(lang)
    if count == 0:
        return t.gettext("no success")
    return t.ngettext("%(count)d success", "%(count)d successes", count) % {"count": count}


def spoken_by(name: str | None, line: str, lang: str) -> str:
    """``Alrik: <line>`` when the acting character has a name, else the line alone."""
    if not name:
        return line
    return translations(lang).pgettext("speaker", "%(name)s: %(line)s") % {"name": name, "line": line}
