"""Phrases that the chat lines of several dice systems share: the faces rolled, a count of
successes, a line spoken by a named character. They carry no rule of any system, only words, and
take the catalog of the chat line they are part of (``catalogs.translations(lang)``, looked up once
per line)."""

from __future__ import annotations

from babel.numbers import format_decimal

from service.platform.words.catalogs import Catalog, marked


def faces(dice: list[int]) -> str:
    """``4, 1, 6``; a dash for no dice, so a sentence never shows an empty list."""
    return ", ".join(map(str, dice)) if dice else "–"


def successes(count: int, t: Catalog) -> str:
    if count == 0:
        return t.gettext("no success")
    return t.ngettext("%(count)d success", "%(count)d successes", count) % {"count": count}


def spoken_by(name: str | None, line: str, t: Catalog) -> str:
    """``Alrik: <line>`` when the acting character has a name, else the line alone."""
    if not name:
        return line
    return t.pgettext("speaker", "%(name)s: %(line)s") % {"name": name, "line": line}


# The words a small count is said with at the table ("beide", "keiner der beiden" build on them);
# beyond ten, digits.
NUMBERS = (marked("number", "no"), marked("number", "one"), marked("number", "two"), marked("number", "three"),
           marked("number", "four"), marked("number", "five"), marked("number", "six"), marked("number", "seven"),
           marked("number", "eight"), marked("number", "nine"), marked("number", "ten"))


def number(count: int, t: Catalog) -> str:
    """``two`` / ``zwei`` up to ten, digits above."""
    return t.pgettext("number", NUMBERS[count]) if 0 <= count < len(NUMBERS) else str(count)


def capitalized(text: str) -> str:
    """A sentence that starts with a word from a table ("Zwei Erfolge heben …")."""
    return text[:1].upper() + text[1:]


def grouped(count: int, lang: str) -> str:
    """A count with its thousands grouped as the language writes them: German ``1.000``, English ``1,000``."""
    return format_decimal(count, locale=lang)
