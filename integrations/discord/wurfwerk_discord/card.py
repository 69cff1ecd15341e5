"""The card a roll posts: the chat line in the user's language, the dice and marbles under each
participant's name, the exact chance of this outcome (or better) from the odds twin, and a link to
/play that shows this very signed roll, checked (the share link: the signed response, deflated and
base64url-encoded, in the URL fragment, exactly as service/web/play.js packs it)."""

from __future__ import annotations

import base64
import json
import re
import zlib
from collections.abc import Mapping
from fractions import Fraction
from typing import Any
from urllib.parse import urlsplit

from wurfwerk_discord import discord
from wurfwerk_discord.catalog import Catalog
from wurfwerk_discord.words import say

COLOURS = {"beutelschneider": 0x8E5B3A, "paws": 0xD9822B, "weltenbuch": 0x2E7D5B, "proben": 0x3A6EA5,
           "malmsturm": 0x6A4C93}
MARBLES = {"red": "🔴", "green": "🟢", "blue": "🔵", "white": "⚪", "black": "⚫"}
FUDGE = {-1: "➖", 0: "⬜", 1: "➕"}
# Outcomes from the best to the worst: "this or better" sums the ones up to the observed.
LADDER = ("success", "partial", "failure", "no_dice", "catastrophe", "unconscious")
# A result's luck quantity, higher is better: "as good or better" is P(X >= x) of its distribution.
LUCK = ("successes", "matching", "total")
MAX_GROUPS = 20
FRACTION_DENOMINATOR_LIMIT = 10**6


# -- the share link -------------------------------------------------------------------------------------

def pack(response: Mapping[str, Any]) -> str:
    compressor = zlib.compressobj(9, zlib.DEFLATED, -15)  # raw deflate, as CompressionStream("deflate-raw")
    data = compressor.compress(json.dumps(response, ensure_ascii=False, separators=(",", ":")).encode())
    data += compressor.flush()
    return base64.urlsafe_b64encode(data).decode().rstrip("=")


def unpack(packed: str) -> Any:
    data = base64.urlsafe_b64decode(packed + "=" * (-len(packed) % 4))
    return json.loads(zlib.decompress(data, -15))


def share_link(public_url: str, response: Mapping[str, Any], lang: str) -> str:
    return f"{public_url.rstrip('/')}/play?lang={lang}#roll={pack(response)}"


def card_link(embed: Mapping[str, Any]) -> str | None:
    """The share link on a card: the title's link, or the masked link the app puts at the end of the
    description (the last one: a player's text before it is escaped and never forms a link)."""
    if embed.get("url"):
        return str(embed["url"])
    found = re.findall(r"(?<!\\)\]\((https?://[^)\s]+#roll=[A-Za-z0-9_-]+)\)", str(embed.get("description") or ""))
    return found[-1] if found else None


def newest_signature(embeds: list[Mapping[str, Any]]) -> str | None:
    """The receipt signature of the newest signed roll on a card (its last embed with a readable link)."""
    for embed in reversed(embeds):
        roll = roll_from_link(card_link(embed))
        signature = (roll.get("receipt") or {}).get("signature") if isinstance(roll, Mapping) else None
        if isinstance(signature, str) and signature:
            return signature
    return None


def roll_from_link(url: str | None) -> Any:
    """The signed response a card's link carries (None when there is none)."""
    fragment = urlsplit(url or "").fragment
    if not fragment.startswith("roll="):
        return None
    try:
        return unpack(fragment[len("roll="):])
    except (ValueError, zlib.error):
        return None


# -- chances ---------------------------------------------------------------------------------------------

def _fraction(entry: Mapping[str, Any]) -> Fraction:
    exact = entry.get("exact")
    return Fraction(exact) if exact else Fraction(entry.get("probability") or 0.0)


def observed_outcome(operation: str, result: Mapping[str, Any]) -> str | None:
    if isinstance(result.get("outcome"), str):
        return str(result["outcome"])
    if "taken_out" in result and "hit" in result:
        if result.get("taken_out"):
            return "taken_out"
        if result.get("consequence_required"):
            return "consequence"
        return "hit" if result.get("hit") else "miss"
    if "dies" in result:
        return "dies" if result["dies"] else "survives"
    if "winner" in result:
        winner = result.get("winner")
        if winner is None:
            return "tie"
        return winner if winner in ("a", "b") else f"wins:{winner}"
    if "success" in result:
        if result.get("unconscious"):
            return "unconscious"
        if result.get("catastrophe"):
            return "catastrophe"
        return "success" if result["success"] else "failure"
    if "god" in result:
        return f"god:{result['god']}"
    return None


def chance(response: Mapping[str, Any], odds: Mapping[str, Any] | None) -> tuple[str, Fraction] | None:
    """How lucky the roll was, exactly: the smaller tail, ("better", P(as good or better)) or ("worse",
    P(as bad or worse)); for outcomes without an order ("this_outcome", P(this outcome))."""
    found = _chance(response, odds)
    if found is None:
        return None
    kind, better, worse = found
    return (kind, better) if kind != "better" or better <= worse else ("worse", worse)


def _chance(response: Mapping[str, Any], odds: Mapping[str, Any] | None) -> tuple[str, Fraction, Fraction] | None:
    if not odds:
        return None
    table = odds.get("odds") or {}
    result = response.get("result") or {}
    distributions = table.get("distributions") or {}
    for key in LUCK:
        if key in distributions and isinstance(result.get(key), int | float) and not isinstance(result[key], bool):
            value = result[key]
            better = sum((_fraction(entry) for entry in distributions[key] if entry["value"] >= value), Fraction(0))
            worse = sum((_fraction(entry) for entry in distributions[key] if entry["value"] <= value), Fraction(0))
            return "better", better, worse
    outcome = observed_outcome(str(response.get("operation")), result)
    outcomes = {entry["outcome"]: _fraction(entry) for entry in table.get("outcomes") or []}
    if outcome is None or outcome not in outcomes:
        return None
    if outcome in LADDER:
        rank = LADDER.index(outcome)
        up = [name for name in outcomes if name in LADDER and LADDER.index(name) <= rank]
        down = [name for name in outcomes if name in LADDER and LADDER.index(name) >= rank]
        return ("better", sum((outcomes[name] for name in up), Fraction(0)),
                sum((outcomes[name] for name in down), Fraction(0)))
    return "this_outcome", outcomes[outcome], outcomes[outcome]


def number(value: float | int, lang: str, digits: int = 3) -> str:
    """A number as the user's language writes it: German ``1.234,5``, English ``1,234.5``; at most
    ``digits`` decimals, none trailing."""
    text = f"{value:,.{digits}f}" if isinstance(value, float) else f"{value:,}"
    if "." in text:
        text = text.rstrip("0").rstrip(".")
    if text in ("-0", ""):
        text = "0"
    return text.translate(str.maketrans(",.", ".,")) if lang == "de" else text


def percent(value: Fraction | float, lang: str = "en") -> str:
    share = float(value) * 100
    if 0 < share < 0.01:
        return f"< {number(0.01, lang)} %"
    if 99.99 < share < 100:
        return f"> {number(99.99, lang)} %"
    if 0 < share < 1:
        return f"{number(round(share, 2), lang, 2)} %"
    whole = abs(share - round(share)) < 0.05 or share >= 10
    return f"{number(round(share), lang) if whole else number(round(share, 1), lang, 1)} %"


def short_fraction(value: Fraction) -> str | None:
    """The exact chance as a fraction a player can read (``7/27``), or None when its denominator is long
    (a fraction of a floating-point solution, or of many dice, says nothing the percentage does not)."""
    return str(value) if value.denominator < FRACTION_DENOMINATOR_LIMIT else None


# -- dice and marbles, grouped by participant ------------------------------------------------------------

def _faces(values: list[Any], system: str) -> str:
    if all(isinstance(value, str) for value in values):
        return " ".join(MARBLES.get(value, value) for value in values) or "–"
    if system == "malmsturm" and all(value in FUDGE for value in values):
        return " ".join(FUDGE[value] for value in values) or "–"
    return " ".join(f"`{value}`" for value in values) or "–"


def dice_groups(response: Mapping[str, Any], catalog: Catalog, lang: str) -> dict[str, list[str]]:
    operation = str(response.get("operation") or "")
    system = operation.split(".")[0]
    request = response.get("request") or {}
    groups: dict[str, list[str]] = {}
    default = str(request.get("name") or say("roll", lang))

    def label_for(key: str, node: Mapping[str, Any], parent: str) -> str:
        """Whose dice these are, in the user's words (never an API key: without words, the parent's label)."""
        if node.get("name"):
            return str(node["name"])
        if node.get("target"):
            if key == "injury" and catalog.ui("injuryOf", lang):
                return str(catalog.ui("injuryOf", lang)).replace("{name}", str(node["target"]))
            words = catalog.field_words(operation, [key], lang)[0]
            return f"{node['target']} · {words}" if words else str(node["target"])
        side = request.get(key)
        if isinstance(side, Mapping) and side.get("name"):
            return str(side["name"])
        if key in ("a", "b", "attacker", "defender", "leader"):
            return str(catalog.field_words(operation, [key], lang)[0] or parent)
        if key == "rescue" and catalog.ui("rescue", lang):
            return f"{parent} · {catalog.ui('rescue', lang)}"
        return parent

    def walk(node: Any, label: str, depth: int) -> None:
        if depth > 6:
            return
        if isinstance(node, list):
            for item in node:
                walk(item, label, depth + 1)
            return
        if not isinstance(node, Mapping):
            return
        parts = []
        for key in ("dice", "drawn"):
            if isinstance(node.get(key), list) and node[key]:
                parts.append(_faces(node[key], system))
        if parts:
            text = " ".join(parts)
            if isinstance(node.get("successes"), int) and not isinstance(node.get("successes"), bool):
                text += f" → {node['successes']}"
            groups.setdefault(label, []).append(text)
        for key, value in node.items():
            if key in ("dice", "drawn", "pool", "bag_after", "stress_after", "end", "toughness_after"):
                continue
            if isinstance(value, Mapping):
                walk(value, label_for(key, value, label), depth + 1)
            elif isinstance(value, list) and value and isinstance(value[0], Mapping):
                for item in value:
                    walk(item, label_for(key, item, label) if isinstance(item, Mapping) else label, depth + 1)

    walk(response.get("result") or {}, default, 0)
    return groups


# -- the message --------------------------------------------------------------------------------------------

def rescue_advice_field(advice: Mapping[str, Any] | None, lang: str) -> dict[str, Any] | None:
    """Whether the one-shot rescue die is worth rolling on this loss or keeping (``paws.*.advice``, one
    die at hand and one more loss to come): the better choice, or "gleich gut", with both shares."""
    block = (advice or {}).get("advice") or {}
    shares = {option.get("policy", {}).get("spend"): option for option in block.get("options") or []}
    if not {0, 1} <= shares.keys():
        return None
    keep, now = (float(shares[spend]["win"]["probability"]) for spend in (0, 1))
    margin = int((advice or {}).get("request", {}).get("lost_by") or 1)
    if not shares[1]["expected"]["averted_now"]:  # the service says one die cannot save it now: nothing is rolled
        verdict = "rescue_out_of_reach"
    elif shares[0]["vs_best"]["equal"] and shares[1]["vs_best"]["equal"]:
        verdict = "rescue_equal"
    else:
        verdict = "rescue_now" if block["best"]["policy"].get("spend") == 1 else "rescue_keep"
    value = say(verdict, lang, now=percent(now, lang), keep=percent(keep, lang), margin=margin)
    value += " " + say("rescue_assumes", lang)
    return {"name": say("rescue_advice", lang), "value": discord.clip(value, discord.FIELD_VALUE_MAX), "inline": False}


def roll_message(response: Mapping[str, Any], odds: Mapping[str, Any] | None, catalog: Catalog, lang: str, *,
                 public_url: str, user: str | None = None, components: list[dict[str, Any]] | None = None,
                 advice: Mapping[str, Any] | None = None) -> dict[str, Any]:
    operation = str(response.get("operation") or "")
    system = operation.split(".")[0]
    title = catalog.operation_words(operation, lang)[0] or operation
    embed: dict[str, Any] = {
        "title": discord.clip(f"{catalog.words(lang).get('systems', {}).get(system, system)} · {title}",
                              discord.EMBED_TITLE_MAX),
        "description": discord.clip_escaped(discord.escape_markdown(str(response.get("summary") or "")),
                                            discord.EMBED_DESCRIPTION_MAX, lines=True) or "–",
        "color": COLOURS.get(system, 0x5865F2),
    }
    link = share_link(public_url, response, lang)
    if len(link) <= discord.EMBED_URL_MAX:
        embed["url"] = link
    elif len(embed["description"]) + len(link) + 60 <= discord.EMBED_DESCRIPTION_MAX:
        # too long for the title's link: a masked link in the description carries it
        embed["description"] += f"\n\n[{say('verify', lang)}]({link})"
    if user:
        embed["author"] = {"name": discord.clip(user, discord.AUTHOR_MAX)}
    fields = []
    for label, lines in list(dice_groups(response, catalog, lang).items())[:MAX_GROUPS]:
        label = label.strip() or say("roll", lang)  # Discord refuses a field without a name
        fields.append({"name": discord.clip_escaped(discord.escape_markdown(label), discord.FIELD_NAME_MAX),
                       "value": discord.clip(" | ".join(lines), discord.FIELD_VALUE_MAX), "inline": True})
    found = chance(response, odds)
    if found is not None:
        key, value = found
        fraction = short_fraction(value)
        fields.append({"name": say(key, lang), "value": f"**{percent(value, lang)}**" + (f" ({fraction})" if fraction
                                                                                        else ""), "inline": False})
    advised = rescue_advice_field(advice, lang)
    if advised is not None:
        fields.append(advised)
    embed["fields"] = fields
    receipt = response.get("receipt") or {}
    footer = say("receipt", lang, id=str(receipt.get("id", "?"))[:8])
    if "url" in embed or "#roll=" in embed["description"]:
        footer += f" · {say('verify', lang)}: ↑"
    else:
        footer += f" · {say('no_card_link', lang)}"
    embed["footer"] = {"text": discord.clip(footer, discord.FOOTER_MAX)}
    _fit_total(embed)
    message: dict[str, Any] = {"embeds": [embed], "allowed_mentions": {"parse": []}}
    if components:
        message["components"] = components
    return message


def odds_message(odds: Mapping[str, Any], catalog: Catalog, lang: str, *, user: str | None = None) -> dict[str, Any]:
    """The odds as a short table in a code block: each possible outcome's chance (and its fraction when it is
    short), then the expected values, then how the odds were computed, all in the user's words."""
    operation = str(odds.get("operation") or "").removesuffix(".odds")
    system = operation.split(".")[0]
    title = catalog.operation_words(operation, lang)[0] or operation
    request = odds.get("request") if isinstance(odds.get("request"), Mapping) else None
    table = odds.get("odds") or {}
    lines = []
    for entry in table.get("outcomes") or []:
        share = _fraction(entry)
        if not share:
            continue  # as /play: an outcome that cannot happen is not listed
        fraction = short_fraction(share) if entry.get("exact") else None
        label = catalog.outcome_words(entry["outcome"], lang, request)
        lines.append(f"{percent(share, lang):>9}  {_code_safe(label)}" + (f" ({fraction})" if fraction else ""))
    expected = [(key, value) for key, value in (table.get("expected") or {}).items()
                if isinstance(value, int | float) and not isinstance(value, bool)]
    if expected:
        lines += ["", str(catalog.words(lang).get("distributions", {}).get("expectedValues") or say("expected", lang))]
        lines += [f"  {_code_safe(catalog.distribution_words(key, lang, request))}: {number(value, lang)}"
                  for key, value in expected[:10]]
    solver = odds.get("solver")
    if isinstance(solver, Mapping) and isinstance(solver.get("states"), int):
        words = "solver_exact" if solver.get("precision") == "exact" else "solver_float"
        lines += ["", say(words, lang, states=number(solver["states"], lang))]
    description = "```\n" + "\n".join(lines) + "\n```" if lines else "–"
    if len(description) > discord.EMBED_DESCRIPTION_MAX:
        description = discord.clip("\n".join(lines), discord.EMBED_DESCRIPTION_MAX - 8, lines=True)
        description = "```\n" + description + "\n```"
    system_words = catalog.words(lang).get("systems", {}).get(system, system.capitalize())
    embed: dict[str, Any] = {
        "title": discord.clip(say("odds_title", lang, operation=f"{system_words} · {title}"), discord.EMBED_TITLE_MAX),
        "description": description, "color": COLOURS.get(system, 0x5865F2),
    }
    if user:
        embed["author"] = {"name": discord.clip(user, discord.AUTHOR_MAX)}
    return {"embeds": [embed], "allowed_mentions": {"parse": []}}


def _code_safe(text: str) -> str:
    """Text for a code block: a player's backtick cannot close it (a look-alike takes its place)."""
    return str(text).replace("`", "ˋ")


EMBED_KEYS = ("title", "description", "url", "color")


def plain_embed(embed: Mapping[str, Any]) -> dict[str, Any]:
    """An embed as the app wrote it, from the copy Discord sends back (which adds members of its own)."""
    plain: dict[str, Any] = {key: embed[key] for key in EMBED_KEYS if embed.get(key) not in (None, "")}
    if (embed.get("author") or {}).get("name"):
        plain["author"] = {"name": embed["author"]["name"]}
    if (embed.get("footer") or {}).get("text"):
        plain["footer"] = {"text": embed["footer"]["text"]}
    plain["fields"] = [{"name": item.get("name", ""), "value": item.get("value", ""),
                        "inline": bool(item.get("inline"))} for item in embed.get("fields") or []]
    return plain


def embed_size(embed: Mapping[str, Any]) -> int:
    """The characters Discord counts against a message's 6,000 for one embed."""
    return (len(embed.get("title") or "") + len(embed.get("description") or "")
            + len((embed.get("footer") or {}).get("text") or "") + len((embed.get("author") or {}).get("name") or "")
            + sum(len(item.get("name") or "") + len(item.get("value") or "") for item in embed.get("fields") or []))


def stacked(card: Mapping[str, Any], follow_up: Mapping[str, Any], components: list[dict[str, Any]]) -> dict[str, Any]:
    """The card a follow-up leaves: its embeds, then the follow-up's below; the oldest go first when the
    message would break Discord's limits (10 embeds, 6,000 characters together)."""
    embeds = [plain_embed(embed) for embed in card.get("embeds") or []] + list(follow_up.get("embeds") or [])
    while len(embeds) > 1 and (len(embeds) > discord.EMBEDS_MAX
                               or sum(map(embed_size, embeds)) > discord.EMBED_TOTAL_MAX):
        embeds.pop(0)
    return {"embeds": embeds, "components": components, "allowed_mentions": {"parse": []}}


def text_message(text: str, *, ephemeral: bool = True) -> dict[str, Any]:
    message: dict[str, Any] = {"content": discord.clip(text, discord.CONTENT_MAX, lines=True),
                               "allowed_mentions": {"parse": []}}
    if ephemeral:
        message["flags"] = discord.EPHEMERAL
    return message


def _fit_total(embed: dict[str, Any]) -> None:
    """Keep the embed's characters together under Discord's 6,000: drop dice fields from the end."""
    def size() -> int:
        return (len(embed.get("title", "")) + len(embed.get("description", ""))
                + len(embed.get("footer", {}).get("text", "")) + len(embed.get("author", {}).get("name", ""))
                + sum(len(item["name"]) + len(item["value"]) for item in embed.get("fields", [])))

    while size() > discord.EMBED_TOTAL_MAX and len(embed.get("fields", [])) > 1:
        embed["fields"].pop(-2 if len(embed["fields"]) > 1 else -1)
