"""Issue 50: under `ends: first_out` (E8, "bis einer der Konkurrenten ... ausscheidet") every member of
a running conflict stands and acts, so orders of action that give every turn an attacker of the same
side, attack kind and attack make the same chain; `order: initiative` (E6) solves each such class of
orders once. Held against solving every order, in exact fractions, and against the bound."""

from __future__ import annotations

import pytest

from service.systems.malmsturm import encounter
from tests.systems.malmsturm.test_encounter import exact, member

ALIKE = (member("H0", 0, skill=3, boxes=2, mental=2, intuition=1),
         member("H1", 0, skill=3, boxes=2, mental=2, kind="deceive", intuition=1),
         member("H2", 0, skill=3, boxes=2, mental=2, intuition=0),
         member("O0", 1, skill=2, boxes=2, mental=2, intuition=1),
         member("O1", 1, skill=2, boxes=2, mental=2, intuition=1, modifier=1))


def every_order(conflict, weighted):
    return weighted


@pytest.mark.parametrize("targeting", [encounter.FOCUS, encounter.SPREAD])
def test_orders_alike_answer_what_every_order_answers(monkeypatch, targeting):
    conflict = encounter.Conflict(("Helden", "Orks"), ALIKE, targeting=targeting, ends=encounter.FIRST_OUT)
    alike = exact(conflict)
    classes = encounter.alike_orders(conflict, encounter.orders(conflict))
    assert len(classes) == 5 * 4 * 3 * 2 // 2  # H0 and H2 attack alike, the rest differ
    assert sum(chance for _, chance in classes) == 1
    monkeypatch.setattr(encounter, "alike_orders", every_order)
    every = exact(encounter.Conflict(("Helden", "Orks"), ALIKE, targeting=targeting, ends=encounter.FIRST_OUT))
    assert alike.outcomes == every.outcomes and alike.distributions == every.distributions
    assert alike.expected == every.expected
    assert alike.solver.states < every.solver.states


def test_side_out_solves_every_order():
    conflict = encounter.Conflict(("Helden", "Orks"), ALIKE)
    assert len(encounter.alike_orders(conflict, encounter.orders(conflict))) == 120


def test_the_bound_counts_one_order_per_class_and_holds():
    conflict = encounter.Conflict(("Helden", "Orks"), ALIKE, ends=encounter.FIRST_OUT)
    odds = encounter.encounter_odds(conflict, exact=False)
    assert odds.solver.states <= encounter.state_bound(conflict)
    # 60 classes of 120 orders, and the first member out ends it: far fewer states than side_out's
    side_out = encounter.Conflict(("Helden", "Orks"), ALIKE)
    assert encounter.state_bound(conflict) * 10 <= encounter.state_bound(side_out)
