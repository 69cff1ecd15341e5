"""Hard caps on work, configurable per deployment (declared in service/config.py with ``limit=True``).

Schemas check them at validation time through ``AtMost``, which reads the running app's limits;
the OpenAPI document shows the default values.
"""

from __future__ import annotations

from collections.abc import Iterator, Sized
from contextlib import contextmanager
from contextvars import ContextVar
from typing import TypeVar

from marshmallow import ValidationError, validate

from service.config import LIMIT_SETTINGS, Limits
from service.platform.http.runtime import current_runtime
from service.platform.values.errors import EncounterTooLarge
from service.platform.words.catalogs import marked
from service.platform.words.messages import LimitMessage, Message, Number, say, say_n

DEFAULT_LIMITS = Limits()

# Environment variable of each limit, so an error message can tell an operator what to change.
LIMIT_VARIABLES = {setting.attribute: setting.env for setting in LIMIT_SETTINGS}

# What each limit counts, in words a player reads ("the most dice in one pool this service allows");
# the setting's name is for operators, in the problem's ``limit`` member.
LIMIT_WORDS = {
    "body_bytes": marked("limit", "bytes in one request body"),
    "pool_dice": marked("limit", "dice in one pool"),
    "bag_marbles": marked("limit", "marbles in one bag"),
    "participants": marked("limit", "participants in one contest or party"),
    "parties": marked("limit", "parties in one conflict"),
    "batch_items": marked("limit", "requests in one batch"),
    "die_sides": marked("limit", "sides of one die"),
    "extended_target": marked("limit", "required successes of one extended test"),
}


def current_limits() -> Limits:
    """The limits of the app handling this request (the defaults outside a request)."""
    try:
        return current_runtime().config.limits
    except RuntimeError:  # no app context: validating outside a request
        return DEFAULT_LIMITS


def limit_member(name: str, value: int) -> dict:
    """The problem's ``limit`` member: which limit, its value here, and the setting that changes it."""
    return {"name": name, "value": value, "setting": LIMIT_VARIABLES[name]}


def limit_words(name: str) -> Message:
    return Message(LIMIT_WORDS[name], context="limit")


def limit_message(name: str, value: int) -> Message:
    return LimitMessage("must be at most %(value)s (the most %(what)s this service allows)",
                        {"value": value, "what": limit_words(name)}, limit=limit_member(name, value))


def check_limit(name: str, actual: int) -> None:
    """Raise a ValidationError naming the limit when ``actual`` is above it."""
    limit = getattr(current_limits(), name)
    if actual > limit:
        raise ValidationError(limit_message(name, limit))


_T = TypeVar("_T")
_SizedT = TypeVar("_SizedT", bound=Sized)


class AtMost(validate.Range):
    """``Range(min, <limit>)`` where the maximum is the configured limit ``name``.

    Subclassing Range lets apispec document ``minimum``/``maximum`` (with the default limit).
    """

    def __init__(self, name: str, *, min: int | None = 0) -> None:
        super().__init__(min=min, max=getattr(DEFAULT_LIMITS, name))
        self.limit_name = name

    def __call__(self, value: _T) -> _T:
        assert isinstance(value, int), "AtMost validates Int fields"  # Range's signature takes any value
        if self.min is not None and value < self.min:
            raise ValidationError(say("must be at least %(min)s", min=self.min))
        check_limit(self.limit_name, value)
        return value


class LengthAtMost(validate.Length):
    """``Length(min, <limit>)`` for lists whose length is a configured limit."""

    def __init__(self, name: str, *, min: int | None = None) -> None:
        super().__init__(min=min, max=getattr(DEFAULT_LIMITS, name))
        self.limit_name = name

    def __call__(self, value: _SizedT) -> _SizedT:
        if self.min is not None and len(value) < self.min:
            raise ValidationError(say_n("needs at least %(min)s entry", "needs at least %(min)s entries",
                                        self.min, min=self.min))
        check_limit(self.limit_name, len(value))
        return value


# A bound past this is "more than" it: the 422's `states` stays a JSON integer every client reads exactly.
MAX_REPORTED_STATES = 2**53 - 1


# An exact answer's fractions are written out in full; past Python's int-to-text limit (4300 digits)
# they could not be, and long before it no client wants them.
MAX_EXACT_DIGITS = 4000


# What one state costs a solver, in states of the fastest (a reduced space swept level by level with
# numpy, ``SWEPT``): WURFWERK_MAX_ENCOUNTER_STATES counts those, and a solver that takes longer per
# state may have proportionally fewer (the 422's ``limit.value`` is its share). ``STATE_BY_STATE``
# keeps a chain walked state by state in Python where the limit of 20,000 had it (bench/README.md).
SWEPT = 1
STATE_BY_STATE = 400


class Priced(Exception):  # noqa: N818 - not an error: how a batch learns an item's work without solving it
    """Raised by ``encounter_precision`` inside ``pricing()``: the encounter's work, before any solving."""

    def __init__(self, work: int) -> None:
        super().__init__(work)
        self.work = work


_pricing: ContextVar[bool] = ContextVar("encounter_pricing", default=False)


@contextmanager
def pricing() -> Iterator[None]:
    """Within: an encounter's odds stop where the work is known (``Priced``) instead of solving."""
    token = _pricing.set(True)
    try:
        yield
    finally:
        _pricing.reset(token)


def is_pricing() -> bool:
    """Whether the caller only learns the work (inside ``pricing()``)."""
    return _pricing.get()


def encounter_share(cost: int) -> int:
    """The states a solver of that ``cost`` per state may have here."""
    return max(1, current_limits().encounter_states // cost)


def too_large(field: str, states: int, share: int) -> EncounterTooLarge:
    return EncounterTooLarge(field, say("the encounter has up to %(states)s states, more than the limit "
                                        "%(limit)s (WURFWERK_MAX_ENCOUNTER_STATES)",
                                        states=Number(states), limit=Number(share)),
                             states=states, limit=limit_member("encounter_states", share))


def encounter_precision(states: int, exact: str, *, float_only: bool = False, rounds: int = 0,
                        digits: int = 0, cost: int = STATE_BY_STATE) -> bool:
    """Whether an encounter whose state bound is ``states`` is solved in exact fractions (True) or
    float64 (False), per its body's ``exact`` (auto|required|never); refused before any solving when
    the bound is over a limit. ``float_only``: the system answers float64 only (Beutelschneider).
    ``rounds``: the rounds pushed one by one (``max_rounds``, ``curve_rounds``): each state is then
    met every round, so the bound is states × rounds. ``digits``: a system's bound on the digits of
    the exact fractions; above ``MAX_EXACT_DIGITS`` the answer is float64. ``cost``: what one of
    its states costs the solver (``SWEPT``, ``STATE_BY_STATE`` or between). Inside ``pricing()``,
    an encounter within the limits raises ``Priced`` with its work (states × cost)."""
    states = min(states * max(1, rounds), MAX_REPORTED_STATES)
    limits = current_limits()
    share = encounter_share(cost)
    if states > share:
        raise too_large("body", states, share)
    if exact == "required" and digits > MAX_EXACT_DIGITS:
        too_long = say("exact fractions of this encounter would have up to %(digits)s digits, more than %(limit)s",
                       digits=Number(digits), limit=Number(MAX_EXACT_DIGITS))
        raise EncounterTooLarge("exact", too_long, states=states,
                                limit=limit_member("encounter_exact_states", limits.encounter_exact_states))
    if exact == "required" and (float_only or states > limits.encounter_exact_states):
        limit = 0 if float_only else limits.encounter_exact_states
        reason = (say("this system answers encounters in float64 only") if float_only else
                  say("exact answers are given up to %(limit)s states (WURFWERK_MAX_ENCOUNTER_EXACT_STATES)",
                      limit=Number(limit)))
        raise EncounterTooLarge("exact", say("the encounter has up to %(states)s states; %(reason)s",
                                             states=Number(states), reason=reason),
                                states=states, limit=limit_member("encounter_exact_states", limit))
    if _pricing.get():
        raise Priced(states * cost)
    return (exact != "never" and not float_only and states <= limits.encounter_exact_states
            and digits <= MAX_EXACT_DIGITS)
