"""The one glossary of game terms (``service/locale/glossary.json``): for every term the rules text's
German word, the English catalog's word, the API word where there is one, and the words no surface may
use instead. Each system's glossary in ``GET /v1/systems`` (German term -> API word) is read from it,
and the glossary tests hold the catalogs, /play's labels, the Discord app and the Foundry module to it.

Data, not rules: the file names systems by id, the platform only reads the section it is asked for."""

from __future__ import annotations

import json
from functools import cache
from importlib.resources import files
from typing import Any

GLOSSARY_FILE = files("service") / "locale" / "glossary.json"


@cache
def _document() -> dict[str, Any]:
    with GLOSSARY_FILE.open("r", encoding="utf-8") as handle:
        document: dict[str, Any] = json.load(handle)
    return document


def terms(section: str | None = None) -> list[dict[str, Any]]:
    """The entries of one section (``common`` or a system id), or of all sections."""
    sections = _document()["terms"]
    if section is not None:
        return list(sections.get(section, []))
    return [entry for entries in sections.values() for entry in entries]


def api_glossary(system_id: str) -> dict[str, str]:
    """German term -> API word, for the system's table in ``GET /v1/systems``."""
    return {entry["de"]: entry["api"] for entry in terms(system_id) if "api" in entry}


def plain_words(lang: str) -> list[str]:
    """Words the glossary lists as no game term (``de``: nouns a label may use freely; ``both``:
    words German and English write alike), so that the surface tests can tell a term from a word."""
    return list(_document().get("plain", {}).get(lang, []))


def loanwords() -> dict[str, str]:
    """Words German surfaces still borrow from English, each with why it is still open."""
    return dict(_document().get("loanwords", {}))
