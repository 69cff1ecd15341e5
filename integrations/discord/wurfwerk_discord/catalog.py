"""What the app knows about the service, read from the service itself: its OpenAPI description
(``GET /openapi.json``: operations, request schemas, enums, examples) and the words of its /play page
(``GET /play/assets/labels.js``: German and English names of operations, fields, choices and outcomes).
Nothing here is a copy: the command list and the cards follow the service they talk to."""

from __future__ import annotations

import json
import re
import threading
import time
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cached_property
from typing import Any

import requests

LANGS = ("de", "en")


@dataclass(frozen=True)
class Catalog:
    spec: Mapping[str, Any]
    labels: Mapping[str, Any]  # {"de": {...}, "en": {...}} as labels.js exports it

    # -- the spec ------------------------------------------------------------------------------------

    def resolve(self, schema: Mapping[str, Any]) -> Mapping[str, Any]:
        current: Mapping[str, Any] = schema or {}
        seen = 0
        while True:
            seen += 1
            if seen > 20:
                return current
            if "$ref" in current:
                target = self.spec["components"]["schemas"][current["$ref"].rsplit("/", 1)[-1]]
                merged = {**target, **{key: value for key, value in current.items() if key != "$ref"}}
                current = merged
                continue
            options = current.get("anyOf") or current.get("oneOf")
            if options:
                concrete = [option for option in options if option.get("type") != "null"]
                if len(concrete) == 1:
                    rest = {key: value for key, value in current.items() if key not in ("anyOf", "oneOf")}
                    current = {**concrete[0], **rest}
                    continue
                # several shapes: objects (a side that is one character or a group) merge, with the
                # properties of all (the compact form accepts the keys of any); anything else stays open
                rest = {key: value for key, value in current.items() if key not in ("anyOf", "oneOf")}
                if not all(self.resolve(option).get("properties") for option in concrete):
                    return {**rest, "type": "any"}
                properties: dict[str, Any] = {}
                for option in concrete:
                    properties.update(self.resolve(option).get("properties") or {})
                current = {**rest, "type": "object", "properties": properties}
                continue
            return current

    @cached_property
    def _operations(self) -> dict[str, tuple[str, Mapping[str, Any]]]:
        """operation id -> (path, the POST operation object)."""
        found: dict[str, tuple[str, Mapping[str, Any]]] = {}
        for path, item in self.spec.get("paths", {}).items():
            operation = item.get("post")
            if operation and operation.get("operationId"):
                found[operation["operationId"]] = (path, operation)
        return found

    def operations(self) -> dict[str, tuple[str, Mapping[str, Any]]]:
        return self._operations

    def request_schema(self, operation: Mapping[str, Any]) -> Mapping[str, Any]:
        content = operation.get("requestBody", {}).get("content", {}).get("application/json", {})
        return self.resolve(content.get("schema") or {})

    def example(self, operation: Mapping[str, Any]) -> Any:
        content = operation.get("requestBody", {}).get("content", {}).get("application/json", {})
        return content.get("example")

    # -- the words -----------------------------------------------------------------------------------

    def words(self, lang: str) -> Mapping[str, Any]:
        return self.labels.get(lang) or self.labels.get("en") or {}

    def operation_words(self, operation_id: str, lang: str) -> tuple[str | None, str | None]:
        entry = self.words(lang).get("operations", {}).get(operation_id)
        if not entry:
            return None, None
        return entry[0], (entry[1] if len(entry) > 1 else None)

    def field_words(self, operation_id: str, path: list[str], lang: str) -> tuple[str | None, str | None]:
        """[label, help] of a field, from the most specific entry to the general one (as /play looks up)."""
        fields = self.words(lang).get("fields", {})
        name = path[-1]
        parent = path[-2] if len(path) > 1 else None
        system = operation_id.split(".")[0]
        keys = [f"{operation_id}.{name}", f"{parent}.{name}" if parent else None, f"{system}.{name}", name]
        for key in keys:
            if key and key in fields:
                entry = fields[key]
                help_text = entry[1] if len(entry) > 1 else (fields.get(name, [None, None]) + [None])[1]
                return entry[0], help_text
        return None, None

    def choice_words(self, operation_id: str, field: str, value: str, lang: str) -> str | None:
        choices = self.words(lang).get("choices", {})
        system = operation_id.split(".")[0]
        for key in (f"{system}.{field}.{value}", f"{field}.{value}", value):
            if key in choices:
                return str(choices[key])
        return None

    def side_name(self, request: Mapping[str, Any] | None, side: str, lang: str) -> str:
        """A side of a contest by the name the request gives it, else by its field's words."""
        named = (request or {}).get(side)
        if isinstance(named, Mapping) and named.get("name"):
            return str(named["name"])
        label = self.words(lang).get("fields", {}).get(side)
        return str(label[0]) if label else side

    def outcome_words(self, outcome: str, lang: str, request: Mapping[str, Any] | None = None) -> str:
        """An odds outcome (``wins:Orks``, ``a``, ``injury:Bo:grave``, ``god:3``) in the user's words, as /play
        says it (service/web/play.js, ``outcomeWords``)."""
        outcomes = self.words(lang).get("outcomes", {})
        kind, *args = str(outcome).split(":")
        rest = ":".join(args)
        side = args[0] if len(args) == 1 and args[0] in ("a", "b") and (request or {}).get(args[0]) else None
        if kind in ("wins", "first", "escapes"):
            name = self.side_name(request, side, lang) if side else rest
            return _fill(outcomes.get(kind, "{name}"), name=name)
        if kind == "injury" and args:
            severity = outcomes.get(f"severity.{args[-1]}", args[-1])
            return _fill(outcomes.get("injury", "{severity} {name}"), name=":".join(args[:-1]), severity=severity)
        if kind == "god" and args and args[0].isdigit():
            gods = (request or {}).get("gods") or []
            god = gods[int(args[0]) - 1] if 0 < int(args[0]) <= len(gods) else None
            return _fill(outcomes.get("god" if god else "god_unnamed", "{n}"), name=god or "", n=args[0])
        if kind in ("a", "b") and not args:
            return _fill(outcomes.get("wins", "{name}"), name=self.side_name(request, kind, lang))
        if kind == "failure" and args and args[0].isdigit():
            return _fill(outcomes.get("failure_at", "{n}"), n=int(args[0]) + 1)
        return str(outcomes.get(kind, kind.replace("_", " ")))

    def distribution_words(self, key: str, lang: str, request: Mapping[str, Any] | None = None) -> str:
        """A distribution's or an expected value's key (``matching:Bo``, ``successes_a``, ``drawn:red``) in the
        user's words, as /play says it (service/web/play.js, ``distributionWords``)."""
        names = self.words(lang).get("distributions", {})
        kind, *args = key.split(":")
        rest = ":".join(args)
        if kind == "drawn" and args:
            colour = self.words(lang).get("choices", {}).get(args[0], args[0])
            return _fill(names.get("drawn", "{colour}"), colour=colour)
        if kind == "successes" and args:
            return _fill(names.get("successes_of", "{name}"), name=rest)
        if args and f"{kind}_of" in names:
            side = args[0] if len(args) == 1 and args[0] in ("a", "b") and (request or {}).get(args[0]) else None
            return _fill(names[f"{kind}_of"], name=self.side_name(request, side, lang) if side else rest)
        sided = re.fullmatch(r"(.*)_(a|b)", kind)
        if sided and f"{sided.group(1)}_side" in names:
            return _fill(names[f"{sided.group(1)}_side"], name=self.side_name(request, sided.group(2), lang))
        label = str(names.get(kind, kind.replace("_", " ")))
        return f"{label}: {rest}" if args else label

    def ui(self, key: str, lang: str) -> str | None:
        value = self.words(lang).get("ui", {}).get(key)
        return str(value) if value is not None else None


def _fill(template: Any, **values: Any) -> str:
    text = str(template)
    for name, value in values.items():
        text = text.replace("{" + name + "}", str(value))
    return text


# -- loading from the service ------------------------------------------------------------------------

class CatalogSource:
    """Fetches the catalog from the service once per process (and again after ``ttl`` seconds); a
    failed fetch is not remembered, so the next interaction tries again."""

    def __init__(self, base_url: str, *, api_key: str | None = None, ttl: float = 600.0,
                 timeout: float = 2.0) -> None:
        self.base_url = base_url.rstrip("/")
        self.api_key = api_key
        self.ttl = ttl
        self.timeout = timeout
        self._lock = threading.Lock()
        self._catalog: Catalog | None = None
        self._loaded_at = 0.0

    def get(self) -> Catalog:
        with self._lock:
            if self._catalog is None or time.monotonic() - self._loaded_at > self.ttl:
                self._catalog = fetch_catalog(self.base_url, api_key=self.api_key, timeout=self.timeout)
                self._loaded_at = time.monotonic()
            return self._catalog


def fetch_catalog(base_url: str, *, api_key: str | None = None, timeout: float = 5.0) -> Catalog:
    headers = {"Authorization": f"Bearer {api_key}"} if api_key else {}
    with requests.Session() as session:
        spec_response = session.get(f"{base_url}/openapi.json", headers=headers, timeout=timeout)
        spec_response.raise_for_status()
        labels_response = session.get(f"{base_url}/play/assets/labels.js", timeout=timeout)
        labels = parse_labels(labels_response.text) if labels_response.ok else {}
    return Catalog(spec=spec_response.json(), labels=labels)


def catalog_from_files(spec_path: str, labels_path: str | None) -> Catalog:
    with open(spec_path, encoding="utf-8") as handle:
        text = handle.read()
    if spec_path.endswith((".yaml", ".yml")):
        import yaml  # type: ignore[import-untyped]  # only for a local spec file; the app reads /openapi.json

        spec = yaml.safe_load(text)
    else:
        spec = json.loads(text)
    labels: Mapping[str, Any] = {}
    if labels_path:
        with open(labels_path, encoding="utf-8") as handle:
            labels = parse_labels(handle.read())
    return Catalog(spec=spec, labels=labels)


_TOKEN = re.compile("|".join((
    r"\s+", r"//[^\n]*", r"/\*.*?\*/",                      # space and comments
    r'"(?:[^"\\]|\\.)*"', r"'(?:[^'\\]|\\.)*'",            # strings
    r"[{}\[\]:,]",                                          # punctuation
    r"[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*",               # names, and references such as de.systems
    r"-?\d+(?:\.\d+)?",                                      # numbers
)), re.S)


def parse_labels(source: str) -> dict[str, Any]:
    """``const de = {...}`` and ``const en = {...}`` of labels.js as Python data: the file is plain object
    literals (keys bare or quoted, strings in double quotes, trailing commas), which read as JSON once
    the bare keys are quoted and the trailing commas dropped."""
    found: dict[str, Any] = {}
    for lang in LANGS:
        start = re.search(rf"\bconst\s+{lang}\s*=\s*{{", source)
        if not start:
            continue
        found[lang] = _literal(source, start.end() - 1, found)
    return found


def _literal(source: str, position: int, known: dict[str, Any]) -> Any:
    out: list[str] = []
    depth = 0
    for match in _TOKEN.finditer(source, position):
        token = match.group(0)
        if token.isspace() or token.startswith(("//", "/*")):
            continue
        if token in "{[":
            depth += 1
        elif token in "}]":
            depth -= 1
            if out and out[-1] == ",":
                out.pop()
        if token.startswith("'"):
            token = json.dumps(token[1:-1].replace("\\'", "'"))
        elif "." in token and re.fullmatch(r"[A-Za-z_$][\w$.]*", token):
            value: Any = known  # a reference to a part of a language read before (`systems: de.systems`)
            for part in token.split("."):
                value = value.get(part) if isinstance(value, dict) else None
            token = json.dumps(value)
        elif re.fullmatch(r"[A-Za-z_$][\w$]*", token) and token not in ("true", "false", "null"):
            token = json.dumps(token)
        out.append(token)
        if depth == 0:
            break
    return json.loads("".join(out))
