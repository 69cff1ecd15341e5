"""Interactions signed the way Discord signs them, posted to two running replicas of the app in front of
a running service: PING, every subcommand of every system in German and English, the odds table, secret
answers, buttons pressed with the custom_id they came with (on the other replica), bad signatures, bad
input, the service down, and deferred answers finished through a stand-in of Discord's webhook."""

from __future__ import annotations

import json
import time
from fractions import Fraction
from math import comb

import pytest
import requests

from tests.integrations.discord.limits import response_errors
from tests.integrations.discord.support import example_options
from wurfwerk_discord.card import card_link, roll_from_link, share_link
from wurfwerk_discord.discord import escape_markdown

PING, COMMAND, COMPONENT = 1, 2, 3


def answered(response: requests.Response) -> dict:
    assert response.status_code == 200, response.text
    body = response.json()
    assert not response_errors(body), (response_errors(body), body)
    assert "Traceback" not in response.text
    return body


def card_roll(body: dict) -> dict:
    """The signed roll of a card: of a card a follow-up updated, the newest (its last embed)."""
    roll = roll_from_link(body["data"]["embeds"][-1]["url"])
    assert roll["receipt"]["signature"]
    return roll


def buttons_of(message: dict) -> dict[str, str]:
    return {button["custom_id"]: button["label"] for row in message.get("components", []) for button in
            row["components"]}


def test_ping_is_answered_with_pong(replicas, discord_client):
    response = discord_client.post(replicas[0].url, discord_client.interaction(PING))
    assert response.status_code == 200 and response.json() == {"type": 1}


@pytest.mark.parametrize("case", ["missing", "wrong", "other key", "tampered body", "not hex", "old timestamp"])
def test_a_bad_signature_is_refused_with_401_before_the_body_is_read(replicas, discord_client, case):
    interaction = discord_client.interaction(PING)
    body = json.dumps(interaction).encode()
    timestamp = str(int(time.time()))
    good = discord_client.sign(body, timestamp)
    if case == "missing":
        response = requests.post(replicas[0].url + "/interactions", data=body, timeout=5,
                                 headers={"Content-Type": "application/json"})
    elif case == "wrong":
        response = discord_client.post(replicas[0].url, interaction, signature="00" * 64, timestamp=timestamp)
    elif case == "other key":
        from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

        signature = Ed25519PrivateKey.generate().sign(timestamp.encode() + body).hex()
        response = discord_client.post(replicas[0].url, interaction, signature=signature, timestamp=timestamp)
    elif case == "tampered body":
        response = discord_client.post(replicas[0].url, interaction, signature=good, timestamp=timestamp,
                                       raw=body.replace(b'"type": 1', b'"type": 2'))
    elif case == "not hex":
        response = discord_client.post(replicas[0].url, interaction, signature="zz" + good[2:], timestamp=timestamp)
    else:  # the signature of another timestamp
        response = discord_client.post(replicas[0].url, interaction, signature=good, timestamp=str(int(timestamp) - 1))
    assert response.status_code == 401
    assert "type" not in response.json()


def test_a_signed_body_that_is_not_json_is_a_400_not_a_crash(replicas, discord_client):
    response = discord_client.post(replicas[0].url, {}, raw=b"{not json")
    assert response.status_code == 400


@pytest.mark.parametrize("locale, lang", [("de", "de"), ("en-US", "en"), ("en-GB", "en")])
def test_every_subcommand_of_every_system_answers_a_signed_card(replicas, discord_client, webhooks, registry,
                                                                 catalog, locale, lang):
    assert {system for system, _ in registry.subcommands} == {"beutelschneider", "malmsturm", "paws", "proben",
                                                              "weltenbuch"}
    slowest = 0.0
    for index, ((system, name), sub) in enumerate(sorted(registry.subcommands.items())):
        interaction = discord_client.command(system, name, example_options(registry, catalog, sub), locale=locale)
        started = time.monotonic()
        body = answered(discord_client.post(replicas[index % 2].url, interaction))
        slowest = max(slowest, time.monotonic() - started)
        assert slowest < 3.0, (system, name, slowest)  # Discord's deadline for the first answer
        if sub.slow:
            assert body["type"] == 5, (system, name)
            message = webhooks.wait_for(interaction["token"], "PATCH")["json"]
            assert not response_errors({"type": 4, "data": message})
        else:
            assert body["type"] == 4, (system, name, body)
            message = body["data"]
        assert "flags" not in message, (system, name, message)  # an answer for everyone
        link = card_link(message["embeds"][0])
        if link is None:  # a whole encounter may be too large for a link: the card says so
            assert sub.slow and "/play" not in json.dumps(message), (system, name)
            continue
        roll = roll_from_link(link)
        assert roll["operation"] == sub.operation_id and roll["lang"] == lang
        assert message["embeds"][0]["description"].startswith(escape_markdown(roll["summary"]))


def test_the_card_shows_the_roll_its_exact_chance_and_a_play_link_the_service_verifies(replicas, discord_client,
                                                                                      service):
    options = [{"name": "rank", "type": 4, "value": 2}, {"name": "name", "type": 3, "value": "Rynn"}]
    body = answered(discord_client.post(replicas[0].url, discord_client.command("paws", "test", options, locale="de")))
    embed = body["data"]["embeds"][0]
    assert embed["url"].startswith("https://dice.example/play?lang=de#roll=")
    roll = card_roll(body)
    assert requests.post(service.url + "/v1/receipts/verify", json=roll, timeout=5).json()["valid"] is True
    dice = roll["result"]["dice"]
    fields = {item["name"]: item["value"] for item in embed["fields"]}
    assert fields["Rynn"].startswith(" ".join(f"`{value}`" for value in dice))
    # rules 001: a die shows a success on 4-6; two dice; P(at least the successes rolled), by hand
    successes = sum(value >= 4 for value in dice)
    better = sum((Fraction(comb(2, k), 4) for k in range(successes, 3)), Fraction(0))
    worse = sum((Fraction(comb(2, k), 4) for k in range(0, successes + 1)), Fraction(0))
    # the tail of the roll's luck that says something: the smaller of "as good or better" and "as bad or worse"
    label, value = ("So gut oder besser", better) if better <= worse else ("So schlecht oder schlechter", worse)
    assert fields[label] == f"**{round(float(value) * 100)} %** ({value})"


def test_the_odds_option_answers_a_short_table_of_exact_odds(replicas, discord_client):
    options = [{"name": "attribute", "type": 4, "value": 3}, {"name": "difficulty", "type": 4, "value": 2},
               {"name": "odds", "type": 5, "value": True}]
    body = answered(discord_client.post(replicas[1].url, discord_client.command("proben", "test", options,
                                                                                  locale="de")))
    description = body["data"]["embeds"][0]["description"]
    assert description.startswith("```") and "gelungen" in description and "/" in description
    assert "url" not in body["data"]["embeds"][0]  # odds are not a roll: nothing to verify


def test_secret_answers_only_the_roller(replicas, discord_client):
    options = [{"name": "rank", "type": 4, "value": 1}, {"name": "secret", "type": 5, "value": True}]
    body = answered(discord_client.post(replicas[0].url, discord_client.command("paws", "test", options)))
    assert body["data"]["flags"] == 64


def test_a_bag_in_german_compact_form_is_understood(replicas, discord_client):
    options = [{"name": "bag", "type": 3, "value": "rot 9 grün 6 weiß 5"},
               {"name": "ability", "type": 3, "value": "combat"}]
    body = answered(discord_client.post(replicas[0].url, discord_client.command("beutelschneider", "challenge",
                                                                                  options, locale="de")))
    assert card_roll(body)["request"]["bag"] == {"red": 9, "green": 6, "blue": 0, "white": 5, "black": 0}


# -- buttons: pressed with the custom_id they came with, on the other replica --------------------------------

def press(replicas, discord_client, card: dict, custom_id: str, locale: str = "en-US") -> dict:
    """The button pressed by the card's roller (user 7, as Discord names them in interaction_metadata)."""
    message = {"id": "55", "embeds": card["data"]["embeds"], "components": card["data"].get("components", []),
               "flags": card["data"].get("flags", 0), "interaction_metadata": {"id": "1", "type": 2,
                                                                              "user": {"id": "7"}}}
    return answered(discord_client.post(replicas[1].url, discord_client.press(custom_id, message, locale=locale)))


def test_paws_offers_rescue_dice_after_a_lost_test(replicas, discord_client):
    # rank 0, no bonus: no dice, the test is lost (rules 001: one die per rank)
    card = answered(discord_client.post(replicas[0].url, discord_client.command(
        "paws", "test", [{"name": "rank", "type": 4, "value": 0}], locale="de")))
    found = buttons_of(card["data"])
    assert found == {"ww1:rescue:1": "1 Rettungswürfel", "ww1:rescue:2": "2 Rettungswürfel",
                     "ww1:rescue:3": "3 Rettungswürfel"}
    rescue = card_roll(press(replicas, discord_client, card, "ww1:rescue:2", "de"))
    assert rescue["operation"] == "paws.rescue" and len(rescue["result"]["dice"]) == 2


def test_paws_offers_rescue_dice_to_the_loser_of_a_comparison(replicas, discord_client):
    options = [{"name": "a", "type": 3, "value": "Rynn rank 4"}, {"name": "b", "type": 3, "value": "Gegner rank 0"}]
    card = answered(discord_client.post(replicas[0].url, discord_client.command("paws", "comparison", options)))
    roll = card_roll(card)
    assert roll["result"]["winner"] in ("a", None)
    assert bool(buttons_of(card["data"])) == (roll["result"]["winner"] == "a")


def _field(card: dict, name: str) -> str | None:
    return next((field["value"] for field in card["data"]["embeds"][0]["fields"] if field["name"] == name), None)


def test_a_lost_paws_test_says_whether_the_rescue_die_is_worth_rolling(replicas, discord_client):
    """Issue 51: the card of a lost test says whether the one-shot rescue die is worth rolling now. One
    die and one more failed test to come: rolled now it averts this one half the time, kept the next one
    half the time ("Zeigt er einen Erfolg, kann man damit einen negativen Effekt abwenden"): gleich gut."""
    card = answered(discord_client.post(replicas[0].url, discord_client.command(
        "paws", "test", [{"name": "rank", "type": 4, "value": 0}], locale="de")))
    assert _field(card, "Einmaliger Rettungswürfel: jetzt oder für später?") == (
        "Gleich gut, jetzt oder später: je 25 % dieser und der nächsten Niederlage abgewendet. "
        "Angenommen, eine weitere Niederlage dieser Art folgt; der Rat ändert keinen Wurf.")


def test_a_lost_paws_comparison_weighs_the_die_by_the_margin(replicas, discord_client):
    """Ruling 3: a lost comparison is saved to a tie only by as many successes as the winner's net. Lost by
    1, the die rolled now averts it half the time (1/4 of the two losses), more than kept for a later loss
    against four dice (4/15 of them by 1, half of those averted: 1/15 of the two); lost by more, one die
    cannot save it: keep it."""
    options = [{"name": "a", "type": 3, "value": "Rynn rank 4"}, {"name": "b", "type": 3, "value": "Gegner rank 0"}]
    for _ in range(6):
        card = answered(discord_client.post(replicas[0].url, discord_client.command(
            "paws", "comparison", options)))
        roll = card_roll(card)
        said = _field(card, "One-shot rescue die: now or for later?")
        if roll["result"]["winner"] != "a":
            assert said is None
        elif roll["result"]["net"] == 1:
            assert said.startswith("Roll it now: 25 % of this loss and the next averted; kept, only 6.7 %.")
        else:
            margin = roll["result"]["net"]
            assert said.startswith(f"Keep it: one die alone cannot save this comparison (lost by {margin}) to a tie; "
                                   "kept, it averts 6.7 % of this loss and the next.")


def test_proben_offers_no_retry_for_a_test_that_cannot_be_made(replicas, discord_client):
    """Text: "Hat ein Spieler nicht genügend Würfel, um eine Schwierigkeit zu erreichen, kann er die Probe
    nicht schaffen" (review 2026-12-04: a retry was offered for such a test)."""
    options = [{"name": "attribute", "type": 4, "value": 3}, {"name": "skill", "type": 4, "value": 1},
               {"name": "difficulty", "type": 4, "value": 100}]
    card = answered(discord_client.post(replicas[0].url, discord_client.command("proben", "test", options)))
    assert card_roll(card)["result"]["impossible"] is True and not buttons_of(card["data"])


def test_proben_offers_a_retry_with_one_die_fewer(replicas, discord_client):
    long_name = "Alrik vom Großen Fluss, genannt der Unverdrossene, Sohn des Alrik"[:64]
    options = [{"name": "attribute", "type": 4, "value": 3}, {"name": "skill", "type": 4, "value": 1},
               {"name": "advantages", "type": 4, "value": 1}, {"name": "difficulty", "type": 4, "value": 4},
               {"name": "name", "type": 3, "value": long_name}]
    # Five dice against 4; four dice can still make it. The interaction's id fixes the dice, and the ids
    # follow the order the tests run in: roll until the test is not made (each time 1 in 22 it is).
    for _ in range(8):
        card = answered(discord_client.post(replicas[0].url, discord_client.command("proben", "test", options)))
        if card_roll(card)["result"]["outcome"] != "success":
            break
    assert card_roll(card)["result"]["outcome"] != "success"
    (custom_id, label), = buttons_of(card["data"]).items()
    assert len(custom_id) <= 100 and label == "Try again (4 dice)"
    again = card_roll(press(replicas, discord_client, card, custom_id))
    assert again["request"]["attempt"] == 2 and again["result"]["dice_count"] == 4  # 5 - (attempt - 1)
    assert long_name.startswith(again["request"]["name"])


def test_beutelschneider_offers_an_injury_after_a_failed_challenge_and_healing_after_it(replicas, discord_client):
    options = [{"name": "bag", "type": 3, "value": "weiß 5 grün 3"}, {"name": "ability", "type": 3, "value": "combat"}]
    card = answered(discord_client.post(replicas[0].url, discord_client.command("beutelschneider", "challenge",
                                                                                  options, locale="de")))
    found = buttons_of(card["data"])
    serious = next(custom_id for custom_id in found if ":injury:serious:" in custom_id)
    assert found[serious] == "Verletzung: ernsthaft"
    injury = press(replicas, discord_client, card, serious, "de")
    injured = card_roll(injury)
    assert injured["operation"] == "beutelschneider.injury" and injured["result"]["bag_after"]["black"] == 2
    heal = next(custom_id for custom_id in buttons_of(injury["data"]) if ":heal:good:" in custom_id)
    healing = card_roll(press(replicas, discord_client, injury, heal, "de"))
    assert healing["operation"] == "beutelschneider.healing"
    assert healing["request"]["bag"] == {key: value for key, value in injured["result"]["bag_after"].items()}


def submit(replicas, discord_client, card: dict, toughness: str, locale: str = "de") -> dict:
    """The narration form sent back, as Discord posts a modal submission (with the card it came from)."""
    message = {"id": "55", "embeds": card["data"]["embeds"], "components": card["data"].get("components", [])}
    data = {"custom_id": "ww1:narrate", "components": [
        {"type": 1, "components": [{"type": 4, "custom_id": "toughness", "value": toughness}]}]}
    interaction = discord_client.interaction(5, data, locale=locale, message=message)
    return answered(discord_client.post(replicas[1].url, interaction))


def test_weltenbuch_narrates_the_signed_conflict_on_the_card(replicas, discord_client):
    options = [{"name": "parties", "type": 3,
                "value": "Helden: Toran role player seat 1 profile 5, Fayla role player seat 2 profile 2; "
                         "Orks: Grunz role npc profile 3"}]
    card = answered(discord_client.post(replicas[0].url, discord_client.command("weltenbuch", "conflict", options,
                                                                                  locale="de")))
    assert list(buttons_of(card["data"])) == ["ww1:narrate"]
    form = press(replicas, discord_client, card, "ww1:narrate", "de")
    assert form["type"] == 9 and form["data"]["custom_id"] == "ww1:narrate"
    assert "Toran 5/5, Fayla 5/5, Grunz 5/5" == form["data"]["components"][0]["components"][0]["placeholder"]
    # rules 002: every success die of the conflict lowers the other party's toughness in the narration
    narration = card_roll(submit(replicas, discord_client, card, "Toran 6/6, Fayla 4/4, Grunz 2/2"))
    conflict = card_roll(card)
    assert narration["operation"] == "weltenbuch.narration"
    assert narration["request"]["conflict"]["receipt"] == conflict["receipt"]
    assert narration["request"]["toughness"] == {  # the service echoes the default equipment
        "Toran": {"current": 6, "max": 6, "equipment": 0}, "Fayla": {"current": 4, "max": 4, "equipment": 0},
        "Grunz": {"current": 2, "max": 2, "equipment": 0}}
    assert set(narration["result"]["toughness_after"]) == {"Toran", "Fayla", "Grunz"}
    without = card_roll(submit(replicas, discord_client, card, ""))
    assert "toughness" not in without["request"] or not without["request"]["toughness"]
    garbled = submit(replicas, discord_client, card, "Toran sechs")
    assert garbled["data"]["flags"] == 64 and "• „Zähigkeit“: " in garbled["data"]["content"]
    # a card whose signed roll was altered: the service refuses it, the user reads why
    forged = card_roll(card)
    forged["result"]["winner"] = "Orks" if forged["result"]["winner"] != "Orks" else "Helden"  # always a change
    card["data"]["embeds"][0]["url"] = share_link("https://dice.example", forged, "de")
    refused = submit(replicas, discord_client, card, "")
    assert refused["data"]["flags"] == 64 and "Würfeldienst hat abgelehnt" in refused["data"]["content"]


def test_an_unknown_or_stale_button_answers_ephemerally(replicas, discord_client):
    body = press(replicas, discord_client, {"data": {"embeds": [{}]}}, "ww0:something")
    assert body["data"]["flags"] == 64
    body = press(replicas, discord_client, {"data": {"embeds": [{"url": "https://x/play#roll=!!"}]}}, "ww1:narrate")
    assert body["data"]["flags"] == 64


# -- what goes wrong -------------------------------------------------------------------------------------------

def test_bad_compact_input_names_the_option(replicas, discord_client):
    options = [{"name": "bag", "type": 3, "value": "lila 3"}, {"name": "ability", "type": 3, "value": "combat"}]
    body = answered(discord_client.post(replicas[0].url, discord_client.command("beutelschneider", "challenge",
                                                                                  options, locale="de")))
    assert body["data"]["flags"] == 64
    assert body["data"]["content"] == "„charakterbeutel“ verstehe ich nicht: „lila“ passt hier nicht"


def test_a_refused_request_answers_the_services_problem_in_the_users_language(replicas, discord_client):
    options = [{"name": "rank", "type": 4, "value": 99}]
    german = answered(discord_client.post(replicas[0].url, discord_client.command("paws", "test", options,
                                                                                    locale="de")))
    english = answered(discord_client.post(replicas[0].url, discord_client.command("paws", "test", options)))
    assert german["data"]["flags"] == english["data"]["flags"] == 64
    assert german["data"]["content"].startswith("Der Würfeldienst hat abgelehnt:")
    # the option as the player typed it, on a line of its own, said once (not again as the problem's detail)
    assert german["data"]["content"] == "Der Würfeldienst hat abgelehnt: Ungültige Eingabe\n" \
                                        "• „rang_der_eigenschaft“: muss zwischen 0 und 10 liegen"
    assert english["data"]["content"].startswith("The dice service refused:")
    assert english["data"]["content"].endswith("\n• 'rank': must be between 0 and 10")


def test_an_unknown_command_answers_ephemerally(replicas, discord_client):
    body = answered(discord_client.post(replicas[0].url, discord_client.command("paws", "teleport", [])))
    assert body["data"]["flags"] == 64


def test_the_service_down_answers_ephemerally_never_silently(orphan, discord_client):
    options = [{"name": "rank", "type": 4, "value": 2}]
    body = answered(discord_client.post(orphan.url, discord_client.command("paws", "test", options, locale="de")))
    assert body["data"]["flags"] == 64 and "nicht erreichbar" in body["data"]["content"]


# -- deferred answers -------------------------------------------------------------------------------------------

def test_encounter_odds_are_deferred_and_delivered_through_the_webhook(replicas, discord_client, webhooks):
    options = [{"name": "a", "type": 3, "value": "Rynn rank 3"}, {"name": "b", "type": 3, "value": "Gegner rank 2"},
               {"name": "odds", "type": 5, "value": True}, {"name": "secret", "type": 5, "value": True}]
    interaction = discord_client.command("paws", "encounter", options, locale="de")
    started = time.monotonic()
    body = answered(discord_client.post(replicas[0].url, interaction))
    assert time.monotonic() - started < 3.0
    assert body == {"type": 5, "data": {"flags": 64}}
    call = webhooks.wait_for(interaction["token"], "PATCH")
    assert call["application_id"] == "1234567890" and call["message"] == "@original"
    assert "Sieg für" in call["json"]["embeds"][0]["description"]
    assert not response_errors({"type": 4, "data": call["json"]})


def test_a_failing_deferred_encounter_edits_its_own_thinking_message(replicas, discord_client, webhooks):
    """Issue 49: the public "… denkt nach" message becomes the error; nothing is deleted, nothing new sent."""
    options = [{"name": "a", "type": 3, "value": "Rynn rank 99"}, {"name": "b", "type": 3, "value": "Gegner rank 2"}]
    interaction = discord_client.command("paws", "encounter", options, locale="de")
    assert answered(discord_client.post(replicas[1].url, interaction))["type"] == 5
    edit = webhooks.wait_for(interaction["token"], "PATCH")
    assert edit["message"] == "@original"
    assert edit["json"]["content"] == "Der Würfeldienst hat abgelehnt: Ungültige Eingabe\n" \
                                      "• „erste_seite (Rang der Eigenschaft)“: muss zwischen 0 und 10 liegen"
    assert edit["json"]["embeds"] == [] and edit["json"]["components"] == [] and "flags" not in edit["json"]
    time.sleep(0.3)
    assert [call["method"] for call in webhooks.calls if call["token"] == interaction["token"]] == ["PATCH"]
