"""A Paws duel written out for icepool (tests/systems/paws/test_encounter.py holds the service's
solver to it; bench/encounter_speed.py times both)."""

from __future__ import annotations

import icepool

SUCCESS = icepool.d6.map(lambda face: 1 if face >= 4 else 0)


def count(dice: int) -> icepool.Die:
    return dice @ SUCCESS if dice else icepool.Die([0])


def icepool_duel(a: tuple, b: tuple) -> icepool.Die:
    """The duel written out once more for icepool: (dice, armour rescue, one-shot, out_at, give_up_at)
    per side; the state is (wounds a, wounds b, one-shot a, one-shot b); `map(..., repeat="inf")`."""
    sides = (a, b)

    def down(side: int, wounds: int) -> bool:
        dice, _, _, out_at, give_up_at = sides[side]
        return (dice - wounds <= 0 or (out_at is not None and wounds >= out_at)
                or (give_up_at is not None and wounds >= give_up_at))

    def round_winner(a_successes, b_successes, a_rescue, b_rescue):
        # "Jeder seiner Erfolge zieht dem Sieger einen Erfolg ab"; rescue turns a loss into a tie at best.
        if a_successes - b_successes > b_rescue:
            return "a"
        if b_successes - a_successes > a_rescue:
            return "b"
        return "tie"

    def repl(state):
        if down(0, state[0]) or down(1, state[1]):
            return state
        winners = icepool.map(round_winner, count(a[0] - state[0]), count(b[0] - state[1]), count(a[1]), count(b[1]))

        def after(winner):
            if winner == "tie":
                return state
            loser = 1 if winner == "a" else 0
            shots = state[2 + loser]
            # one die at a time until a success: spent j with 2^-j, all fail with 2^-shots
            spent = icepool.Die({j: 2 ** (shots - j) for j in range(1, shots + 1)} | {0: 1})  # 0: the wound

            def land(j):
                following = list(state)
                if j == 0:
                    following[loser] += 1
                    following[2 + loser] = 0
                else:
                    following[2 + loser] -= j
                return tuple(following)

            return spent.map(land)

        return winners.map(after)

    return icepool.map(repl, icepool.Die([(0, 0, a[2], b[2])]), repeat="inf")
