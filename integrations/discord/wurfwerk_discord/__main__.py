"""``python -m wurfwerk_discord commands`` prints the command list (JSON) generated from the service's spec;
``python -m wurfwerk_discord register [--guild ID]`` puts it into Discord (Bulk Overwrite Application
Commands, globally or for one guild) with ``DISCORD_BOT_TOKEN`` and ``DISCORD_APPLICATION_ID``;
``python -m wurfwerk_discord serve`` runs the app on ``DISCORD_PORT`` (development; ``make discord``
runs it under gunicorn)."""

from __future__ import annotations

import argparse
import json
import os
import sys
from typing import Any

import requests

from wurfwerk_discord import discord
from wurfwerk_discord.app import DISCORD_API
from wurfwerk_discord.catalog import catalog_from_files, fetch_catalog
from wurfwerk_discord.commands import Registry


def command_list(args: argparse.Namespace) -> list[dict[str, Any]]:
    if args.spec:
        catalog = catalog_from_files(args.spec, args.labels)
    else:
        catalog = fetch_catalog(os.environ.get("WURFWERK_URL", "http://localhost:8000"),
                                api_key=os.environ.get("WURFWERK_API_KEY") or None)
    return Registry(catalog).commands


def register(commands: list[dict[str, Any]], *, guild: str | None, api_base: str, token: str,
             application_id: str) -> requests.Response:
    """PUT the whole list: Discord replaces the application's commands (global, or in one guild) by it."""
    path = f"/applications/{application_id}" + (f"/guilds/{guild}" if guild else "") + "/commands"
    return requests.put(api_base.rstrip("/") + path, json=commands, timeout=30,
                        headers={"Authorization": f"Bot {token}", "User-Agent": "wurfwerk-discord (wurfwerk, 1)"})


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m wurfwerk_discord", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="action", required=True)
    for name in ("commands", "register"):
        each = sub.add_parser(name)
        each.add_argument("--spec", help="read the OpenAPI description from this file instead of WURFWERK_URL")
        each.add_argument("--labels", help="with --spec: the /play catalog (service/web/labels.js)")
        if name == "register":
            each.add_argument("--guild", help="register in this guild only (appears at once; global takes a while)")
    sub.add_parser("serve")
    args = parser.parse_args(argv)
    if args.action == "serve":
        from wurfwerk_discord.app import create_app

        create_app().run(host="0.0.0.0", port=int(os.environ.get("DISCORD_PORT", "8010")))
        return 0
    commands = command_list(args)
    problems = discord.command_problems(commands)
    if problems:
        print("the command list breaks Discord's limits:\n" + "\n".join(problems), file=sys.stderr)
        return 1
    if args.action == "commands":
        json.dump(commands, sys.stdout, ensure_ascii=False, indent=2)
        print()
        return 0
    token, application_id = os.environ.get("DISCORD_BOT_TOKEN"), os.environ.get("DISCORD_APPLICATION_ID")
    if not token or not application_id:
        print("register needs DISCORD_BOT_TOKEN and DISCORD_APPLICATION_ID", file=sys.stderr)
        return 2
    response = register(commands, guild=args.guild, api_base=os.environ.get("DISCORD_API_BASE", DISCORD_API),
                        token=token, application_id=application_id)
    if not response.ok:
        print(f"Discord answered {response.status_code}: {response.text[:2000]}", file=sys.stderr)
        return 1
    where = f"guild {args.guild}" if args.guild else "globally"
    print(f"registered {len(commands)} commands {where}: " + ", ".join(f"/{c['name']}" for c in commands))
    return 0


if __name__ == "__main__":
    sys.exit(main())
