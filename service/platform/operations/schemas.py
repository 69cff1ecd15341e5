"""Schemas every operation shares: randomness fields, the signed envelope, the odds response."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import marshmallow as ma
from marshmallow import ValidationError, fields, post_load, validate, validates_schema

from service.platform.dice.derived_randomness import IDEMPOTENCY_KEY_PATTERN, is_idempotency_key
from service.platform.operations.contract import given, not_given
from service.platform.operations.fields import Bool, Int, IntOrStr, StrictSchema
from service.platform.words.messages import Template, say

# API.md allows seeds up to 2^63-1, but receipts are RFC 8785 JSON, whose numbers are IEEE doubles:
# above 2^53 two seeds share one canonical form, so an altered seed would still verify (and a
# browser's JSON.parse would silently change it). Seeds are therefore capped at 2^53-1.
MAX_SEED = 2**53 - 1
MAX_MANUAL_VALUES = 1000


class TicketSchema(StrictSchema):
    """A roll ticket exactly as ``POST /v1/tickets`` issued it (every member is signed)."""

    id = fields.String(required=True, validate=validate.Length(max=64),
                       metadata={"description": "128 random bits, base64url."})
    operation = fields.String(required=True, allow_none=True, validate=validate.Length(max=64),
                              metadata={"description": "The operation id it is for; null: any rolling operation."})
    context = fields.String(required=True, allow_none=True, validate=validate.Length(max=200),
                            metadata={"description": "The issuer's context (a VTT's world or message id), or null."})
    expires_at = fields.String(required=True, validate=validate.Length(max=32),
                               metadata={"description": "RFC 3339 UTC time after which it is refused."})
    kid = fields.String(required=True, validate=validate.Length(max=64),
                        metadata={"description": "The key that signed it (see /v1/keys)."})
    signature = fields.String(required=True, validate=validate.Length(max=128),
                              metadata={"description": "base64url Ed25519 signature over the RFC 8785 "
                                                       "canonical JSON of the ticket without this member."})


SEED_DESCRIPTION = ("base64url (no padding) of 16 to 64 random bytes that the seat's own client made and keeps; "
                    "`commit` in the header is base64url(SHA-256(these bytes)).")
V1_SESSION = say("this is a version 1 session: since 2026-12-04 (sessions v2) a header commits to each seat's "
                 "seed and a roll carries the seat's seed (or an open seat's seat_key); open a new session "
                 "with POST /v1/sessions")


class SessionHeaderSchema(StrictSchema):
    """A session exactly as ``POST /v1/sessions`` opened it (every member is signed)."""

    version = Int(required=True, validate=validate.Equal(2),
                  metadata={"description": "2: sessions v2 (seats commit to their own seeds)."})
    id = fields.String(required=True, validate=validate.Length(max=64),
                       metadata={"description": "128 random bits, base64url."})
    seats = fields.List(fields.String(validate=validate.Length(min=1, max=64)), required=True,
                        validate=validate.Length(min=1, max=20),
                        metadata={"description": "The names of the seats that roll in it (players, the GM)."})
    seat_commits = fields.Dict(keys=fields.String(validate=validate.Length(min=1, max=64)),
                               values=fields.String(validate=validate.Length(max=64)), required=True,
                               metadata={"description": "Each seat's commitment: base64url(SHA-256(seed)) of "
                                                        "the seed the seat's own client made (an open seat's: "
                                                        "of its seat key)."})
    open_seats = fields.List(fields.String(validate=validate.Length(min=1, max=64)), required=True,
                             validate=validate.Length(max=20),
                             metadata={"description": "Seats opened without a commitment: the service made "
                                                      "their seat keys and handed them to the opener, so their "
                                                      "dice are the opener's to know."})
    context = fields.String(required=True, allow_none=True, validate=validate.Length(max=200),
                            metadata={"description": "The opener's context (a VTT's world id), or null."})
    opened_at = fields.String(required=True, validate=validate.Length(max=32),
                              metadata={"description": "RFC 3339 UTC time it was opened."})
    expires_at = fields.String(required=True, validate=validate.Length(max=32),
                               metadata={"description": "RFC 3339 UTC time after which it rolls no more and "
                                                        "anyone may reveal it."})
    commit = fields.String(required=True, validate=validate.Length(max=64),
                           metadata={"description": "base64url SHA-256 of the session's secret."})
    kid = fields.String(required=True, validate=validate.Length(max=64),
                        metadata={"description": "The key that signed it (see /v1/keys)."})
    signature = fields.String(required=True, validate=validate.Length(max=128),
                              metadata={"description": "base64url Ed25519 signature over the RFC 8785 "
                                                       "canonical JSON of the session without this member."})

    # A schema validator, not a pre_load hook, so the compiled loader (fastload.py) keeps this schema.
    @validates_schema(pass_original=True, skip_on_field_errors=False)
    def _not_version_1(self, data: dict[str, Any], original: object, **kwargs: Any) -> None:
        """A header of sessions version 1 (no `version`) is refused with what changed."""
        if isinstance(original, Mapping) and "version" not in original and "commit" in original:
            raise ValidationError(V1_SESSION)


class SessionUseSchema(StrictSchema):
    """A roll's place in a session: the session, the seat and its proof (seed or seat key), the
    seat's roll number and the link to the seat's previous card."""

    header = fields.Nested(SessionHeaderSchema, required=True,
                           metadata={"description": "The session, exactly as opened."})
    seat = fields.String(required=True, validate=validate.Length(min=1, max=64),
                         metadata={"description": "One of the session's seats."})
    seed = fields.String(validate=validate.Length(max=96), load_only=True,
                         metadata={"description": "The seat's seed (a seat that committed to one): " + SEED_DESCRIPTION
                                                  + " It enters the dice and is never echoed."})
    seat_key = fields.String(validate=validate.Length(max=96), load_only=True,
                             metadata={"description": "An open seat's key, as `POST /v1/sessions` answered it "
                                                      "to the opener. Never echoed."})
    seed_commit = fields.String(dump_only=True,
                                metadata={"description": "In the signed card, instead of the seed or key: the "
                                                         "seat's commitment from the header."})
    index = Int(required=True, validate=validate.Range(min=0, max=999_999),
                metadata={"description": "The seat's roll number, from 0 to WURFWERK_MAX_SESSION_INDEX "
                                         "(default 10,000)."})
    prev = fields.String(required=True, allow_none=True, validate=validate.Length(max=128),
                         metadata={"description": "The link signature of the seat's previous card "
                                                  "(`receipt.signature`, or `public.signature` of a "
                                                  "hidden one); null for index 0."})
    hidden = Bool(metadata={"description": "true: a hidden roll; the response adds `public`, the part "
                                           "for the table (a commitment instead of the dice)."})

    @validates_schema
    def _one_proof(self, data: dict[str, Any], **kwargs: Any) -> None:
        """Exactly one of ``seed`` and ``seat_key``: a version 1 roll named neither."""
        given = [name for name in ("seed", "seat_key") if data.get(name) is not None]
        if not given:
            raise ValidationError(say("a roll in a session carries the seat's seed (or an open seat's seat_key) "
                                      "since sessions v2 (2026-12-04)"), field_name="seed")
        if len(given) > 1:
            raise ValidationError(say("give the seed or the seat_key, not both"), field_name="seat_key")


def _idempotency_key_rule(value: str) -> None:
    if not is_idempotency_key(value):
        raise ValidationError(say("must be 1 to 255 visible ASCII characters (! to ~)"))


IDEMPOTENCY_KEY_PARAMETER = {
    "in": "header",
    "name": "Idempotency-Key",
    "required": False,
    "schema": {"type": "string", "minLength": 1, "maxLength": 255, "pattern": IDEMPOTENCY_KEY_PATTERN},
    "description": (
        "Makes a retry safe: the dice derive, with a secret only the service holds, from this key, the "
        "operation and the request as understood, so sending the same request with the same key again "
        "(to any replica sharing the key configuration) gives the same `result` and `randomness.events`. "
        "The same key with another body derives other dice. Recorded as `randomness.idempotency_key`, with "
        "`randomness.source` `secure`. Refused (422) with `seed` or `manual`; with a `ticket` the ticket "
        "decides the dice and the key is only recorded. Signing key rotation changes the derived dice."
    ),
}


def manual_field(faces: Mapping[str, Any] | None = None) -> fields.List:
    """``manual``: the table's own dice or marbles; ``faces`` what one of them is, where known."""
    return fields.List(
        IntOrStr(faces),
        validate=validate.Length(max=MAX_MANUAL_VALUES),
        metadata={"description": "Physical dice or drawn marbles, consumed in order instead of random values."},
    )


class RandomnessFields(StrictSchema):
    """Where a roll's random values come from: at most one of ``seed``, ``manual`` and ``ticket``;
    ``idempotency_key`` (the batch item's form of the ``Idempotency-Key`` header) only without
    ``seed`` and ``manual``."""

    seed = Int(
        validate=validate.Range(min=0, max=MAX_SEED,
                                error=Template("must be between %(min)s and %(max)s (2^53-1: larger integers "
                                               "are not exact in JSON numbers, so they could not be signed "
                                               "exactly)")),
        metadata={"description": "Same request + same seed = same result (within one release). "
                                 "At most 2^53-1, the largest integer JSON carries exactly."},
    )
    manual = manual_field()
    ticket = fields.Nested(
        TicketSchema,
        metadata={"description": "A roll ticket from `POST /v1/tickets`: the dice derive from its id, the "
                                 "operation and the request as understood, with the service's secret, so the "
                                 "same ticket and request give the same dice (a replay); another request is a "
                                 "second roll that carries the same ticket id. Echoed in the signed response."},
    )
    session = fields.Nested(
        SessionUseSchema,
        metadata={"description": "A roll in a session from `POST /v1/sessions`: the dice derive from the "
                                 "session's secret, the seat, the seat's seed, the index and the operation, "
                                 "never from the body. Echoed in the signed response without the seed (with "
                                 "`seed_commit`), with `randomness.source` `session`."},
    )
    idempotency_key = fields.String(
        validate=_idempotency_key_rule,
        metadata={"description": "In a batch item: what the `Idempotency-Key` header is to a single call. "
                                 "Sending the same request with the same key again gives the same result. "
                                 "Not with seed or manual, which are reproducible already.",
                  "pattern": IDEMPOTENCY_KEY_PATTERN, "minLength": 1, "maxLength": 255},
    )

    CHECKED_BEYOND_SCHEMA = (
        "`manual` holds exactly the values the rules consume, in order: each a face of the die rolled, "
        "or a colour still in the bag at that draw (422 naming the index).",
        "A `ticket` verifies with the service's keys, has not expired and is for this operation.",
        "A `session` verifies with the service's keys and its current key, has not ended, names one of its "
        "seats with that seat's seed (or an open seat's key), an index from 0 to WURFWERK_MAX_SESSION_INDEX, "
        "and `prev` null exactly at index 0 (422 `invalid-session`).",
    )
    # seed, manual, ticket and session exclude each other; idempotency_key goes with none or a ticket.
    JSON_SCHEMA_RULES = (
        {"if": given("seed"), "then": not_given("manual", "ticket", "idempotency_key")},
        {"if": given("manual"), "then": not_given("ticket")},
        {"if": given("session"), "then": not_given("seed", "manual", "ticket", "idempotency_key")},
    )

    @validates_schema
    def _one_source(self, data: dict[str, Any], **kwargs: Any) -> None:
        """At most one of `seed`, `manual`, `ticket` and `session`; `idempotency_key` not with `seed`,
        `manual` or `session`."""
        given = [name for name in ("seed", "manual", "ticket", "session") if name in data]
        if len(given) > 1:
            if "session" in given:
                raise ValidationError(say("give at most one of seed, manual, ticket and session, not %(given)s",
                                          given=" + ".join(given)), field_name=given[-1])
            raise ValidationError(say("give at most one of seed, manual and ticket, not %(given)s",
                                      given=" + ".join(given)), field_name=given[-1])
        if "idempotency_key" in data and given and given[0] != "ticket":
            raise ValidationError(say("cannot be combined with %(source)s, which is reproducible already",
                                      source=given[0]), field_name="idempotency_key")


class IgnoredRandomnessFields(StrictSchema):
    """An odds twin takes the rolling operation's body: ``ticket`` and ``idempotency_key`` are
    accepted and dropped, since exact odds do not depend on where dice come from."""

    ticket = fields.Dict(metadata={"description": "Accepted and ignored: the odds do not depend on it."})
    session = fields.Dict(metadata={"description": "Accepted and ignored: the odds do not depend on it."})
    idempotency_key = fields.String(
        validate=_idempotency_key_rule,
        metadata={"description": "Accepted and ignored: the odds do not depend on it.",
                  "pattern": IDEMPOTENCY_KEY_PATTERN, "minLength": 1, "maxLength": 255})

    @post_load
    def _drop_ignored(self, data: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        data.pop("ticket", None)
        data.pop("session", None)
        data.pop("idempotency_key", None)
        return data


class EncounterFields(StrictSchema):
    """The members every encounter body shares (API.md §1.7); a system's encounter schema adds its own."""

    max_rounds = Int(load_default=None, allow_none=True, validate=validate.Range(min=1, max=1000),
                     metadata={"description": "Cut the encounter after this many rounds (Beutelschneider: "
                                              "exchanges); what still runs then is the outcome `undecided`. "
                                              "null: until it ends."})
    curve_rounds = Int(load_default=0, validate=validate.Range(min=0, max=100),
                       metadata={"description": "With n > 0, `odds.curve` gives the cumulative chances for "
                                                "rounds 1..n (for a chart)."})
    exact = fields.String(load_default="auto", validate=validate.OneOf(["auto", "required", "never"]),
                          metadata={"description": "auto: exact fractions when the state bound is at most "
                                                   "WURFWERK_MAX_ENCOUNTER_EXACT_STATES, float64 above; "
                                                   "required: exact or a 422; never: float64."})


class ReceiptSchema(ma.Schema):
    id = fields.String(required=True, metadata={"description": "UUID4 of this receipt."})
    issued_at = fields.String(required=True, metadata={"description": "RFC 3339 UTC time of signing."})
    alg = fields.String(required=True, metadata={"description": "Always Ed25519."})
    kid = fields.String(required=True, metadata={"description": "Key id: RFC 7638 thumbprint, see /v1/keys."})
    signature = fields.String(
        required=True,
        metadata={"description": "base64url Ed25519 signature over the RFC 8785 canonical JSON of the "
                                 "whole response without this member."},
    )


class EventSchema(ma.Schema):
    kind = fields.String(required=True, metadata={"description": "d<N>, dF or draw."})
    values = fields.List(IntOrStr(), required=True)
    bag = fields.Dict(keys=fields.String(), values=fields.Integer(),
                      metadata={"description": "A draw in a session: the bag it was drawn from (colour -> "
                                               "marbles), so a verifier recomputes the draw without the rules."})


class RandomnessSchema(ma.Schema):
    source = fields.String(required=True, validate=validate.OneOf(["secure", "seeded", "manual", "ticket", "session"]),
                           metadata={"description": "secure: the OS CSPRNG, or derived from an idempotency "
                                                    "key; seeded; manual; ticket: derived from the ticket; "
                                                    "session: derived from the session's secret, the seat, "
                                                    "its seed and the index."})
    events = fields.List(fields.Nested(EventSchema), required=True)
    idempotency_key = fields.String(metadata={"description": "The Idempotency-Key the dice derive from "
                                                             "(present only when one was given)."})


class SessionPublicSchema(ma.Schema):
    """What the table sees of a hidden roll in a session: its slot and a commitment to its outcome."""

    operation = fields.String(required=True)
    session = fields.Dict(required=True, metadata={"description": "The roll's `session` member as echoed: "
                                                                  "without the seed, with `seed_commit`."})
    commitment = fields.String(required=True, metadata={
        "description": "base64url SHA-256 of the RFC 8785 JSON of `{events, result, salt}`; the salt derives "
                       "from the session's secret, so it can be checked only after the reveal."})
    issued_at = fields.String(required=True)
    kid = fields.String(required=True)
    signature = fields.String(required=True, metadata={
        "description": "Ed25519 over the RFC 8785 JSON of this object without this member."})


class ProbabilitySchema(ma.Schema):
    probability = fields.Float(required=True)
    exact = fields.String(required=True, metadata={"description": "Reduced fraction, e.g. 19/27."})


class OutcomeSchema(ProbabilitySchema):
    outcome = fields.String(required=True)


class DistributionPointSchema(ProbabilitySchema):
    value = IntOrStr(required=True)


class OddsSchema(ma.Schema):
    outcomes = fields.List(fields.Nested(OutcomeSchema), required=True)
    distributions = fields.Dict(
        keys=fields.String(), values=fields.List(fields.Nested(DistributionPointSchema)), required=True
    )
    expected = fields.Dict(keys=fields.String(), values=fields.Float(), required=True)


class EncounterProbabilitySchema(ma.Schema):
    probability = fields.Float(required=True)
    exact = fields.String(required=True, allow_none=True,
                          metadata={"description": "Reduced fraction, e.g. 19/27; null when `solver.precision` "
                                                   "is float64."})


class EncounterOutcomeSchema(EncounterProbabilitySchema):
    outcome = fields.String(required=True)


class EncounterDistributionPointSchema(EncounterProbabilitySchema):
    value = IntOrStr(required=True)


class EncounterOddsSchema(ma.Schema):
    outcomes = fields.List(fields.Nested(EncounterOutcomeSchema), required=True)
    distributions = fields.Dict(
        keys=fields.String(), values=fields.List(fields.Nested(EncounterDistributionPointSchema)), required=True
    )
    expected = fields.Dict(keys=fields.String(), values=fields.Float(), required=True)
    curve = fields.List(
        fields.Dict(keys=fields.String(), values=fields.Float()),
        metadata={"description": "With `curve_rounds` > 0, one point per round from 1: `round`, `running` "
                                 "(the chance that the encounter still runs after it) and, per outcome, the "
                                 "chance that it has ended so by then (floats, for a chart)."},
    )


class SolverSchema(ma.Schema):
    states = fields.Integer(required=True, metadata={"description": "States actually reached."})
    precision = fields.String(required=True, validate=validate.OneOf(["exact", "float64"]))
    max_error = fields.Float(required=True, metadata={"description": "Bound on the error of every probability "
                                                                     "and of the outcomes' sum (0 when exact)."})


def _schema_name(operation_id: str, suffix: str) -> str:
    words = operation_id.replace("-", ".").replace("/", ".").split(".")
    return "".join(word.capitalize() for word in words) + suffix


def rolling_request_schema(operation_id: str, request: type[ma.Schema],
                           manual_value: Mapping[str, Any] | None = None) -> type[ma.Schema]:
    """The operation's own request schema plus ``seed``/``manual``/``ticket``/``idempotency_key``;
    ``manual_value`` (JSON Schema) states what each ``manual`` value is in the spec (a d6 face)."""
    members: dict[str, Any] = {"manual": manual_field(manual_value)} if manual_value else {}
    return type(_schema_name(operation_id, "Request"), (request, RandomnessFields), members)


def odds_request_schema(operation_id: str, request: type[ma.Schema]) -> type[ma.Schema]:
    """The operation's own request schema, taking (and dropping) ``ticket`` and ``idempotency_key``."""
    return type(_schema_name(operation_id, "Request"), (request, IgnoredRandomnessFields), {})


def renamed(operation_id: str, schema: type[ma.Schema], suffix: str) -> type[ma.Schema]:
    """A same-shaped subclass with a unique name, so apispec names each component once."""
    return type(_schema_name(operation_id, suffix), (schema,), {})


def envelope_schema(operation_id: str, request: type[ma.Schema] | None, result: type[ma.Schema],
                    *, rolling: bool) -> type[ma.Schema]:
    members = {
        "operation": fields.String(required=True, metadata={"example": operation_id}),
        "result": fields.Nested(result, required=True),
        "summary": fields.String(required=True, metadata={"description": "One chat line in `lang`."}),
        "lang": fields.String(required=True, validate=validate.OneOf(["en", "de"])),
        "receipt": fields.Nested(ReceiptSchema, required=True),
    }
    if request is not None:
        members["request"] = fields.Nested(request, required=True,
                                           metadata={"description": "The request as understood, defaults filled in."})
    else:
        members["request"] = fields.Dict(required=True)
    if rolling:
        members["randomness"] = fields.Nested(RandomnessSchema, required=True)
        members["public"] = fields.Nested(SessionPublicSchema, metadata={
            "description": "A hidden roll in a session only: the part for the table, signed on its own."})
    return ma.Schema.from_dict(members, name=_schema_name(operation_id, "Response"))


def odds_response_schema(operation_id: str, request: type[ma.Schema], *, encounter: bool = False) -> type[ma.Schema]:
    """An encounter's odds (API.md §1.7) also say how they were solved, and may be float64."""
    members = {
        "operation": fields.String(required=True, metadata={"example": operation_id}),
        "request": fields.Nested(request, required=True),
        "odds": fields.Nested(EncounterOddsSchema if encounter else OddsSchema, required=True),
    }
    if encounter:
        members["solver"] = fields.Nested(SolverSchema, required=True)
    return ma.Schema.from_dict(members, name=_schema_name(operation_id, "Response"))


# -- advice (API.md §1.10) ---------------------------------------------------------------------------

class AdviseSchema(StrictSchema):
    side = fields.String(load_default=None, allow_none=True, validate=validate.Length(min=1, max=64),
                         metadata={"description": "The side (or party, chain) advised, as the body names it; "
                                                  "null: the first."})
    choices = fields.List(fields.String(validate=validate.Length(min=1, max=64)), load_default=None,
                          allow_none=True, validate=validate.Length(min=1, max=16),
                          metadata={"description": "The policy fields to compare (every combination of "
                                                   "their values is one fixed option); null: every choice "
                                                   "the side has. Over 64 options: 422."})


def _no_advise() -> dict[str, Any]:
    return {"side": None, "choices": None}


class AdviceRequestFields(StrictSchema):
    advise = fields.Nested(AdviseSchema, load_default=_no_advise,
                           metadata={"description": "Which side is advised on which of its choices "
                                                    "(API.md §1.10)."})


def advice_request_schema(operation_id: str, request: type[ma.Schema]) -> type[ma.Schema]:
    """The odds twin's body (the operation's own, ``ticket`` and ``idempotency_key`` dropped) plus
    ``advise``."""
    return type(_schema_name(operation_id, "Request"), (request, IgnoredRandomnessFields, AdviceRequestFields), {})


class VersusBestSchema(EncounterProbabilitySchema):
    equal = fields.Boolean(required=True, metadata={"description": "\"gleich gut\": less than 0.1 percentage "
                                                                   "points from the best."})


class AdviceOptionSchema(ma.Schema):
    policy = fields.Dict(keys=fields.String(), required=True,
                         metadata={"description": "The side's policy fields, as in the body."})
    win = fields.Nested(EncounterProbabilitySchema, required=True)
    not_lose = fields.Nested(EncounterProbabilitySchema, required=True,
                             metadata={"description": "The chance not to lose (the first tie-break)."})
    expected_rounds = fields.Float(required=True, allow_none=True,
                                   metadata={"description": "Expected rounds (the second tie-break: fewer first)."})
    outcomes = fields.Dict(keys=fields.String(), values=fields.Nested(EncounterProbabilitySchema), required=True,
                           metadata={"description": "Every outcome of the odds of the body with this policy."})
    vs_best = fields.Nested(VersusBestSchema, required=True,
                            metadata={"description": "The chance to win minus the best option's (0 or below)."})
    expected = fields.Dict(keys=fields.String(), values=fields.Float(), required=True,
                           metadata={"description": "The odds' expected values with this policy (wounds, "
                                                    "consequences, rounds): what a choice costs besides winning."})


class AdvicePickSchema(ma.Schema):
    policy = fields.Dict(keys=fields.String(), required=True)
    win = fields.Nested(EncounterProbabilitySchema, required=True)
    vs_best = fields.Nested(VersusBestSchema)


class AdaptiveSchema(ma.Schema):
    win = fields.Nested(EncounterProbabilitySchema, required=True)
    gain_over_best_fixed = fields.Nested(EncounterProbabilitySchema, required=True)
    not_lose = fields.Nested(EncounterProbabilitySchema, allow_none=True,
                             metadata={"description": "The optimum's chance not to lose, where its solver breaks "
                                                      "ties by it (Beutelschneider: fleeing where winning is out of "
                                                      "reach); null where it does not say."})
    rules = fields.List(fields.String(), required=True,
                        metadata={"description": "What to do when, in `lang`."})


class AdviceAnswerSchema(ma.Schema):
    side = fields.String(required=True)
    options = fields.List(fields.Nested(AdviceOptionSchema), required=True,
                          metadata={"description": "Every fixed option, best first (by the chance to win, then "
                                                   "not to lose, then fewer expected rounds)."})
    best = fields.Nested(AdvicePickSchema, required=True)
    default = fields.Nested(AdvicePickSchema, required=True,
                            metadata={"description": "The documented defaults of the asked choices."})
    adaptive = fields.Nested(AdaptiveSchema, required=True, allow_none=True,
                             metadata={"description": "The optimum when the side decides anew in every state; "
                                                      "null where the operation has none."})
    solver = fields.Nested(SolverSchema, required=True,
                           metadata={"description": "All solves together: states, precision, error bound."})


def advice_response_schema(operation_id: str, request: type[ma.Schema]) -> type[ma.Schema]:
    members = {
        "operation": fields.String(required=True, metadata={"example": operation_id}),
        "request": fields.Nested(request, required=True),
        "advice": fields.Nested(AdviceAnswerSchema, required=True),
        "summary": fields.String(required=True, metadata={"description": "One chat line in `lang`."}),
        "lang": fields.String(required=True, validate=validate.OneOf(["en", "de"])),
        "receipt": fields.Nested(ReceiptSchema, required=True),
    }
    return ma.Schema.from_dict(members, name=_schema_name(operation_id, "Response"))
