"""Problem messages that a problem says in the request's language (API.md §1: ``title``, ``detail``
and every ``errors`` message come from the same catalogs as the chat lines).

A message is raised where the fault is found, in English, and knows its catalog id and parameters:
``say("must be at most %(max)s", max=10)`` is the English string "must be at most 10" (so logs,
tests and ``str()`` read English), and ``localized(message, "de")`` is „darf höchstens 10 sein“.
marshmallow's own messages never reach a client: ``word_field`` gives every field of the request
schemas our message for each of marshmallow's error keys and validators (``fields.WordedSchema``
applies it to every declared field), through the public ``error_messages`` and ``error`` arguments,
whose ``str.format`` call a ``Template`` answers with a ``Message``.

No Flask here: rules raise these messages too.
"""

from __future__ import annotations

import copy
from collections.abc import Iterable, Mapping
from typing import Any, Self

from babel.numbers import format_decimal
from marshmallow import fields, validate
from marshmallow.types import Validator

from service.platform.words.catalogs import translations

__all__ = ["advised", "advised_n", "Message", "Number", "Template", "localized", "say", "say_n", "word_field",
           "Choices"]


class Message(str):
    """An English message (the ``str`` itself) that can be said in another language.

    ``params`` may hold messages themselves (a limit's message inside a pool's), said in the same
    language; a parameter that is a list is joined with commas."""

    msgid: str
    plural: str | None
    plural_count: int
    context: str | None
    params: Mapping[str, Any]

    def __new__(cls, msgid: str, params: Mapping[str, Any] | None = None, *, plural: str | None = None,
                count: int | None = None, context: str | None = None) -> Self:
        params = dict(params or {})
        if plural is not None:
            params.setdefault("count", count)
        english = cls._render(msgid if plural is None or count == 1 else plural, params, "en")
        message = super().__new__(cls, english)
        message.msgid, message.plural, message.context = msgid, plural, context
        message.plural_count = count if count is not None else 1
        message.params = params
        return message

    @staticmethod
    def _render(text: str, params: Mapping[str, Any], lang: str, glossary: Mapping[str, str] | None = None) -> str:
        if not params:
            return text
        return text % {name: _said(value, lang, glossary) for name, value in params.items()}

    def say(self, lang: str, glossary: Mapping[str, str] | None = None) -> str:
        """This message in ``lang``; ``glossary`` (German term -> API term) lets a refused choice
        name the API word for a German one."""
        t = translations(lang)
        if self.plural is not None:
            text = (t.npgettext(self.context, self.msgid, self.plural, self.plural_count) if self.context
                    else t.ngettext(self.msgid, self.plural, self.plural_count))
        else:
            text = t.pgettext(self.context, self.msgid) if self.context else t.gettext(self.msgid)
        return self._render(text, self.params, lang, glossary)

    def limit(self) -> dict | None:
        """The ``{name, value, setting}`` of the limit this message (or one inside it) reports."""
        for value in self.params.values():
            if isinstance(value, Message) and (found := value.limit()) is not None:
                return found
        return None


class LimitMessage(Message):
    """A value over a configured limit: the problem carries ``limit`` for operators."""

    limit_member: dict

    def __new__(cls, msgid: str, params: Mapping[str, Any], *, limit: dict) -> Self:
        message = super().__new__(cls, msgid, params)
        message.limit_member = dict(limit)
        return message

    def limit(self) -> dict | None:
        return self.limit_member


class Template(Message):
    """A message with ``{name}`` fields filled by marshmallow (``error_messages``, a validator's
    ``error``): ``format`` gives the Message with those parameters. The msgid uses ``%(name)s``;
    with ``plural``, the parameter ``counted`` chooses the plural form."""

    template_plural: str | None
    counted: str | None

    def __new__(cls, msgid: str, plural: str | None = None, counted: str | None = None) -> Self:
        template = super().__new__(cls, msgid)
        template.template_plural, template.counted = plural, counted
        return template

    def format(self, *args: Any, **kwargs: Any) -> Message:  # noqa: A003 - marshmallow calls str.format
        if self.template_plural is None or self.counted is None:
            return Message(self.msgid, kwargs)
        return Message(self.msgid, kwargs, plural=self.template_plural, count=kwargs[self.counted])


class Choices(Message):
    """"must be one of: a, b, c" for a refused choice, naming the API word of a German one."""

    choices: list[str]
    value: object

    def __new__(cls, choices: Iterable[object], value: object) -> Self:
        names = [str(choice) for choice in choices]
        message = super().__new__(cls, "must be one of: %(choices)s", {"choices": ", ".join(names)})
        message.choices, message.value = names, value
        return message

    def say(self, lang: str, glossary: Mapping[str, str] | None = None) -> str:
        glossary = glossary or {}
        t = translations(lang)
        listed = self.choices
        if lang == "de":  # the glossary's German words, for a German reader
            german: dict[str, str] = {}
            for term, api in glossary.items():
                german.setdefault(api, term)
            listed = [f"{choice} ({german[choice]})" if choice in german else choice for choice in self.choices]
        text = t.gettext("must be one of: %(choices)s") % {"choices": ", ".join(listed)}
        folded = {term.casefold(): api for term, api in glossary.items()}
        meant = folded.get(self.value.strip().casefold()) if isinstance(self.value, str) else None
        if meant in self.choices:
            text += t.gettext("; “%(word)s” is called %(choice)s here") % {"word": self.value, "choice": meant}
        return text


class _ChoiceTemplate(Template):
    choices: list

    def __new__(cls, choices: Iterable[object]) -> Self:
        template = super().__new__(cls, "must be one of: %(choices)s")
        template.choices = list(choices)
        return template

    def format(self, *args: Any, input: object = None, **kwargs: Any) -> Message:  # noqa: A002 - marshmallow's name
        return Choices(self.choices, input)


def plural_template(singular: str, plural: str, counted: str) -> Template:
    """A Template whose parameter ``counted`` chooses between ``singular`` and ``plural``."""
    return Template(singular, plural, counted)


class Number(str):
    """A number parameter, written as the message's language writes it (Babel): "2.5", German „2,5“."""

    value: float

    def __new__(cls, value: float) -> Self:
        number = super().__new__(cls, format_decimal(value, locale="en"))
        number.value = value
        return number

    def say(self, lang: str, glossary: Mapping[str, str] | None = None) -> str:
        return format_decimal(self.value, locale=lang)


def say(msgid: str, **params: Any) -> Message:
    """A problem message: ``msgid`` is the English text with ``%(name)s`` placeholders."""
    return Message(msgid, params)


def advised(msgid: str, **params: Any) -> Message:
    """A line of advice (API.md §1.10): said in the answer's language like a problem message, but a
    chat line, not a refusal (its own extraction keyword, so the refusal corpus does not count it)."""
    return Message(msgid, params)


def advised_n(singular: str, plural: str, count: int, **params: Any) -> Message:
    """A line of advice with a count (``%(count)d``)."""
    return Message(singular, params, plural=plural, count=count)


def say_n(singular: str, plural: str, count: int, **params: Any) -> Message:
    """A problem message with a count (``%(count)d``), in the plural form ``count`` needs."""
    return Message(singular, params, plural=plural, count=count)


def _said(value: object, lang: str, glossary: Mapping[str, str] | None = None) -> object:
    if isinstance(value, (Message, Number)):
        return value.say(lang, glossary)
    if isinstance(value, (list, tuple)):
        return ", ".join(str(_said(item, lang, glossary)) for item in value)
    return value


def localized(message: str, lang: str, glossary: Mapping[str, str] | None = None) -> str:
    """``message`` in ``lang``: a Message is translated; any other text is passed on as it is."""
    if isinstance(message, Message):
        return message.say(lang, glossary)
    return str(message)


# -- marshmallow's messages, ours instead ------------------------------------------------------

_FIELD_MESSAGES = {
    "required": Template("is required"),
    "null": Template("must not be null"),
    "validator_failed": Template("is not a valid value"),
    "too_large": Template("is too large a number"),
    "special": Template("must be a finite number"),
    "invalid_utf8": Template("must be valid UTF-8 text"),
}
# "invalid"/"type" depend on the kind of field (most specific class first).
_INVALID_BY_KIND = (
    (fields.Boolean, Template("must be true or false")),
    (fields.Integer, Template("must be an integer")),
    (fields.Number, Template("must be a number")),
    (fields.String, Template("must be a string")),
    (fields.List, Template("must be a list")),
    (fields.Tuple, Template("must be a list")),
    (fields.Dict, Template("must be an object")),
    (fields.Nested, Template("must be an object")),
)
SCHEMA_MESSAGES: dict[str, str] = {"unknown": Template("is not a field of this request"),
                   "type": Template("must be an object")}

_RANGE = {"min": Template("must be at least %(min)s"), "max": Template("must be at most %(max)s"),
          "all": Template("must be between %(min)s and %(max)s")}
_RANGE_EXCLUSIVE = {"min": Template("must be more than %(min)s"), "max": Template("must be less than %(max)s"),
                    "all": Template("must be more than %(min)s and less than %(max)s")}
_TEXT_LENGTH = {
    "min": plural_template("must be at least %(min)s character long", "must be at least %(min)s characters long",
                           "min"),
    "max": plural_template("must be at most %(max)s character long", "must be at most %(max)s characters long",
                           "max"),
    "all": Template("must be %(min)s to %(max)s characters long"),
    "equal": plural_template("must be exactly %(equal)s character long", "must be exactly %(equal)s characters long",
                             "equal"),
}
_LIST_LENGTH = {
    "min": plural_template("needs at least %(min)s entry", "needs at least %(min)s entries", "min"),
    "max": plural_template("takes at most %(max)s entry", "takes at most %(max)s entries", "max"),
    "all": Template("needs %(min)s to %(max)s entries"),
    "equal": plural_template("needs exactly %(equal)s entry", "needs exactly %(equal)s entries", "equal"),
}


def word_field(field: fields.Field) -> None:
    """Give ``field`` (and the fields inside a list or mapping) our messages where it still has
    marshmallow's defaults; a message a schema chose itself stays."""
    messages = dict(field.error_messages)
    for key, template in _FIELD_MESSAGES.items():
        if key in messages and not isinstance(messages[key], Message):
            messages[key] = template
    for key in ("invalid", "type"):
        if key in messages and not isinstance(messages[key], Message):
            messages[key] = next((template for kind, template in _INVALID_BY_KIND if isinstance(field, kind)),
                                 Template("is not a valid value"))
    field.error_messages = messages
    textual = isinstance(field, fields.String)
    field.validators = [_worded_validator(validator, textual) for validator in field.validators]
    for inner in (getattr(field, "inner", None), getattr(field, "key_field", None),
                  getattr(field, "value_field", None)):
        if isinstance(inner, fields.Field):
            word_field(inner)


def _worded_validator(validator: Validator, textual: bool) -> Validator:
    """A copy of a marshmallow validator with our messages (a validator may be shared by fields)."""
    if isinstance(validator, validate.OneOf):
        if isinstance(validator.error, Message) or validator.error != validator.default_message:
            return validator
        worded: validate.Validator = copy.copy(validator)
        worded.error = _ChoiceTemplate(validator.choices)
        return worded
    if isinstance(validator, validate.Range) and not isinstance(validator.error, Message):
        if validator.error:
            return validator
        inclusive = validator.min_inclusive and validator.max_inclusive
        table = _RANGE if inclusive else _RANGE_EXCLUSIVE
    elif isinstance(validator, validate.Length) and not isinstance(validator.error, Message):
        if validator.error:
            return validator
        table = _TEXT_LENGTH if textual else _LIST_LENGTH
    else:
        return validator
    worded = copy.copy(validator)
    for part, template in table.items():
        setattr(worded, f"message_{part}", template)
    return worded
