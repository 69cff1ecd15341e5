"""The command list: generated from the running service's operation table and spec, valid by Discord's
documented constraints (limits.py), localized into German from the catalogs, printed and registered
by the command line; and the compact text forms of bags, pools and parties."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading

import pytest
from flask import Flask, request

from tests.integrations.discord.conftest import Served
from tests.integrations.discord.limits import LOCALES, OPTION_TYPES, name_ok
from wurfwerk_discord.compact import CompactError

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
ENV = {**os.environ, "PYTHONPATH": os.pathsep.join([ROOT, os.path.join(ROOT, "client"),
                                                    os.path.join(ROOT, "integrations", "discord")])}


def walk(item):
    yield item
    for option in item.get("options") or []:
        yield from walk(option)


def size(item, locale):
    def words(entry, key):
        return (entry.get(f"{key}_localizations") or {}).get(locale) or entry.get(key) or ""

    total = len(words(item, "name")) + len(words(item, "description"))
    total += sum(len(words(choice, "name")) + len(str(choice["value"])) for choice in item.get("choices") or [])
    return total + sum(size(option, locale) for option in item.get("options") or [])


def test_the_command_list_meets_discords_documented_constraints(registry):
    commands = registry.commands
    assert len({command["name"] for command in commands}) == len(commands)
    for command in commands:
        assert command["type"] == 1
        assert command["integration_types"] == [0, 1] and command["contexts"] == [0, 1, 2]
        for locale in (None, "de", "en-US"):
            assert size(command, locale) <= 4000, (command["name"], locale)
        for item in walk(command):
            assert name_ok(item["name"]), item["name"]
            assert 1 <= len(item["description"]) <= 100, item
            for locale, text in (item.get("name_localizations") or {}).items():
                assert locale in LOCALES and name_ok(text), (item["name"], text)
            for locale, text in (item.get("description_localizations") or {}).items():
                assert locale in LOCALES and 1 <= len(text) <= 100
            options = item.get("options") or []
            assert len(options) <= 25
            if item is not command:
                assert item["type"] in OPTION_TYPES
            names = [option["name"] for option in options]
            assert len(set(names)) == len(names)
            german = [(option.get("name_localizations") or {}).get("de", option["name"]) for option in options]
            assert len(set(german)) == len(german), german
            required = [bool(option.get("required")) for option in options if option["type"] not in (1, 2)]
            assert required == sorted(required, reverse=True), item["name"]  # required options first
            choices = item.get("choices") or []
            assert len(choices) <= 25
            for choice in choices:
                assert 1 <= len(choice["name"]) <= 100 and isinstance(choice["value"], str | int | float)
            if "max_length" in item:
                assert 1 <= item["max_length"] <= 6000
            for key in ("min_value", "max_value"):
                if key in item:
                    assert abs(item[key]) <= 2**53


def test_one_command_per_system_and_a_subcommand_per_rolling_operation(registry, catalog):
    operations = catalog.operations()
    rolling = {operation_id for operation_id in operations if f"{operation_id}.odds" in operations}
    assert registry.skipped == {}
    systems = [command for command in registry.commands if command["name"] != "session"]
    listed = {f"{command['name']}.{sub['name']}" for command in systems for sub in command["options"]}
    assert listed == rolling
    assert {command["name"] for command in registry.commands} == {
        "beutelschneider", "paws", "weltenbuch", "proben", "malmsturm", "session"}  # and /session (sessions.py)


def test_options_are_named_after_the_request_fields_with_odds_and_secret(registry):
    for (system, name), sub in registry.subcommands.items():
        properties = sub.schema["properties"]
        for option_name, spec in sub.options.items():
            assert option_name == spec.path[-1]
            assert spec.path[0] in properties
        command = next(command for command in registry.commands if command["name"] == system)
        options = next(item for item in command["options"] if item["name"] == name)["options"]
        extra = {option["name"]: option for option in options if option["name"] in ("odds", "secret")}
        assert extra["secret"]["name_localizations"] == {"de": "geheim"} and extra["odds"]["type"] == 5


def test_german_names_and_descriptions_come_from_the_catalogs(registry, catalog):
    paws = next(command for command in registry.commands if command["name"] == "paws")
    test = next(sub for sub in paws["options"] if sub["name"] == "test")
    assert test["name_localizations"] == {"de": "probe"}
    rank = next(option for option in test["options"] if option["name"] == "rank")
    label, help_text = catalog.field_words("paws.test", ["rank"], "de")
    assert rank["description_localizations"]["de"] == help_text and rank["name_localizations"]["de"].startswith("rang")
    localized = [option for command in registry.commands for sub in command["options"]
                 for option in sub["options"] if "de" in (option.get("description_localizations") or {})]
    every = [option for command in registry.commands for sub in command["options"] for option in sub["options"]]
    assert len(localized) >= 0.9 * len(every)


def test_enums_are_choices_with_german_names(registry):
    beutel = next(command for command in registry.commands if command["name"] == "beutelschneider")
    challenge = next(sub for sub in beutel["options"] if sub["name"] == "challenge")
    ability = next(option for option in challenge["options"] if option["name"] == "ability")
    assert [choice["value"] for choice in ability["choices"]] == ["combat", "skill", "magic"]
    assert ability["choices"][0]["name_localizations"] == {"de": "Kampf (rot)"}


def test_compact_options_explain_their_form_with_the_documented_example(registry):
    beutel = next(command for command in registry.commands if command["name"] == "beutelschneider")
    challenge = next(sub for sub in beutel["options"] if sub["name"] == "challenge")
    bag = next(option for option in challenge["options"] if option["name"] == "bag")
    assert bag["type"] == 3 and bag["required"] is True
    assert "rot 9 grün 6 weiß 5" in bag["description_localizations"]["de"]
    assert "red 9 green 6 white 5" in bag["description"]


def test_every_documented_example_survives_the_compact_form(registry, catalog):
    """Each operation's example request, typed as options in compact form, is the same request again."""
    from tests.integrations.discord.support import example_options

    def tidy(value):
        if isinstance(value, dict):
            return {key: tidy(item) for key, item in value.items() if item not in (None, {})}
        return [tidy(item) for item in value] if isinstance(value, list) else value

    for (system, name), sub in registry.subcommands.items():
        example = catalog.example(catalog.operations()[sub.operation_id][1])
        _, body, _, _ = registry.request(system, name, example_options(registry, catalog, sub))
        wanted = {key: value for key, value in example.items() if key not in ("seed", "manual", "ticket")}
        assert tidy(body) == tidy(wanted), sub.operation_id


@pytest.mark.parametrize("operation, field, text, expected", [
    ("beutelschneider.challenge", "bag", "rot 9 grün 6 weiß 5", {"red": 9, "green": 6, "white": 5}),
    ("beutelschneider.challenge", "bag", "Red=2 BLACK 1", {"red": 2, "black": 1}),
    ("paws.comparison", "a", "Ryan Rang 3 spezialisiert Ausrüstung aktiv",
     {"name": "Ryan", "rank": 3, "fit": "specialized", "advantages": {"equipment": "active"}}),
    ("proben.opposed", "b", "Ork attribute 4 skill=2", {"name": "Ork", "attribute": 4, "skill": 2}),
    ("weltenbuch.conflict", "parties", "Helden: Toran profile 5 hero_points 1, Fayla profile 2; Orks: Ork 1 profile 3",
     [{"name": "Helden", "members": [{"name": "Toran", "profile": 5, "hero_points": 1},
                                     {"name": "Fayla", "profile": 2}]},
      {"name": "Orks", "members": [{"name": "Ork 1", "profile": 3}]}]),
])
def test_compact_forms_in_german_and_english(registry, operation, field, text, expected):
    system, name = operation.split(".", 1)
    spec = registry.subcommands[(system, name)].options[field]
    assert registry.compact.parse(spec.schema, text, field) == expected


@pytest.mark.parametrize("text, key", [("lila 3", "unknown_word"), ("rot drei", "want_integer")])
def test_a_compact_form_that_does_not_parse_says_which_word(registry, text, key):
    spec = registry.subcommands[("beutelschneider", "challenge")].options["bag"]
    with pytest.raises(CompactError) as caught:
        registry.compact.parse(spec.schema, text, "bag")
    assert caught.value.key == key


def test_the_command_line_prints_the_list_from_the_running_service(service, registry):
    result = subprocess.run([sys.executable, "-m", "wurfwerk_discord", "commands"], capture_output=True, text=True,
                            timeout=60, env={**ENV, "WURFWERK_URL": service.url}, cwd=ROOT)
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout) == registry.commands


def test_register_puts_the_list_to_discord_with_the_bot_token(service, registry):
    received: list[dict] = []
    discord_api = Flask("discord-api")

    @discord_api.put("/applications/<application>/guilds/<guild>/commands")
    @discord_api.put("/applications/<application>/commands")
    def put(application: str, guild: str | None = None):
        received.append({"path": request.path, "auth": request.headers.get("Authorization"),
                         "body": request.get_json()})
        return json.dumps(request.get_json()), 200

    served = Served(discord_api)
    try:
        env = {**ENV, "WURFWERK_URL": service.url, "DISCORD_API_BASE": served.url, "DISCORD_BOT_TOKEN": "bot-token",
               "DISCORD_APPLICATION_ID": "99"}
        cases = (["--guild", "77"], "/applications/99/guilds/77/commands"), ([], "/applications/99/commands")
        for extra, path in cases:
            result = subprocess.run([sys.executable, "-m", "wurfwerk_discord", "register", *extra], env=env,
                                    capture_output=True, text=True, timeout=60, cwd=ROOT)
            assert result.returncode == 0, result.stderr
            assert received[-1] == {"path": path, "auth": "Bot bot-token", "body": registry.commands}
        missing = subprocess.run([sys.executable, "-m", "wurfwerk_discord", "register"], capture_output=True,
                                 text=True, timeout=60, cwd=ROOT,
                                 env={**ENV, "WURFWERK_URL": service.url, "DISCORD_BOT_TOKEN": ""})
        assert missing.returncode == 2 and "DISCORD_BOT_TOKEN" in missing.stderr
    finally:
        served.stop()
    assert threading.active_count() >= 1

