"""Errors the rules raise; pure Python so rules code can use them without knowing Flask.

The platform turns each into an RFC 9457 problem (422) that names the field.
"""

from __future__ import annotations


class InputError(Exception):
    """A request the rules cannot resolve: ``field`` is the dotted path in the request body."""

    problem_type = "invalid-input"
    members: dict[str, object] = {}  # a problem type's own members, beside the standard ones

    def __init__(self, field: str, message: str) -> None:
        super().__init__(f"{field}: {message}")
        self.field = field
        self.message = message


class ManualEntryError(InputError):
    """A `manual` value is missing, surplus or impossible for the die or bag it feeds."""


class RuleViolation(InputError):
    """A choice the rules forbid (the message names the rule)."""

    problem_type = "rule-violation"


class ReceiptError(InputError):
    """A signed response handed back to the service does not verify or is of the wrong kind."""

    problem_type = "invalid-receipt"


class EncounterTooLarge(InputError):
    """An encounter whose state bound, computed from the body, is over the configured limit."""

    problem_type = "encounter-too-large"

    def __init__(self, field: str, message: str, *, states: int, limit: dict[str, object]) -> None:
        super().__init__(field, message)
        self.members = {"states": states, "limit": limit}  # limit: the problem's {name, value, setting}
