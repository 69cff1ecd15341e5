"""Hard caps on work, configurable per deployment (declared in service/config.py with ``limit=True``).

Schemas check them at validation time through ``AtMost``, which reads the running app's limits;
the OpenAPI document shows the default values.
"""

from __future__ import annotations

from marshmallow import ValidationError, validate

from service.config import LIMIT_SETTINGS, Limits
from service.platform.errors import EncounterTooLarge
from service.platform.runtime import current_runtime

DEFAULT_LIMITS = Limits()

# Environment variable of each limit, so an error message can tell an operator what to change.
LIMIT_VARIABLES = {setting.attribute: setting.env for setting in LIMIT_SETTINGS}


def current_limits() -> Limits:
    """The limits of the app handling this request (the defaults outside a request)."""
    try:
        return current_runtime().config.limits
    except RuntimeError:  # no app context: validating outside a request
        return DEFAULT_LIMITS


def limit_message(name: str, value: int) -> str:
    return f"must be at most {value} (limit {name}, {LIMIT_VARIABLES[name]})"


def check_limit(name: str, actual: int) -> None:
    """Raise a ValidationError naming the limit when ``actual`` is above it."""
    limit = getattr(current_limits(), name)
    if actual > limit:
        raise ValidationError(limit_message(name, limit))


class AtMost(validate.Range):
    """``Range(min, <limit>)`` where the maximum is the configured limit ``name``.

    Subclassing Range lets apispec document ``minimum``/``maximum`` (with the default limit).
    """

    def __init__(self, name: str, *, min: int | None = 0):
        super().__init__(min=min, max=getattr(DEFAULT_LIMITS, name))
        self.limit_name = name

    def __call__(self, value):
        if self.min is not None and value < self.min:
            raise ValidationError(f"must be at least {self.min}")
        check_limit(self.limit_name, value)
        return value


class LengthAtMost(validate.Length):
    """``Length(min, <limit>)`` for lists whose length is a configured limit."""

    def __init__(self, name: str, *, min: int | None = None):
        super().__init__(min=min, max=getattr(DEFAULT_LIMITS, name))
        self.limit_name = name

    def __call__(self, value):
        if self.min is not None and len(value) < self.min:
            raise ValidationError(f"needs at least {self.min} items")
        check_limit(self.limit_name, len(value))
        return value


# A bound past this is "more than" it: the 422's `states` stays a JSON integer every client reads exactly.
MAX_REPORTED_STATES = 2**53 - 1


def encounter_precision(states: int, exact: str, *, float_only: bool = False, rounds: int = 0) -> bool:
    """Whether an encounter whose state bound is ``states`` is solved in exact fractions (True) or
    float64 (False), per its body's ``exact`` (auto|required|never); refused before any solving when
    the bound is over a limit. ``float_only``: the system answers float64 only (Beutelschneider).
    ``rounds``: the rounds pushed one by one (``max_rounds``, ``curve_rounds``): each state is then
    met every round, so the bound is states × rounds."""
    states = min(states * max(1, rounds), MAX_REPORTED_STATES)
    limits = current_limits()
    if states > limits.encounter_states:
        raise EncounterTooLarge("body", f"the encounter has up to {states} states, more than the limit "
                                f"{limits.encounter_states} (WURFWERK_MAX_ENCOUNTER_STATES)",
                                states=states, limit=limits.encounter_states)
    if exact == "required" and (float_only or states > limits.encounter_exact_states):
        limit = 0 if float_only else limits.encounter_exact_states
        reason = ("this system answers encounters in float64 only" if float_only else
                  f"exact answers are given up to {limit} states (WURFWERK_MAX_ENCOUNTER_EXACT_STATES)")
        raise EncounterTooLarge("exact", f"the encounter has up to {states} states; {reason}",
                                states=states, limit=limit)
    return exact != "never" and not float_only and states <= limits.encounter_exact_states
