"""``POST /v1/sessions``, ``/v1/sessions/reveal`` and ``/v1/sessions/report`` (issue 41), declared
in ``SESSION_ENDPOINTS`` (routes.py routes them with the platform's others).

Opening and revealing follow tickets (sessions.py); the report checks a log (session_log.py) and
measures each seat's luck from the exact odds (luck.py) with the operations' own odds twins.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import marshmallow as ma
from flask import Response, current_app, request
from marshmallow import fields, validate

from service.platform.dice import sessions
from service.platform.dice.receipts import canonical_bytes
from service.platform.dice.session_log import RevealError, verify_log
from service.platform.endpoints.api import Endpoint
from service.platform.http.hooks import bearer_token_in
from service.platform.http.http_json import json_response
from service.platform.http.i18n import request_lang
from service.platform.http.problems import DOCUMENTED_STATUSES, http_error
from service.platform.http.runtime import current_runtime
from service.platform.maths.luck import mid_percentile, seat_test
from service.platform.operations.fields import Int, StrictSchema
from service.platform.operations.operations import RANDOMNESS_MEMBERS, Kind, Operation, operations_of
from service.platform.operations.schemas import SessionHeaderSchema
from service.platform.words.messages import Message, Number, localized, say, say_n

MAX_REPORT_CARDS = 2000

# Two seats' commitments, as their clients would send them (base64url SHA-256 of a seed; examples only).
RYNN_COMMIT = "RwbiWXeG-eSSOcQKP1yHl-IUPBFKq3rQARzY-Uf489I"
ALVA_COMMIT = "o6fXGaghO68jYmQS_7iQetCLVYSMRlq2vk5AwgDIuGg"
SESSION_EXAMPLE = {"version": 2, "id": "q3Lc9vYzR0C1l4oQ8nXwAg", "seats": ["GM", "Rynn", "Alva"],
                   "seat_commits": {"GM": "…", "Rynn": RYNN_COMMIT, "Alva": ALVA_COMMIT}, "open_seats": ["GM"],
                   "context": "world-7", "opened_at": "2026-12-01T19:00:00Z", "expires_at": "2026-12-01T23:00:00Z",
                   "commit": "dGhlIGNvbW1pdCBvZiB0aGUgc2Vzc2lvbiBzZWNyZXQ", "kid": "…", "signature": "…"}
REVEAL_EXAMPLE = {"session": SESSION_EXAMPLE, "secret": "…", "revealed_at": "2026-12-01T23:00:00Z",
                  "kid": "…", "signature": "…"}
SEAT_SCHEMA = {"oneOf": [
    {"type": "string", "minLength": 1, "maxLength": sessions.MAX_SEAT_CHARS, "pattern": r"\S",
     "description": "An open seat: the service makes its seat key and hands it to the opener."},
    {"type": "object", "additionalProperties": False, "required": ["name", "commit"], "properties": {
        "name": {"type": "string", "minLength": 1, "maxLength": sessions.MAX_SEAT_CHARS, "pattern": r"\S"},
        "commit": {"type": "string", "pattern": "^[A-Za-z0-9_-]{43}$",
                   "description": "base64url(SHA-256(seed)) of the seed the seat's own client made."}}},
]}


class SeatField(fields.Field):
    """A seat when opening: a name (an open seat) or ``{name, commit}`` (a seat with its own seed)."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(metadata=SEAT_SCHEMA, **kwargs)

    def _deserialize(self, value: object, attr: str | None, data: Mapping[str, Any] | None,
                     **kwargs: Any) -> dict[str, Any]:
        if isinstance(value, str):
            return {"name": self._name(value), "commit": None}
        if not isinstance(value, Mapping) or set(value) != {"name", "commit"}:
            raise ma.ValidationError(say("must be a seat's name or {name, commit}"))
        if not sessions.is_commit(value["commit"]):
            raise ma.ValidationError(say("commit must be base64url(SHA-256(seed)): 43 characters"))
        return {"name": self._name(value["name"]), "commit": value["commit"]}

    @staticmethod
    def _name(name: object) -> str:
        if not isinstance(name, str) or not name.strip() or len(name) > sessions.MAX_SEAT_CHARS:
            raise ma.ValidationError(say("a seat's name has 1 to %(max)s characters", max=sessions.MAX_SEAT_CHARS))
        return name


class SessionsRequestSchema(StrictSchema):
    LINKS = {"roll": {
        "operationId": "paws.test",
        "description": "The first roll of the first seat in the session (any rolling operation takes one).",
        "requestBody": {"rank": 2, "session": {"header": "$response.body#/session", "seat": "GM",
                                               "seat_key": "$response.body#/seat_keys/GM",
                                               "index": 0, "prev": None}}}}
    seats = fields.List(SeatField(), required=True, validate=validate.Length(min=1, max=sessions.MAX_SEATS),
                        metadata={"description": "The seats that roll (players, the GM), each named once: a "
                                                 "name alone is an open seat, `{name, commit}` a seat whose "
                                                 "own client made a seed and sends only its SHA-256."})
    context = fields.String(load_default=None, allow_none=True,
                            validate=validate.Length(max=sessions.MAX_CONTEXT_CHARS),
                            metadata={"description": "Copied into the session: a VTT's world id."})
    ttl_s = Int(load_default=sessions.DEFAULT_TTL_S, validate=validate.Range(min=1, max=sessions.MAX_TTL_S),
                metadata={"description": "The evening's length in seconds (default 4 hours, at most 7 days): "
                                         "rolls until then, the reveal only after it."})

    @ma.validates("seats")
    def _unique(self, seats: list[dict[str, Any]], **kwargs: Any) -> None:
        """Each seat is named once."""
        names = [seat["name"] for seat in seats]
        if len(set(names)) != len(names):
            raise ma.ValidationError(say("each seat must be named once"))


class SessionResponseSchema(ma.Schema):
    session = fields.Nested(SessionHeaderSchema, required=True)
    seat_keys = fields.Dict(keys=fields.String(), values=fields.String(), required=True, metadata={
        "description": "The keys of the open seats, for the opener only: a roll of an open seat carries its "
                       "`seat_key`. Never part of a card."})


class RevealRequestSchema(StrictSchema):
    session = fields.Nested(SessionHeaderSchema, required=True, metadata={"description": "The session to reveal."})


class SessionRevealSchema(ma.Schema):
    session = fields.Nested(SessionHeaderSchema, required=True)
    secret = fields.String(required=True, metadata={"description": "base64url of the session's 32-byte secret: "
                                                                   "its SHA-256 is the session's `commit`."})
    revealed_at = fields.String(required=True, metadata={"description": "RFC 3339 UTC time of the reveal; a "
                                                                        "card issued later is never valid."})
    kid = fields.String(required=True)
    signature = fields.String(required=True, metadata={
        "description": "Ed25519 over the RFC 8785 JSON of this object without this member."})


class RevealResponseSchema(ma.Schema):
    reveal = fields.Nested(SessionRevealSchema, required=True)


class ReportRequestSchema(StrictSchema):
    reveal = fields.Dict(required=True, metadata={"description": "The reveal, as `POST /v1/sessions/reveal` "
                                                                 "answered it (its `reveal` member)."})
    seeds = fields.Dict(keys=fields.String(validate=validate.Length(max=64)),
                        values=fields.String(validate=validate.Length(max=96)), load_default=dict,
                        validate=validate.Length(max=sessions.MAX_SEATS),
                        metadata={"description": "The seats' seeds, as their holders hand them over after the "
                                                 "session: the dice of a seat whose seed is missing (or does not "
                                                 "match its commitment) are `unverified`. Open seats need none."})
    cards = fields.List(fields.Raw(allow_none=True), required=True, validate=validate.Length(max=MAX_REPORT_CARDS),
                        metadata={"description": "The log: signed responses of rolls in the session and "
                                                 "`public` parts of hidden ones, in any order."})


class SessionSlotSchema(ma.Schema):
    seat = fields.String(required=True)
    index = fields.Integer(required=True)


class SessionGapSchema(ma.Schema):
    seat = fields.String(required=True)
    from_ = fields.Integer(required=True, data_key="from", metadata={"description": "The first missing index."})
    to = fields.Integer(required=True, metadata={"description": "The last missing index (inclusive)."})


class SessionDuplicateSchema(SessionSlotSchema):
    cards = fields.List(fields.Integer(), required=True, metadata={"description": "Their positions in the log."})
    repeat = fields.Boolean(required=True, metadata={"description": "true: copies of one card; false: "
                                                                    "different rolls for one slot."})


class SessionInvalidCardSchema(ma.Schema):
    card = fields.Integer(required=True, metadata={"description": "The card's position in the log."})
    reason = fields.String(required=True, validate=validate.OneOf(
        ["malformed", "signature", "session", "time", "dice", "commitment", "link"]))


class LuckCardSchema(ma.Schema):
    card = fields.Integer(required=True)
    seat = fields.String(required=True)
    index = fields.Integer(required=True)
    operation = fields.String(required=True)
    quantity = fields.String(required=True, metadata={"description": "The distribution of the odds twin."})
    value = fields.Raw(required=True)
    percentile = fields.Float(required=True, metadata={"description": "P(X < x) + ½·P(X = x) (worse + half "
                                                                      "as good), from 0 to 1."})
    exact = fields.String(required=True)


class LuckSeatSchema(ma.Schema):
    seat = fields.String(required=True)
    count = fields.Integer(required=True)
    mean = fields.Float(required=True, allow_none=True)
    z = fields.Float(required=True, allow_none=True)
    p_value = fields.Float(required=True, allow_none=True)
    unusual = fields.Boolean(required=True, metadata={"description": "p_value below 0.01."})
    summary = fields.String(required=True, metadata={"description": "In the request's language."})


class SessionLuckSchema(ma.Schema):
    cards = fields.List(fields.Nested(LuckCardSchema), required=True)
    seats = fields.List(fields.Nested(LuckSeatSchema), required=True)
    unmeasured = fields.List(fields.Integer(), required=True, metadata={
        "description": "Valid cards whose operation declares no ordered quantity, or whose value its "
                       "odds do not list."})


class ReportResponseSchema(ma.Schema):
    complete = fields.Boolean(required=True)
    gaps = fields.List(fields.Nested(SessionGapSchema), required=True, metadata={
        "description": "Runs of slots below a seat's highest valid card that no card claims."})
    duplicates = fields.List(fields.Nested(SessionDuplicateSchema), required=True)
    invalid = fields.List(fields.Nested(SessionInvalidCardSchema), required=True)
    after_reveal = fields.List(fields.Integer(), required=True)
    unshown = fields.List(fields.Nested(SessionSlotSchema), required=True)
    unverified = fields.List(fields.String(), required=True, metadata={
        "description": "Seats with cards whose dice could not be recomputed: their seed was not given or "
                       "does not match the seat's commitment."})
    luck = fields.Nested(SessionLuckSchema, required=True)


def _game_master() -> bool:
    """Whether the request's key may open sessions: with API keys configured, a key of
    WURFWERK_TICKET_KEYS (every API key when that is empty, as for tickets)."""
    config = current_runtime().config
    return not config.ticket_keys or bearer_token_in(config.ticket_keys, request)


REVEAL_REASONS = {
    "malformed": say("must be the reveal exactly as POST /v1/sessions/reveal answered it"),
    "signature": say("does not verify with this service's keys: the reveal was altered or not made here"),
    "session": say("the session does not verify with this service's keys"),
    "secret": say("the secret is not the one the session committed to"),
}


def open_session(body: dict[str, Any]) -> Response:
    """Open a session: an evening's rolls, committed before the first one

    Answers a signed header whose `commit` is the SHA-256 of a secret the service derives from
    its key and the session id (nothing is stored), with each seat's commitment to its own seed.
    Every rolling operation then takes `session: {header, seat, seed | seat_key, index, prev}`:
    its dice derive from the secret, the seat, the seat's seed, the index and the operation, so
    nobody but the seat can roll its slots, and each slot has exactly one set of dice. A seat
    given by name alone is open: its `seat_key` is answered here, to the opener only. After the
    session ends, `POST /v1/sessions/reveal` and `POST /v1/sessions/report` (or the SDKs) check
    the whole log. With API keys configured, only the keys of `WURFWERK_TICKET_KEYS` (the game
    master's; every key when it is empty) may open one; others get 403.
    """
    runtime = current_runtime()
    if runtime.config.api_keys and not _game_master():
        raise http_error(403, say("Only the keys in WURFWERK_TICKET_KEYS may open sessions."), "forbidden")
    return json_response(sessions.open_session(runtime.keys, **body))


def reveal(body: dict[str, Any]) -> Response:
    """Reveal a session's secret after it ended: the same signed answer every time

    Only after `expires_at`, to anyone (409 `session-open` before: no key may reveal early, so
    nobody can learn the secret while dice still fall). `revealed_at` is `expires_at` and the
    reveal is signed by the key that opened the session, so every replica answers the same
    document whenever asked. A session of a rotated key reveals while its private key is kept in
    WURFWERK_RETIRED_SIGNING_KEYS. Forged or altered: 422 `invalid-session`.
    """
    runtime = current_runtime()
    header = sessions.check_header(runtime.keys, body["session"], "session")
    try:
        return json_response({"reveal": sessions.reveal(runtime.keys, header)})
    except sessions.SessionOpen as error:
        raise http_error(409, error.args[0], "session-open") from None


def report(body: dict[str, Any]) -> Response:
    """Check a session's log and measure each seat's luck from the exact odds

    The verdict `{complete, gaps, duplicates, invalid, after_reveal, unshown, unverified}` is the
    one `wurfwerk.verify_session` and the JavaScript client's `verifySession` compute offline
    (README "Sessions"); `seeds` are the seats' seeds, handed over after the evening (a seat
    without one is `unverified`). `luck` gives each valid card its mid-percentile
    P(X < x) + ½·P(X = x) of the quantity its operation declares, from the odds twin, and each
    seat its count, mean, a z-test of the mean against ½ (variance (1 − Σp³)/12 per roll) and a
    summary in the request's language. A reveal that does not verify: 422 `invalid-session`.
    """
    runtime = current_runtime()
    keys = runtime.keys
    try:
        verdict = verify_log(body["cards"], body["reveal"], seeds=body["seeds"],
                             signature_ok=keys.signature_matches,
                             receipt_ok=lambda card: keys.verify(card).valid,
                             max_index=runtime.config.limits.session_index)
    except RevealError as error:
        raise sessions.SessionError("reveal", REVEAL_REASONS[error.reason]) from None
    verdict["luck"] = luck_report(body["cards"], body["reveal"]["session"], verdict, operations_of(current_app),
                                  request_lang())
    return json_response(verdict)


SESSION_ENDPOINTS = (
    Endpoint.post("/v1/sessions", open_session, operation_id="sessions.open", request=SessionsRequestSchema,
                  request_example={"seats": ["GM", {"name": "Rynn", "commit": RYNN_COMMIT},
                                             {"name": "Alva", "commit": ALVA_COMMIT}],
                                   "context": "world-7", "ttl_s": 14400},
                  response=SessionResponseSchema, example={"session": SESSION_EXAMPLE, "seat_keys": {"GM": "…"}},
                  problems=(400, 401, 403, 413, 415, 422)),
    Endpoint.post("/v1/sessions/reveal", reveal, operation_id="sessions.reveal", request=RevealRequestSchema,
                  request_example={"session": SESSION_EXAMPLE},
                  response=RevealResponseSchema, example={"reveal": REVEAL_EXAMPLE},
                  problems=(400, 401, 409, 413, 415, 422)),
    Endpoint.post("/v1/sessions/report", report, operation_id="sessions.report", request=ReportRequestSchema,
                  request_example={"reveal": REVEAL_EXAMPLE, "seeds": {"Rynn": "…"}, "cards": []},
                  response=ReportResponseSchema, example={
                      "complete": False, "gaps": [{"seat": "Rynn", "from": 3, "to": 4}], "duplicates": [],
                      "invalid": [{"card": 7, "reason": "dice"}], "after_reveal": [], "unshown": [],
                      "unverified": ["Alva"],
                      "luck": {"cards": [], "seats": [{"seat": "Rynn", "count": 12, "mean": 0.23, "z": -2.6,
                                                       "p_value": 0.009, "unusual": True,
                                                       "summary": "Rynn had bad luck: …"}], "unmeasured": []}},
                  problems=DOCUMENTED_STATUSES),
)


def luck_report(cards: list[Any], header: Mapping[str, Any], verdict: Mapping[str, Any],
                operations: Mapping[str, Operation], lang: str) -> dict[str, Any]:
    """Each valid full card's mid-percentile and each seat's test (luck.py)."""
    excluded = {entry["card"] for entry in verdict["invalid"]} | set(verdict["after_reveal"])
    for duplicate in verdict["duplicates"]:  # a slot counts once: its first card
        excluded |= set(duplicate["cards"][1:])
    measured, unmeasured = [], []
    odds_cache: dict[bytes, Any] = {}
    for position, card in enumerate(cards):
        if position in excluded or not isinstance(card, dict) or "receipt" not in card:
            continue
        point = _card_luck(card, operations, odds_cache)
        if point is None:
            unmeasured.append(position)
            continue
        use = card["request"]["session"]
        measured.append({"card": position, "seat": use["seat"], "index": use["index"], **point,
                         "draw": _is_draw(card)})
    seats = []
    for seat in header["seats"]:
        points = [point for point in measured if point["seat"] == seat]
        test = seat_test([float(point["mid"]) for point in points], [float(point["variance"]) for point in points])
        draws = sum(point["draw"] for point in points)
        words = _seat_words(seat, test, rolls=len(points) - draws, draws=draws)
        seats.append({"seat": seat, **test, "summary": localized(words, lang)})
    return {"cards": [{key: value for key, value in point.items() if key not in ("mid", "variance", "draw")}
                      for point in measured],
            "seats": seats, "unmeasured": unmeasured}


def _is_draw(card: Mapping[str, Any]) -> bool:
    """A card whose random values are marbles drawn, not dice rolled (a "Zug", not a "Wurf")."""
    events = card.get("randomness", {}).get("events", [])
    return bool(events) and all(isinstance(event, dict) and event.get("kind") == "draw" for event in events)


def _card_luck(card: dict[str, Any], operations: Mapping[str, Operation],
               odds_cache: dict[bytes, Any]) -> dict[str, Any] | None:
    operation = operations.get(card["operation"])
    twin = operations.get(f"{card['operation']}.odds")
    if operation is None or operation.luck is None or twin is None or twin.kind is not Kind.ODDS \
            or twin.encounter or not isinstance(card.get("result"), dict):
        return None
    body = {name: value for name, value in card["request"].items() if name not in RANDOMNESS_MEMBERS}
    key = canonical_bytes({"operation": twin.id, "body": body})
    if key not in odds_cache:
        try:
            odds_cache[key] = twin.view(twin.load(body))
        except Exception:  # a card's request the odds cannot take: not measured
            odds_cache[key] = None
    odds = odds_cache[key]
    distribution = odds.distributions.get(operation.luck.distribution) if odds is not None else None
    try:
        value = operation.luck.rolled(card["result"])
        point = mid_percentile(distribution, value, operation.luck.higher) if distribution else None
    except (KeyError, TypeError, AttributeError):  # a result of another shape (an older release's card)
        return None
    if point is None:
        return None
    mid, variance = point
    return {"operation": operation.id, "quantity": operation.luck.distribution, "value": value,
            "percentile": float(mid), "exact": f"{mid.numerator}/{mid.denominator}" if mid.denominator != 1
            else str(mid.numerator), "mid": mid, "variance": variance}


def _seat_words(seat: str, test: Mapping[str, Any], *, rolls: int, draws: int) -> Message:
    """One seat's luck in a sentence or two a player can read aloud: how it went, how many rolls
    and draws it rests on, and whether fair chance explains it."""
    if not test["count"]:
        return say("%(seat)s: no measured rolls or draws", seat=seat)
    counted = _counted(rolls, draws)
    percent = Number(round(test["mean"] * 100))
    if test["mean"] < 0.4:
        line = say("%(seat)s had bad luck: on average only %(percent)s %% of the possible results would have "
                   "been worse (%(counted)s).", seat=seat, percent=percent, counted=counted)
    elif test["mean"] > 0.6:
        line = say("%(seat)s had good luck: on average %(percent)s %% of the possible results would have been "
                   "worse (%(counted)s).", seat=seat, percent=percent, counted=counted)
    else:
        line = say("%(seat)s had neither good nor bad luck: on average %(percent)s %% of the possible results "
                   "would have been worse (%(counted)s).", seat=seat, percent=percent, counted=counted)
    if test["p_value"] is None:
        return line
    p_value = Number(round(test["p_value"], 3))
    if test["unusual"]:
        return say("%(line)s With fair chance that would be unusual (p = %(p)s).", line=line, p=p_value)
    return say("%(line)s That fits fair chance (p = %(p)s).", line=line, p=p_value)


def _counted(rolls: int, draws: int) -> Message:
    """"12 dice rolls", "3 marble draws" or both, joined by "and"."""
    rolled = say_n("%(count)d dice roll", "%(count)d dice rolls", rolls)
    drawn = say_n("%(count)d marble draw", "%(count)d marble draws", draws)
    if rolls and draws:
        return say("%(rolls)s and %(draws)s", rolls=rolled, draws=drawn)
    return rolled if rolls else drawn
