"""The slash commands, generated from the service's operation table (its OpenAPI description) and the
words of its catalog: one command per system, one subcommand per rolling operation (an operation with an
``.odds`` twin), named after the operation id's last part; one option per request field, named after
the field; German names and descriptions from the /play catalog; choices for enums; a compact text
option (see ``compact``) for a field that is an object or a list; ``odds`` and ``secret`` on every
subcommand. The same table turns an interaction's options back into the request body."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from wurfwerk_discord import discord, sessions
from wurfwerk_discord.catalog import Catalog
from wurfwerk_discord.compact import Compact, CompactError, Words, is_counts, kind
from wurfwerk_discord.words import say

# Randomness controls and batch plumbing: a chat command rolls with the service's dice. (A table rolling
# physical dice uses /play or the SDK; `manual` needs a list per event, which an option cannot hold well.)
EXCLUDED_FIELDS = frozenset({"seed", "manual", "ticket", "idempotency_key", "session"})
ODDS, SECRET = "odds", "secret"
SCALARS = {"integer": discord.OPTION_INTEGER, "number": discord.OPTION_NUMBER,
           "boolean": discord.OPTION_BOOLEAN, "string": discord.OPTION_STRING}
# Operations that may take longer than Discord's 3 s (whole encounters, above all their odds at the limits):
# answered with a deferred response and a follow-up through the interaction's webhook.
SLOW = ("encounter",)
# Systems whose chance is marbles drawn from a bag, not dice: their words say "ziehen", never "würfeln".
DRAWING_SYSTEMS = frozenset({"beutelschneider"})


class OptionError(ValueError):
    """An option the player typed that does not become a request: which option, and why (``cause``)."""

    def __init__(self, option: str, cause: CompactError) -> None:
        super().__init__(f"{option}: {cause}")
        self.option = option
        self.cause = cause


@dataclass
class OptionSpec:
    name: str
    path: tuple[str, ...]
    schema: Mapping[str, Any]
    compact: bool
    required: bool
    option: dict[str, Any]


@dataclass
class Subcommand:
    system: str
    name: str
    operation_id: str
    schema: Mapping[str, Any]
    options: dict[str, OptionSpec] = field(default_factory=dict)

    @property
    def slow(self) -> bool:
        return self.name in SLOW


class Registry:
    """The command list and, for each subcommand, how its options become a request body."""

    def __init__(self, catalog: Catalog) -> None:
        self.catalog = catalog
        self.compact = Compact(catalog.resolve, Words(self._field_aliases, self._value_aliases))
        self.subcommands: dict[tuple[str, str], Subcommand] = {}
        self.skipped: dict[str, str] = {}
        # per command, option or subcommand (by id) and locale (None: English): shorter whole descriptions,
        # taken in turn while a command is over Discord's 4,000 characters (fit_budget)
        self.shorter: dict[int, dict[str | None, list[str]]] = {}
        self.commands = self._build()

    # -- aliases (German words a player may type in a compact text) ------------------------------------

    def _field_aliases(self, name: str) -> list[str]:
        fields = self.catalog.words("de").get("fields", {})
        labels = [entry[0] for key, entry in fields.items() if key == name or key.endswith(f".{name}")]
        return _alias_words(labels, stems=False)

    def _value_aliases(self, field_name: str, value: str) -> list[str]:
        choices = self.catalog.words("de").get("choices", {})
        labels = [text for key, text in choices.items()
                  if key == value or key.endswith(f".{field_name}.{value}") or key == f"{field_name}.{value}"]
        return _alias_words(labels)

    # -- building ----------------------------------------------------------------------------------

    def _build(self) -> list[dict[str, Any]]:
        operations = self.catalog.operations()
        systems: dict[str, list[str]] = {}
        for operation_id in operations:
            if f"{operation_id}.odds" in operations:
                systems.setdefault(operation_id.split(".")[0], []).append(operation_id)
        commands = []
        for system, operation_ids in systems.items():
            subcommands = []
            for operation_id in operation_ids:
                sub = self._subcommand(system, operation_id, operations[operation_id][1])
                if sub is not None:
                    subcommands.append(sub)
            words = "command_draws" if system in DRAWING_SYSTEMS else "command"
            command = {
                "type": discord.COMMAND_CHAT_INPUT,
                "name": system,
                "description": say(words, "en", system=self._system_name(system)),
                "description_localizations": {"de": say(words, "de", system=self._system_name(system))},
                "options": subcommands[: discord.MAX_OPTIONS],
                "integration_types": [discord.GUILD_INSTALL, discord.USER_INSTALL],
                "contexts": [discord.CONTEXT_GUILD, discord.CONTEXT_BOT_DM, discord.CONTEXT_PRIVATE_CHANNEL],
            }
            fit_budget(command, self.shorter)
            commands.append(command)
        return [*commands, sessions.command()]

    def _system_name(self, system: str) -> str:
        return str(self.catalog.words("de").get("systems", {}).get(system, system.capitalize()))

    def _subcommand(self, system: str, operation_id: str, operation: Mapping[str, Any]) -> dict[str, Any] | None:
        name = operation_id.split(".", 1)[1]
        schema = self.catalog.request_schema(operation)
        sub = Subcommand(system, name, operation_id, schema)
        required = set(schema.get("required") or [])
        fields = {key: self.catalog.resolve(value) for key, value in (schema.get("properties") or {}).items()
                  if key not in EXCLUDED_FIELDS}
        example = self.catalog.example(operation) or {}
        specs = self._field_options(operation_id, fields, required, example, flatten=True)
        if len(specs) + 2 > discord.MAX_OPTIONS:
            specs = self._field_options(operation_id, fields, required, example, flatten=False)
        if len(specs) + 2 > discord.MAX_OPTIONS:
            self.skipped[operation_id] = f"{len(specs)} request fields: more than Discord's 25 options"
            return None
        specs.sort(key=lambda spec: not spec.required)  # Discord: required options come first
        for spec in specs:
            sub.options[spec.name] = spec
        label_en, help_en = self.catalog.operation_words(operation_id, "en")
        label_de, help_de = self.catalog.operation_words(operation_id, "de")
        summary = operation.get("summary") or label_en or name
        odds_words = "odds_option_draws" if system in DRAWING_SYSTEMS else "odds_option"
        extra = [
            {"type": discord.OPTION_BOOLEAN, "name": ODDS, "name_localizations": {"de": "chancen"}},
            {"type": discord.OPTION_BOOLEAN, "name": SECRET, "name_localizations": {"de": "geheim"}},
        ]
        for option, words in zip(extra, (odds_words, "secret_option"), strict=True):
            self._describe(option, [say(words, "en"), say(f"{words}_short", "en")],
                           [say(words, "de"), say(f"{words}_short", "de")])
        options = [spec.option for spec in specs] + extra
        _dedupe_localized_names(options)
        self.subcommands[(system, name)] = sub
        subcommand: dict[str, Any] = {"type": discord.OPTION_SUB_COMMAND, "name": name, "options": options}
        self._describe(subcommand, [*_sentences(help_en), label_en, _plain(summary), name],
                       [*_sentences(help_de), label_de] if label_de else [])
        if label_de:
            localized = _slug(label_de)
            if localized:
                subcommand["name_localizations"] = {"de": localized}
        return subcommand

    def _describe(self, item: dict[str, Any], english: list[str | None], german: list[str | None]) -> None:
        """An item's descriptions: the first candidate that fits Discord's 100 characters whole, in English and
        in German; the shorter ones that also fit are kept for fit_budget. Nothing is ever cut."""
        choices = {None: whole(english), "de": whole(german)}
        item["description"] = choices[None].pop(0) if choices[None] else str(item["name"]).replace("_", " ")
        if choices["de"]:
            item["description_localizations"] = {"de": choices["de"].pop(0)}
        self.shorter[id(item)] = {locale: found for locale, found in choices.items() if found}

    def _field_options(self, operation_id: str, fields: Mapping[str, Mapping[str, Any]], required: set[str],
                       example: Mapping[str, Any], *, flatten: bool) -> list[OptionSpec]:
        specs: list[OptionSpec] = []
        taken = set(fields) | {ODDS, SECRET}
        for name, schema in fields.items():
            what = kind(schema)
            leaves = schema.get("properties") or {}
            # an object of a few plain settings (advantages, an interval, an aftermath) becomes one option
            # per setting; a participant (it has a name) stays one compact option, beside its opponent
            if (flatten and what == "object" and leaves and not is_counts(schema, self.catalog.resolve)
                    and "name" not in leaves
                    and all(kind(self.catalog.resolve(leaf)) in SCALARS for leaf in leaves.values())
                    and not (set(leaves) & (taken - {name}))):
                for leaf, leaf_schema in leaves.items():
                    specs.append(self._option(operation_id, (name, leaf), self.catalog.resolve(leaf_schema),
                                              False, (example.get(name) or {}).get(leaf)))
                taken |= set(leaves)
                continue
            specs.append(self._option(operation_id, (name,), schema, name in required, example.get(name)))
        return specs

    def _option(self, operation_id: str, path: tuple[str, ...], schema: Mapping[str, Any], required: bool,
                example: Any) -> OptionSpec:
        name = path[-1]
        what = kind(schema)
        compact = what not in SCALARS
        label_de, help_de = self._field_words(operation_id, path, "de")
        label_en, help_en = self._field_words(operation_id, path, "en")
        english: list[str | None] = [*_sentences(help_en), label_en, _plain(schema.get("description") or ""),
                                     name.replace("_", " ")]
        german: list[str | None] = [*_sentences(help_de), label_de]
        option: dict[str, Any] = {"type": SCALARS.get(what, discord.OPTION_STRING), "name": name,
                                  "required": required}
        if compact:
            if example not in (None, [], {}):
                english = [*self._examples(schema, example, "en"), *english]
                german = [*self._examples(schema, example, "de"), *german]
            option["max_length"] = discord.STRING_OPTION_MAX
        elif "enum" in schema:
            values = [value for value in schema["enum"] if value is not None][: discord.MAX_CHOICES]
            worded = self._worded_field(operation_id, name, values)
            option["choices"] = [self._choice(operation_id, worded, str(value)) for value in values]
        elif what == "integer":
            for bound, key in (("minimum", "min_value"), ("maximum", "max_value")):
                if bound in schema and abs(schema[bound]) <= discord.INTEGER_OPTION_LIMIT:
                    option[key] = schema[bound]
        elif what == "string" and "maxLength" in schema:
            option["max_length"] = min(schema["maxLength"], discord.STRING_OPTION_MAX)
        self._describe(option, english, german)
        if label_de:
            localized = _slug(label_de)
            if localized:
                option["name_localizations"] = {"de": localized}
        return OptionSpec(name=name, path=path, schema=schema, compact=compact, required=required, option=option)

    def _field_words(self, operation_id: str, path: tuple[str, ...], lang: str) -> tuple[str | None, str | None]:
        """The catalog's words for a field; for a setting inside an object, the bare name's words only when
        no other system has a field of that name (``amount`` of an interval is not Erfahrung): else the
        object's words."""
        label, help_text = self.catalog.field_words(operation_id, list(path), lang)
        if len(path) > 1 and label is not None:
            system = operation_id.split(".")[0]
            fields = self.catalog.words(lang).get("fields", {})
            specific = any(key in fields for key in (f"{operation_id}.{path[-1]}", f"{path[-2]}.{path[-1]}",
                                                       f"{system}.{path[-1]}"))
            if not specific and self._top_fields().get(path[-1], {system}) - {system}:
                parent, _ = self.catalog.field_words(operation_id, list(path[:-1]), lang)
                return parent, parent  # the interval's amount is its "Dauer je Wurf", with its unit beside it
        return label, help_text

    def _top_fields(self) -> dict[str, set[str]]:
        """Each top-level request field name, by the systems whose operations have it."""
        if not hasattr(self, "_top"):
            top: dict[str, set[str]] = {}
            for operation_id, (_, operation) in self.catalog.operations().items():
                for name in self.catalog.request_schema(operation).get("properties") or {}:
                    top.setdefault(name, set()).add(operation_id.split(".")[0])
            self._top = top
        return self._top

    def _worded_field(self, operation_id: str, field_name: str, values: list[Any]) -> str:
        """The field whose catalog words name these choices: the field itself, else one with the same choices
        (``mortal_danger`` after a fight takes the words of ``danger``: gering, deutlich, besonders groß)."""
        def worded(name: str) -> bool:
            return all(self.catalog.choice_words(operation_id, name, str(value), "de") for value in values)

        if worded(field_name):
            return field_name
        same = sorted(name for name, choices in self._enums().items() if choices == frozenset(map(str, values)))
        return next((name for name in same if worded(name)), field_name)

    def _enums(self) -> dict[str, frozenset[str]]:
        """Every request field with choices, by name, with its choices (over all operations)."""
        if not hasattr(self, "_enum_fields"):
            found: dict[str, frozenset[str]] = {}

            def visit(schema: Mapping[str, Any], depth: int) -> None:
                for name, member in (schema.get("properties") or {}).items():
                    member = self.catalog.resolve(member)
                    if "enum" in member:
                        found.setdefault(name, frozenset(str(value) for value in member["enum"] if value is not None))
                    if depth < 4:
                        visit(member, depth + 1)

            for _, operation in self.catalog.operations().values():
                visit(self.catalog.request_schema(operation), 0)
            self._enum_fields = found
        return self._enum_fields

    def _choice(self, operation_id: str, field_name: str, value: str) -> dict[str, Any]:
        choice: dict[str, Any] = {"name": discord.clip(self.catalog.choice_words(operation_id, field_name, value, "en")
                                                       or value, discord.CHOICE_NAME_MAX), "value": value}
        german = self.catalog.choice_words(operation_id, field_name, value, "de")
        if german:
            choice["name_localizations"] = {"de": discord.clip(german, discord.CHOICE_NAME_MAX)}
        return choice

    def _examples(self, schema: Mapping[str, Any], example: Any, lang: str) -> list[str]:
        """The documented example in compact form, in the user's words, as hints from the longest to the
        shortest: the whole example, then (of a list) its first item and an ellipsis."""
        german = lang == "de"
        shown = [self.compact.render(schema, example, terse=True, german=german)]
        if isinstance(example, list) and len(example) > 1:
            shown.append(self.compact.render(schema, example[:1], terse=True, german=german) + "; …")
        return [say(hint, lang, example=text) for text in shown if text.strip()
                for hint in ("compact_hint", "compact_hint_short")]

    # -- an interaction's options -> a request -----------------------------------------------------------

    def request(self, system: str, name: str, given: list[Mapping[str, Any]]) -> tuple[Subcommand, dict[str, Any],
                                                                                        bool, bool]:
        """(subcommand, body, odds?, secret?) for a chat-input interaction's subcommand options."""
        sub = self.subcommands[(system, name)]
        body: dict[str, Any] = {}
        odds = secret = False
        for option in given:
            option_name, value = option["name"], option.get("value")
            if option_name == ODDS:
                odds = bool(value)
                continue
            if option_name == SECRET:
                secret = bool(value)
                continue
            spec = sub.options.get(option_name)
            if spec is None:
                raise KeyError(option_name)
            try:
                if spec.compact:
                    value = self.compact.parse(spec.schema, str(value), option_name)
                value = _named(value, spec.path[-1])
            except CompactError as error:
                raise OptionError(option_name, error) from error
            target = body
            for part in spec.path[:-1]:
                target = target.setdefault(part, {})
            target[spec.path[-1]] = value
        return sub, body, odds, secret

    # -- the player's words for options and fields, in errors ----------------------------------------------

    def option_word(self, system: str, name: str, option: str, lang: str) -> str:
        """An option as the player sees it in their client (German: its localized name)."""
        if option in (ODDS, SECRET):
            return {ODDS: "chancen", SECRET: "geheim"}[option] if lang == "de" else option
        spec = self.subcommands[(system, name)].options.get(option)
        if spec is None:
            return option
        return str((spec.option.get("name_localizations") or {}).get(lang, option)) if lang == "de" else option

    def path_words(self, system: str, name: str, path: str, lang: str) -> str | None:
        """A field path the service names (``parties.0.members.0.seat``) as the option it came from, with the
        field inside it in the user's words (``parteien (Platz)``); None when no option holds it."""
        sub = self.subcommands.get((system, name))
        if sub is None:
            return None
        parts = path.split(".")
        holders = [spec for spec in sub.options.values() if list(spec.path) == parts[: len(spec.path)]]
        if not holders:
            return None
        spec = max(holders, key=lambda each: len(each.path))
        shown = self.option_word(system, name, spec.name, lang)
        inner = [part for part in parts[len(spec.path):] if not part.isdigit()]
        if inner:
            label = self.catalog.field_words(sub.operation_id, inner, lang)[0]
            if label:
                shown += f" ({label})"
        return shown

    def error_text(self, system: str, name: str, error: OptionError, lang: str) -> str:
        """Why an option did not parse, once, in the user's words: the option as typed, then the reason
        (the field inside it, when the reason is about one, and the choices in the user's words)."""
        sub = self.subcommands[(system, name)]
        cause = error.cause
        params = dict(cause.params)
        if "word" in params:  # as the player typed it, shown as typed
            params["word"] = discord.escape_markdown(params["word"])
        if cause.values:
            params["choices"] = ", ".join(self.catalog.choice_words(sub.operation_id, params.get("field", ""),
                                                                    str(value), lang) or str(value)
                                          for value in cause.values)
        detail = say(cause.key, lang, **params)
        field_name = params.get("field", "")
        if field_name and field_name != error.option:
            spec = sub.options.get(error.option)
            inside = [*(spec.path if spec else ()), field_name]
            label = self.catalog.field_words(sub.operation_id, inside, lang)[0]
            detail = f"{label or field_name}: {detail}"
        return say("bad_input", lang, option=self.option_word(system, name, error.option, lang), detail=detail)


def _named(value: Any, key: str) -> Any:
    """A request value with every name trimmed; a name that is empty after trimming is refused (Discord
    cannot show a card field without a name, and nobody is called " ")."""
    if key == "name" and isinstance(value, str):
        if not value.strip():
            raise CompactError("want_name", field=key)
        return value.strip()
    if isinstance(value, dict):
        return {item_key: _named(item, item_key) for item_key, item in value.items()}
    if isinstance(value, list):
        return [_named(item, key) for item in value]
    return value


def whole(candidates: list[str | None], limit: int = discord.DESCRIPTION_MAX) -> list[str]:
    """The candidates that fit ``limit`` whole (spaces collapsed), in order, each once."""
    found: list[str] = []
    for text in candidates:
        tidy = " ".join(str(text or "").split())
        if tidy and len(tidy) <= limit and tidy not in found:
            found.append(tidy)
    return found


def fit_budget(command: dict[str, Any], shorter: Mapping[int, Mapping[str | None, list[str]]]) -> None:
    """Discord counts the names, descriptions and choices of a command together, per locale (at most 4,000
    characters): while a locale is over, the longest description that has a shorter whole alternative
    takes it. A description is never cut."""
    def walk(item: dict[str, Any]) -> list[dict[str, Any]]:
        return [item] + [found for option in item.get("options") or [] for found in walk(option)]

    def text(item: dict[str, Any], locale: str | None) -> str:
        return str((item.get("description_localizations") or {}).get(locale) if locale else item["description"])

    for locale in (None, "de"):
        while discord.command_size(command, locale) > discord.COMMAND_TOTAL_MAX:
            items = [item for item in walk(command) if shorter.get(id(item), {}).get(locale)]
            if not items:
                return
            item = max(items, key=lambda each: len(text(each, locale)))
            replacement = shorter[id(item)][locale].pop(0)
            if locale:
                item["description_localizations"][locale] = replacement
            else:
                item["description"] = replacement


def _dedupe_localized_names(options: list[dict[str, Any]]) -> None:
    seen: set[str] = set()
    for option in options:
        localized = option.get("name_localizations", {}).get("de")
        if localized is None:
            seen.add(option["name"])
            continue
        if localized in seen:
            del option["name_localizations"]
            seen.add(option["name"])
        else:
            seen.add(localized)


def _sentences(text: str | None) -> list[str]:
    """A help text whole, then its first sentence (a sentence ends after a word of two lowercase letters or
    more, so that "z. B." and "e.g." do not end one)."""
    if not text:
        return []
    first = re.split(r"(?<=[a-zäöüß]{2}[.!?])\s+(?=[A-ZÄÖÜ„\"(])", text.strip(), maxsplit=1)[0]
    return [text, first]


def _plain(text: str) -> str:
    text = re.sub(r"`([^`]*)`", r"\1", text).replace("**", "")
    first = re.split(r"(?<=[.!?])\s", text.strip(), maxsplit=1)[0]
    return " ".join(first.split())


def _slug(label: str) -> str | None:
    """A German label as a command or option name: lowercase letters, digits, '-' and '_', 1..32."""
    text = label.split("(")[0].strip().lower()
    text = re.sub(r"[\s/]+", "_", text)
    text = "".join(character for character in text if character in "-_" or unicodedata.category(character)[0] in "LN")
    text = text.strip("_-")
    while len(text) > discord.NAME_MAX and "_" in text:
        text = text.rsplit("_", 1)[0]
    text = text[: discord.NAME_MAX]
    return text if discord.valid_name(text) else None


ARTICLES = frozenset({"der", "die", "das", "den", "dem", "des", "ein", "eine", "einen", "je", "im"})


def _alias_words(labels: list[str], *, stems: bool = True) -> list[str]:
    """The words a player may type for a label: its first word (not an article), the parts of a
    "Werkzeug/Ausrüstung", the whole label as a name; for a value, "aktiver Vorteil" also as "aktiv"."""
    words: list[str] = []
    for label in labels:
        core = label.split("(")[0].strip().lower()
        if not core or core.startswith("—"):
            continue
        first, *others = re.split(r"[\s,]+", core)
        candidates = [] if first in ARTICLES else [first, *first.split("/")]
        if stems and first.endswith("iver"):
            candidates.append(first[:-2])  # "aktiver Vorteil" -> "aktiv"
        # a value's other words too ("besonders einfach" -> "einfach"): the parser takes only a word that no
        # other value of the field has, so "besonders", shared with "besonders schwer", names neither
        extra = [word for word in others if len(word) >= 4 and word not in ARTICLES] if stems else []
        for word in (*candidates, _slug(label) or first, *extra):
            if word and word not in words:
                words.append(word)
    return words
