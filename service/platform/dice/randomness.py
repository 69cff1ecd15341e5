"""The sources of random values: the OS CSPRNG, a seeded generator, or the table's own dice
(``manual``). The fourth source, a stream derived from the service's secret and what the request
carries (an idempotency key or a roll ticket), is derived_randomness.py.

Rules never import ``random``: they call ``roll``, ``fudge`` and ``draw`` on the source they are
given. Each call is recorded as one event, so a response can list every value consumed, and those
values fed back as ``manual`` reproduce it. Sources are made per request, never at import time:
gunicorn forks its workers, and a generator made before the fork would repeat in every worker.
"""

from __future__ import annotations

import functools
import json
import os
import random
from collections.abc import Mapping, Sequence
from typing import Any

from service.platform.values.errors import ManualEntryError
from service.platform.words.messages import say, say_n

FUDGE_FACES = (-1, 0, 1)
D10 = 10


class RandomSource:
    """The interface the rules see. Subclasses supply ``_roll_one``/``_fudge_one``/``_draw``, or a
    whole roll (``_roll``, ``_fudge``) where they produce its dice at once; ``roll`` and ``fudge``
    record the event either way."""

    name = "abstract"
    idempotency_key: str | None = None  # recorded in the response when the call gave one

    def __init__(self) -> None:
        self.events: list[dict[str, Any]] = []

    def roll(self, count: int, sides: int, *, zero_is_ten: bool = False) -> list[int]:
        """``count`` dice with faces 1..``sides``. ``zero_is_ten``: the system reads a d10's ten written
        as 0, as a d10 is printed; only a manual source reads written faces, and it records 10."""
        values = self._roll(count, sides, zero_is_ten)
        self._record(f"d{sides}", values)
        return values

    def fudge(self, count: int) -> list[int]:
        """``count`` FUDGE dice, each -1, 0 or +1."""
        values = self._fudge(count)
        self._record("dF", values)
        return values

    def draw(self, bag: Mapping[str, int], count: int) -> list[str]:
        """``count`` marbles drawn without replacement from ``bag`` (colour -> number)."""
        if count > sum(bag.values()):
            raise ValueError("cannot draw more marbles than the bag holds")  # rules check this first
        values = self._draw(bag, count)
        self._record("draw", values)
        return values

    def finish(self) -> None:
        """Called after the rules ran: a manual source checks nothing was left over."""

    def _record(self, kind: str, values: list) -> None:
        if values:
            self.events.append({"kind": kind, "values": values})

    def _roll(self, count: int, sides: int, zero_is_ten: bool) -> list[int]:
        return [self._roll_one(sides) for _ in range(count)]  # only written faces can be a 0

    def _fudge(self, count: int) -> list[int]:
        return [self._fudge_one() for _ in range(count)]

    def _roll_one(self, sides: int) -> int:
        raise NotImplementedError

    def _fudge_one(self) -> int:
        raise NotImplementedError

    def _draw(self, bag: Mapping[str, int], count: int) -> list[str]:
        raise NotImplementedError


class GeneratorSource(RandomSource):
    """Values from a ``random.Random`` (seeded) or ``random.SystemRandom`` (secure)."""

    def __init__(self, generator: random.Random, name: str) -> None:
        super().__init__()
        self._generator = generator
        self.name = name

    def _roll_one(self, sides: int) -> int:
        return self._generator.randrange(sides) + 1

    def _fudge_one(self) -> int:
        return self._generator.randrange(3) - 1

    def _draw(self, bag: Mapping[str, int], count: int) -> list[str]:
        # Sorted colours make a seeded draw independent of the order the client wrote the bag in.
        marbles = [colour for colour in sorted(bag) for _ in range(bag[colour])]
        return self._generator.sample(marbles, count)


class SecureSource(GeneratorSource):
    """The OS CSPRNG. Dice come from one ``os.urandom`` read per roll rather than one per die (a
    system call each): every byte below the largest multiple of ``sides`` gives a face, the others
    are discarded (rejection sampling), so each face is exactly equally likely."""

    def __init__(self) -> None:
        super().__init__(_SYSTEM_RANDOM, "secure")

    def _roll(self, count: int, sides: int, zero_is_ten: bool) -> list[int]:
        if sides > 255:  # a face must fit in a byte
            return super()._roll(count, sides, zero_is_ten)
        return _uniform(count, sides, lowest=1)

    def _fudge(self, count: int) -> list[int]:
        return [face - 1 for face in _uniform(count, 3, lowest=0)]


# SystemRandom keeps no state (each value is read from os.urandom), so unlike a seeded generator one
# instance can serve every request, in every forked worker.
_SYSTEM_RANDOM = random.SystemRandom()


def _uniform(count: int, bound: int, *, lowest: int) -> list[int]:
    """``count`` independent uniform integers in [lowest, lowest + bound) from urandom bytes, all of
    them below 256. ``bytes.translate`` turns the bytes into faces and deletes the rejected ones."""
    faces, rejected = _byte_faces(bound, lowest)
    values: list[int] = []
    while len(values) < count:
        # A few spare bytes: at worst (bound 129) about half the bytes are discarded, so one read
        # nearly always suffices.
        values += os.urandom(count + count // 2 + 8).translate(faces, rejected)
    del values[count:]
    return values


@functools.cache
def _byte_faces(bound: int, lowest: int) -> tuple[bytes, bytes]:
    """Rejection sampling as a translation table: each byte's face (``lowest + byte % bound``), and
    the bytes at or above the largest multiple of ``bound``, which are discarded so that every face
    is exactly equally likely."""
    accepted_below = 256 - 256 % bound
    return bytes(lowest + byte % bound for byte in range(256)), bytes(range(accepted_below, 256))


class ManualSource(RandomSource):
    """The values a table rolled or drew by hand, consumed in order."""

    name = "manual"

    def __init__(self, values: Sequence[Any]) -> None:
        super().__init__()
        self._values = list(values)
        self._position = 0

    def _next(self, expected: str) -> tuple[int, Any]:
        index = self._position
        if index >= len(self._values):
            raise ManualEntryError("manual", say_n(
                "too few values: %(count)d was given, the rules need at least one more (%(expected)s)",
                "too few values: %(count)d were given, the rules need at least one more (%(expected)s)",
                len(self._values), expected=expected))
        self._position += 1
        return index, self._values[index]

    def _roll(self, count: int, sides: int, zero_is_ten: bool) -> list[int]:
        return [self._read_face(sides, zero_is_ten and sides == D10) for _ in range(count)]

    def _read_face(self, sides: int, ten_as_zero: bool) -> int:
        expected = (say("a d%(sides)s face 1..%(sides)s (0 for the ten)", sides=sides) if ten_as_zero
                    else say("a d%(sides)s face 1..%(sides)s", sides=sides))
        index, value = self._next(expected)
        if ten_as_zero and value == 0 and _is_int(value):
            return D10  # a d10 is printed 0..9 and tables write its ten as 0; events record 10
        if not _is_int(value) or not 1 <= value <= sides:
            raise ManualEntryError(f"manual.{index}", say("expected %(expected)s, got %(value)s",
                                                          expected=expected, value=_shown(value)))
        return value

    def _fudge_one(self) -> int:
        index, value = self._next(say("a dF face -1, 0 or 1"))
        if not _is_int(value) or value not in FUDGE_FACES:
            raise ManualEntryError(f"manual.{index}", say("expected a dF face -1, 0 or 1, got %(value)s",
                                                          value=_shown(value)))
        return value

    def _draw(self, bag: Mapping[str, int], count: int) -> list[str]:
        remaining = dict(bag)
        drawn = []
        for _ in range(count):
            present = sorted(colour for colour, number in remaining.items() if number > 0)
            index, value = self._next(say("a marble in the bag (%(colours)s)", colours=", ".join(present)))
            if not isinstance(value, str) or remaining.get(value, 0) < 1:
                raise ManualEntryError(f"manual.{index}", say(
                    "expected a marble in the bag (%(colours)s), got %(value)s: no such marble is left in the bag",
                    colours=", ".join(present), value=_shown(value)))
            remaining[value] -= 1
            drawn.append(value)
        return drawn

    def finish(self) -> None:
        if self._position < len(self._values):
            raise ManualEntryError(f"manual.{self._position}", say_n(
                "too many values: the rules used %(used)d, %(count)d was given",
                "too many values: the rules used %(used)d, %(count)d were given",
                len(self._values), used=self._position))


def _shown(value: object) -> str:
    """A manual value as JSON writes it ("red", 7, true), for a message."""
    if isinstance(value, (str, bool, int, float, type(None))):
        return json.dumps(value, ensure_ascii=False)
    return repr(value)


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def make_source(seed: int | None = None, manual: Sequence[Any] | None = None) -> RandomSource:
    """The source a request asked for; a fresh one per request."""
    if manual is not None:
        return ManualSource(manual)
    if seed is not None:
        return GeneratorSource(random.Random(seed), "seeded")
    return SecureSource()


def manual_values(events: Sequence[Mapping[str, Any]]) -> list[Any]:
    """The recorded events flattened into a ``manual`` list that replays them."""
    return [value for event in events for value in event["values"]]
