"""A Malmsturm 1 v 1 conflict written out for icepool (tests/systems/malmsturm/test_encounter.py
holds the service's solver to it; bench/encounter_speed.py times both)."""

from __future__ import annotations

from fractions import Fraction

import icepool

DF = icepool.Die([-1, 0, 1])


def icepool_duel(a: tuple, b: tuple, first: int) -> dict[str, Fraction]:
    """A 1 v 1 of harm attacks written out once more for icepool: a, b as (attack, defence, boxes,
    consequences); state (stress a, consequences a, stress b, consequences b); the side ``first``
    attacks first every round; `map(..., repeat="inf")`."""
    sides = (a, b)

    def hit(stress, consequences, boxes, shifts):
        # "Der Verteidigende verliert so viele Belastungspunkte, wie der Angreifende Erfolge erzielt hat."
        if shifts <= 0:
            return stress, consequences
        if stress - shifts > 0:
            return stress - shifts, consequences
        # "erleidet er eine Konsequenz und die Belastungspunkte werden wieder aufgefüllt"
        return boxes, consequences + 1

    def attack(state, attacker, margin):
        defender = 1 - attacker
        following = list(state)
        following[2 * defender:2 * defender + 2] = hit(state[2 * defender], state[2 * defender + 1],
                                                       sides[defender][2], margin)
        return tuple(following)

    margins = [sides[i][0] - sides[1 - i][1] + 8 @ DF for i in (0, 1)]  # two 4dF rolls: 8 dF

    def repl(state):
        if state[1] >= 2 or state[3] >= 2:
            return state

        def round_(x, y):
            after = attack(state, first, x)
            if after[2 * (1 - first) + 1] >= 2:
                return after
            return attack(after, 1 - first, y)

        return icepool.map(round_, margins[first], margins[1 - first])

    final = icepool.map(repl, icepool.Die([(a[2], a[3], b[2], b[3])]), repeat="inf")
    wins = {"wins:Helden": Fraction(0), "wins:Orks": Fraction(0)}
    for state, quantity in final.items():
        wins["wins:Orks" if state[1] >= 2 else "wins:Helden"] += Fraction(quantity, final.denominator())
    return wins
