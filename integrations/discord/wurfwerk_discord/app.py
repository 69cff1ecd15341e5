"""The Flask app: ``POST /interactions``. Every request's signature is checked before its body is read as
JSON; PING answers PONG; a command rolls through the SDK and answers a card (type 4), a slow one is
deferred (type 5) and finished through the interaction's webhook from a thread; a button rolls its
follow-up. Nothing is kept between requests except the service's spec and words, read once."""

from __future__ import annotations

import json
import logging
import os
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

import requests
from flask import Flask, Response, jsonify, request

from wurfwerk import Client, InvalidRequest, TransportError, WurfwerkError
from wurfwerk_discord import buttons, discord
from wurfwerk_discord.card import card_link, odds_message, roll_from_link, roll_message, text_message
from wurfwerk_discord.catalog import Catalog, CatalogSource
from wurfwerk_discord.commands import Registry
from wurfwerk_discord.compact import CompactError
from wurfwerk_discord.words import lang_of, say

log = logging.getLogger("wurfwerk_discord")
DISCORD_API = "https://discord.com/api/v10"
ANSWER_BUDGET = 2.7  # seconds for the roll and its odds: Discord wants the first answer within 3


@dataclass(frozen=True)
class Settings:
    public_key: str
    wurfwerk_url: str = "http://localhost:8000"
    wurfwerk_api_key: str | None = None
    public_url: str | None = None  # where people open /play; the service's URL when not given
    discord_api: str = DISCORD_API
    bot_token: str | None = None
    application_id: str | None = None
    timeout: float = 2.5  # the service's answer must leave room in Discord's 3 s

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None) -> Settings:
        env = os.environ if environ is None else environ
        return cls(public_key=env.get("DISCORD_PUBLIC_KEY", ""),
                   wurfwerk_url=env.get("WURFWERK_URL", "http://localhost:8000"),
                   wurfwerk_api_key=env.get("WURFWERK_API_KEY") or None,
                   public_url=env.get("WURFWERK_PUBLIC_URL") or None,
                   discord_api=env.get("DISCORD_API_BASE", DISCORD_API),
                   bot_token=env.get("DISCORD_BOT_TOKEN") or None,
                   application_id=env.get("DISCORD_APPLICATION_ID") or None,
                   timeout=float(env.get("DISCORD_SERVICE_TIMEOUT", "2.5")))


def call(client: Client, operation_id: str, body: Mapping[str, Any]) -> dict[str, Any]:
    """One operation by id through the SDK's generated method (``paws.test.odds`` -> ``client.paws.test_odds``)."""
    system, _, rest = operation_id.partition(".")
    name = rest.removesuffix(".odds").replace("-", "_") + ("_odds" if rest.endswith(".odds") else "")
    method: Callable[..., Any] = getattr(getattr(client, system), name)
    return dict(method(**body).to_dict())


def problem_text(error: WurfwerkError, lang: str) -> str:
    """What went wrong, in the user's language: the service's problem title, detail and field errors."""
    if isinstance(error, TransportError):
        return say("service_down", lang)
    problem = error.problem or {}
    parts = [say("service_error", lang, title=problem.get("title") or error.status or "?")]
    if problem.get("detail"):
        parts.append(str(problem["detail"]))
    errors = problem.get("errors") if isinstance(error, InvalidRequest) else None
    if isinstance(errors, Mapping):
        for field, messages in list(errors.items())[:8]:
            shown = "; ".join(map(str, messages)) if isinstance(messages, list) else str(messages)
            parts.append(f"• {field}: {shown}")
    return "\n".join(parts)


def create_app(settings: Settings | None = None) -> Flask:
    settings = settings or Settings.from_env()
    if not settings.public_key:
        raise RuntimeError("DISCORD_PUBLIC_KEY is not set: the application's public key (hex) from the portal")
    bytes.fromhex(settings.public_key)  # a key that is not hex fails at start, not at the first request
    app = Flask("wurfwerk_discord")
    source = CatalogSource(settings.wurfwerk_url, api_key=settings.wurfwerk_api_key)
    registries: dict[int, Registry] = {}
    public_url = settings.public_url or settings.wurfwerk_url

    def registry() -> Registry:
        catalog = source.get()
        key = id(catalog)
        if key not in registries:
            registries.clear()
            registries[key] = Registry(catalog)
        return registries[key]

    def client(lang: str) -> Client:
        return Client(settings.wurfwerk_url, api_key=settings.wurfwerk_api_key, lang=lang,
                      timeout=settings.timeout, max_retries=1)

    def roll_card(catalog: Catalog, operation_id: str, body: Mapping[str, Any], lang: str, odds: bool,
                  user: str | None, flags: int) -> dict[str, Any]:
        with client(lang) as service:
            if odds:
                message = odds_message(call(service, f"{operation_id}.odds", body), catalog, lang, user=user)
            else:
                started = time.monotonic()
                response = call(service, operation_id, body)
                twin = None
                # the chance on the card only within Discord's 3 s (the roll itself never waits for it)
                left = ANSWER_BUDGET - (time.monotonic() - started)
                if f"{operation_id}.odds" in catalog.operations() and left > 0.2:
                    try:
                        quick = service.with_options(timeout=left, max_retries=0)
                        twin = call(quick, f"{operation_id}.odds", _odds_body(response))
                    except WurfwerkError as error:  # the card goes out without its chance, never without its roll
                        log.info("odds for %s unavailable: %s", operation_id, error)
                message = roll_message(response, twin, catalog, lang, public_url=public_url, user=user,
                                       components=buttons.follow_ups(response, catalog, lang))
        if flags:
            message["flags"] = flags
        return message

    def answer(message: dict[str, Any]) -> Response:
        return jsonify({"type": discord.CHANNEL_MESSAGE, "data": message})

    def failure(text: str) -> Response:
        return answer(text_message(text))

    @app.post("/interactions")
    def interactions() -> Response | tuple[Response, int]:
        raw = request.get_data(cache=False)
        if not discord.verify_signature(settings.public_key, request.headers.get("X-Signature-Ed25519"),
                                        request.headers.get("X-Signature-Timestamp"), raw):
            return jsonify({"error": say("bad_signature", "en")}), 401
        try:
            interaction = json.loads(raw)
        except ValueError:
            return jsonify({"error": "body is not JSON"}), 400
        if not isinstance(interaction, dict):
            return jsonify({"error": "body is not an object"}), 400
        kind = interaction.get("type")
        if kind == discord.PING:
            return jsonify({"type": discord.PONG})
        lang = lang_of(interaction.get("locale"))
        try:
            if kind == discord.APPLICATION_COMMAND:
                return command(interaction, lang)
            if kind in (discord.MESSAGE_COMPONENT, discord.MODAL_SUBMIT):
                return component(interaction, lang)
        except WurfwerkError as error:
            return failure(problem_text(error, lang))
        except requests.RequestException:  # the spec could not be fetched: the service is away
            return failure(say("service_down", lang))
        except Exception:  # never a stack trace to the chat; the log has it
            log.exception("interaction failed")
            return failure(say("app_error", lang))
        return failure(say("unknown_command", lang, name=str(kind)))

    def command(interaction: Mapping[str, Any], lang: str) -> Response:
        data = interaction.get("data") or {}
        system = str(data.get("name"))
        subcommands = [option for option in data.get("options") or []
                       if option.get("type") == discord.OPTION_SUB_COMMAND]
        if not subcommands:
            return failure(say("unknown_command", lang, name=system))
        sub_name = str(subcommands[0].get("name"))
        table = registry()
        try:
            sub, body, odds, secret = table.request(system, sub_name, subcommands[0].get("options") or [])
        except KeyError:
            return failure(say("unknown_command", lang, name=f"{system} {sub_name}"))
        except CompactError as error:
            option = _failing_option(table, system, sub_name, subcommands[0].get("options") or [])
            return failure(say("bad_input", lang, option=option, detail=say(error.key, lang, **error.params)))
        user = _user_name(interaction)
        if "name" in (sub.schema.get("properties") or {}) and "name" not in body and user:
            body["name"] = user[:64]
        flags = discord.EPHEMERAL if secret else 0
        if sub.slow:
            deferred(interaction, lambda: roll_card(table.catalog, sub.operation_id, body, lang, odds, user, flags),
                     lang)
            return jsonify({"type": discord.DEFERRED_CHANNEL_MESSAGE, "data": {"flags": flags}})
        return answer(roll_card(table.catalog, sub.operation_id, body, lang, odds, user, flags))

    def component(interaction: Mapping[str, Any], lang: str) -> Response:
        custom_id = str((interaction.get("data") or {}).get("custom_id") or "")
        try:
            operation_id, body = buttons.request_of(custom_id)
        except buttons.ButtonError:
            return failure(say("button_expired", lang))
        message = interaction.get("message") or {}
        if body is None:  # the follow-up needs the signed roll on the card
            embeds = message.get("embeds") or [{}]
            conflict = roll_from_link(card_link(embeds[0]))
            if not isinstance(conflict, dict) or "receipt" not in conflict:
                return failure(say("card_unreadable", lang))
            if interaction.get("type") == discord.MESSAGE_COMPONENT:
                # first the toughness at the start of the scene (optional): a form, then the narration
                return jsonify({"type": discord.MODAL, "data": buttons.narration_form(conflict, lang)})
            body = {"conflict": conflict}
            toughness = buttons.form_value(interaction.get("data") or {}, "toughness").strip()
            if toughness:
                table = registry()
                schema = table.catalog.request_schema(table.catalog.operations()[operation_id][1])
                try:
                    body["toughness"] = table.compact.parse(schema["properties"]["toughness"], toughness,
                                                            "toughness")
                except CompactError as error:
                    return failure(say("bad_input", lang, option="toughness",
                                       detail=say(error.key, lang, **error.params)))
        flags = discord.EPHEMERAL if int(message.get("flags") or 0) & discord.EPHEMERAL else 0
        return answer(roll_card(registry().catalog, operation_id, body, lang, False, _user_name(interaction), flags))

    def deferred(interaction: Mapping[str, Any], work: Callable[[], dict[str, Any]], lang: str) -> None:
        application_id = str(interaction.get("application_id") or settings.application_id)
        base = f"{settings.discord_api.rstrip('/')}/webhooks/{application_id}/{interaction.get('token')}"

        def run() -> None:
            try:
                message = work()
            except WurfwerkError as error:
                message = text_message(problem_text(error, lang))
            except requests.RequestException:
                message = text_message(say("service_down", lang))
            except Exception:
                log.exception("deferred interaction failed")
                message = text_message(say("app_error", lang))
            try:
                if message.get("flags", 0) & discord.EPHEMERAL and "embeds" not in message:
                    # an error: the loading message goes, the user alone reads what went wrong
                    requests.delete(f"{base}/messages/@original", timeout=5)
                    requests.post(base, json=message, timeout=5)
                else:
                    requests.patch(f"{base}/messages/@original", json=message, timeout=5)
            except requests.RequestException:
                log.exception("could not deliver the follow-up")

        threading.Thread(target=run, name="discord-follow-up", daemon=True).start()

    @app.get("/livez")
    def livez() -> Response:
        return jsonify({"status": "ok"})

    return app


def _odds_body(response: Mapping[str, Any]) -> dict[str, Any]:
    """The roll's request as its odds twin takes it: without randomness controls and defaults echoed."""
    body = dict(response.get("request") or {})
    for key in ("seed", "manual", "ticket", "idempotency_key", "session"):
        body.pop(key, None)
    return body


def _user_name(interaction: Mapping[str, Any]) -> str | None:
    user = (interaction.get("member") or {}).get("user") or interaction.get("user") or {}
    name = (interaction.get("member") or {}).get("nick") or user.get("global_name") or user.get("username")
    return str(name) if name else None


def _failing_option(table: Registry, system: str, name: str, given: list[Mapping[str, Any]]) -> str:
    sub = table.subcommands.get((system, name))
    for option in given:
        spec = sub.options.get(option["name"]) if sub else None
        if spec and spec.compact:
            try:
                table.compact.parse(spec.schema, str(option.get("value")), spec.name)
            except CompactError:
                return spec.name
    return name
