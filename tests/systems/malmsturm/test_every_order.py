"""Issue 50: under `order: initiative` (E6, "Die Reihenfolge wird über einen Intuitions-Wurf
ermittelt") the chains of every order of action walked side by side with numpy
(service/systems/malmsturm/every_order.py) answer what the chains one order at a time answer, within
the stated error, and the route takes them for sides of four members and more."""

from __future__ import annotations

import pytest

from service.systems.malmsturm import bounds, encounter, every_order, solver
from tests.systems.malmsturm.test_alike_orders import ALIKE, PARTY
from tests.systems.malmsturm.test_encounter import body_member, member, side
from tests.systems.malmsturm.test_encounter_groups import _as_member

FOUR = (member("A", 0, skill=3, boxes=2, mental=2, intuition=1), member("B", 0, skill=2, kind="deceive", boxes=3),
        member("C", 1, skill=3, boxes=2, mental=2, intuition=1), member("D", 1, skill=2, defense=1, modifier=1))


POLICIES = [{}, {"targeting": encounter.SPREAD}, {"ends": encounter.FIRST_OUT}, {"concede_at": (1, None)},
            {"defend": False}]


@pytest.mark.parametrize("members, policy", [
    *((FOUR, policy) for policy in POLICIES),
    (ALIKE, {}), (ALIKE, {"ends": encounter.FIRST_OUT}), (ALIKE, {"concede_at": (None, 1)}),
    pytest.param(ALIKE, {"targeting": encounter.SPREAD}, marks=pytest.mark.slow),  # 120 orders one by one: 15 s
])
def test_every_order_side_by_side_answers_as_one_by_one(members, policy):
    conflict = encounter.Conflict(("Helden", "Orks"), members, **policy)
    theirs = solver.encounter_odds(conflict, exact=False)
    ours = every_order.encounter_odds(encounter.Conflict(("Helden", "Orks"), members, **policy))
    assert ours.solver.max_error <= 1e-12
    tolerance = ours.solver.max_error + theirs.solver.max_error
    assert ours.outcomes.keys() == theirs.outcomes.keys()
    for name, p in theirs.outcomes.items():
        assert ours.outcomes[name] == pytest.approx(p, abs=tolerance)
    for name, distribution in theirs.distributions.items():
        for value, p in distribution.items():
            assert ours.distributions[name].get(value, 0.0) == pytest.approx(p, abs=tolerance)
    for name, value in theirs.expected.items():
        assert ours.expected[name] == pytest.approx(value, rel=1e-12, abs=tolerance)


def test_the_bound_of_the_orders_side_by_side_holds():
    conflict = encounter.Conflict(("Helden", "Orks"), tuple(_as_member(d, f"m{i}") for i, d in enumerate(PARTY)))
    odds = every_order.encounter_odds(conflict)
    assert odds.solver.states <= bounds.state_bound(conflict, orders_together=True) * 1
    assert bounds.state_bound(conflict, orders_together=True) < bounds.state_bound(conflict) / 5


def test_the_route_takes_them_for_four_members_and_more(post, monkeypatch):
    """The issue's 3 v 3 party (three physical, three mental stress, both tracks, defences per kind)
    under initiative is answered, side by side; three members are solved order by order as before."""
    called = []
    solve = every_order.encounter_odds
    monkeypatch.setattr(every_order, "encounter_odds", lambda chain: called.append(chain) or solve(chain))
    party = {"sides": [side("Helden", *(body_member(f"H{i}", boxes=3) for i in range(2))),
                       side("Orks", *(body_member(f"O{i}", boxes=3) for i in range(2)))]}
    status, body = post("/v1/malmsturm/encounter/odds", party)
    assert status == 200 and body["solver"]["precision"] == "float64" and len(called) == 1, body
    three = {"sides": [side("Helden", body_member("H0", boxes=3), body_member("H1", boxes=3)),
                       side("Orks", body_member("O0", boxes=3))]}
    status, body = post("/v1/malmsturm/encounter/odds", three)
    assert status == 200 and len(called) == 1


def test_the_initiatives_own_work_counts_in_the_bound(post):
    """Eight members of one intuition: 8! orders over 2^7 ways to tie each, summed exactly
    (``initiative_orders``), would take tens of seconds before any solve; refused at once."""
    tiny = {"attack": {"skill": 2, "type": "harm"}, "defense": 2, "intuition": 1,
            "stress": {"physical": {"current": 1, "max": 1}, "mental": {"current": 1, "max": 1}}}
    body = {"sides": [side("A", *({**tiny, "name": f"a{i}"} for i in range(4))),
                      side("B", *({**tiny, "name": f"b{i}"} for i in range(4)))], "ends": "first_out"}
    assert bounds.initiative_work(encounter.Conflict(("A", "B"), tuple(
        member(f"m{i}", i // 4, intuition=1) for i in range(8)))) == 40320 * 2**7
    status, problem = post("/v1/malmsturm/encounter/odds", body)
    assert status == 422 and problem["type"].endswith("/encounter-too-large"), problem
