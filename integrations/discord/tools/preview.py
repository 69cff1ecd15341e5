"""A picture of real cards as Discord shows them: rolls a few commands through the app in front of a
running service, renders each answer's JSON the way Discord's client draws an embed (dark theme, colour
bar, author, linked title, description, inline fields, footer, buttons) on a local page, and screenshots
it in headless Chromium (Debian's /usr/bin/chromium, no download) into integrations/discord/docs/.

    WURFWERK_URL=http://localhost:8000 python integrations/discord/tools/preview.py [out.png]
"""

from __future__ import annotations

import html
import json
import os
import re
import sys
import time
from pathlib import Path
from typing import Any

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

HERE = Path(__file__).resolve().parent
MARBLES = {"🔴": "#dd2e44", "🟢": "#78b159", "🔵": "#55acee", "⚪": "#e6e7e8", "⚫": "#31373d"}
STYLE = """
body { background:#313338; color:#dbdee1; margin:0; padding:16px 16px 8px; width:640px;
       font:16px/1.375 "gg sans","Noto Sans","Helvetica Neue",Helvetica,Arial,sans-serif; }
.message { display:flex; gap:16px; margin-bottom:18px; }
.avatar { width:40px; height:40px; border-radius:50%; background:#5865f2; color:#fff; display:flex;
          align-items:center; justify-content:center; font-weight:700; flex:none; }
.head { color:#f2f3f5; font-weight:600; }
.app { background:#5865f2; color:#fff; font-size:10px; border-radius:3px; padding:1px 4px; margin-left:4px;
       vertical-align:2px; }
.time { color:#949ba4; font-size:12px; margin-left:6px; }
.command { color:#949ba4; font-size:14px; margin-bottom:4px; } .command b { color:#00a8fc; font-weight:500; }
.embed { background:#2b2d31; border-left:4px solid; border-radius:4px; padding:8px 16px 16px 12px; max-width:520px;
         margin-top:4px; }
.author { color:#f2f3f5; font-size:14px; font-weight:600; margin-top:8px; }
.title { font-weight:600; margin-top:8px; } .title a { color:#00a8fc; text-decoration:none; }
.description { font-size:14px; margin-top:8px; white-space:normal; }
.fields { display:grid; grid-template-columns:repeat(3, 1fr); gap:8px; margin-top:8px; }
.field { font-size:14px; } .field.wide { grid-column:1 / -1; } .field .name { color:#f2f3f5; font-weight:600; }
code { background:#1e1f22; border-radius:3px; padding:0 3px; font-size:85%;
       font-family:Consolas,"DejaVu Sans Mono",monospace; }
pre { background:#1e1f22; border-radius:4px; padding:7px; font-size:13px; margin:6px 0 0; }
.marble { display:inline-block; width:16px; height:16px; border-radius:50%; vertical-align:-3px; margin-right:3px;
          box-shadow: inset -2px -2px 3px rgba(0,0,0,.35); }
.footer { color:#b5bac1; font-size:12px; margin-top:8px; }
.buttons { display:flex; gap:8px; margin-top:8px; flex-wrap:wrap; }
.button { border-radius:3px; padding:2px 16px; font-size:14px; font-weight:500; color:#fff; min-height:32px;
          display:flex; align-items:center; }
.s1 { background:#5865f2; } .s2 { background:#4e5058; } .s3 { background:#248046; } .s4 { background:#da373c; }
"""


def markdown(text: str) -> str:
    """The part of Discord's markdown the cards use: code blocks, inline code, bold, masked links, and the
    backslash escapes of a player's text (the character shown, its meaning gone)."""
    out = []
    for index, part in enumerate(re.split(r"```\n?(.*?)```", text, flags=re.S)):
        if index % 2:
            out.append(f"<pre>{html.escape(part)}</pre>")
            continue
        escaped = re.findall(r"\\([^\w\s])", part)
        numbers = iter(range(len(escaped)))
        part = html.escape(re.sub(r"\\([^\w\s])", lambda _, count=numbers: f"\0{next(count)}\0", part))
        part = re.sub(r"`([^`]+)`", r"<code>\1</code>", part)
        part = re.sub(r"\*\*(.+?)\*\*", r"<b>\1</b>", part)
        part = re.sub(r"\[([^\]]+)\]\((https?://[^)\s]+)\)", r'<a href="\2" style="color:#00a8fc">\1</a>', part)
        for emoji, colour in MARBLES.items():  # Discord draws its own emoji; headless Chromium has no emoji font
            part = part.replace(emoji, f'<span class="marble" style="background:{colour}"></span>')
        part = re.sub("\0(\\d+)\0", lambda match, shown=escaped: html.escape(shown[int(match.group(1))]), part)
        out.append(part.replace("\n", "<br>"))
    return "".join(out)


def embed_html(embed: dict[str, Any]) -> str:
    colour = f"#{embed.get('color', 0x5865F2):06x}"
    parts = []
    if embed.get("author"):
        parts.append(f'<div class="author">{html.escape(embed["author"]["name"])}</div>')
    if embed.get("title"):
        title = html.escape(embed["title"])
        if embed.get("url"):
            title = f'<a href="{html.escape(embed["url"])}">{title}</a>'
        parts.append(f'<div class="title">{title}</div>')
    if embed.get("description"):
        parts.append(f'<div class="description">{markdown(embed["description"])}</div>')
    fields = "".join(
        f'<div class="field{"" if item.get("inline") else " wide"}"><div class="name">{markdown(item["name"])}</div>'
        f'<div>{markdown(item["value"])}</div></div>' for item in embed.get("fields", []))
    if fields:
        parts.append(f'<div class="fields">{fields}</div>')
    if embed.get("footer"):
        parts.append(f'<div class="footer">{html.escape(embed["footer"]["text"])}</div>')
    return f'<div class="embed" style="border-color:{colour}">{"".join(parts)}</div>'


def message_html(message: dict[str, Any], command: str) -> str:
    embeds = "".join(embed_html(embed) for embed in message.get("embeds", []))
    buttons = "".join(f'<div class="button s{button.get("style", 2)}">{html.escape(button["label"])}</div>'
                      for row in message.get("components", []) for button in row["components"])
    return (f'<div class="message"><div class="avatar">W</div><div><div class="command">'
            f'<b>Ryan</b> used <b>{html.escape(command)}</b></div><span class="head">wurfwerk</span>'
            f'<span class="app">APP</span><span class="time">Today at 21:00</span>{embeds}'
            f'{f"<div class=buttons>{buttons}</div>" if buttons else ""}</div></div>')


def page(messages: list[tuple[str, dict[str, Any]]]) -> str:
    body = "".join(message_html(message, command) for command, message in messages)
    return f"<!doctype html><meta charset=utf-8><style>{STYLE}</style><body>{body}</body>"


def roll_cards(service_url: str) -> list[tuple[str, dict[str, Any]]]:
    """Real answers of the app (in-process, signed like Discord) to three commands, in German, and a
    follow-up button pressed on the first."""
    sys.path.insert(0, str(HERE.parent))
    from wurfwerk_discord import Settings, create_app

    key = Ed25519PrivateKey.generate()
    public = key.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw).hex()
    app = create_app(Settings(public_key=public, wurfwerk_url=service_url,
                              public_url=os.environ.get("WURFWERK_PUBLIC_URL", service_url)))
    client = app.test_client()
    commands = [
        ("/paws test", "paws", "test", [{"name": "rank", "type": 4, "value": 2}, {"name": "name", "type": 3,
                                                                                   "value": "Rynn"}]),
        ("/beutelschneider challenge", "beutelschneider", "challenge",
         [{"name": "bag", "type": 3, "value": "rot 9 grün 6 weiß 5"}, {"name": "ability", "type": 3, "value": "combat"},
          {"name": "name", "type": 3, "value": "Matthäus"}]),
        ("/proben test", "proben", "test", [{"name": "attribute", "type": 4, "value": 3},
                                            {"name": "skill", "type": 4, "value": 2},
                                            {"name": "difficulty", "type": 4, "value": 2},
                                            {"name": "name", "type": 3, "value": "Alrik"}]),
    ]
    numbers = iter(range(1, 10**6))

    def post(interaction: dict[str, Any]) -> dict[str, Any]:
        # each interaction its own id: the app rolls the same dice for the same interaction
        interaction = {**interaction, "id": str(next(numbers)), "application_id": "1", "token": "t", "locale": "de",
                       "member": {"user": {"id": "7", "username": "ryan", "global_name": "Ryan"}}}
        raw = json.dumps(interaction).encode()
        stamp = str(int(time.time()))
        response = client.post("/interactions", data=raw, headers={
            "X-Signature-Ed25519": key.sign(stamp.encode() + raw).hex(), "X-Signature-Timestamp": stamp,
            "Content-Type": "application/json"})
        return dict(response.get_json()["data"])

    def answer(system: str, name: str, options: list[dict[str, Any]]) -> dict[str, Any]:
        return post({"type": 2, "data": {"name": system, "type": 1,
                                         "options": [{"type": 1, "name": name, "options": options}]}})

    def press(card: dict[str, Any], custom_id: str) -> dict[str, Any]:
        message = {**card, "interaction_metadata": {"id": "1", "type": 2, "user": {"id": "7"}}}
        return post({"type": 3, "message": message, "data": {"custom_id": custom_id, "component_type": 2}})

    cards = []
    for shown, system, name, options in commands:
        data = answer(system, name, options)
        for _ in range(30):  # for the picture: a roll that offers its follow-up buttons (a lost test)
            if data.get("components") or system == "beutelschneider":
                break
            data = answer(system, name, options)
        cards.append((shown, data))
    paws = cards[0][1]
    if any(button["custom_id"] == "ww1:rescue:2" for row in paws.get("components", []) for button in row["components"]):
        # the follow-up pressed: the card updated in place, the rescue dice below the lost test
        cards.append(("/paws test → 2 Rettungswürfel", press(paws, "ww1:rescue:2")))
    return cards


def screenshot(markup: str, out: Path) -> None:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=os.environ.get("CHROMIUM", "/usr/bin/chromium"))
        tab = browser.new_page(viewport={"width": 672, "height": 400}, device_scale_factor=1)
        tab.set_content(markup)
        tab.screenshot(path=str(out), full_page=True)
        browser.close()


def main() -> None:
    out = Path(sys.argv[1]) if len(sys.argv) > 1 else HERE.parent / "docs" / "card.png"
    cards = roll_cards(os.environ.get("WURFWERK_URL", "http://localhost:8000"))
    markup = page(cards)
    out.with_suffix(".html").write_text(markup, encoding="utf-8")
    (out.with_suffix(".json")).write_text(json.dumps(cards, ensure_ascii=False, indent=1), encoding="utf-8")
    screenshot(markup, out)
    print(out)


if __name__ == "__main__":
    main()
