"""Issue 49 item 4, sessions in Discord (API.md §1.8): a game master opens one for the channel, the seated
players' rolls go into it (indices and links right, the seeds never shown), a hidden roll answers the full
card to the roller and its public part to the table, a player without a seat rolls outside it, a second
press of a follow-up answers the same card, and the log exported after the end verifies complete with
``wurfwerk.verify_session`` and at ``POST /v1/sessions/report``."""

from __future__ import annotations

import json
import re
import threading
import time
from typing import Any

import pytest
import requests

from tests.integrations.discord.conftest import SESSION_SECRET, _replica
from tests.integrations.discord.limits import response_errors
from tests.integrations.discord.support import example_options
from tests.integrations.discord.test_words import ALSO_GERMAN, api_words, shown_texts
from wurfwerk import verify_session
from wurfwerk.sessions import REASONS
from wurfwerk_discord import sessions
from wurfwerk_discord.card import card_link, roll_from_link
from wurfwerk_discord.words import WORDS

COMMAND, COMPONENT, USER_OPTION = 2, 3, 6
GM, RYNN, TORAN, GUEST = ("100", "Spielleitung"), ("101", "Rynn"), ("102", "Toran"), ("103", "Gast")
CHANNELS = iter(range(5_000, 6_000))


class Table:
    """One channel of a Discord server, its people posting interactions; every answer a player could read
    (answers and webhook calls) is kept, to look for seeds in."""

    def __init__(self, discord_client, replicas, webhooks, locale: str = "de") -> None:
        self.client, self.replicas, self.webhooks, self.locale = discord_client, replicas, webhooks, locale
        self.channel = str(next(CHANNELS))
        self.tokens: list[str] = []
        self.answers: list[Any] = []
        self.turn = 0

    def interaction(self, kind: int, data: dict, who: tuple[str, str], message: dict | None = None) -> dict:
        interaction = self.client.interaction(kind, data, locale=self.locale, message=message)
        interaction["channel_id"] = self.channel
        interaction["member"] = {"user": {"id": who[0], "username": who[1].lower(), "global_name": who[1]},
                                 "nick": None}
        self.tokens.append(interaction["token"])
        return interaction

    def command(self, system: str, sub: str, options: list[dict], who: tuple[str, str],
                resolved: dict | None = None) -> dict:
        data: dict[str, Any] = {"id": "1", "name": system, "type": 1,
                                "options": [{"type": 1, "name": sub, "options": options}]}
        if resolved:
            data["resolved"] = resolved
        return self.interaction(COMMAND, data, who)

    def post(self, interaction: dict, *, raw: bytes | None = None, stamp: str | None = None,
             signature: str | None = None) -> dict:
        self.turn += 1
        response = self.client.post(self.replicas[self.turn % 2].url, interaction, raw=raw, timestamp=stamp,
                                    signature=signature)
        assert response.status_code == 200, response.text
        answer = response.json()
        assert not response_errors(answer), (response_errors(answer), answer)
        self.answers.append(answer)
        return answer

    def roll(self, who: tuple[str, str], system: str = "paws", sub: str = "test", options: list | None = None,
             **extra: Any) -> dict:
        options = list(options if options is not None else [{"name": "rank", "type": 4, "value": 2}])
        options += [{"name": name, "type": 5, "value": value} for name, value in extra.items()]
        return self.post(self.command(system, sub, options, who))

    def open(self, players: list[tuple[str, str]], length: str, who: tuple[str, str] = GM) -> dict:
        options: list[dict] = [{"name": f"player{number}", "type": USER_OPTION, "value": player[0]}
                               for number, player in enumerate(players, 1)]
        options.append({"name": "length", "type": 3, "value": length})
        resolved = {"users": {player[0]: {"id": player[0], "username": player[1].lower(), "global_name": player[1]}
                              for player in players}}
        return self.post(self.command("session", "open", options, who, resolved))

    def press(self, custom_id: str, card: dict, who: tuple[str, str], flags: int = 0,
              roller: tuple[str, str] | None = None) -> dict:
        message = {"id": "555", "embeds": card["embeds"], "components": card.get("components", []), "flags": flags,
                   "interaction_metadata": {"id": "1", "type": 2, "user": {"id": (roller or who)[0]}}}
        return self.post(self.interaction(COMPONENT, {"custom_id": custom_id, "component_type": 2}, who, message))

    def webhook_calls(self) -> list[dict]:
        return [call for call in self.webhooks.calls if call["token"] in self.tokens]


def newest(message: dict) -> dict:
    return roll_from_link(card_link(message["embeds"][-1]))


def used(card: dict) -> dict:
    return newest(card)["request"]["session"]


def custom_ids(message: dict) -> list[str]:
    return [button["custom_id"] for row in message.get("components", []) for button in row["components"]]


def footer(message: dict) -> str:
    return message["embeds"][-1]["footer"]["text"]


def wait_until(header: dict) -> None:
    left = sessions.unix(header["expires_at"]) - time.time()
    if left > 0:
        time.sleep(left + 0.2)


@pytest.fixture
def store(session_db) -> sessions.Store:
    return sessions.Store(session_db)


def test_an_evening_in_a_session_from_opening_to_a_complete_check(replicas, discord_client, webhooks, service,
                                                                  store):
    table = Table(discord_client, replicas, webhooks)
    opened = table.open([RYNN, TORAN], "20 s")  # room for every step before the end on a busy machine
    assert opened["type"] == 4 and "flags" not in opened["data"]  # the whole table sees the session
    header = store.latest(table.channel).header
    assert header["seats"] == ["Spielleitung", "Rynn", "Toran"] and header["open_seats"] == []
    assert header["context"] == f"discord:{table.channel}:{table.client.counter + 9_000_000}"
    embed = opened["data"]["embeds"][0]
    assert embed["title"] == "Sitzung eröffnet" and embed["footer"]["text"] == f"Sitzung {header['id']}"
    assert f"<t:{sessions.unix(header['expires_at'])}:f>" in embed["description"]
    assert header["commit"] in embed["fields"][1]["value"]

    # two players roll: each seat numbers its own rolls from 0, each card names its seat's previous one
    first = table.roll(RYNN)["data"]
    assert used(first)["seat"] == "Rynn" and used(first)["index"] == 0 and used(first)["prev"] is None
    assert "seed" not in used(first) and used(first)["seed_commit"] == header["seat_commits"]["Rynn"]
    assert newest(first)["randomness"]["source"] == "session"
    assert footer(first).endswith("Sitzung · Rynn · Nr. 0")
    toran = table.roll(TORAN, "proben", "test", [{"name": "attribute", "type": 4, "value": 3},
                                                         {"name": "difficulty", "type": 4, "value": 2}])["data"]
    assert (used(toran)["seat"], used(toran)["index"], used(toran)["prev"]) == ("Toran", 0, None)
    lost = table.roll(RYNN, options=[{"name": "rank", "type": 4, "value": 0}])["data"]  # no die: lost, rescue
    assert used(lost)["index"] == 1 and used(lost)["prev"] == newest(first)["receipt"]["signature"]

    # a follow-up goes into the session too; pressed again, or the interaction replayed: the same card
    press = table.interaction(COMPONENT, {"custom_id": "ww1:rescue:2", "component_type": 2}, RYNN, {
        "id": "555", "embeds": lost["embeds"], "components": lost["components"],
        "interaction_metadata": {"id": "1", "type": 2, "user": {"id": RYNN[0]}}})
    body = json.dumps(press).encode()
    stamp = str(int(time.time()))
    signature = discord_client.sign(body, stamp)
    rescued = table.post(press, raw=body, stamp=stamp, signature=signature)
    assert rescued["type"] == 7 and custom_ids(rescued["data"]) == []
    rescue = newest(rescued["data"])
    assert rescue["operation"] == "paws.rescue" and used(rescued["data"])["index"] == 2
    assert used(rescued["data"])["prev"] == newest(lost)["receipt"]["signature"]
    again = table.press("ww1:rescue:2", lost, RYNN)
    replayed = table.post(press, raw=body, stamp=stamp, signature=signature)
    for answer in (again, replayed):
        assert answer == rescued  # the same card: the same receipt, not only the same dice

    # a replayed command answers its recorded card, it takes no second slot
    repeat = table.command("paws", "test", [{"name": "rank", "type": 4, "value": 1}], TORAN)
    once = table.post(repeat)
    assert table.post(repeat) == once and used(once["data"])["index"] == 1

    # geheim in a session: the public part to the channel now, the full card to the roller only
    hidden = table.roll(RYNN, options=[{"name": "rank", "type": 4, "value": 3}], secret=True)
    assert hidden["type"] == 4 and "flags" not in hidden["data"]
    public_card = hidden["data"]["embeds"][0]
    assert public_card["title"].startswith("Verdeckter Wurf · ") and "fields" in public_card
    assert "#roll=" not in json.dumps(hidden) and "dice" not in json.dumps(hidden)  # no die, no result
    private = webhooks.wait_for(table.tokens[-1], "POST")["json"]
    assert private["flags"] == 64
    full = newest(private)
    assert full["request"]["session"]["hidden"] is True and full["request"]["session"]["index"] == 3
    assert full["request"]["session"]["prev"] == rescue["receipt"]["signature"]
    assert f"`{full['public']['commitment']}`" == public_card["fields"][0]["value"]
    after = table.roll(RYNN)["data"]
    assert used(after)["index"] == 4 and used(after)["prev"] == full["public"]["signature"]  # a hidden card's link

    # a player without a seat rolls outside the session, and the card says so
    guest = table.roll(GUEST)["data"]
    assert "session" not in newest(guest)["request"] and footer(guest).endswith("nicht in der Sitzung dieses Kanals")
    # six rolls of one seat at once, on both replicas: six slots, none taken twice
    results: list[dict] = []
    threads = [threading.Thread(target=lambda: results.append(table.roll(TORAN))) for _ in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(used(answer["data"])["index"] for answer in results) == [2, 3, 4, 5, 6, 7]

    # before the end: no check, and the export holds what the table saw (hidden rolls as public parts)
    early = table.post(table.command("session", "check", [], GM))
    assert early["data"]["flags"] == 64
    assert early["data"]["content"].startswith("Aufdecken und prüfen geht erst nach dem Ende der Sitzung, <t:")
    exported = table.post(table.command("session", "export", [], RYNN))
    assert exported == {"type": 5, "data": {"flags": 64}}
    call = webhooks.wait_for(table.tokens[-1], "PATCH")
    log = json.loads(call["files"]["files[0]"])
    assert set(log) == {"session", "cards"} and log["session"] == header
    assert len(log["cards"]) == 13 and sum("commitment" in card and "receipt" not in card for card in log["cards"]) == 1
    assert call["json"]["attachments"] == [{"id": 0, "filename": f"wurfwerk-session-{header['id']}.json"}]

    wait_until(header)
    late = table.roll(RYNN)["data"]  # the session has ended: a roll outside it, as without one
    assert "session" not in newest(late)["request"] and "Sitzung" not in footer(late)
    calls = table.webhook_calls()
    shown = json.dumps(table.answers) + json.dumps([call["json"] for call in calls]) + "".join(
        data.decode() for call in calls for data in call["files"].values())  # the export before the end too

    exported = table.post(table.command("session", "export", [], GUEST))  # anyone at the table may
    log = json.loads(webhooks.wait_for(table.tokens[-1], "PATCH")["files"]["files[0]"])
    assert set(log) == {"reveal", "seeds", "cards"} and set(log["seeds"]) == set(header["seats"])
    assert len(log["cards"]) == 14  # the hidden roll now as its public part and its full card
    for seed in log["seeds"].values():
        assert seed not in shown  # no seed was in any message before the end
        assert seed not in json.dumps([[card.response, card.public] for card in store.cards(header["id"])])
    jwks = requests.get(f"{service.url}/v1/keys", timeout=10).json()
    verdict = verify_session(log["cards"], log["reveal"], jwks, seeds=log["seeds"])
    assert verdict["complete"] is True and verdict["unverified"] == [] and verdict["invalid"] == [], verdict
    report = requests.post(f"{service.url}/v1/sessions/report", json=log, timeout=30)
    assert report.status_code == 200 and report.json()["complete"] is True, report.text
    without_seeds = verify_session(log["cards"], log["reveal"], jwks)
    assert without_seeds["unverified"] == ["Rynn", "Toran"]  # the seeds are what makes the dice checkable

    checked = table.post(table.command("session", "check", [], TORAN))
    assert checked == {"type": 5, "data": {"flags": 0}}  # the verdict for the whole table
    verdict_card = webhooks.wait_for(table.tokens[-1], "PATCH")["json"]["embeds"][0]
    assert verdict_card["title"] == f"Prüfung der Sitzung {header['id']}"
    assert verdict_card["description"] == "Vollständig: jeder Wurf der Sitzung ist belegt und stimmt (14 Karten)."


def test_one_session_per_channel_and_what_opening_refuses(replicas, discord_client, webhooks, store):
    table = Table(discord_client, replicas, webhooks)
    bad = table.open([RYNN], "vier stunden")
    assert bad["data"]["flags"] == 64
    assert bad["data"]["content"] == ("„dauer“ verstehe ich nicht: „vier stunden“ ist keine Dauer wie „4 h“ oder "
                                      "„90 min“")
    assert table.open([RYNN], "8 tage")["data"]["content"].endswith("höchstens 7 Tage")
    bot = table.command("session", "open", [{"name": "player1", "type": USER_OPTION, "value": "99"}], GM,
                        {"users": {"99": {"id": "99", "username": "dice*bot", "bot": True}}})
    assert table.post(bot)["data"]["content"] == "dice\\*bot ist eine App, kein Mensch am Tisch."
    assert store.latest(table.channel) is None

    opening = table.command("session", "open", [{"name": "player1", "type": USER_OPTION, "value": RYNN[0]}], GM,
                            {"users": {RYNN[0]: {"id": RYNN[0], "username": "rynn", "global_name": "Rynn"}}})
    first = table.post(opening)
    assert table.post(opening) == first  # the same interaction again: the same session, not a second one
    second = table.open([TORAN], "1 h", who=TORAN)
    assert second["data"]["flags"] == 64 and second["data"]["content"].startswith(
        "In diesem Kanal läuft schon eine Sitzung, bis <t:")
    assert store.latest(table.channel).header["seats"] == ["Spielleitung", "Rynn"]


def test_a_hidden_follow_up_stays_hidden_and_a_roll_of_another_seat_is_refused(replicas, discord_client, webhooks):
    table = Table(discord_client, replicas, webhooks)
    table.open([RYNN], "1 h")
    table.roll(RYNN, options=[{"name": "rank", "type": 4, "value": 0}], secret=True)
    private = webhooks.wait_for(table.tokens[-1], "POST")["json"]
    assert custom_ids(private) == ["ww1:rescue:1", "ww1:rescue:2", "ww1:rescue:3"]
    # someone else presses on the roller's card: refused, as outside a session
    other = table.press("ww1:rescue:1", private, GM, roller=RYNN)
    assert other["data"]["content"] == "Das ist nicht dein Wurf."
    rescued = table.press("ww1:rescue:1", private, RYNN, flags=64)
    assert rescued["type"] == 7 and newest(rescued["data"])["request"]["session"]["hidden"] is True
    public = webhooks.wait_for(table.tokens[-1], "POST")["json"]
    assert "flags" not in public and public["embeds"][0]["title"].startswith("Verdeckter Wurf · ")
    assert table.press("ww1:rescue:1", private, RYNN, flags=64) == rescued
    time.sleep(0.5)
    assert len([call for call in table.webhook_calls() if call["method"] == "POST"]) == 2  # no second public part


def test_an_app_without_sessions_says_so_and_rolls_as_before(service, public_key_hex, webhooks, discord_client):
    served = _replica(service.url, public_key_hex, webhooks.url)
    try:
        table = Table(discord_client, [served, served], webhooks, locale="en-US")
        answer = table.open([RYNN], "1 h")
        assert answer["data"]["content"] == ("Sessions are not set up in this app; only whoever runs the app can "
                                             "do that.")
        assert "session" not in newest(table.roll(RYNN)["data"])["request"]
    finally:
        served.stop()


def test_the_seeds_are_the_apps_own_and_each_users_differs():
    context = sessions.context_of("43", "9000001")
    seed = sessions.seat_seed(SESSION_SECRET, context, "101")
    assert seed == sessions.seat_seed(SESSION_SECRET, context, "101") != sessions.seat_seed(SESSION_SECRET, context,
                                                                                             "102")
    assert seed != sessions.seat_seed(SESSION_SECRET, sessions.context_of("43", "9000002"), "101")
    assert len(sessions.b64url(b"\0" * 32)) == len(seed)  # 32 bytes, as make_seed() makes them


@pytest.mark.parametrize("lang", ["de", "en"])
def test_the_lengths_shown_as_examples_are_read_back(lang):
    examples = re.split(r", | oder | or ", sessions.LENGTH_EXAMPLE[lang])
    assert [sessions.parse_length(example) for example in examples] == [4 * 3600, 90 * 60, 2 * 86_400]
    assert sessions.parse_length("1,5 h") == 5400 and sessions.parse_length(None) == 4 * 3600
    assert sessions.parse_length("3") == 3 * 3600  # a bare number is hours


def test_session_cards_read_in_german_and_english(replicas, discord_client, webhooks, catalog, store):
    english = api_words(catalog) - ALSO_GERMAN
    for locale in ("de", "en-US"):
        table = Table(discord_client, replicas, webhooks, locale=locale)
        answers = [table.open([RYNN], "4 s"), table.roll(RYNN), table.roll(GUEST),
                   table.roll(RYNN, secret=True)]
        answers.append({"data": webhooks.wait_for(table.tokens[-1], "POST")["json"]})
        answers.append(table.post(table.command("session", "check", [], GM)))
        wait_until(store.latest(table.channel).header)
        table.post(table.command("session", "check", [], GM))
        answers.append({"data": webhooks.wait_for(table.tokens[-1], "PATCH")["json"]})
        table.post(table.command("session", "export", [], GM))
        answers.append({"data": webhooks.wait_for(table.tokens[-1], "PATCH")["json"]})
        for answer in answers:
            for text in shown_texts(answer):
                text = re.sub(r"`[^`]*`|<t:\d+:\w>", "", text)  # commitments and Discord's timestamps
                assert not re.search(r"\b[a-z]+_[a-z_]+\b", text), text
                if locale == "de":
                    words = set(re.findall(r"[A-Za-z_][A-Za-z0-9_]*", text)) - {"Gast", "Rynn", "Spielleitung"}
                    assert not {word for word in words if word.lower() in english}, text


def test_a_whole_encounter_in_a_session_hidden_answers_in_two_steps(replicas, discord_client, webhooks, registry,
                                                                    catalog):
    """A slow operation is deferred (the thinking message public): its edit is the table's part, then the full
    card follows for the roller alone."""
    table = Table(discord_client, replicas, webhooks)
    table.open([RYNN], "1 h")
    sub = registry.subcommands[("paws", "encounter")]
    options = example_options(registry, catalog, sub) + [{"name": "secret", "type": 5, "value": True}]
    assert table.post(table.command("paws", "encounter", options, RYNN)) == {"type": 5, "data": {"flags": 0}}
    public = webhooks.wait_for(table.tokens[-1], "PATCH")["json"]
    assert public["embeds"][0]["title"].startswith("Verdeckter Wurf · ") and "flags" not in public
    private = webhooks.wait_for(table.tokens[-1], "POST")["json"]
    full = newest(private)
    assert private["flags"] == 64 and full["operation"] == "paws.encounter"
    assert full["request"]["session"]["hidden"] is True and full["request"]["session"]["index"] == 0
    assert f"`{full['public']['commitment']}`" == public["embeds"][0]["fields"][0]["value"]


def test_the_store_gives_each_slot_once_and_each_key_one_card(tmp_path):
    store = sessions.Store(str(tmp_path / "sessions.sqlite3"))
    header = {"id": "s1", "expires_at": "2099-01-01T00:00:00Z", "context": "discord:1:2"}
    store.open("1", header, "100", {"100": "Spielleitung", "101": "Rynn"})
    with pytest.raises(sessions.Running):
        store.open("1", {**header, "id": "s2"}, "101", {"101": "Rynn"})
    card = sessions.Card("Rynn", 0, {"receipt": {"signature": "first"}}, None)
    assert store.record("s1", "101", 0, "command:1", card, "first") is None
    assert store.slot("s1", "101") == ("Rynn", 1, "first")
    with pytest.raises(sessions.SlotTaken):  # a roll that read index 0 before the first was recorded
        store.record("s1", "101", 0, "command:2", sessions.Card("Rynn", 0, {"other": 1}, None), "second")
    # the same key again (a replay that rolled meanwhile): the card recorded first, the seat unmoved
    assert store.record("s1", "101", 1, "command:1", sessions.Card("Rynn", 1, {}, None), "x") == card
    assert store.slot("s1", "101") == ("Rynn", 1, "first") and store.slot("s1", "102") is None
    assert [each.response for each in store.cards("s1")] == [card.response]


def test_a_verdict_that_finds_something_says_each_finding_in_the_players_words():
    table = sessions.Table("s1", "1", {"id": "s1"}, "100", 0.0)
    report = {"complete": False, "gaps": [{"seat": "Rynn*", "from": 2, "to": 3}],
              "duplicates": [{"seat": "Toran", "index": 1, "cards": [4, 5], "repeat": False}],
              "invalid": [{"card": 7, "reason": "dice"}] + [{"card": 8 + n, "reason": "link"} for n in range(30)],
              "after_reveal": [], "unshown": [{"seat": "Toran", "index": 0}], "unverified": ["Gast"],
              "luck": {"seats": [{"seat": "Rynn", "summary": "Rynn hatte Glück"}]}}
    embed = sessions.verdict_message(table, report, 40, "de")["embeds"][0]
    lines = embed["description"].split("\n")
    assert lines[:5] == ["Nicht vollständig (40 Karten):", "• Lücke bei Rynn\\*: Nr. 2 bis 3",
                         "• Toran Nr. 1: 2 Karten für einen Wurf", "• Karte 7: die Würfel stimmen nicht",
                         "• Karte 8: die Kette zum vorigen Wurf stimmt nicht"]
    assert lines[-1] == "… und 5 weitere Befunde (alle im Export)" and len(lines) == 32
    assert embed["fields"] == [{"name": "Glück", "value": "Rynn hatte Glück", "inline": False}]
    for lang in ("de", "en"):  # every reason the verifiers give (the SDK's list) has its words
        assert {f"reason_{reason}" for reason in REASONS} <= set(WORDS[lang])


def test_ending_early_stops_the_rolls_and_an_older_session_stays_reachable(replicas, discord_client, webhooks,
                                                                            store):
    table = Table(discord_client, replicas, webhooks)
    opening = table.command("session", "open", [{"name": "player1", "type": USER_OPTION, "value": RYNN[0]}], GM,
                            {"users": {RYNN[0]: {"id": RYNN[0], "username": "rynn", "global_name": "Rynn"}}})
    table.post(opening)
    first = store.latest(table.channel)
    assert used(table.roll(RYNN)["data"])["index"] == 0
    refused = table.post(table.command("session", "end", [], RYNN))  # a player may not end the table's session
    assert refused["data"]["content"] == ("Beenden darf nur, wer die Sitzung eröffnet hat, oder wer hier "
                                          "Nachrichten verwalten darf.")
    ended = table.post(table.command("session", "end", [], GM))
    assert "flags" not in ended["data"] and ended["data"]["content"].startswith(
        f"Die Sitzung {first.id} ist beendet: kein Wurf geht mehr hinein.")
    assert "session" not in newest(table.roll(RYNN)["data"])["request"]  # no roll goes in any more
    assert table.post(opening)["data"]["embeds"][0]["footer"]["text"] == f"Sitzung {first.id}"  # no second one
    assert store.latest(table.channel).id == first.id
    nothing = table.post(table.command("session", "end", [], GM))
    assert nothing["data"]["content"] == "In diesem Kanal läuft gerade keine Sitzung."

    table.open([RYNN], "1 h", who=TORAN)  # the channel is free for a new session
    second = store.latest(table.channel)
    moderator = table.command("session", "end", [], GUEST)
    moderator["member"]["permissions"] = str(1 << 13 | 1 << 10)  # MANAGE_MESSAGES (and VIEW_CHANNEL)
    assert table.post(moderator)["data"]["content"].startswith(f"Die Sitzung {second.id} ist beendet")
    table.post(table.command("session", "export", [{"name": "session", "type": 3, "value": first.id}], GUEST))
    log = json.loads(webhooks.wait_for(table.tokens[-1], "PATCH")["files"]["files[0]"])
    assert log["session"]["id"] == first.id and len(log["cards"]) == 1  # before its planned end: no reveal
    unknown = table.post(table.command("session", "check", [{"name": "session", "type": 3, "value": "x*y"}], GM))
    assert unknown["data"]["content"] == "Eine Sitzung „x\\*y“ gab es in diesem Kanal nicht."
    early = table.post(table.command("session", "check", [{"name": "session", "type": 3, "value": first.id}], GM))
    assert early["data"]["content"].startswith("Aufdecken und prüfen geht erst nach dem Ende der Sitzung, <t:")


def test_a_second_message_is_tried_again_while_discord_does_not_know_the_answer(replicas, discord_client,
                                                                              webhooks):
    """discord-api-docs issue 7220: a follow-up may meet 404 "Unknown Webhook" for some seconds."""
    table = Table(discord_client, replicas, webhooks)
    table.open([RYNN], "1 h")
    hidden = table.command("paws", "test", [{"name": "rank", "type": 4, "value": 2},
                                            {"name": "secret", "type": 5, "value": True}], RYNN)
    webhooks.unknown_first[hidden["token"]] = 2
    table.post(hidden)
    private = webhooks.wait_for(hidden["token"], "POST")["json"]
    assert private["flags"] == 64 and webhooks.unknown_first[hidden["token"]] == 0
