"""Issue 40, "Proven by": the single-character Beutelschneider bodies and today's Malmsturm and
Weltenbuch bodies answer exactly the odds they answered before the rulings of 2026-12-03
(RULINGS.md "Encounters": Beutelschneider E6-E8, Malmsturm E6-E8, Weltenbuch E3 add to what a body
may say; a body that says none of it keeps its answer). The fixture was written once from main at
02c40d6 (tests/systems/pinned_bodies.py); every float is compared bit for bit, every exact fraction
as its string."""

from __future__ import annotations

import json

import pytest

from tests.systems.pinned_bodies import FIXTURE, PINNED, answers

PINNED_ODDS = json.loads(FIXTURE.read_text())


def test_every_pinned_body_has_its_answer_of_before():
    assert {system: [label for label, _ in bodies] for system, bodies in PINNED.items()} == \
        {system: list(labels) for system, labels in PINNED_ODDS.items()}


@pytest.fixture(scope="module")
def today(app):
    return answers(app.test_client())


@pytest.mark.parametrize("system,label", [(system, label) for system, bodies in PINNED.items()
                                          for label, _ in bodies])
def test_the_answer_is_exactly_the_one_of_before(today, system, label):
    assert today[system][label] == PINNED_ODDS[system][label]
