"""Follow-ups that need the last roll, without memory: each button carries what it needs in its
``custom_id`` (at most 100 characters), or reads the signed roll from the card it sits on (the share
link's fragment), so any replica answers it.

- ``ww1:rescue:<n>``: Paws, the group's rescue dice after a lost test or comparison (``paws.rescue``);
- ``ww1:retry:<attribute>.<skill>.<skill_dice|->.<advantages>.<disadvantages>.<difficulty>.<attempt>.<m|e>:<name>``:
  Proben, the same test again with one die fewer (``attempt`` + 1);
- ``ww1:injury:<severity>:<r>.<g>.<b>.<w>.<k>:<name>`` and ``ww1:heal:<chances>:<bag>:<name>``:
  Beutelschneider, an injury draw after a failed challenge, a healing draw after an injury;
- ``ww1:narrate``: Weltenbuch, the narration of the conflict on this card: a form asks for the toughness
  at the start of the scene (optional, compact: ``Toran 6/6, Grunz 3/3 equipment 1``), then
  ``weltenbuch.narration`` with the signed conflict from the card's link (the service checks its
  signature) and that toughness.

One roll per button (API.md §1.9): a rolling follow-up's dice derive from the card it hangs on and the
button. Its request carries an ``idempotency_key`` made of the receipt signature of the card's newest
signed roll and the button's ``custom_id``; the service derives the dice from that key and the request,
so pressing again, or the same interaction replayed, answers the same dice. The answer replaces the
card (UPDATE_MESSAGE) by the card with the follow-up added below and the used button's group gone
(the three rescue buttons are one choice). Only the player whose roll the card shows may press its
follow-ups: Discord names that player in the message's ``interaction_metadata``. The narration rolls
nothing (it reads the signed conflict and the toughness typed into its form): its button stays, so a
corrected toughness can be narrated again."""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from typing import Any

from wurfwerk_discord import discord
from wurfwerk_discord.catalog import Catalog
from wurfwerk_discord.words import say

PREFIX = "ww1"
COLOURS = ("red", "green", "blue", "white", "black")


class ButtonError(ValueError):
    pass


def _bag(bag: Mapping[str, Any]) -> str:
    return ".".join(str(int(bag.get(colour) or 0)) for colour in COLOURS)


def _unbag(text: str) -> dict[str, int]:
    counts = [int(part) for part in text.split(".")]
    if len(counts) != len(COLOURS):
        raise ButtonError(text)
    return {colour: count for colour, count in zip(COLOURS, counts, strict=True) if count}


def _with_name(head: str, name: Any) -> str:
    room = discord.CUSTOM_ID_MAX - len(head) - 1
    return f"{head}:{str(name or '')[:max(room, 0)]}" if room > 0 else head[: discord.CUSTOM_ID_MAX]


def button(custom_id: str, label: str, style: int = discord.SECONDARY) -> dict[str, Any]:
    return {"type": discord.BUTTON, "style": style, "label": discord.clip(label, discord.BUTTON_LABEL_MAX),
            "custom_id": custom_id[: discord.CUSTOM_ID_MAX]}


def rows(buttons: list[dict[str, Any]]) -> list[dict[str, Any]]:
    chunks = [buttons[index:index + discord.BUTTONS_PER_ROW]
              for index in range(0, len(buttons), discord.BUTTONS_PER_ROW)]
    return [{"type": discord.ACTION_ROW, "components": chunk} for chunk in chunks[: discord.ACTION_ROWS_MAX]]


def follow_ups(response: Mapping[str, Any], catalog: Catalog, lang: str) -> list[dict[str, Any]]:
    """The buttons a result offers (as action rows), by the rules of its system."""
    operation = str(response.get("operation") or "")
    result = response.get("result") or {}
    request = response.get("request") or {}
    found: list[dict[str, Any]] = []
    if operation in ("paws.test", "paws.comparison"):
        if paws_loser(response) is not None:
            found += [button(f"{PREFIX}:rescue:{count}", say("rescue", lang, n=count)) for count in (1, 2, 3)]
    elif operation == "proben.test":
        dice = int(result.get("dice_count") or 0)
        if result.get("outcome") in ("failure", "partial") and _retry_can_succeed(dice - 1, request):
            skill_dice = request.get("skill_dice")
            values = [request.get("attribute", 0), request.get("skill", 0),
                      "-" if skill_dice is None else skill_dice, request.get("advantages", 0),
                      request.get("disadvantages", 0), request.get("difficulty", 1),
                      int(request.get("attempt") or 1) + 1, "e" if request.get("success_rule") == "exceed" else "m"]
            head = f"{PREFIX}:retry:" + ".".join(str(value or 0) if value != "-" else "-" for value in values)
            found.append(button(_with_name(head, request.get("name")), say("retry", lang, dice=dice - 1),
                                discord.PRIMARY))
    elif operation in ("beutelschneider.challenge", "beutelschneider.first-aid"):
        if not result.get("success") and not result.get("unconscious") and isinstance(request.get("bag"), Mapping):
            for severity in ("light", "serious", "grave"):
                words = catalog.choice_words(operation, "severity", severity, lang) or severity
                head = f"{PREFIX}:injury:{severity}:{_bag(request['bag'])}"
                found.append(button(_with_name(head, request.get("name")), say("injury", lang, severity=words),
                                    discord.DANGER))
    elif operation in ("beutelschneider.injury", "beutelschneider.combat"):
        bag, name = None, request.get("name")
        if operation == "beutelschneider.injury":
            bag = result.get("bag_after")
        elif isinstance(result.get("injury"), Mapping):
            bag, name = result["injury"].get("bag_after"), result["injury"].get("target")
        if isinstance(bag, Mapping) and bag.get("black"):
            for chances in ("poor", "fair", "good"):
                words = catalog.choice_words(operation, "chances", chances, lang) or chances
                head = f"{PREFIX}:heal:{chances}:{_bag(bag)}"
                found.append(button(_with_name(head, name), say("healing", lang, chances=words), discord.SUCCESS))
    elif operation == "weltenbuch.conflict":
        found.append(button(f"{PREFIX}:narrate", say("narration", lang), discord.PRIMARY))
    return rows(found)


def paws_loser(response: Mapping[str, Any]) -> str | None:
    """Who lost a Paws test or comparison, so that the group's rescue dice may help (``player`` for a
    test, ``a`` or ``b`` for a comparison); None when nobody did."""
    operation, result = response.get("operation"), response.get("result") or {}
    if operation == "paws.test" and (not result.get("success") or result.get("catastrophe")):
        return "player"
    if operation == "paws.comparison" and result.get("winner") in ("a", "b"):
        return "b" if result["winner"] == "a" else "a"
    return None


def rescue_advice_request(response: Mapping[str, Any], body: Mapping[str, Any]) -> dict[str, Any] | None:
    """The body of ``paws.test.advice`` or ``paws.comparison.advice`` for a lost roll (``body``: the roll's
    request as its odds take it): one one-shot rescue die at hand, one more loss of the kind to come; a
    comparison's loss by its net, for the side that lost."""
    loser = paws_loser(response)
    if loser is None:
        return None
    advice = {**body, "one_shot_rescue": 1, "future_losses": 1}
    if loser != "player":
        advice.update(lost_by=int((response.get("result") or {}).get("net") or 1), advise={"side": loser})
    return advice


def _retry_can_succeed(dice: int, request: Mapping[str, Any]) -> bool:
    """Proben: a retry has one die fewer ("wird hierfür ein Würfel entfernt"), and a test the dice cannot
    reach is not worth offering ("Hat ein Spieler nicht genügend Würfel, um eine Schwierigkeit zu
    erreichen, kann er die Probe nicht schaffen"): the button only when the fewer dice can still make it."""
    difficulty = int(request.get("difficulty") or 1)
    needed = difficulty + 1 if request.get("success_rule") == "exceed" else difficulty
    return dice >= max(needed, 1)


def request_of(custom_id: str) -> tuple[str, dict[str, Any] | None]:
    """(operation id, body) a button's custom_id asks for; body None: the card's signed roll is needed."""
    prefix, _, rest = custom_id.partition(":")
    action, _, rest = rest.partition(":")
    if prefix != PREFIX:
        raise ButtonError(custom_id)
    try:
        if action == "rescue":
            return "paws.rescue", {"dice": int(rest)}
        if action == "retry":
            packed, _, name = rest.partition(":")
            values = packed.split(".")
            attribute, skill, skill_dice, advantages, disadvantages, difficulty, attempt, rule = values
            body: dict[str, Any] = {"attribute": int(attribute), "skill": int(skill), "advantages": int(advantages),
                                    "disadvantages": int(disadvantages), "difficulty": int(difficulty),
                                    "attempt": int(attempt), "success_rule": "exceed" if rule == "e" else "meet"}
            if skill_dice != "-":
                body["skill_dice"] = int(skill_dice)
            if name:
                body["name"] = name
            return "proben.test", body
        if action in ("injury", "heal"):
            choice, bag, name = (rest.split(":", 2) + [""])[:3]
            body = {"bag": _unbag(bag), ("severity" if action == "injury" else "chances"): choice}
            if name:
                body["name"] = name
            return ("beutelschneider.injury" if action == "injury" else "beutelschneider.healing"), body
        if action == "narrate":
            return "weltenbuch.narration", None
    except ValueError as error:
        raise ButtonError(custom_id) from error
    raise ButtonError(custom_id)


def narration_form(conflict: Mapping[str, Any], lang: str) -> dict[str, Any]:
    """The form a narration button opens: the toughness at the start of the scene, one line for all."""
    names = [str(member.get("name")) for member in (conflict.get("result") or {}).get("members") or []]
    example = ", ".join(f"{name} 5/5" for name in names)
    return {
        "custom_id": f"{PREFIX}:narrate",
        "title": discord.clip(say("narration_title", lang), discord.MODAL_TITLE_MAX),
        "components": [{"type": discord.ACTION_ROW, "components": [{
            "type": discord.TEXT_INPUT, "custom_id": "toughness", "style": discord.PARAGRAPH,
            "label": discord.clip(say("toughness_label", lang), discord.TEXT_INPUT_LABEL_MAX),
            "placeholder": discord.clip(example or "Toran 6/6", discord.PLACEHOLDER_MAX),
            "required": False, "max_length": discord.TEXT_INPUT_VALUE_MAX,
        }]}],
    }


def form_value(data: Mapping[str, Any], custom_id: str) -> str:
    """A text input's value from a modal submission (in an action row, or in a label component)."""
    stack: list[Any] = list(data.get("components") or [])
    while stack:
        item = stack.pop(0)
        if not isinstance(item, Mapping):
            continue
        if item.get("custom_id") == custom_id and "value" in item:
            return str(item.get("value") or "")
        stack.extend(item.get("components") or [])
        if isinstance(item.get("component"), Mapping):
            stack.append(item["component"])
    return ""


def group_of(custom_id: str) -> str:
    """The choice a button belongs to (``ww1:rescue``): pressing one of them uses up all of them."""
    prefix, _, rest = custom_id.partition(":")
    return f"{prefix}:{rest.partition(':')[0]}"


def idempotency_key(card_signature: str, custom_id: str) -> str:
    """The follow-up's key: the card's signed roll and the button, hashed (visible ASCII, 79 characters)."""
    digest = hashlib.sha256(f"{card_signature}\n{custom_id}".encode()).hexdigest()
    return f"discord-button-{digest}"


def roller_of(message: Mapping[str, Any]) -> str | None:
    """The id of the user whose command made the card: ``interaction_metadata.user`` (the older
    ``interaction.user`` where Discord still sends only that)."""
    for key in ("interaction_metadata", "interaction"):
        user = (message.get(key) or {}).get("user") or {}
        if user.get("id"):
            return str(user["id"])
    return None


def presser_of(interaction: Mapping[str, Any]) -> str | None:
    user = (interaction.get("member") or {}).get("user") or interaction.get("user") or {}
    return str(user["id"]) if user.get("id") else None


def remaining(components: list[Mapping[str, Any]], used: str) -> list[dict[str, Any]]:
    """The card's buttons without the used one's group, as plain buttons (Discord sends them back with
    members of its own that a message need not carry)."""
    kept = []
    for row in components or []:
        for item in row.get("components") or []:
            if item.get("type") != discord.BUTTON:
                continue
            if item.get("style") == discord.LINK:
                kept.append({"type": discord.BUTTON, "style": discord.LINK, "label": item.get("label", ""),
                             "url": item.get("url", "")})
            elif group_of(str(item.get("custom_id") or "")) != group_of(used):
                kept.append(button(str(item["custom_id"]), str(item.get("label") or ""),
                                   int(item.get("style") or discord.SECONDARY)))
    return kept


def buttons_in(rows_: list[Mapping[str, Any]]) -> list[dict[str, Any]]:
    return [dict(item) for row in rows_ or [] for item in row.get("components") or []]
