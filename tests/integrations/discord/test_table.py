"""Issue 49, the Discord table tried as a table uses it: one roll per button (pressed twice, replayed,
pressed by another player), an app that slow or hostile clients cannot knock over (ten half-sent
requests beside a signed PING, a body too large, a stale timestamp; served as `make discord` serves
it), and a player's name that is Markdown or nothing."""

from __future__ import annotations

import json
import os
import re
import signal
import socket
import subprocess
import time
from collections.abc import Iterator

import pytest
import requests

from tests.deploy.processes import GUNICORN, free_port, wait_until_up
from tests.integrations.discord.limits import response_errors
from wurfwerk_discord.card import card_link, roll_from_link

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
COMPONENT = 3


def answered(response: requests.Response) -> dict:
    assert response.status_code == 200, response.text
    body = response.json()
    assert not response_errors(body), (response_errors(body), body)
    return body


def newest_roll(message: dict) -> dict:
    return roll_from_link(card_link(message["embeds"][-1]))


def custom_ids(message: dict) -> list[str]:
    return [button["custom_id"] for row in message.get("components", []) for button in row["components"]]


def on_the_card(card: dict, roller: str = "7") -> dict:
    """The message a button hangs on, as Discord sends it with the press: the card and who rolled it."""
    return {"id": "555", "embeds": card["embeds"], "components": card.get("components", []),
            "interaction_metadata": {"id": "1", "type": 2, "user": {"id": roller, "username": "ryan"}}}


def lost_paws_test(replicas, discord_client, locale: str = "de") -> dict:
    # rules 001: one die per rank; rank 0 and no bonus is no die, the test is lost and rescue dice offered
    card = answered(discord_client.post(replicas[0].url, discord_client.command(
        "paws", "test", [{"name": "rank", "type": 4, "value": 0}], locale=locale)))
    assert custom_ids(card["data"]) == ["ww1:rescue:1", "ww1:rescue:2", "ww1:rescue:3"]
    return card["data"]


# -- one roll per button ---------------------------------------------------------------------------------------

def test_a_button_pressed_twice_or_replayed_answers_the_same_dice_and_leaves_the_card(replicas, discord_client):
    card = lost_paws_test(replicas, discord_client)
    press = discord_client.press("ww1:rescue:3", on_the_card(card), locale="de")
    body = json.dumps(press).encode()
    stamp = str(int(time.time()))
    signature = discord_client.sign(body, stamp)
    first = answered(discord_client.post(replicas[1].url, press, raw=body, timestamp=stamp, signature=signature))
    assert first["type"] == 7  # UPDATE_MESSAGE: the card itself, not a new message
    updated = first["data"]
    assert [roll_from_link(card_link(embed))["operation"] for embed in updated["embeds"]] == ["paws.test",
                                                                                             "paws.rescue"]
    assert custom_ids(updated) == []  # the three rescue buttons were one choice: all of them are gone
    rescue = newest_roll(updated)
    assert len(rescue["result"]["dice"]) == 3

    # the same button again (a second click before the card changed, on the other replica): the same dice
    again = answered(discord_client.post(replicas[0].url, discord_client.press("ww1:rescue:3", on_the_card(card),
                                                                               locale="de")))
    # the very same interaction, replayed byte for byte with its timestamp and signature
    replayed = answered(discord_client.post(replicas[1].url, press, raw=body, timestamp=stamp, signature=signature))
    for answer in (again, replayed):
        assert answer["type"] == 7 and custom_ids(answer["data"]) == []
        assert newest_roll(answer["data"])["result"] == rescue["result"]
        assert newest_roll(answer["data"])["randomness"]["events"] == rescue["randomness"]["events"]


def test_a_button_the_card_does_not_carry_is_refused(replicas, discord_client):
    card = lost_paws_test(replicas, discord_client)
    used = answered(discord_client.post(replicas[1].url, discord_client.press("ww1:rescue:1", on_the_card(card),
                                                                              locale="de")))["data"]
    for custom_id, message in (("ww1:rescue:2", used), ("ww1:rescue:7", card)):  # used up; never offered
        answer = answered(discord_client.post(replicas[0].url, discord_client.press(custom_id, on_the_card(message),
                                                                                    locale="de")))
        assert answer["type"] == 4 and answer["data"]["flags"] == 64
        assert answer["data"]["content"] == "Dieser Knopf gilt auf dieser Karte nicht (mehr)."


def test_the_dice_of_a_button_come_from_its_card_another_card_rolls_its_own(replicas, discord_client):
    results = set()
    for _ in range(4):
        card = lost_paws_test(replicas, discord_client, locale="en-US")
        answer = answered(discord_client.post(replicas[1].url, discord_client.press("ww1:rescue:3",
                                                                                    on_the_card(card))))
        results.add(tuple(newest_roll(answer["data"])["result"]["dice"]))
    assert len(results) > 1  # four cards, four independent rolls: P(all equal) = 1/216³ for three dice


def test_a_chain_of_follow_ups_stacks_on_the_card_each_button_once(replicas, discord_client):
    """Beutelschneider (rules 003): a failed challenge offers an injury draw, the injury a healing draw."""
    options = [{"name": "bag", "type": 3, "value": "weiß 5 grün 3"}, {"name": "ability", "type": 3, "value": "combat"}]
    card = answered(discord_client.post(replicas[0].url, discord_client.command(
        "beutelschneider", "challenge", options, locale="de")))["data"]
    serious = next(custom_id for custom_id in custom_ids(card) if ":injury:serious:" in custom_id)
    injured = answered(discord_client.post(replicas[1].url, discord_client.press(serious, on_the_card(card),
                                                                                 locale="de")))["data"]
    assert not any(":injury:" in custom_id for custom_id in custom_ids(injured))
    heal = next(custom_id for custom_id in custom_ids(injured) if ":heal:good:" in custom_id)
    healed = answered(discord_client.post(replicas[0].url, discord_client.press(heal, on_the_card(injured),
                                                                                locale="de")))["data"]
    assert [newest_roll({"embeds": [embed]})["operation"] for embed in healed["embeds"]] == [
        "beutelschneider.challenge", "beutelschneider.injury", "beutelschneider.healing"]
    assert custom_ids(healed) == []


@pytest.mark.parametrize("locale, words", [("de", "Das ist nicht dein Wurf."), ("en-US", "That is not your roll.")])
def test_another_player_cannot_press_a_follow_up_of_your_roll(replicas, discord_client, locale, words):
    card = lost_paws_test(replicas, discord_client)
    answer = answered(discord_client.post(replicas[1].url, discord_client.press(
        "ww1:rescue:1", on_the_card(card, roller="8"), locale=locale)))
    assert answer == {"type": 4, "data": {"content": words, "allowed_mentions": {"parse": []}, "flags": 64}}


def test_a_replayed_command_rolls_the_same_dice(replicas, discord_client):
    interaction = discord_client.command("paws", "test", [{"name": "rank", "type": 4, "value": 5}])
    first, second = (newest_roll(answered(discord_client.post(replica.url, interaction))["data"])
                     for replica in replicas)
    assert first["result"]["dice"] == second["result"]["dice"] and len(first["result"]["dice"]) == 5


# -- names -------------------------------------------------------------------------------------------------------

def test_a_name_written_as_markdown_shows_as_typed_and_never_links(replicas, discord_client):
    name = "[✓ Signiert](https://evil.example/#roll=a) **laut** <@12>"  # 64 at most
    card = answered(discord_client.post(replicas[0].url, discord_client.command(
        "paws", "test", [{"name": "rank", "type": 4, "value": 2}, {"name": "name", "type": 3, "value": name}],
        locale="de")))["data"]
    assert "embeds" in card, card
    embed = card["embeds"][0]
    for text in [embed["description"]] + [field["name"] for field in embed["fields"]]:
        assert not re.search(r"(?<!\\)\[[^\]]*(?<!\\)\]\(", text), text  # no masked link
        assert not re.search(r"(?<!\\)\*\*|(?<!\\)<@", text), text  # no bold, no mention
    assert embed["fields"][0]["name"] == r"\[✓ Signiert\](https://evil.example/\#roll=a) \*\*laut\*\* \<@12\>"
    assert card_link(embed).startswith("https://dice.example/play?lang=de#roll=")  # the card's own link


def test_a_markdown_word_in_an_error_shows_as_typed(replicas, discord_client):
    answer = answered(discord_client.post(replicas[0].url, discord_client.command(
        "beutelschneider", "challenge", [{"name": "bag", "type": 3, "value": "[hier](https://evil.example) 3"},
                                         {"name": "ability", "type": 3, "value": "combat"}], locale="de")))
    assert answer["data"]["content"] == r"„charakterbeutel“ verstehe ich nicht: „\[hier\](https://evil.example)“ " \
                                        "passt hier nicht"


@pytest.mark.parametrize("option, value", [("name", "   "), ("name", "\u3000")])
def test_a_name_that_is_empty_after_trimming_is_refused(replicas, discord_client, option, value):
    answer = answered(discord_client.post(replicas[0].url, discord_client.command(
        "proben", "test", [{"name": "attribute", "type": 4, "value": 3}, {"name": option, "type": 3, "value": value}],
        locale="de")))
    assert answer["data"]["flags"] == 64
    assert answer["data"]["content"] == "„name“ verstehe ich nicht: der Name ist leer"


def test_a_member_without_a_name_in_a_compact_option_is_refused(replicas, discord_client):
    parties = " : Toran profile 5; Orks: Grunz profile 3"  # the first party's name is a space
    answer = answered(discord_client.post(replicas[0].url, discord_client.command(
        "weltenbuch", "conflict", [{"name": "parties", "type": 3, "value": parties}], locale="de")))
    assert answer["data"]["flags"] == 64
    assert answer["data"]["content"] == "„parteien“ verstehe ich nicht: Name: der Name ist leer"


# -- served as `make discord` serves it ------------------------------------------------------------------------

@pytest.fixture(scope="module")
def served(service, public_key_hex, webhooks) -> Iterator[str]:
    """The app under gunicorn with its own settings module, as `make discord` starts it."""
    port = free_port()
    env = {**os.environ, "DISCORD_PUBLIC_KEY": public_key_hex, "WURFWERK_URL": service.url,
           "DISCORD_API_BASE": webhooks.url,
           "PYTHONPATH": os.pathsep.join([ROOT, os.path.join(ROOT, "client"),
                                          os.path.join(ROOT, "integrations", "discord")])}
    process = subprocess.Popen([GUNICORN, "--config", "python:wurfwerk_discord.serving", "--bind",
                                f"127.0.0.1:{port}", "--access-logfile", "/dev/null", "wurfwerk_discord:create_app()"],
                               cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                               start_new_session=True)
    try:
        wait_until_up(f"http://127.0.0.1:{port}/livez")
        yield f"http://127.0.0.1:{port}"
    finally:
        os.killpg(process.pid, signal.SIGTERM)
        process.wait(30)


def half_sent(url: str, count: int) -> list[socket.socket]:
    """Connections that send part of a request and then nothing: half a head, or a head and part of a body."""
    host, port = url.removeprefix("http://").split(":")
    sockets = []
    for index in range(count):
        sock = socket.create_connection((host, int(port)), timeout=5)
        if index % 2:
            sock.sendall(b"POST /interactions HTTP/1.1\r\nHost: x\r\nContent-Le")
        else:
            sock.sendall(b"POST /interactions HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                         b"Content-Length: 400\r\n\r\n{\"type\": 1, ")
        sockets.append(sock)
    return sockets


def test_ten_half_sent_requests_do_not_delay_a_signed_ping(served, discord_client):
    slow = half_sent(served, 10)
    try:
        time.sleep(0.3)  # the server has accepted them all and waits for the rest
        started = time.monotonic()
        response = discord_client.post(served, discord_client.interaction(1))
        elapsed = time.monotonic() - started
        assert response.status_code == 200 and response.json() == {"type": 1}
        assert elapsed < 1.0, elapsed
    finally:
        for sock in slow:
            sock.close()


def test_an_oversize_body_is_refused_before_it_is_read_unsigned(served):
    host, port = served.removeprefix("http://").split(":")
    with socket.create_connection((host, int(port)), timeout=5) as sock:
        started = time.monotonic()
        sock.sendall(b"POST /interactions HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                     b"Content-Length: 209715200\r\n\r\n" + b"{" * 1000)  # announces 200 MB, sends 1 kB
        answer = sock.recv(4096)
        assert answer.startswith(b"HTTP/1.1 413 "), answer[:80]
        assert time.monotonic() - started < 1.0
    chunked = requests.post(served + "/interactions", data=iter([b"x" * 65536] * 4), timeout=10,
                            headers={"Content-Type": "application/json"})  # no length: read to the limit only
    assert chunked.status_code == 413


@pytest.mark.parametrize("age, status", [(301, 401), (-301, 401), (3600 * 24 * 365 * 50, 401), (240, 200),
                                         (-60, 200)])
def test_a_timestamp_outside_five_minutes_is_refused_even_when_signed(served, discord_client, age, status):
    interaction = discord_client.interaction(1)
    body = json.dumps(interaction).encode()
    stamp = str(int(time.time()) - age)
    response = discord_client.post(served, interaction, raw=body, timestamp=stamp,
                                   signature=discord_client.sign(body, stamp))
    assert response.status_code == status
    assert (response.json() == {"type": 1}) == (status == 200)


def test_served_so_a_command_still_rolls_and_a_deferred_card_arrives(served, discord_client, webhooks):
    body = answered(discord_client.post(served, discord_client.command(
        "paws", "test", [{"name": "rank", "type": 4, "value": 2}], locale="de")))
    assert body["type"] == 4 and newest_roll(body["data"])["operation"] == "paws.test"
    # the deferred answer's follow-up runs after the response, as a greenlet of the gevent worker
    options = [{"name": "a", "type": 3, "value": "Rynn rank 3"}, {"name": "b", "type": 3, "value": "Gegner rank 2"}]
    interaction = discord_client.command("paws", "encounter", options, locale="de")
    assert answered(discord_client.post(served, interaction)) == {"type": 5, "data": {"flags": 0}}
    card = webhooks.wait_for(interaction["token"], "PATCH")["json"]
    assert newest_roll(card)["operation"] == "paws.encounter"


@pytest.mark.parametrize("stamp, fresh", [("1000", True), ("1300", True), ("700", True), ("1301", False),
                                          ("699", False), ("1", False), ("", False), (None, False), ("1e3", False),
                                          ("-1000", False), (" 1000", False), ("１０００", False)])
def test_a_timestamp_is_fresh_only_as_plain_unix_seconds_within_five_minutes(stamp, fresh):
    from wurfwerk_discord.discord import fresh_timestamp

    assert fresh_timestamp(stamp, now=1000.0) is fresh


def test_a_long_chain_of_follow_ups_keeps_the_card_within_discords_limits():
    from wurfwerk_discord.card import embed_size, stacked

    def embed(number: int) -> dict:
        return {"title": f"Probe {number}", "description": "x" * 900, "url": f"https://dice.example/#roll={number}",
                "fields": [{"name": "Alrik", "value": "`6` `5` → 2", "inline": True}], "footer": {"text": "Beleg"}}

    card = {"embeds": [embed(number) for number in range(9)], "components": []}
    updated = stacked(card, {"embeds": [embed(9), embed(10)]}, [])
    assert len(updated["embeds"]) <= 10 and sum(map(embed_size, updated["embeds"])) <= 6000
    assert [item["title"] for item in updated["embeds"]][-2:] == ["Probe 9", "Probe 10"]  # the oldest went first
    assert not response_errors({"type": 7, "data": updated})
