"""Compact text forms for the request fields a slash-command option cannot hold as one value: bags, pools,
parties, lists. Driven by the request's JSON schema (from the service's OpenAPI description), so a field
the service adds is understood without an edit here.

- a bag (an object of counts): ``rot 9 grün 6 weiß 5`` (colours in English or German);
- an object: ``Ryan rank 3 specialized equipment active``: words before the first key are the name, a key
  is followed by its value, an enum value stands alone when only one field takes it, a nested object's
  keys may be given directly (``equipment active`` for ``advantages.equipment``); ``current/max`` pairs
  as ``0/3``;
- a list of objects: items separated by ``;``; an object whose one list is ``members``:
  ``Helden: Alrik profile 3 role player, Bo profile 2; Orks: Grunz profile 4 role npc``;
- a map by name (toughness): ``Alrik 5/8, Bo current 4 max 6 equipment 1``;
- a list of values: ``rot grün`` or ``1,2,3``.

Keys and values are matched without regard to case, in English (the API's names) or German (the words
the /play page's catalog gives them)."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any

Schema = Mapping[str, Any]
Resolve = Callable[[Schema], Schema]

TRUE = {"true", "yes", "ja", "y", "j", "1", "wahr"}
FALSE = {"false", "no", "nein", "n", "0", "falsch"}


class CompactError(ValueError):
    """A compact text the schema does not explain: ``key`` names the problem (a message of ``words``),
    ``params`` the word and field it is about."""

    def __init__(self, key: str, *, values: list[Any] | None = None, **params: str) -> None:
        super().__init__(f"{key}: {params}")
        self.key = key
        self.params = params
        self.values = values or []  # of a choice: the values it takes, to name them in the user's words


def kind(schema: Schema) -> str:
    types = schema.get("type")
    if isinstance(types, list):
        types = next((item for item in types if item != "null"), None)
    if types:
        return str(types)
    if "properties" in schema:
        return "object"
    return "any"


def is_counts(schema: Schema, resolve: Resolve) -> bool:
    """An object of integer counts only (a bag, a current/max pair)."""
    properties = schema.get("properties") or {}
    return bool(properties) and all(kind(resolve(member)) == "integer" for member in properties.values())


class Words:
    """Aliases: for a field name or an enum value, the words a player may type for it (lowercase)."""

    def __init__(self, field_words: Callable[[str], list[str]], value_words: Callable[[str, str], list[str]]) -> None:
        self.field_words = field_words
        self.value_words = value_words

    def key_of(self, word: str, names: list[str]) -> str | None:
        word = word.casefold()
        hits = [name for name in names
                if word == name.casefold() or word in (alias.casefold() for alias in self.field_words(name))]
        return hits[0] if len(hits) == 1 else None

    def value_of(self, word: str, field: str, values: list[Any]) -> Any:
        """The value a word names: the value itself, or a word only one of the values has (a word that
        starts two choices, "besonders" of "besonders einfach" and "besonders schwer", names neither)."""
        folded = word.casefold()
        named = [value for value in values if value is not None and folded == str(value).casefold()]
        if named:
            return named[0]
        hits = [value for value in values if value is not None and folded in self.unique_value_words(field, value,
                                                                                                     values)]
        return hits[0] if len(hits) == 1 else _NO

    def unique_value_words(self, field: str, value: Any, values: list[Any]) -> list[str]:
        """The words for ``value`` that no other of ``values`` also has (lowercase)."""
        others = {alias.casefold() for other in values if other is not None and other != value
                  for alias in self.value_words(field, str(other))}
        return [alias.casefold() for alias in self.value_words(field, str(value)) if alias.casefold() not in others]


_NO = object()


class Compact:
    def __init__(self, resolve: Resolve, words: Words) -> None:
        self.resolve = resolve
        self.words = words

    # -- parse -----------------------------------------------------------------------------------------

    def parse(self, schema: Schema, text: str, field: str = "") -> Any:
        schema = self.resolve(schema)
        what = kind(schema)
        text = text.strip()
        if what == "array":
            items = self.resolve(schema.get("items") or {})
            if kind(items) == "object":
                return [self.parse_object(items, part) for part in _split(text, ";") if part.strip()]
            return [self.scalar(items, word, field) for word in re.split(r"[\s,]+", text) if word]
        if what == "object":
            extra = schema.get("additionalProperties")
            if not schema.get("properties") and isinstance(extra, dict):
                return self.parse_map(self.resolve(extra), text)
            return self.parse_object(schema, text)
        if what == "any":  # one of several shapes that are not all objects: a word, or a list of words
            return [part.strip() for part in text.split(",")] if "," in text else text
        return self.scalar(schema, text, field)

    def parse_map(self, values: Schema, text: str) -> dict[str, Any]:
        result: dict[str, Any] = {}
        for part in _split(text, ","):
            words = part.split()
            if not words:
                continue
            # the key is every word before the first that the value understands (a name may have spaces)
            for cut in range(1, len(words) + 1):
                rest = words[cut:]
                if not rest or self._starts_value(values, rest[0]):
                    result[" ".join(words[:cut])] = self.parse_object(values, " ".join(rest))
                    break
        return result

    def _starts_value(self, schema: Schema, word: str) -> bool:
        names = list((schema.get("properties") or {}).keys())
        return bool(re.fullmatch(r"-?\d+(/-?\d+)+", word)) or self.words.key_of(word.split("=")[0], names) is not None

    def parse_object(self, schema: Schema, text: str) -> dict[str, Any]:
        schema = self.resolve(schema)
        properties: dict[str, Schema] = {name: self.resolve(member) for name, member in
                                         (schema.get("properties") or {}).items()}
        result: dict[str, Any] = {}
        lists = [name for name, member in properties.items()
                 if kind(member) == "array" and kind(self.resolve(member.get("items") or {})) == "object"]
        head, colon, tail = text.partition(":")
        if colon and len(lists) == 1 and "name" in properties:
            result["name"] = head.strip()
            member = self.resolve(properties[lists[0]].get("items") or {})
            result[lists[0]] = [self.parse_object(member, part) for part in _split(tail, ",") if part.strip()]
            return result
        words = _words(text)
        if is_counts(schema, self.resolve):
            if len(words) == 1 and re.fullmatch(r"\d+/\d+", words[0]) and {"current", "max"} <= set(properties):
                current, maximum = words[0].split("/")
                return {"current": int(current), "max": int(maximum)}
        result, index = self._members(properties, words, 0, top=True)
        if index < len(words):
            raise CompactError("unknown_word", word=words[index])
        return result

    def _members(self, properties: Mapping[str, Schema], words: list[str], index: int, *,
                 top: bool) -> tuple[dict[str, Any], int]:
        """An object's members from ``words[index:]``, up to the first word it does not understand."""
        result: dict[str, Any] = {}
        names = list(properties)
        name_words: list[str] = []
        while index < len(words):
            word = words[index]
            key, _, inline = word.partition("=")
            name = self.words.key_of(key, names)
            if name is not None and name not in result:
                value, index = self._value(properties[name], words, index + 1, inline, name)
                result[name] = value
                continue
            nested = self._nested_key(properties, key) if name is None else None
            if nested is not None and nested[1] not in result.get(nested[0], {}):
                outer, inner = nested
                inner_schema = self.resolve(properties[outer]["properties"][inner])
                value, index = self._value(inner_schema, words, index + 1, inline, inner)
                result.setdefault(outer, {})[inner] = value
                continue
            enum_owner = self._enum_owner(properties, word, result)
            if enum_owner is not None:
                result[enum_owner] = self.words.value_of(word, enum_owner, properties[enum_owner]["enum"])
                index += 1
                continue
            if top and "name" in properties and not result:
                name_words.append(word)
                index += 1
                continue
            break
        if name_words:
            result["name"] = " ".join(name_words)
        return result, index

    def _nested_key(self, properties: Mapping[str, Schema], key: str) -> tuple[str, str] | None:
        hits = []
        for outer, member in properties.items():
            if kind(member) == "object" and not is_counts(member, self.resolve):
                inner = self.words.key_of(key, list((member.get("properties") or {}).keys()))
                if inner is not None:
                    hits.append((outer, inner))
        return hits[0] if len(hits) == 1 else None

    def _enum_owner(self, properties: Mapping[str, Schema], word: str, taken: Mapping[str, Any]) -> str | None:
        owners = [name for name, member in properties.items() if name not in taken and "enum" in member
                  and self.words.value_of(word, name, member["enum"]) is not _NO]
        return owners[0] if len(owners) == 1 else None

    def _value(self, schema: Schema, words: list[str], index: int, inline: str, field: str) -> tuple[Any, int]:
        what = kind(schema)
        if what == "object" and is_counts(schema, self.resolve):
            members = list((schema.get("properties") or {}).keys())
            if inline or (index < len(words) and re.fullmatch(r"\d+/\d+", words[index])):
                pair = inline or words[index]
                if re.fullmatch(r"\d+/\d+", pair) and {"current", "max"} <= set(members):
                    current, maximum = pair.split("/")
                    return {"current": int(current), "max": int(maximum)}, index + (0 if inline else 1)
            value: dict[str, int] = {}
            while index + 1 < len(words):
                member = self.words.key_of(words[index], members)
                if member is None or not re.fullmatch(r"-?\d+", words[index + 1]):
                    break
                value[member] = int(words[index + 1])
                index += 2
            if not value:
                raise CompactError("want_counts", field=field)
            return value, index
        if what == "array":
            items = self.resolve(schema.get("items") or {})
            raw = inline if inline else (words[index] if index < len(words) else "")
            values = [self.scalar(items, part, field) for part in raw.split(",") if part]
            return values, index + (0 if inline else 1)
        if what == "object":
            extra = schema.get("additionalProperties")
            if not schema.get("properties") and isinstance(extra, dict):  # a map of numbers by name
                mapped: dict[str, Any] = {}
                while index + 1 < len(words) and re.fullmatch(r"-?\d+", words[index + 1]):
                    mapped[words[index]] = self.scalar(self.resolve(extra), words[index + 1], field)
                    index += 2
                return mapped, index
            inner = {name: self.resolve(member) for name, member in (schema.get("properties") or {}).items()}
            value, after = self._members(inner, words, index, top=False)
            if after == index:
                raise CompactError("want_parts", field=field)
            return value, after
        if inline:
            return self.scalar(schema, inline, field), index
        if index >= len(words):
            raise CompactError("want_value", field=field)
        return self.scalar(schema, words[index], field), index + 1

    def scalar(self, schema: Schema, word: str, field: str) -> Any:
        what = kind(schema)
        if "enum" in schema:
            value = self.words.value_of(word, field, schema["enum"])
            if value is _NO:
                raise CompactError("want_choice", field=field, word=word,
                                   values=[value for value in schema["enum"] if value is not None],
                                   choices=", ".join(str(value) for value in schema["enum"] if value is not None))
            return value
        if what == "integer":
            if not re.fullmatch(r"[-+]?\d+", word):
                raise CompactError("want_integer", field=field, word=word)
            return int(word)
        if what == "number":
            try:
                return float(word.replace(",", "."))
            except ValueError as error:
                raise CompactError("want_number", field=field, word=word) from error
        if what == "boolean":
            if word.casefold() in TRUE:
                return True
            if word.casefold() in FALSE:
                return False
            raise CompactError("want_boolean", field=field, word=word)
        return word

    # -- render (the inverse, for examples in descriptions and for the tests) --------------------------

    def render(self, schema: Schema, value: Any, depth: int = 0, *, terse: bool = False,
               german: bool = False) -> str:
        """``value`` as compact text; ``terse`` leaves out counts of 0 (for an example to read), ``german``
        writes keys and values in the German words the parser also understands."""
        self._terse = terse
        self._german = german
        schema = self.resolve(schema)
        what = kind(schema)
        if what == "any" or (what == "object" and not isinstance(value, dict)):
            return ", ".join(map(str, value)) if isinstance(value, list) else _scalar_text(value)
        if what == "array":
            items = self.resolve(schema.get("items") or {})
            if kind(items) == "object":
                return "; ".join(self.render_object(items, item, depth) for item in value)
            return " ".join(str(item) for item in value)
        if what == "object":
            extra = schema.get("additionalProperties")
            if not schema.get("properties") and isinstance(extra, dict):
                return ", ".join(f"{key} {self.render_object(self.resolve(extra), item, 1)}"
                                 for key, item in value.items())
            return self.render_object(schema, value, depth)
        return _scalar_text(value)

    def _key(self, name: str, names: list[str]) -> str:
        """A key in German: its shortest word that the parser reads back as this key among ``names`` (a word
        two keys share, "art" of attack and of type, would be read as neither)."""
        if not getattr(self, "_german", False):
            return name
        words = [word for word in self.words.field_words(name) if "_" not in word
                 and self.words.key_of(word, names) == name]
        return min(words, key=len) if words else name

    def _shown_value(self, field: str, value: Any, values: list[Any] | None = None) -> str:
        if not getattr(self, "_german", False) or not isinstance(value, str):
            return _scalar_text(value) if not isinstance(value, bool) or not getattr(self, "_german", False) else (
                "ja" if value else "nein")
        words = [word for word in self.words.unique_value_words(field, value, values or [value])
                 if "_" not in word and " " not in word]
        return min(words, key=len) if words else value

    def _pairs(self, properties: Mapping[str, Schema], value: Mapping[str, Any]) -> str:
        parts: list[str] = []
        counts = all(kind(self.resolve(member)) == "integer" for member in properties.values())
        names = list(properties)
        for key, item in value.items():
            if item is None or (counts and item == 0 and getattr(self, "_terse", False)):
                continue
            member = self.resolve(properties.get(key, {}))
            what = kind(member)
            values = list(member.get("enum") or []) or list(self.resolve(member.get("items") or {}).get("enum") or [])
            if what == "object" and isinstance(item, dict) and is_counts(member, self.resolve):
                if set(item) == {"current", "max"}:
                    parts.append(f"{self._key(key, names)} {item['current']}/{item['max']}")
                else:
                    shown = {name: count for name, count in item.items()
                             if count or not getattr(self, "_terse", False)}
                    inner_names = list(member.get("properties") or {})
                    parts.append(f"{self._key(key, names)} " + " ".join(f"{self._key(name, inner_names)} {count}"
                                                                 for name, count in shown.items()))
            elif what == "object" and isinstance(item, dict):
                inner = member.get("properties") or {}
                if not inner:
                    text = " ".join(f"{name} {self._shown_value(name, sub)}" for name, sub in item.items())
                else:
                    text = self._pairs(inner, item)
                if text:
                    parts.append(f"{self._key(key, names)} {text}")
            elif isinstance(item, list):
                if item:
                    parts.append(f"{self._key(key, names)} " + ",".join(self._shown_value(key, sub, values)
                                                                         for sub in item))
            else:
                parts.append(f"{self._key(key, names)} {self._shown_value(key, item, values)}")
        return " ".join(parts)

    def render_object(self, schema: Schema, value: Mapping[str, Any], depth: int = 0) -> str:
        schema = self.resolve(schema)
        properties = {name: self.resolve(member) for name, member in (schema.get("properties") or {}).items()}
        lists = [name for name, member in properties.items()
                 if kind(member) == "array" and kind(self.resolve(member.get("items") or {})) == "object"]
        if lists and len(lists) == 1 and "name" in properties and lists[0] in value and depth == 0:
            member = self.resolve(properties[lists[0]].get("items") or {})
            rest = {key: item for key, item in value.items() if key not in ("name", lists[0]) and item is not None}
            if not rest:
                return f"{value.get('name', '')}: " + ", ".join(
                    self.render_object(member, item, depth + 1) for item in value[lists[0]])
        parts: list[str] = []
        if value.get("name") is not None and "name" in properties:
            parts.append(str(value["name"]))
        parts.append(self._pairs(properties, {key: item for key, item in value.items() if key != "name"}))
        return " ".join(part for part in parts if part)


def _scalar_text(value: Any) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


def _words(text: str) -> list[str]:
    return text.replace(",", " ").split()


def _split(text: str, separator: str) -> list[str]:
    return text.split(separator)
