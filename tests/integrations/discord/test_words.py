"""Issue 49, the words a player reads (../shared/reviews/words-2026-12-04.md): every card kind and every
error in both languages, walked for raw API keys and English words on German cards; numbers with decimal
commas; option descriptions written to fit, never cut; every example an option's description shows read
back by the app's own parser; choice words that name one choice; no dice in the words of a system that
draws marbles."""

from __future__ import annotations

import re
import time
from typing import Any

import pytest

from tests.integrations.discord.limits import response_errors
from tests.integrations.discord.support import example_options
from wurfwerk_discord.card import card_link, roll_from_link
from wurfwerk_discord.commands import DRAWING_SYSTEMS, fit_budget
from wurfwerk_discord.compact import kind
from wurfwerk_discord.words import say

COMMAND, COMPONENT, MODAL_SUBMIT = 2, 3, 5
ROLLER = {"id": "1", "type": 2, "user": {"id": "7"}}


def shown_texts(answer: dict) -> list[str]:
    """Every text of an answer a player reads (not the share link's address, which nobody reads)."""
    data = answer.get("data") or {}
    texts = [data.get("content") or "", data.get("title") or ""]
    for embed in data.get("embeds") or []:
        texts += [embed.get("title") or "", re.sub(r"\]\(https?://[^)]+\)", "]", embed.get("description") or ""),
                  (embed.get("footer") or {}).get("text") or "", (embed.get("author") or {}).get("name") or ""]
        texts += [part for field in embed.get("fields") or [] for part in (field["name"], field["value"])]
    for row in data.get("components") or []:
        for item in row.get("components") or []:
            texts += [item.get("label") or "", item.get("placeholder") or ""]
    return [text for text in texts if text]


def post(discord_client, url: str, interaction: dict, webhooks) -> dict:
    response = discord_client.post(url, interaction)
    assert response.status_code == 200, response.text
    answer = response.json()
    if answer["type"] == 5:  # deferred: the card is the edit of the thinking message
        answer = {"type": 4, "data": webhooks.wait_for(interaction["token"], "PATCH")["json"]}
    assert not response_errors(answer), (response_errors(answer), answer)
    return answer


def every_card(replicas, discord_client, webhooks, registry, catalog, locale: str) -> list[tuple[str, dict]]:
    """Every kind of answer: each subcommand's card and odds table, every follow-up, the narration form,
    and each kind of error (of the parser, of the service, of a button)."""
    url = replicas[0].url
    found: list[tuple[str, dict]] = []
    for (system, name), sub in sorted(registry.subcommands.items()):
        for odds in (False, True):
            options = example_options(registry, catalog, sub) + ([{"name": "odds", "type": 5, "value": True}]
                                                                 if odds else [])
            found.append((f"{system} {name} odds={odds}",
                          post(discord_client, url, discord_client.command(system, name, options, locale=locale),
                               webhooks)))
    for title, answer in list(found):  # every follow-up a card offers, pressed by its roller
        for row in (answer["data"].get("components") or []):
            for button in row["components"]:
                message = {"id": "5", "embeds": answer["data"]["embeds"], "components": answer["data"]["components"],
                           "interaction_metadata": ROLLER}
                found.append((f"{title} → {button['custom_id']}", post(
                    discord_client, url, discord_client.press(button["custom_id"], message, locale=locale), webhooks)))
    conflict = next(answer for title, answer in found if title == "weltenbuch conflict odds=False")
    narration = {"custom_id": "ww1:narrate", "components": [{"type": 1, "components": [
        {"type": 4, "custom_id": "toughness", "value": "Toran 6/6"}]}]}
    found.append(("narration", post(discord_client, url, discord_client.interaction(
        MODAL_SUBMIT, narration, locale=locale, message={"embeds": conflict["data"]["embeds"]}), webhooks)))
    errors = {
        "compact": ("beutelschneider", "challenge", [{"name": "bag", "type": 3, "value": "lila 3"},
                                                     {"name": "ability", "type": 3, "value": "combat"}]),
        "choice": ("paws", "comparison", [{"name": "a", "type": 3, "value": "Rynn rank 2 fit quatsch"},
                                          {"name": "b", "type": 3, "value": "Gegner rank 1"}]),
        "number": ("beutelschneider", "challenge", [{"name": "bag", "type": 3, "value": "rot drei"},
                                                    {"name": "ability", "type": 3, "value": "combat"}]),
        "service": ("paws", "test", [{"name": "rank", "type": 4, "value": 99}]),
        "nested": ("weltenbuch", "conflict", [{"name": "parties", "type": 3, "value": "A: x profile 3 seat 0"}]),
        "empty name": ("proben", "test", [{"name": "attribute", "type": 4, "value": 3},
                                          {"name": "name", "type": 3, "value": " "}]),
    }
    for title, (system, name, options) in errors.items():
        found.append((title, post(discord_client, url, discord_client.command(system, name, options, locale=locale),
                                  webhooks)))
    card = next(answer for title, answer in found if title == "paws rescue odds=False")
    stranger = {"id": "5", "embeds": card["data"]["embeds"], "interaction_metadata": {**ROLLER, "user": {"id": "8"}}}
    found.append(("not yours", post(discord_client, url, discord_client.press("ww1:rescue:1", stranger, locale=locale),
                                    webhooks)))
    found.append(("stale", post(discord_client, url, discord_client.press("ww0:x", {"embeds": [{}]}, locale=locale),
                                webhooks)))
    return found


@pytest.fixture(scope="module")
def cards(replicas, discord_client, webhooks, registry, catalog) -> dict[str, list[tuple[str, dict]]]:
    return {lang: every_card(replicas, discord_client, webhooks, registry, catalog, locale)
            for lang, locale in (("de", "de"), ("en", "en-US"))}


def api_words(catalog) -> set[str]:
    """The API's own words: field names, enum values, outcome and distribution keys (of three letters or more),
    as the spec names them."""
    words: set[str] = set()

    def walk(schema: Any, depth: int = 0) -> None:
        if depth > 12 or not isinstance(schema, dict):
            return
        schema = catalog.resolve(schema)
        for name, member in (schema.get("properties") or {}).items():
            words.add(name)
            walk(member, depth + 1)
        words.update(str(value) for value in schema.get("enum") or [] if value is not None)
        walk(schema.get("items"), depth + 1)
        walk(schema.get("additionalProperties"), depth + 1)

    for _, operation in catalog.operations().values():
        walk(catalog.request_schema(operation))
    words.update({"successes", "wins", "matching", "float64", "exact", "solver", "states", "tie", "injury",
                  "expected", "rounds", "wounds", "exchanges", "receipt", "odds", "roll", "rescue", "healing"})
    return {word for word in words if len(word) >= 3 and word.isascii()}


# German words that are also API words: a German card may say them.
ALSO_GERMAN = {"die", "name", "initiative", "intuition", "situation", "personal", "mental"}


def option_names(registry) -> set[str]:
    """The German names of the options: what the player typed (a name has no spaces in Discord)."""
    return {option.get("name_localizations", {}).get("de", option["name"]) for command in registry.commands
            for sub in command["options"] for option in sub["options"]}


def test_no_card_or_error_shows_a_raw_key_or_an_english_word_to_a_german_player(cards, catalog, registry):
    english = api_words(catalog) - ALSO_GERMAN
    names = {"Heroes", "Orcs", "Orc"}  # player-given names in the service's examples
    typed = option_names(registry)
    for title, answer in cards["de"]:
        for shown in shown_texts(answer):
            text = re.sub(r"„([^“ (]+)", lambda match: "„" * (match.group(1) not in typed), shown)
            words = set(re.findall(r"[A-Za-z_][A-Za-z0-9_]*", text)) - names
            assert not {word for word in words if word in english or word.lower() in english}, (title, text)
            assert not re.search(r"\b\w+_\w+\b|\b[a-z]+:[A-Za-z]", text), (title, text)  # snake_case, key:value


def test_no_card_or_error_shows_a_raw_key_in_english_either(cards):
    for title, answer in cards["en"]:
        for text in shown_texts(answer):
            assert not re.search(r"\b[a-z]+_[a-z_]+\b|\b(wins|successes|god|injury):\w|float64|solver", text), (
                title, text)


def test_numbers_on_german_cards_have_decimal_commas(cards):
    checked = 0
    for title, answer in cards["de"]:
        for text in shown_texts(answer):
            # 3.5, 0.25, 1.2345 are decimal points; 10.780 is German for ten thousand seven hundred and eighty
            assert not re.search(r"\d\.(\d{1,2}|\d{4,})(?!\d)", text), (title, text)
            checked += len(re.findall(r"\d,\d", text))
    assert checked >= 20  # the odds tables and chances do have decimals


def test_fractions_on_cards_are_short(cards):
    for lang in cards:
        for title, answer in cards[lang]:
            for text in shown_texts(answer):
                for denominator in re.findall(r"\d+/(\d+)", text):
                    assert len(denominator) <= 6, (title, text)


def test_the_errors_name_the_option_as_the_player_typed_it_and_say_it_once(cards):
    errors = {title: answer["data"]["content"] for title, answer in cards["de"] if "content" in answer["data"]}
    assert errors["compact"] == "„charakterbeutel“ verstehe ich nicht: „lila“ passt hier nicht"
    assert errors["number"] == "„charakterbeutel“ verstehe ich nicht: rot (Kampf): „drei“ ist keine ganze Zahl"
    assert errors["choice"] == ("„erste_seite“ verstehe ich nicht: Passt die Eigenschaft?: „quatsch“ ist keins von: "
                                "ausweichen auf eine andere Eigenschaft (−1 Würfel), passt, spezialisiert (+1 Würfel)")
    assert errors["service"] == ("Der Würfeldienst hat abgelehnt: Ungültige Eingabe\n"
                                 "• „rang_der_eigenschaft“: muss zwischen 0 und 10 liegen")
    assert errors["nested"].startswith("Der Würfeldienst hat abgelehnt: Ungültige Eingabe\n• „parteien (")
    assert errors["empty name"] == "„name“ verstehe ich nicht: der Name ist leer"
    assert errors["not yours"] == "Das ist nicht dein Wurf."
    for text in errors.values():
        lines = text.split("\n")
        assert len(lines) == len(set(lines)), text  # nothing said twice
        assert not re.search(r"\b[a-z_]+\.(\d+\.)?[a-z_]+\b", text), text  # no API field path (parties.0.seat)


# -- the command list ------------------------------------------------------------------------------------------

def walk(item: dict):
    yield item
    for option in item.get("options") or []:
        yield from walk(option)


def descriptions(item: dict) -> list[str]:
    return [item["description"], *(item.get("description_localizations") or {}).values()]


def test_descriptions_are_written_to_fit_never_cut(registry):
    hints = tuple(say(key, lang, example="") for key in ("compact_hint", "compact_hint_short") for lang in ("de", "en"))
    for command in registry.commands:
        for item in walk(command):
            for text in descriptions(item):
                assert 1 <= len(text) <= 100, text
                assert not text.endswith("…") or (text.startswith(hints) and text.endswith("; …")), text


def test_fit_budget_takes_shorter_whole_descriptions_and_never_cuts():
    long_de, short_de = "Ein sehr langer deutscher Hilfetext, " * 2 + "der passt.", "Kurz."
    options = [{"name": f"o{index}", "description": "x", "description_localizations": {"de": long_de}}
               for index in range(60)]
    command = {"name": "c", "description": "d", "options": options}
    shorter = {id(option): {"de": [short_de]} for option in options}
    fit_budget(command, shorter)
    texts = [option["description_localizations"]["de"] for option in options]
    assert set(texts) == {long_de, short_de} and texts.count(short_de) >= 10  # 60 x 84 characters: over 4,000
    from wurfwerk_discord.discord import command_size
    assert command_size(command, "de") <= 4000


@pytest.mark.parametrize("lang", ["de", "en"])
def test_every_example_shown_in_a_description_is_read_back_by_the_apps_parser(registry, catalog, lang):
    """Both hints (the long "Compact form, e.g.: " and the short one), in both languages, and no
    description left out: this replaces test_commands.py's older check of the long hint alone."""
    def tidy(value):  # what the service fills in anyway: absent, empty and zero counts
        if isinstance(value, dict):
            return {key: tidy(item) for key, item in value.items() if item not in (None, {}, 0) or item is False}
        return [tidy(item) for item in value] if isinstance(value, list) else value

    hints = [say(key, lang, example="") for key in ("compact_hint", "compact_hint_short")]
    checked = 0
    for sub in registry.subcommands.values():
        example = catalog.example(catalog.operations()[sub.operation_id][1])
        for spec in sub.options.values():
            text = (spec.option.get("description_localizations") or {}).get("de") if lang == "de" else \
                spec.option["description"]
            hint = next((hint for hint in hints if text and text.startswith(hint)), None)
            if not spec.compact or hint is None:
                continue
            wanted = example
            for part in spec.path:
                wanted = wanted.get(part)
            shown = text[len(hint):]
            parsed = registry.compact.parse(spec.schema, shown.removesuffix("; …"), spec.name)
            assert tidy(parsed) == tidy(wanted[:1] if shown.endswith("; …") else wanted), (sub.operation_id, shown)
            checked += 1
    assert checked >= 25


def enums_and_objects(registry) -> tuple[list[tuple[str, list[Any]]], list[list[str]]]:
    """Every enum (field name, values) and every object's keys that a compact option reads."""
    enums: list[tuple[str, list[Any]]] = []
    objects: list[list[str]] = []

    def visit(schema: Any, field: str, depth: int = 0) -> None:
        schema = registry.catalog.resolve(schema or {})
        if depth > 10:
            return
        if "enum" in schema:
            enums.append((field, [value for value in schema["enum"] if value is not None]))
        if schema.get("properties"):
            objects.append(list(schema["properties"]))
        for name, member in (schema.get("properties") or {}).items():
            visit(member, name, depth + 1)
        if kind(schema) == "array":
            visit(schema.get("items"), field, depth + 1)

    for sub in registry.subcommands.values():
        for spec in sub.options.values():
            if spec.compact:
                visit(spec.schema, spec.name)
    return enums, objects


def test_no_german_word_starts_two_choices_and_every_shown_word_reads_back(registry, catalog):
    words = registry.compact.words
    enums, objects = enums_and_objects(registry)
    shared = 0
    for field, values in enums:
        for value in values:
            for other in values:
                if other == value:
                    continue
                common = set(map(str.casefold, words.value_words(field, str(value)))) & set(
                    map(str.casefold, words.value_words(field, str(other))))
                for word in common - {str(value).casefold(), str(other).casefold()}:
                    assert words.value_of(word, field, values) not in (value, other), (field, word)
                    shared += 1
            registry.compact._german = True
            shown = registry.compact._shown_value(field, value, values)
            assert words.value_of(shown, field, values) == value, (field, value, shown)
    assert shared >= 2  # "besonders" of "besonders einfach" / "besonders schwer", "schwer", ...
    for names in objects:
        for name in names:
            shown = registry.compact._key(name, names)
            assert words.key_of(shown, names) == name, (names, name, shown)


@pytest.mark.parametrize("system", sorted(DRAWING_SYSTEMS))
def test_a_system_that_draws_marbles_never_says_dice(registry, system):
    command = next(command for command in registry.commands if command["name"] == system)
    for item in walk(command):
        for text in descriptions(item):
            assert not re.search(r"würfel|\broll|\bdice\b", text, re.IGNORECASE), text
    assert command["description_localizations"]["de"].startswith("Ziehen")


def test_the_odds_table_reads_in_german(replicas, discord_client, webhooks):
    options = [{"name": "a", "type": 3, "value": "Rynn rank 3"}, {"name": "b", "type": 3, "value": "Gegner rank 2"},
               {"name": "odds", "type": 5, "value": True}]
    interaction = discord_client.command("paws", "encounter", options, locale="de")
    answer = post(discord_client, replicas[0].url, interaction, webhooks)
    table = answer["data"]["embeds"][0]["description"]
    assert "Sieg für Rynn" in table and "Sieg für Gegner" in table and "Erwartungswerte" in table
    assert "Wunden von Rynn: " in table and "Genau berechnet über " in table
    assert re.search(r"Runden: \d+,\d+", table), table
    time.sleep(0)


def test_the_card_link_still_carries_the_roll(cards):
    title, answer = next((title, answer) for title, answer in cards["de"] if title == "paws test odds=False")
    assert roll_from_link(card_link(answer["data"]["embeds"][0]))["operation"] == "paws.test"


def test_every_option_subcommand_and_choice_has_german_words(registry):
    for command in registry.commands:
        for item in walk(command):
            assert "de" in (item.get("description_localizations") or {}), item["name"]
            if item is not command:
                assert "de" in (item.get("name_localizations") or {}), item["name"]
            for choice in item.get("choices") or []:
                assert "de" in (choice.get("name_localizations") or {}), (item["name"], choice["value"])
    beutel = next(command for command in registry.commands if command["name"] == "beutelschneider")
    encounter = next(sub for sub in beutel["options"] if sub["name"] == "encounter")
    danger = next(option for option in encounter["options"] if option["name"] == "mortal_danger")
    # the choices of the danger after a fight are the danger's choices, in its words (no "low / clear")
    assert [choice["name_localizations"]["de"] for choice in danger["choices"]] == ["gering", "deutlich",
                                                                                     "besonders groß"]


def test_german_cards_use_the_glossarys_words(cards):
    """Issue 53: every German card (chat line, dice, odds table, errors) says a game term as the glossary
    does (service/locale/glossary.json): no English game term, no word the glossary avoids."""
    from tests.i18n.test_glossary import _avoided, _english_terms, _occurs, _words

    english, avoided = _english_terms(), _avoided("de")
    names = {"Heroes", "Orcs", "Orc"}  # player-given names in the service's examples
    for title, answer in cards["de"]:
        for text in shown_texts(answer):
            assert not {word for word in _words(text) if word.casefold() in english} - names, (title, text)
            assert not [word for word, _ in avoided if _occurs(word, text)], (title, text)
