"""The message catalogs: every human-readable sentence, per language, with real plural forms.

English is the source language: the messages in the code are English, so English needs no catalog.
Every other language is one gettext catalog, ``service/locale/<lang>/LC_MESSAGES/wurfwerk.po``; a
new language is a new catalog and no code change (the languages are the catalogs present).

The ``.po`` files are compiled when this module is first imported (when the app is created, before
gunicorn forks), with Babel, into memory: ``read_po`` -> ``write_mo`` into a buffer -> gettext. We
do not ship compiled ``.mo`` files: the ``.po`` is the only source, so no compiled artefact can go
stale between an edit and a test run, and an editable install (``make run``/``make test``), a wheel
and the container image (``pip install .``) all behave the same. It costs a few milliseconds per
process. A fuzzy or empty translation is left out, so it falls back to English; the catalog tests
fail on either.

No Flask here: the rules may ask for a label too (Malmsturm's ladder).
"""

from __future__ import annotations

import gettext
import io
from functools import cache
from importlib.resources import files
from importlib.resources.abc import Traversable
from typing import TypeAlias

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.support import Translations

SOURCE_LANGUAGE = "en"
# Keywords that mark messages for extraction (``make messages`` and the catalog tests), besides
# Babel's defaults (gettext, ngettext, pgettext, npgettext, ...).
KEYWORDS = {"marked": ((1, "c"), 2), "say": None, "say_n": (1, 2), "Template": None, "plural_template": (1, 2),
            "LimitMessage": None, "advised": None, "advised_n": (1, 2)}
DOMAIN = "wurfwerk"
LOCALE_DIR = files("service") / "locale"
# One language's messages (``translations(lang)``): a chat line looks it up once and hands it on.
Catalog: TypeAlias = gettext.NullTranslations


def marked(context: str, message: str) -> str:
    """Marks a message kept in data (a table of labels) for the catalogs; it is translated where it
    is shown, with ``pgettext(context, message)``."""
    return message


def catalog_path(lang: str) -> Traversable:
    return LOCALE_DIR / lang / "LC_MESSAGES" / f"{DOMAIN}.po"


def _catalog_languages() -> list[str]:
    if not LOCALE_DIR.is_dir():
        return []
    return sorted(entry.name for entry in LOCALE_DIR.iterdir()
                  if entry.name != SOURCE_LANGUAGE and catalog_path(entry.name).is_file())


LANGUAGES: tuple[str, ...] = (SOURCE_LANGUAGE, *_catalog_languages())


@cache
def translations(lang: str) -> Catalog:
    """The translations of ``lang`` (one of ``LANGUAGES``): ``gettext``, ``ngettext``, ``pgettext``,
    ``npgettext`` with the plural rule of the catalog's header."""
    if lang == SOURCE_LANGUAGE:
        return gettext.NullTranslations()  # the messages themselves, plural rule n != 1
    if not catalog_path(lang).is_file():
        raise KeyError(f"no catalog for language {lang!r}")
    with catalog_path(lang).open("rb") as po:
        catalog = read_po(po, locale=lang, domain=DOMAIN)
    compiled = io.BytesIO()
    write_mo(compiled, catalog, use_fuzzy=False)
    compiled.seek(0)
    return Translations(compiled, domain=DOMAIN)


for _lang in LANGUAGES:  # compile every catalog now: a broken one fails at start, not on a request
    translations(_lang)
