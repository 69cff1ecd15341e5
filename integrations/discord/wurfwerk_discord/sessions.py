"""Sessions in Discord (API.md §1.8, issue 49 item 4): a game master opens one for the channel, and while it
runs every rolling command of a seated player goes through it; the app rolls and posts in the same
interaction, so no player sees a slot before the table does.

- **Seeds.** The app makes each seat's seed itself, for that Discord user: base64url(HMAC-SHA256(the
  app's ``DISCORD_SESSION_SECRET``, ``SEED_INFO`` || the header's ``context`` || 0 || the user's id)).
  The context (``discord:<channel>:<opening interaction>``) is known before the service opens the
  session, so the seeds' commitments go into the signed header; the seeds themselves are never stored
  and never shown until the session has ended (the export and the check hand them over then). Nobody at
  the table holds a seed, so nobody can roll a slot privately; the game master cannot learn or choose a
  player's dice; whoever runs the app (holds the secret) could, as whoever runs the service could.
- **The store.** Discord cannot be read back, so the app keeps what a session needs in a small SQLite
  file of its own (``DISCORD_SESSION_DB``): per channel the header, per seat its user, its next index
  and its last link, and every card (the log the export hands out). Its limits are the README's: one
  file, so the replicas that serve a channel's sessions must share it (workers of one host do; pods do
  not), and nothing leaves it unless exported.
- **A roll** takes the seat's next index and the link of its previous card (``prev``), and is recorded
  by compare-and-set on that index: two rolls at once of one seat cannot take one slot (the loser,
  never shown to anyone, is rolled again at the next index). Each roll is recorded under the key of
  what asked for it (the interaction, or the card and button of a follow-up), so a replayed
  interaction or a second press answers the stored card, never another slot.
- **Ending early** (``/session end``, by the opener or a member who may manage messages there) only
  stops the rolls going in and frees the channel: the header's ``expires_at`` stays the end, so the
  reveal, the seeds and the check still wait for it.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import re
import sqlite3
import time
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from wurfwerk_discord import discord
from wurfwerk_discord.words import say

SEED_INFO = b"wurfwerk-discord/seat-seed/v1\x00"
COMMAND = "session"
OPEN, END, EXPORT, CHECK = "open", "end", "export", "check"
WHICH = "session"  # export's and check's option: the session's id (its opening card's footer)
MANAGE_MESSAGES = 1 << 13  # a member with this permission in the channel may end anyone's session
PLAYERS = 10  # Discord user options on /session open; the opener sits too (the service takes 20 seats)
LENGTH = "length"
LENGTH_EXAMPLE = {"de": "4 h, 90 min oder 2 tage", "en": "4 h, 90 min or 2 days"}
DEFAULT_LENGTH_S = 14_400
MAX_LENGTH_S = 604_800
MAX_SEAT_CHARS = 64
ROLL_ATTEMPTS = 8  # rolls of one seat at once (a player's double click, a bot): each loser tries again
# Discord takes files up to 10 MiB from an app; a session's log stays far below it in any evening.
MAX_EXPORT_BYTES = 10 * 1024 * 1024
UNITS = {
    **dict.fromkeys(("s", "sek", "sekunde", "sekunden", "sec", "second", "seconds"), 1),
    **dict.fromkeys(("m", "min", "minute", "minuten", "minutes"), 60),
    **dict.fromkeys(("h", "std", "stunde", "stunden", "hour", "hours"), 3600),
    **dict.fromkeys(("d", "tag", "tage", "tagen", "day", "days"), 86_400),
}


class LengthError(ValueError):
    """A length that is no length (``bad_length``) or out of range (``length_range``)."""

    def __init__(self, key: str, word: str) -> None:
        super().__init__(word)
        self.key = key
        self.word = word


class Running(Exception):
    """A session is already running in the channel."""

    def __init__(self, table: Table) -> None:
        super().__init__(table.id)
        self.table = table


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def seat_seed(secret: str, context: str, user: str) -> str:
    """The seed of one Discord user's seat in the session of this context (32 bytes, base64url)."""
    message = SEED_INFO + context.encode() + b"\x00" + user.encode()
    return b64url(hmac.digest(secret.encode(), message, hashlib.sha256))


def seed_commit(seed: str) -> str:
    data = base64.urlsafe_b64decode(seed + "=" * (-len(seed) % 4))
    return b64url(hashlib.sha256(data).digest())


def parse_length(text: str | None) -> int:
    """Seconds of a length as a player types it: ``4 h``, ``90 min``, ``2 tage``, ``1,5 h``; a bare number is
    hours. ``LengthError`` when it is none or outside 1 s .. 7 days."""
    if text is None or not text.strip():
        return DEFAULT_LENGTH_S
    match = re.fullmatch(r"\s*(\d{1,7}(?:[.,]\d{1,3})?)\s*([a-zA-Zä]*)\s*", text)
    unit = UNITS.get(match.group(2).lower() or "h") if match else None
    if match is None or unit is None:
        raise LengthError("bad_length", text.strip())
    seconds = round(float(match.group(1).replace(",", ".")) * unit)
    if not 1 <= seconds <= MAX_LENGTH_S:
        raise LengthError("length_range", text.strip())
    return seconds


def unix(text: str) -> int:
    return int(datetime.fromisoformat(text.replace("Z", "+00:00")).timestamp())


def when(header: Mapping[str, Any], style: str = "f") -> str:
    """The session's end as a Discord timestamp: every reader sees it in their own time zone and language."""
    return f"<t:{unix(str(header['expires_at']))}:{style}>"


# -- the store -------------------------------------------------------------------------------------------

SCHEMA = """
CREATE TABLE IF NOT EXISTS sessions (
    id TEXT PRIMARY KEY, channel TEXT NOT NULL, header TEXT NOT NULL, opener TEXT NOT NULL,
    expires REAL NOT NULL, opened REAL NOT NULL, closed REAL);
CREATE INDEX IF NOT EXISTS sessions_by_channel ON sessions (channel, opened);
CREATE TABLE IF NOT EXISTS seats (
    session TEXT NOT NULL, user TEXT NOT NULL, seat TEXT NOT NULL, next_index INTEGER NOT NULL DEFAULT 0,
    link TEXT, PRIMARY KEY (session, user));
CREATE TABLE IF NOT EXISTS cards (
    number INTEGER PRIMARY KEY AUTOINCREMENT, session TEXT NOT NULL, seat TEXT NOT NULL, idx INTEGER NOT NULL,
    key TEXT NOT NULL, response TEXT NOT NULL, public TEXT,
    UNIQUE (session, seat, idx), UNIQUE (session, key));
"""


TABLE_COLUMNS = "id, channel, header, opener, expires, closed"


@dataclass(frozen=True)
class Table:
    """A session of a channel, as the store holds it."""

    id: str
    channel: str
    header: dict[str, Any]
    opener: str
    expires: float
    closed: float | None = None  # when it was ended early: no roll goes in after that

    def running(self, now: float | None = None) -> bool:
        """Whether rolls go into it: before its end, unless it was ended early."""
        return self.closed is None and not self.ended(now)

    def ended(self, now: float | None = None) -> bool:
        """Whether its ``expires_at`` has passed: only then can it be revealed (ending early does not move it)."""
        return (time.time() if now is None else now) >= self.expires


@dataclass(frozen=True)
class Card:
    """A recorded roll: the signed response (the full card) and, of a hidden roll, its public part."""

    seat: str
    index: int
    response: dict[str, Any]
    public: dict[str, Any] | None


class Store:
    """The app's own SQLite file: short transactions only (a roll is never made inside one), so the
    workers and replicas sharing the file wait on each other for milliseconds at most."""

    def __init__(self, path: str) -> None:
        self.path = path
        with self._connection() as connection:
            connection.execute("PRAGMA journal_mode=WAL")
            connection.executescript(SCHEMA)

    @contextmanager
    def _connection(self) -> Iterator[sqlite3.Connection]:
        connection = sqlite3.connect(self.path, timeout=10, isolation_level=None)
        try:
            yield connection
        finally:
            connection.close()

    @contextmanager
    def _transaction(self) -> Iterator[sqlite3.Connection]:
        with self._connection() as connection:
            connection.execute("BEGIN IMMEDIATE")
            try:
                yield connection
            except BaseException:
                connection.execute("ROLLBACK")
                raise
            connection.execute("COMMIT")

    @staticmethod
    def _table(row: tuple[Any, ...] | None) -> Table | None:
        if row is None:
            return None
        return Table(id=row[0], channel=row[1], header=json.loads(row[2]), opener=row[3], expires=row[4],
                     closed=row[5])

    def latest(self, channel: str) -> Table | None:
        """The channel's newest session, running or ended."""
        with self._connection() as connection:
            return self._table(connection.execute(
                f"SELECT {TABLE_COLUMNS} FROM sessions WHERE channel = ? ORDER BY opened DESC LIMIT 1",
                (channel,)).fetchone())

    def find(self, channel: str, session: str) -> Table | None:
        """A session of this channel by its id (never another channel's)."""
        with self._connection() as connection:
            return self._table(connection.execute(
                f"SELECT {TABLE_COLUMNS} FROM sessions WHERE channel = ? AND id = ?", (channel, session)).fetchone())

    def opened_by(self, channel: str, context: str) -> Table | None:
        """The session of this channel opened with this context (by this interaction), if any: a context is
        used once, since the seats' seeds derive from it."""
        with self._connection() as connection:
            rows = connection.execute(f"SELECT {TABLE_COLUMNS} FROM sessions WHERE channel = ?", (channel,)).fetchall()
        return next((table for table in map(self._table, rows)
                     if table is not None and table.header.get("context") == context), None)

    def close(self, session: str) -> None:
        """End a session early: from now on no roll goes into it."""
        with self._transaction() as connection:
            connection.execute("UPDATE sessions SET closed = ? WHERE id = ? AND closed IS NULL", (time.time(), session))

    def open(self, channel: str, header: Mapping[str, Any], opener: str, seats: Mapping[str, str]) -> Table:
        """Record a new session with its seats (user -> seat); ``Running`` when one runs in the channel."""
        table = Table(id=str(header["id"]), channel=channel, header=dict(header), opener=opener,
                      expires=float(unix(str(header["expires_at"]))))
        with self._transaction() as connection:
            current = self._table(connection.execute(
                f"SELECT {TABLE_COLUMNS} FROM sessions WHERE channel = ? ORDER BY opened DESC LIMIT 1",
                (channel,)).fetchone())
            if current is not None and current.running():
                raise Running(current)
            connection.execute("INSERT INTO sessions VALUES (?, ?, ?, ?, ?, ?, NULL)",
                               (table.id, channel, json.dumps(table.header), opener, table.expires, time.time()))
            connection.executemany("INSERT INTO seats (session, user, seat) VALUES (?, ?, ?)",
                                   [(table.id, user, seat) for user, seat in seats.items()])
        return table

    def seats(self, session: str) -> dict[str, str]:
        """user -> seat, in the order they were seated."""
        with self._connection() as connection:
            return dict(connection.execute("SELECT user, seat FROM seats WHERE session = ? ORDER BY rowid",
                                           (session,)).fetchall())

    def slot(self, session: str, user: str) -> tuple[str, int, str | None] | None:
        """(seat, next index, link of its previous card) of a seated user; None when not seated."""
        with self._connection() as connection:
            row = connection.execute("SELECT seat, next_index, link FROM seats WHERE session = ? AND user = ?",
                                     (session, user)).fetchone()
        return (row[0], row[1], row[2]) if row else None

    def stored(self, session: str, key: str) -> Card | None:
        with self._connection() as connection:
            row = connection.execute("SELECT seat, idx, response, public FROM cards WHERE session = ? AND key = ?",
                                     (session, key)).fetchone()
        return self._card(row)

    @staticmethod
    def _card(row: tuple[Any, ...] | None) -> Card | None:
        if row is None:
            return None
        return Card(seat=row[0], index=row[1], response=json.loads(row[2]),
                    public=json.loads(row[3]) if row[3] else None)

    def record(self, session: str, user: str, index: int, key: str, card: Card, link: str) -> Card | None:
        """Record a roll at ``index`` if that is still the seat's next one and ``key`` is new: None when
        recorded; the card already recorded under ``key``; or raise ``SlotTaken``."""
        with self._transaction() as connection:
            found = self._card(connection.execute(
                "SELECT seat, idx, response, public FROM cards WHERE session = ? AND key = ?",
                (session, key)).fetchone())
            if found is not None:
                return found
            moved = connection.execute(
                "UPDATE seats SET next_index = ?, link = ? WHERE session = ? AND user = ? AND next_index = ?",
                (index + 1, link, session, user, index)).rowcount
            if moved != 1:
                raise SlotTaken(index)
            connection.execute(
                "INSERT INTO cards (session, seat, idx, key, response, public) VALUES (?, ?, ?, ?, ?, ?)",
                (session, card.seat, index, key, json.dumps(card.response),
                 json.dumps(card.public) if card.public is not None else None))
        return None

    def cards(self, session: str) -> list[Card]:
        with self._connection() as connection:
            rows = connection.execute("SELECT seat, idx, response, public FROM cards WHERE session = ? ORDER BY number",
                                      (session,)).fetchall()
        return [card for card in map(self._card, rows) if card is not None]


class SlotTaken(Exception):
    """Another roll of the seat took this index first."""


# -- seating and rolling -----------------------------------------------------------------------------------

@dataclass(frozen=True)
class Seat:
    """A seated player of a running session: how their rolls go into it."""

    table: Table
    user: str
    seed: str

    def roll(self, store: Store, send: Callable[[dict[str, Any]], dict[str, Any]], body: Mapping[str, Any],
             key: str, hidden: bool) -> tuple[Card, bool]:
        """(the card, whether it is new): the card recorded under ``key`` when there is one (a replay or a
        second press), else a roll at the seat's next index, linked to its previous card."""
        stored = store.stored(self.table.id, key)
        if stored is not None:
            return stored, False
        for _ in range(ROLL_ATTEMPTS):
            slot = store.slot(self.table.id, self.user)
            if slot is None:
                raise KeyError(self.user)
            seat, index, link = slot
            use: dict[str, Any] = {"header": self.table.header, "seat": seat, "seed": self.seed, "index": index,
                                   "prev": link if index else None}
            if hidden:
                use["hidden"] = True
            request = {name: value for name, value in body.items() if name != "idempotency_key"}
            response = send({**request, "session": use})
            public = response.get("public") if isinstance(response.get("public"), Mapping) else None
            card = Card(seat=seat, index=index, response=response, public=dict(public) if public else None)
            new_link = str((public or response.get("receipt") or {}).get("signature"))
            try:
                found = store.record(self.table.id, self.user, index, key, card, new_link)
            except SlotTaken:
                continue  # never shown to anyone: the slot went to the roll that was first
            return (found, False) if found is not None else (card, True)
        raise Busy(self.user)


class Busy(Exception):
    """Every attempt found the seat's next slot taken by a concurrent roll."""


def seat_names(people: list[tuple[str, str, str]]) -> dict[str, str]:
    """user -> seat name, from (user id, display name, username): the display name, trimmed and short
    enough; a name shared with an earlier seat gets the username, then the id, added."""
    seats: dict[str, str] = {}
    for user, shown, username in people:
        if user in seats:
            continue
        name = " ".join(shown.split())[:MAX_SEAT_CHARS] or username[:MAX_SEAT_CHARS] or user
        for candidate in (name, f"{name[:40]} ({username[:20]})", f"{name[:40]} ({user})"):
            if candidate not in seats.values():
                name = candidate
                break
        seats[user] = name
    return seats


def context_of(channel: str, interaction_id: str) -> str:
    return f"discord:{channel}:{interaction_id}"


# -- the command --------------------------------------------------------------------------------------------

def command() -> dict[str, Any]:
    """``/session`` (German ``/sitzung``): open, export, check."""
    def described(item: dict[str, Any], key: str, **params: Any) -> dict[str, Any]:
        item["description"] = say(key, "en", **{name: value["en"] if isinstance(value, dict) else value
                                                  for name, value in params.items()})
        item["description_localizations"] = {"de": say(key, "de", **{
            name: value["de"] if isinstance(value, dict) else value for name, value in params.items()})}
        return item

    players = [described({"type": discord.OPTION_USER, "name": f"player{number}",
                          "name_localizations": {"de": f"spieler{number}"}, "required": False},
                         "session_player") for number in range(1, PLAYERS + 1)]
    length = described({"type": discord.OPTION_STRING, "name": LENGTH, "name_localizations": {"de": "dauer"},
                        "required": False, "max_length": 40}, "session_length", example=LENGTH_EXAMPLE)

    def which() -> list[dict[str, Any]]:
        return [described({"type": discord.OPTION_STRING, "name": WHICH, "name_localizations": {"de": "sitzung"},
                           "required": False, "max_length": 64}, "session_which")]

    subcommands = [
        described({"type": discord.OPTION_SUB_COMMAND, "name": OPEN, "name_localizations": {"de": "eröffnen"},
                   "options": [*players, length]}, "session_open"),
        described({"type": discord.OPTION_SUB_COMMAND, "name": END, "name_localizations": {"de": "beenden"},
                   "options": []}, "session_end"),
        described({"type": discord.OPTION_SUB_COMMAND, "name": EXPORT, "name_localizations": {"de": "exportieren"},
                   "options": which()}, "session_export"),
        described({"type": discord.OPTION_SUB_COMMAND, "name": CHECK, "name_localizations": {"de": "prüfen"},
                   "options": which()}, "session_check"),
    ]
    return described({"type": discord.COMMAND_CHAT_INPUT, "name": COMMAND, "name_localizations": {"de": "sitzung"},
                      "options": subcommands,
                      "integration_types": [discord.GUILD_INSTALL, discord.USER_INSTALL],
                      "contexts": [discord.CONTEXT_GUILD, discord.CONTEXT_BOT_DM, discord.CONTEXT_PRIVATE_CHANNEL]},
                     "session_command")


# -- messages -------------------------------------------------------------------------------------------------

COLOUR = 0x5865F2
MAX_FINDINGS = 30  # lines of a verdict; the export has every card for the rest


def opened_message(table: Table, lang: str) -> dict[str, Any]:
    header = table.header
    seats = "\n".join(f"{discord.escape_markdown(seat)} · `{str(header['seat_commits'][seat])[:12]}…`"
                      for seat in header["seats"])
    embed = {
        "title": say("session_opened_title", lang),
        "description": say("session_opened", lang, until=when(header), left=when(header, "R")),
        "color": COLOUR,
        "fields": [{"name": say("session_seats", lang),
                    "value": discord.clip(seats, discord.FIELD_VALUE_MAX, lines=True), "inline": False},
                   {"name": say("session_commit", lang), "value": f"`{header['commit']}`", "inline": False}],
        "footer": {"text": say("session_footer", lang, id=header["id"])},
    }
    return {"embeds": [embed], "allowed_mentions": {"parse": []}}


def roll_footer(card: Card, lang: str) -> str:
    return say("session_roll_footer", lang, seat=card.seat, index=card.index)


def public_message(card: Card, title: str, user: str | None, lang: str, colour: int) -> dict[str, Any]:
    """What the table sees of a hidden roll: who rolled which slot, and the commitment to its result."""
    public = card.public or {}
    seat = discord.escape_markdown(card.seat)
    embed: dict[str, Any] = {
        "title": discord.clip(say("session_hidden_title", lang, operation=title), discord.EMBED_TITLE_MAX),
        "description": say("session_hidden_text", lang, seat=seat),
        "color": colour,
        "fields": [{"name": say("session_commitment", lang), "value": f"`{public.get('commitment', '?')}`",
                    "inline": False}],
        "footer": {"text": discord.clip(roll_footer(card, lang), discord.FOOTER_MAX)},
    }
    if user:
        embed["author"] = {"name": discord.clip(user, discord.AUTHOR_MAX)}
    return {"embeds": [embed], "allowed_mentions": {"parse": []}}


def log_document(store: Store, table: Table, secret: str, reveal: Mapping[str, Any] | None) -> dict[str, Any]:
    """The channel's log. After the end (``reveal`` given): ``{reveal, seeds, cards}``, the body
    ``POST /v1/sessions/report`` takes and what ``verify_session(cards, reveal, jwks, seeds=seeds)`` reads;
    every full card and public part. Before it: ``{session, cards}`` with hidden rolls as their public
    parts only, and no seeds."""
    cards: list[dict[str, Any]] = []
    for card in store.cards(table.id):
        if card.public is not None:
            cards.append(card.public)
            if reveal is not None:
                cards.append(card.response)
        else:
            cards.append(card.response)
    if reveal is None:
        return {"session": table.header, "cards": cards}
    context = str(table.header.get("context") or "")
    seeds = {seat: seat_seed(secret, context, user) for user, seat in store.seats(table.id).items()}
    return {"reveal": dict(reveal), "seeds": seeds, "cards": cards}


def verdict_message(table: Table, report: Mapping[str, Any], cards: int, lang: str) -> dict[str, Any]:
    """The report's verdict and each seat's luck, in the user's words."""
    lines: list[str] = []

    def seat(name: Any) -> str:
        return discord.escape_markdown(str(name))

    for gap in report.get("gaps") or []:
        lines.append(say("session_gap", lang, seat=seat(gap.get("seat")), start=gap.get("from"), end=gap.get("to")))
    for duplicate in report.get("duplicates") or []:
        lines.append(say("session_duplicate", lang, seat=seat(duplicate.get("seat")), index=duplicate.get("index"),
                         count=len(duplicate.get("cards") or [])))
    for invalid in report.get("invalid") or []:
        lines.append(say("session_invalid", lang, card=invalid.get("card"),
                         reason=say(f"reason_{invalid.get('reason')}", lang)))
    lines += [say("session_late", lang, card=position) for position in report.get("after_reveal") or []]
    lines += [say("session_unshown", lang, seat=seat(item.get("seat")), index=item.get("index"))
              for item in report.get("unshown") or []]
    lines += [say("session_unverified", lang, seat=seat(name)) for name in report.get("unverified") or []]
    head = say("session_complete" if report.get("complete") else "session_incomplete", lang, cards=cards)
    shown = [f"• {line}" for line in lines[:MAX_FINDINGS]]
    if len(lines) > MAX_FINDINGS:
        shown.append(say("session_more", lang, count=len(lines) - MAX_FINDINGS))
    description = "\n".join([head, *shown])
    embed: dict[str, Any] = {
        "title": say("session_check_title", lang, id=table.id),
        "description": discord.clip(description, discord.EMBED_DESCRIPTION_MAX, lines=True),
        "color": 0x2E7D32 if report.get("complete") else 0xC62828,
    }
    luck = [str(entry.get("summary")) for entry in (report.get("luck") or {}).get("seats") or []
            if isinstance(entry, Mapping) and entry.get("summary")]
    if luck:
        embed["fields"] = [{"name": say("session_luck", lang),
                            "value": discord.clip(discord.escape_markdown("\n".join(luck)), discord.FIELD_VALUE_MAX,
                                                  lines=True), "inline": False}]
    return {"embeds": [embed], "allowed_mentions": {"parse": []}}
