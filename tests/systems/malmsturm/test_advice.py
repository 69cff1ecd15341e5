"""Advice for a Malmsturm conflict (RULINGS.md "Advice", Malmsturm): concede ("oder eine Partei
nachgiebt"), take a consequence early ("man kann schon vorher eine Konsequenz hinnehmen, wenn man
will") or fight on, decided anew in every state.

Oracles: the conflict's own exact odds (service/systems/malmsturm/solver.py) for every fixed option,
brute force over every deterministic early-or-stress decision on a small duel, and a hand-worked
example with its fractions.
"""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest

from service.systems.malmsturm import advice, encounter, solver
from tests.systems.malmsturm.test_encounter import DUEL, duel, exact, member

SMALL = {
    "a duel": duel(member("Alrik", 0, skill=3, defense=2, boxes=3, intuition=2),
                   member("Ork", 1, skill=2, defense=1, boxes=3)),
    "the weaker side, one consequence held": duel(member("Alrik", 0, skill=1, defense=1, boxes=2, consequences=1),
                                                  member("Ork", 1, skill=3, defense=3, boxes=4)),
    "two against two, focus": encounter.Conflict(("Helden", "Orks"), (
        member("A", 0, boxes=2), member("B", 0, skill=1, boxes=3), member("O", 1, skill=4, boxes=3),
        member("P", 1, skill=2, boxes=2)), order=(0, 2, 1, 3)),
}


@pytest.mark.parametrize("name", SMALL)
def test_the_adaptive_optimum_is_never_below_a_fixed_option(name):
    conflict = SMALL[name]
    solved = advice.solve(conflict, 0, exact=True)
    for concede in (None, 1, 2):
        held = max(m.consequences for m in conflict.members if m.side == 0)
        if concede is not None and concede <= held:
            continue
        fixed = encounter.Conflict(conflict.side_names, conflict.members, conflict.order, conflict.targeting,
                                   (concede, None), conflict.defend)
        assert solved.win >= exact(fixed).outcomes["wins:Helden"]


class _Forced(advice._Backward):  # noqa: SLF001 - the solver with its decisions given, for brute force
    def __init__(self, *args, table=None, seen=None):
        super().__init__(*args)
        self.table, self.seen = table or {}, seen

    def _turn(self, state, turn):
        self.turn_state = (state, turn)
        return super()._turn(state, turn)

    def _better(self, first, second):
        if self.seen is not None:
            self.seen.append(self.turn_state)
        return self.table.get(self.turn_state, False)


def test_brute_force_over_every_early_decision_of_a_small_duel():
    """Every deterministic choice (early or stress, per state and turn where it arises) of a small
    duel, solved exactly: the optimum is their best."""
    conflict = advice.never_conceding(duel(member("Alrik", 0, skill=2, defense=1, boxes=3, intuition=2),
                                           member("Ork", 1, skill=2, defense=1, boxes=2)), 0)
    order = solver.orders(conflict)[0][0]
    seen: list = []
    _Forced(conflict, order, 0, True, seen=seen).values(conflict.start())
    points = sorted(set(seen))
    assert 0 < len(points) <= 12
    best = max(_Forced(conflict, order, 0, True, table=dict(zip(points, chosen))).values(conflict.start())[0]
               for chosen in itertools.product((False, True), repeat=len(points)))
    optimum = advice._Backward(conflict, order, 0, True).values(conflict.start())[0]  # noqa: SLF001
    assert optimum == best


def test_hand_worked_one_exchange_left():
    """Alrik (1 physical box, one consequence held) against an Ork with 1 box: Alrik can only be taken
    out or take the Ork out. Whoever hits first wins ("Wer zwei Konseuenzen hingenommen hat, scheidet
    aus"); the stress left never matters, so taking a consequence early is never chosen and the
    optimum is the fixed fight's chance."""
    conflict = duel(member("Alrik", 0, skill=3, defense=2, boxes=1, consequences=1),
                    member("Ork", 1, skill=3, defense=2, boxes=1, consequences=1), order=(0, 1))
    fixed = exact(conflict).outcomes["wins:Helden"]
    # per attack with 4dF each side and skill 3 against defence 2: P(hit) = P(4dF - 4dF >= 0) = h
    ways = sum(w for d, w in _difference().items() if d >= 0)
    h = Fraction(ways, 3 ** 8)
    assert fixed == h / (1 - (1 - h) ** 2)  # Alrik first: h, then (1-h)(1-h) round again
    solved = advice.solve(conflict, 0, exact=True)
    assert solved.win == fixed and not solved.early


def _difference() -> dict[int, int]:
    counts: dict[int, int] = {}
    for dice in itertools.product((-1, 0, 1), repeat=8):
        d = sum(dice[:4]) - sum(dice[4:])
        counts[d] = counts.get(d, 0) + 1
    return counts


def test_http_every_option_is_the_odds_and_the_rules_are_german(post):
    status, answer = post("/v1/malmsturm/encounter/advice?lang=de", {**DUEL, "advise": {"side": "Helden"}})
    assert status == 200, answer
    advised = answer["advice"]
    assert len(advised["options"]) == 3 * 2 * 2
    for option in advised["options"][:3]:
        policy = option["policy"]
        concede = policy["concede_at_consequences"]
        body = {**DUEL, "policy": {"targeting": policy["targeting"], "defend": policy["defend"],
                                   "concede_at_consequences": {} if concede is None else {"Helden": concede}}}
        status, odds = post("/v1/malmsturm/encounter/odds", body)
        won = next(entry for entry in odds["odds"]["outcomes"] if entry["outcome"] == "wins:Helden")
        assert option["win"]["exact"] == won["exact"]
    assert Fraction(advised["adaptive"]["win"]["exact"]) >= Fraction(advised["best"]["win"]["exact"])
    never = "Gib nie nach: Nachgeben verliert sofort, Weiterkämpfen gewinnt nie seltener."
    assert never in advised["adaptive"]["rules"]


def test_the_default_is_the_documented_one_whatever_the_body_sets(post):
    """API.md §1.10: `default` is the documented defaults (never concede, E3; defend; `focus`, E5), not
    what this body's policy happens to set (the Foundry helper of stop 57 found the systems disagreeing)."""
    body = {**DUEL, "policy": {"defend": False, "targeting": "spread"}, "advise": {"side": "Helden"}}
    status, answer = post("/v1/malmsturm/encounter/advice", body)
    assert status == 200, answer
    assert answer["advice"]["default"]["policy"] == {"concede_at_consequences": None, "defend": True,
                                                     "targeting": "focus"}
