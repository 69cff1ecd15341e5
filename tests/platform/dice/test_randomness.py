"""The unseeded source: dice from the OS CSPRNG by rejection sampling, every face equally likely.

It cannot be seeded, so these tests sample fresh randomness; at p < 1e-6 a fair source fails about
once in a million runs.
"""

from __future__ import annotations

from collections import Counter

import pytest

from service.platform.dice.randomness import ManualSource, SecureSource, make_source
from service.platform.values.errors import ManualEntryError
from tests.stats import chi_square_sf


def _uniformity_p(values: list[int], faces: range) -> float:
    counts = Counter(values)
    assert set(counts) <= set(faces)
    expected = len(values) / len(faces)
    statistic = sum((counts.get(face, 0) - expected) ** 2 / expected for face in faces)
    return chi_square_sf(statistic, len(faces) - 1)


@pytest.mark.parametrize("sides", [2, 3, 6, 10, 20, 100, 129, 255, 256])  # 255: the largest die read from bytes
def test_every_face_is_equally_likely(sides):
    source = SecureSource()
    values = source.roll(400 * sides, sides)
    assert len(values) == 400 * sides
    assert _uniformity_p(values, range(1, sides + 1)) > 1e-6


def test_fudge_dice_are_uniform_over_minus_one_to_one():
    values = SecureSource().fudge(30_000)
    assert _uniformity_p(values, range(-1, 2)) > 1e-6


def test_dice_with_more_than_256_sides_still_work():
    values = SecureSource().roll(5_000, 1000)
    assert all(1 <= value <= 1000 for value in values)


def test_every_roll_is_recorded_as_an_event():
    source = make_source()
    dice, fudge = source.roll(4, 6), source.fudge(2)
    assert source.name == "secure"
    assert source.events == [{"kind": "d6", "values": dice}, {"kind": "dF", "values": fudge}]
    assert source.roll(0, 6) == [] and len(source.events) == 2  # no dice, no event


def test_a_written_zero_is_a_ten_only_where_the_system_says_so():
    """Weltenbuch's ruling 1 (a d10's ten entered as 0) is the system's choice, passed per roll; the
    platform's manual source does not apply it to every d10."""
    assert ManualSource([0, 10]).roll(2, 10, zero_is_ten=True) == [10, 10]
    with pytest.raises(ManualEntryError, match="face 1..10, got 0"):
        ManualSource([0]).roll(1, 10)
    with pytest.raises(ManualEntryError, match="face 1..8, got 0"):
        ManualSource([0]).roll(1, 8, zero_is_ten=True)
