"""The Flask app: ``POST /interactions``. A body over the limit is refused before it is read; the
timestamp must lie within 5 minutes and the signature be right before the body is parsed as JSON; PING
answers PONG; a command rolls through the SDK and answers a card (type 4), a slow one is deferred (type 5)
and its "thinking" message edited through the interaction's webhook from a thread (into the card, or
into what went wrong); a button rolls its follow-up once and updates its card (``buttons``). Nothing is
kept between requests except the service's spec and words, read once, and, when sessions are set up, the
sessions of each channel in the app's own SQLite file (``sessions``)."""

from __future__ import annotations

import json
import logging
import os
import socket
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, cast

import requests
from flask import Flask, Response, jsonify, request

from wurfwerk import Client, InvalidRequest, TransportError, WurfwerkError
from wurfwerk.models import SessionHeaderParam
from wurfwerk_discord import buttons, discord, sessions
from wurfwerk_discord.card import (
    card_link,
    newest_signature,
    odds_message,
    roll_from_link,
    roll_message,
    stacked,
    text_message,
)
from wurfwerk_discord.catalog import Catalog, CatalogSource
from wurfwerk_discord.commands import OptionError, Registry
from wurfwerk_discord.compact import CompactError
from wurfwerk_discord.words import lang_of, say

log = logging.getLogger("wurfwerk_discord")
DISCORD_API = "https://discord.com/api/v10"
FieldWords = Callable[[str, str], str | None]  # (field path, language) -> the option as the player typed it
ANSWER_BUDGET = 2.7  # seconds for the roll and its odds: Discord wants the first answer within 3
LONG_TIMEOUT = 60.0  # seconds for a deferred answer's calls (a reveal and a whole log's report)
# seconds before each try of a message through the interaction's webhook: Discord answers 404 "Unknown
# Webhook" at random for some seconds after an answer (discord-api-docs issue 7220: retrying for ~10 s helps)
FOLLOW_UP_PAUSES = (0.0, 0.5, 1.0, 2.0, 4.0, 8.0)


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
    # An interaction is small; the largest, a press on a card of ten embeds with their links, stays well below.
    max_body_bytes: int = 131072
    timestamp_window: float = discord.TIMESTAMP_WINDOW
    # sessions (both or neither): the secret the seats' seeds derive from, and the app's SQLite file
    session_secret: str | None = None
    session_db: str | None = None

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
                   timeout=float(env.get("DISCORD_SERVICE_TIMEOUT", "2.5")),
                   max_body_bytes=int(env.get("DISCORD_MAX_BODY_BYTES", "131072")),
                   session_secret=env.get("DISCORD_SESSION_SECRET") or None,
                   session_db=env.get("DISCORD_SESSION_DB") or None)


MIN_SESSION_SECRET_CHARS = 32


@dataclass
class Rolled:
    """A roll's card; of a hidden roll in a session also what the table sees (``public``); ``new`` false
    when the card is one recorded before (a replay, a second press)."""

    message: dict[str, Any]
    public: dict[str, Any] | None = None
    new: bool = True


def call(client: Client, operation_id: str, body: Mapping[str, Any]) -> dict[str, Any]:
    """One operation by id through the SDK's generated method (``paws.test.odds`` -> ``client.paws.test_odds``,
    ``paws.test.advice`` -> ``client.paws.test_advice``)."""
    system, _, rest = operation_id.partition(".")
    operation, _, twin = rest.partition(".")
    name = operation.replace("-", "_") + (f"_{twin}" if twin else "")
    method: Callable[..., Any] = getattr(getattr(client, system), name)
    return dict(method(**body).to_dict())


def problem_text(error: WurfwerkError, lang: str, words: FieldWords | None = None) -> str:
    """What went wrong, in the user's language, said once: the service's problem title, then each field
    error under the option the player typed (``words``); the detail only when there are no field errors
    (it repeats the first of them)."""
    if isinstance(error, TransportError):
        return say("service_down", lang)
    problem = error.problem or {}
    # the service's words may quote what the player typed: escaped, so that it shows as typed
    title = discord.escape_markdown(str(problem.get("title") or error.status or "?"))
    parts = [say("service_error", lang, title=title)]
    errors = problem.get("errors") if isinstance(error, InvalidRequest) else None
    if isinstance(errors, Mapping) and errors:
        for field, messages in list(errors.items())[:8]:
            shown = discord.escape_markdown("; ".join(map(str, messages)) if isinstance(messages, list)
                                            else str(messages))
            option = words(str(field), lang) if words else None
            line = "• " + (say("field_error", lang, option=option, message=shown) if option else shown)
            if line not in parts:
                parts.append(line)
    elif problem.get("detail"):
        parts.append(discord.escape_markdown(str(problem["detail"])))
    return "\n".join(parts)


def create_app(settings: Settings | None = None) -> Flask:
    settings = settings or Settings.from_env()
    if not settings.public_key:
        raise RuntimeError("DISCORD_PUBLIC_KEY is not set: the application's public key (hex) from the portal")
    bytes.fromhex(settings.public_key)  # a key that is not hex fails at start, not at the first request
    if bool(settings.session_secret) != bool(settings.session_db):
        raise RuntimeError("sessions need both DISCORD_SESSION_SECRET and DISCORD_SESSION_DB (or neither)")
    if settings.session_secret and len(settings.session_secret) < MIN_SESSION_SECRET_CHARS:
        raise RuntimeError(f"DISCORD_SESSION_SECRET must have at least {MIN_SESSION_SECRET_CHARS} characters")
    store = sessions.Store(settings.session_db) if settings.session_db else None
    secret = settings.session_secret or ""
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
                  user: str | None, flags: int, place: sessions.Seat | sessions.Table | None = None,
                  key: str = "", hidden: bool = False) -> Rolled:
        """The card of a roll (or of its odds); in a running session (``place`` a Seat) the roll goes into it
        under ``key``; a Table: a session runs in the channel, but this player has no seat in it."""
        card: sessions.Card | None = None
        new = True
        with client(lang) as service:
            if odds:
                message = odds_message(call(service, f"{operation_id}.odds", body), catalog, lang, user=user)
            else:
                started = time.monotonic()
                if isinstance(place, sessions.Seat) and store is not None:
                    card, new = place.roll(store, lambda request: call(service, operation_id, request), body, key,
                                           hidden)
                    response = card.response
                else:
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
                advice = rescue_advice(service, response, ANSWER_BUDGET - (time.monotonic() - started))
                message = roll_message(response, twin, catalog, lang, public_url=public_url, user=user,
                                       components=buttons.follow_ups(response, catalog, lang), advice=advice)
                if card is not None:
                    _add_footer(message, sessions.roll_footer(card, lang))
                elif isinstance(place, sessions.Table):
                    _add_footer(message, say("session_not_seated", lang))
        if flags:
            message["flags"] = flags
        if card is not None and card.public is not None:
            public = sessions.public_message(card, str(message["embeds"][0].get("title") or operation_id), user,
                                             lang, int(message["embeds"][0].get("color") or sessions.COLOUR))
            return Rolled(message, public, new)
        return Rolled(message, None, new)

    def place_of(interaction: Mapping[str, Any]) -> sessions.Seat | sessions.Table | None:
        """Where the interaction's user rolls: their seat in the channel's running session; the session
        itself when they have none in it; None when no session runs there (or sessions are not set up)."""
        channel, user = _channel_of(interaction), _user_id(interaction)
        if store is None or channel is None:
            return None
        table = store.latest(channel)
        if table is None or not table.running():
            return None
        if user is None or store.slot(table.id, user) is None:
            return table
        return sessions.Seat(table, user, sessions.seat_seed(secret, str(table.header.get("context") or ""), user))

    def answer(message: dict[str, Any]) -> Response:
        return jsonify({"type": discord.CHANNEL_MESSAGE, "data": message})

    def failure(text: str) -> Response:
        return answer(text_message(text))

    @app.post("/interactions")
    def interactions() -> Response | tuple[Response, int]:
        raw = bounded_body(settings.max_body_bytes)
        if raw is None:  # too large, and nothing read past the limit: not worth a signature check
            return jsonify({"error": "body too large"}), 413
        timestamp = request.headers.get("X-Signature-Timestamp")
        if not discord.fresh_timestamp(timestamp, time.time(), settings.timestamp_window) or \
                not discord.verify_signature(settings.public_key, request.headers.get("X-Signature-Ed25519"),
                                             timestamp, raw):
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
            return failure(problem_text(error, lang, _options_of(interaction, registry)))
        except requests.RequestException:  # the spec could not be fetched: the service is away
            return failure(say("service_down", lang))
        except sessions.Busy:
            return failure(say("session_busy", lang))
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
        if system == sessions.COMMAND:
            return session_command(interaction, sub_name, subcommands[0].get("options") or [], lang)
        table = registry()
        try:
            sub, body, odds, secret = table.request(system, sub_name, subcommands[0].get("options") or [])
        except KeyError:
            return failure(say("unknown_command", lang, name=f"{system} {sub_name}"))
        except OptionError as error:
            return failure(table.error_text(system, sub_name, error, lang))
        user = _user_name(interaction)
        if "name" in (sub.schema.get("properties") or {}) and "name" not in body and user:
            body["name"] = user[:64]
        if not odds and "idempotency_key" in (sub.schema.get("properties") or {}) and interaction.get("id"):
            # the same interaction, delivered or replayed again, rolls the same dice
            body["idempotency_key"] = f"discord-interaction-{interaction['id']}"[:255]
        place = place_of(interaction) if not odds and "session" in (sub.schema.get("properties") or {}) else None
        # in a session, `geheim` is a hidden roll: the full card to the roller only, its public part to the table
        hidden = secret and isinstance(place, sessions.Seat)
        flags = discord.EPHEMERAL if secret and not hidden else 0
        key = f"command:{interaction.get('id')}"

        def work() -> Rolled:
            return roll_card(table.catalog, sub.operation_id, body, lang, odds, user, flags, place, key, hidden)

        if sub.slow:
            deferred(interaction, work, lang)
            return jsonify({"type": discord.DEFERRED_CHANNEL_MESSAGE, "data": {"flags": flags}})
        rolled = work()
        if rolled.public is not None:
            send_later(interaction, {**rolled.message, "flags": discord.EPHEMERAL})
            return answer(rolled.public)
        return answer(rolled.message)

    def component(interaction: Mapping[str, Any], lang: str) -> Response:
        custom_id = str((interaction.get("data") or {}).get("custom_id") or "")
        try:
            operation_id, body = buttons.request_of(custom_id)
        except buttons.ButtonError:
            return failure(say("button_expired", lang))
        message = interaction.get("message") or {}
        roller = buttons.roller_of(message)
        if roller is not None and roller != buttons.presser_of(interaction):
            return failure(say("not_your_roll", lang))
        if body is None:  # the narration needs the signed conflict on the card
            return narration(interaction, operation_id, message.get("embeds") or [{}], lang)
        return follow_up(interaction, custom_id, operation_id, body, message, lang)

    def follow_up(interaction: Mapping[str, Any], custom_id: str, operation_id: str, body: dict[str, Any],
                  card: Mapping[str, Any], lang: str) -> Response:
        """A rolling follow-up, once: its dice from the card's newest signed roll and the button; the card
        updated in place with the follow-up below it and the used choice gone."""
        on_card = {str(item.get("custom_id")) for item in buttons.buttons_in(card.get("components") or [])}
        if custom_id not in on_card:  # a button this card does not (or no longer) carry
            return failure(say("button_expired", lang))
        signature = newest_signature(card.get("embeds") or [])
        if signature is None:
            return failure(say("card_unreadable", lang))
        table = registry()
        properties = table.catalog.request_schema(table.catalog.operations()[operation_id][1]).get("properties") or {}
        if "idempotency_key" in properties:
            body["idempotency_key"] = buttons.idempotency_key(signature, custom_id)
        place = place_of(interaction) if "session" in properties else None
        # a follow-up of a hidden roll (its card is the roller's alone) is hidden too
        hidden = isinstance(place, sessions.Seat) and bool(int(card.get("flags") or 0) & discord.EPHEMERAL)
        rolled = roll_card(table.catalog, operation_id, body, lang, False, _user_name(interaction), 0, place,
                           f"button:{buttons.idempotency_key(signature, custom_id)}", hidden)
        added = rolled.message
        kept = buttons.remaining(card.get("components") or [], custom_id)
        updated = stacked(card, added, buttons.rows(kept + buttons.buttons_in(added.get("components") or [])))
        if rolled.public is not None and rolled.new:
            send_later(interaction, rolled.public)
        return jsonify({"type": discord.UPDATE_MESSAGE, "data": updated})

    def narration(interaction: Mapping[str, Any], operation_id: str, embeds: list[Mapping[str, Any]],
                  lang: str) -> Response:
        """The narration form (a button press), then the narration of the signed conflict (its submission)."""
        conflict = roll_from_link(card_link(embeds[0]))
        if not isinstance(conflict, dict) or "receipt" not in conflict:
            return failure(say("card_unreadable", lang))
        if interaction.get("type") == discord.MESSAGE_COMPONENT:
            # first the toughness at the start of the scene (optional): a form, then the narration
            return jsonify({"type": discord.MODAL, "data": buttons.narration_form(conflict, lang)})
        body: dict[str, Any] = {"conflict": conflict}
        toughness = buttons.form_value(interaction.get("data") or {}, "toughness").strip()
        if toughness:
            table = registry()
            schema = table.catalog.request_schema(table.catalog.operations()[operation_id][1])
            try:
                body["toughness"] = table.compact.parse(schema["properties"]["toughness"], toughness, "toughness")
            except CompactError as error:
                return failure(say("bad_input", lang, option=say("toughness_field", lang),
                                   detail=say(error.key, lang, **error.params)))
        message = interaction.get("message") or {}
        flags = discord.EPHEMERAL if int(message.get("flags") or 0) & discord.EPHEMERAL else 0
        return answer(roll_card(registry().catalog, operation_id, body, lang, False, _user_name(interaction),
                                flags).message)

    def webhook(interaction: Mapping[str, Any]) -> str:
        application_id = str(interaction.get("application_id") or settings.application_id)
        return f"{settings.discord_api.rstrip('/')}/webhooks/{application_id}/{interaction.get('token')}"

    def send_later(interaction: Mapping[str, Any], message: dict[str, Any]) -> None:
        """A second message of an answer (a follow-up through the interaction's webhook), from a thread right
        after the answer."""
        url = webhook(interaction)
        threading.Thread(target=lambda: deliver("POST", url, json=message), name="discord-second-message",
                         daemon=True).start()

    def deferred(interaction: Mapping[str, Any], work: Callable[[], Rolled], lang: str) -> None:
        base = webhook(interaction)

        def run() -> None:
            later: dict[str, Any] | None = None
            try:
                rolled = work()
                message = rolled.message
                if rolled.public is not None:  # a hidden roll: the table's part here, the card to the roller
                    message, later = rolled.public, {**rolled.message, "flags": discord.EPHEMERAL}
            except WurfwerkError as error:
                message = _in_place(problem_text(error, lang, _options_of(interaction, registry)))
            except requests.RequestException:
                message = _in_place(say("service_down", lang))
            except sessions.Busy:
                message = _in_place(say("session_busy", lang))
            except Exception:
                log.exception("deferred interaction failed")
                message = _in_place(say("app_error", lang))
            message.pop("flags", None)  # an edit keeps the flags the deferred answer set
            attached = message.pop("_file", None)
            try:
                # the "… is thinking" message becomes the card, or says what went wrong in its place
                if attached is None:
                    deliver("PATCH", f"{base}/messages/@original", json=message)
                else:  # a file: multipart, the message in payload_json (Discord's "Uploading Files")
                    name, data = attached
                    message["attachments"] = [{"id": 0, "filename": name}]
                    deliver("PATCH", f"{base}/messages/@original", data={"payload_json": json.dumps(message)},
                            files={"files[0]": (name, data, "application/json")})
                if later is not None:
                    deliver("POST", base, json=later)
            except requests.RequestException:
                log.exception("could not deliver the follow-up")

        threading.Thread(target=run, name="discord-follow-up", daemon=True).start()

    def session_command(interaction: Mapping[str, Any], name: str, options: list[Mapping[str, Any]],
                        lang: str) -> Response:
        """``/session open|export|check`` for the interaction's channel."""
        channel = _channel_of(interaction)
        if store is None:
            return failure(say("session_off", lang))
        if channel is None:
            return failure(say("session_no_channel", lang))
        if name == sessions.OPEN:
            return open_session(interaction, channel, options, lang)
        if name == sessions.END:
            return end_session(interaction, channel, lang)
        if name not in (sessions.EXPORT, sessions.CHECK):
            return failure(say("unknown_command", lang, name=f"{sessions.COMMAND} {name}"))
        which = next((str(option.get("value") or "").strip() for option in options
                      if option.get("name") == sessions.WHICH), "")
        table = store.find(channel, which) if which else store.latest(channel)
        if table is None:
            return failure(say("session_unknown", lang, id=discord.escape_markdown(which)) if which
                           else say("session_none", lang))
        if name == sessions.CHECK and not table.ended():
            return failure(say("session_still_open", lang, until=sessions.when(table.header)))
        work = (lambda: export_log(table, lang)) if name == sessions.EXPORT else (lambda: check_log(table, lang))
        deferred(interaction, work, lang)
        # the export only to whoever asked (anyone may); the check for the whole table
        flags = discord.EPHEMERAL if name == sessions.EXPORT else 0
        return jsonify({"type": discord.DEFERRED_CHANNEL_MESSAGE, "data": {"flags": flags}})

    def open_session(interaction: Mapping[str, Any], channel: str, options: list[Mapping[str, Any]],
                     lang: str) -> Response:
        assert store is not None
        given = {str(option.get("name")): option.get("value") for option in options}
        try:
            ttl_s = sessions.parse_length(given.get(sessions.LENGTH))
        except sessions.LengthError as error:
            return failure(say("bad_input", lang, option=say("session_length_field", lang),
                               detail=say(error.key, lang, word=discord.escape_markdown(error.word))))
        context = sessions.context_of(channel, str(interaction.get("id")))
        again = store.opened_by(channel, context)
        if again is not None:  # the same interaction again: the same answer, never a second session of its seeds
            return answer(sessions.opened_message(again, lang))
        current = store.latest(channel)
        if current is not None and current.running():
            return failure(say("session_running", lang, until=sessions.when(current.header)))
        opener = _user_id(interaction)
        if opener is None:
            return failure(say("session_no_channel", lang))
        resolved = (interaction.get("data") or {}).get("resolved") or {}
        people = [(opener, _user_name(interaction) or opener, _username(interaction) or opener)]
        for option in options:
            if option.get("type") != discord.OPTION_USER:
                continue
            user = str(option.get("value"))
            found = (resolved.get("users") or {}).get(user) or {}
            member = (resolved.get("members") or {}).get(user) or {}
            shown = str(member.get("nick") or found.get("global_name") or found.get("username") or user)
            if found.get("bot"):
                return failure(say("session_bot", lang, name=discord.escape_markdown(shown)))
            people.append((user, shown, str(found.get("username") or user)))
        seats = sessions.seat_names(people)
        seeds = {user: sessions.seat_seed(secret, context, user) for user in seats}
        with client(lang) as service:
            opened = service.sessions.open(
                seats=[{"name": seat, "commit": sessions.seed_commit(seeds[user])} for user, seat in seats.items()],
                context=context, ttl_s=ttl_s).to_dict()
        try:
            table = store.open(channel, opened["session"], opener, seats)
        except sessions.Running as running:
            return failure(say("session_running", lang, until=sessions.when(running.table.header)))
        return answer(sessions.opened_message(table, lang))

    def end_session(interaction: Mapping[str, Any], channel: str, lang: str) -> Response:
        """End the channel's running session early: its opener, or a member who may manage messages here."""
        assert store is not None
        table = store.latest(channel)
        if table is None or not table.running():
            return failure(say("session_not_running", lang))
        permissions = str((interaction.get("member") or {}).get("permissions") or "0")
        moderator = permissions.isdigit() and bool(int(permissions) & sessions.MANAGE_MESSAGES)
        if _user_id(interaction) != table.opener and not moderator:
            return failure(say("session_not_opener", lang))
        store.close(table.id)
        return answer(text_message(say("session_closed", lang, id=table.id, until=sessions.when(table.header)),
                                   ephemeral=False))

    def revealed(table: sessions.Table, service: Client) -> dict[str, Any]:
        return dict(service.sessions.reveal(session=cast(SessionHeaderParam, table.header)).to_dict()["reveal"])

    def export_log(table: sessions.Table, lang: str) -> Rolled:
        assert store is not None
        reveal = None
        if table.ended():
            with client(lang) as service:
                reveal = revealed(table, service.with_options(timeout=LONG_TIMEOUT))
        document = sessions.log_document(store, table, secret, reveal)
        data = json.dumps(document, ensure_ascii=False, indent=1).encode()
        note = say("session_export_ended", lang) if reveal else say("session_export_open", lang,
                                                                     until=sessions.when(table.header))
        text = say("session_export_text", lang, id=table.id, cards=len(document["cards"])) + "\n" + note
        if len(data) > sessions.MAX_EXPORT_BYTES:
            return Rolled(_in_place(say("session_export_large", lang, size=f"{len(data) // 1_048_576} MiB")))
        message = _in_place(text)
        message["_file"] = (f"wurfwerk-session-{table.id}.json", data)
        return Rolled(message)

    def check_log(table: sessions.Table, lang: str) -> Rolled:
        assert store is not None
        with client(lang) as service:
            slow = service.with_options(timeout=LONG_TIMEOUT)
            document = sessions.log_document(store, table, secret, revealed(table, slow))
            report = slow.sessions.report(**document).to_dict()
        return Rolled(sessions.verdict_message(table, report, len(document["cards"]), lang))

    @app.get("/livez")
    def livez() -> Response:
        return jsonify({"status": "ok"})

    return app


def bounded_body(limit: int) -> bytes | None:
    """The request body, or None when it is longer than ``limit``: a declared length above it is refused
    before a byte is read, and an undeclared one (chunked) is read to one byte past the limit at most.
    After a refusal the socket's reading side is shut, so the server does not drain the rest."""
    declared = request.content_length
    if declared is None or declared <= limit:
        stream = request.stream
        chunks: list[bytes] = []
        size = 0
        while size <= limit:
            chunk = stream.read(limit + 1 - size)
            if not chunk:
                return b"".join(chunks)
            chunks.append(chunk)
            size += len(chunk)
    sock = request.environ.get("gunicorn.socket")
    if sock is not None:
        try:
            sock.shutdown(socket.SHUT_RD)
        except OSError:
            pass
    return None


def deliver(method: str, url: str, **sent: Any) -> None:
    """A message through an interaction's webhook, tried again while Discord answers 404 (it may not know the
    interaction's answer yet) or cannot be reached; the last try's connection error is raised."""
    for number, pause in enumerate(FOLLOW_UP_PAUSES, 1):
        time.sleep(pause)
        try:
            if requests.request(method, url, timeout=30, **sent).status_code != 404:
                return
        except requests.RequestException:
            if number == len(FOLLOW_UP_PAUSES):
                raise
        log.info("%s through the webhook not delivered yet, trying again", method)
    log.error("could not deliver a message through the webhook: %s", method)


def _add_footer(message: dict[str, Any], words: str) -> None:
    embed = message["embeds"][0]
    footer = (embed.get("footer") or {}).get("text") or ""
    embed["footer"] = {"text": discord.clip(f"{footer} · {words}" if footer else words, discord.FOOTER_MAX)}


def _channel_of(interaction: Mapping[str, Any]) -> str | None:
    channel = interaction.get("channel_id") or (interaction.get("channel") or {}).get("id")
    return str(channel) if channel else None


def _user_id(interaction: Mapping[str, Any]) -> str | None:
    user = (interaction.get("member") or {}).get("user") or interaction.get("user") or {}
    return str(user["id"]) if user.get("id") else None


def _username(interaction: Mapping[str, Any]) -> str | None:
    user = (interaction.get("member") or {}).get("user") or interaction.get("user") or {}
    return str(user["username"]) if user.get("username") else None


def rescue_advice(service: Client, response: Mapping[str, Any], left: float) -> dict[str, Any] | None:
    """After a lost Paws roll, whether the group's one-shot rescue die is worth rolling now (issue 51),
    within what is left of Discord's 3 s; the card goes out without it rather than late."""
    body = buttons.rescue_advice_request(response, _odds_body(response))
    if body is None or left <= 0.2:
        return None
    try:
        return call(service.with_options(timeout=left, max_retries=0), f"{response['operation']}.advice", body)
    except WurfwerkError as error:
        log.info("rescue advice unavailable: %s", error)
        return None


def _in_place(text: str) -> dict[str, Any]:
    """An error that takes the place of a deferred card: its text, no embeds or buttons left over."""
    message = text_message(text, ephemeral=False)
    message.update(embeds=[], components=[])
    return message


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


def _options_of(interaction: Mapping[str, Any], registry: Callable[[], Registry]) -> FieldWords | None:
    """For a command: a field path of the service's -> the option it came from, as the player typed it."""
    data = interaction.get("data") or {}
    if interaction.get("type") == discord.MODAL_SUBMIT:  # the narration form: its one field
        return lambda path, lang: say("toughness_field", lang) if path.split(".")[0] == "toughness" else None
    subs = [option for option in data.get("options") or [] if option.get("type") == discord.OPTION_SUB_COMMAND]
    if interaction.get("type") != discord.APPLICATION_COMMAND or not subs:
        return None
    system, name = str(data.get("name")), str(subs[0].get("name"))

    def words(path: str, lang: str) -> str | None:
        try:
            return registry().path_words(system, name, path, lang)
        except (KeyError, requests.RequestException):
            return None

    return words
