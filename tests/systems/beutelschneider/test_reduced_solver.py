"""Issue 50: the group fight solved on its reduced space (service/systems/beutelschneider/sweep.py)
answers what the unreduced chain answers (tests/systems/beutelschneider/unreduced.py, the service's
solver before) on every fight small enough for both, and what 200,000 sampled fights show on the
text's own fight: "Kämpft beispielsweise ein Legionär gegen zwei Affenmenschen, so gibt es zwei
Auseinandersetzungen"."""

from __future__ import annotations

import math
import subprocess
import sys
from fractions import Fraction
from math import comb

import icepool
import pytest

from service.systems.beutelschneider import groups
from service.systems.beutelschneider.encounter import Side
from service.systems.beutelschneider.rules import Ability, Bag, Danger, Difficulty
from tests.systems.beutelschneider import unreduced
from tests.systems.beutelschneider.test_encounter_groups import APE_MAN, LEGIONARY, fight_of, monte_carlo

EASY = Difficulty.EASY
SMALL_FIGHTS = {
    "one against two": ([Side("L", Bag(red=4, green=1, white=1, black=1))],
                        [Side("A1", Bag(red=2, white=1, black=1)), Side("A2", Bag(red=2, green=1, black=1))]),
    "three draws, alike ape men": ([Side("L", Bag(red=5, green=2, white=2, black=1), difficulty=EASY)],
                                   [Side("A1", Bag(red=3, green=2, white=2), difficulty=EASY),
                                    Side("A2", Bag(red=3, green=2, white=2), difficulty=EASY)]),
    "a thief fleeing (E6)": ([Side("Dieb", Bag(green=3, red=1, black=1), ability=Ability.SKILL),
                              Side("Wolf", Bag(red=2, white=1, black=1))],
                             [Side("W1", Bag(red=2, white=1, black=1)), Side("W2", Bag(red=1, white=2, black=1))]),
    "one draw against three": ([Side("L", Bag(red=3, white=2), difficulty=Difficulty.HARD)],
                               [Side("A1", Bag(red=1, white=1)), Side("A2", Bag(red=2)),
                                Side("A3", Bag(red=1, green=1, black=1), difficulty=EASY)]),
    "a stalemate (E3)": ([Side("A", Bag(white=3))], [Side("B", Bag(white=2, green=1)), Side("C", Bag(red=1, white=1))]),
    "a side of one each": ([Side("A", Bag(red=3, green=1, white=1, black=1))],
                           [Side("B", Bag(red=2, white=2, black=1), difficulty=EASY)]),
}


@pytest.mark.parametrize("name", SMALL_FIGHTS)
@pytest.mark.parametrize("pairs", ["default", "reversed"])
@pytest.mark.parametrize("winners_draw", [False, True])
def test_the_reduced_space_answers_as_the_unreduced_chain(name, pairs, winners_draw):
    """E5 as amended: `dies` counts only the unconscious "auf dem Schlachtfeld zurückgelassen" (the
    reduced space weighs each fall by the backward pass; the unreduced chain reads every end's status)."""
    first, second = SMALL_FIGHTS[name]
    fight = fight_of(("F", first), ("S", second))
    if pairs == "reversed":
        fight = groups.Fight(fight.groups, tuple(reversed(fight.pairs)))
    ours = groups.odds(fight, aftermath=Danger.CLEAR, winners_draw=winners_draw)
    theirs = unreduced.odds(fight, aftermath=Danger.CLEAR, winners_draw=winners_draw)
    assert ours.solver.max_error <= 1e-12
    tolerance = 1e-13 + ours.solver.max_error
    assert ours.outcomes.keys() == theirs.outcomes.keys()
    for outcome, p in theirs.outcomes.items():
        assert ours.outcomes[outcome] == pytest.approx(p, abs=tolerance), outcome
    for distribution, values in theirs.distributions.items():
        for value, p in values.items():
            assert ours.distributions[distribution].get(value, 0.0) == pytest.approx(p, abs=tolerance)
    for key, value in theirs.expected.items():
        assert ours.expected[key] == pytest.approx(value, rel=1e-12, abs=tolerance), key
    assert ours.solver.states <= theirs.solver.states  # a fallen member's bag no longer splits states


TEXT_SIDES = ([Side("Legionär", LEGIONARY, difficulty=EASY)],
              [Side("Affenmensch 1", APE_MAN, difficulty=EASY), Side("Affenmensch 2", APE_MAN, difficulty=EASY)])


@pytest.mark.slow
def test_the_texts_fight_matches_200000_sampled_fights():
    fight = fight_of(("F", TEXT_SIDES[0]), ("S", TEXT_SIDES[1]))
    odds = groups.odds(fight)
    fights = 200_000
    counts = monte_carlo(TEXT_SIDES[0], TEXT_SIDES[1], fights, seed=50)
    assert set(counts) <= {name for name, p in odds.outcomes.items() if p > 0}
    for name, p in odds.outcomes.items():
        sigma = math.sqrt(fights * p * (1 - p))
        assert abs(counts.get(name, 0) - fights * p) <= max(3 * sigma, 1e-9), (name, counts, p)


# The peak resident memory of this process alone: Linux carries a parent's peak (ru_maxrss, VmHWM)
# across fork and exec, so a child of a big test worker would report the worker's; writing 5 to
# clear_refs resets it (proc(5)).
MEMORY = """
import sys
from pathlib import Path
from service.systems.beutelschneider import groups, sweep

def peak_kib():
    status = Path("/proc/self/status").read_text()
    return int(next(line.split()[1] for line in status.splitlines() if line.startswith("VmHWM:")))

Path("/proc/self/clear_refs").write_text("5")
from service.systems.beutelschneider.encounter import Side
from service.systems.beutelschneider.rules import Bag, Difficulty
easy = Difficulty.EASY
sides = ([Side("L", Bag(red=10, green=11, black=4), difficulty=easy)],
         [Side(f"A{i}", Bag(red=12, green=12), difficulty=easy) for i in (1, 2)])
fight = groups.Fight((groups.Group("F", sides[0]), groups.Group("S", sides[1])), groups.default_pairs(1, 2))
before = peak_kib()
bound = groups.state_bound(fight)
groups.odds(fight)
print(bound, before, peak_kib())
"""


@pytest.mark.slow
def test_a_solve_at_the_limit_stays_under_500_mb():
    """The issue's line: memory per solve ≤ 500 MB, for a fight just under the default limit."""
    out = subprocess.run([sys.executable, "-c", MEMORY], capture_output=True, text=True, check=True, timeout=120)
    bound, before, peak = (int(x) for x in out.stdout.split())
    assert 7_000_000 < bound <= 8_000_000
    assert (peak - before) * 1024 <= 500 * 2**20 and peak * 1024 <= 600 * 2**20, (before, peak)


# --- icepool's absorbing chain, a round a step ------------------------------------------------------

def _draws(red: int, other: int, black: int, count: int):
    """(red drawn, other drawn, all black?) -> chance, drawing ``count`` of the bag without putting back."""
    total = red + other + black
    for x in range(count + 1):
        for y in range(count - x + 1):
            ways = comb(red, x) * comb(other, y) * comb(black, count - x - y)
            if ways:
                yield x, y, x + y == 0, Fraction(ways, comb(total, count))


def icepool_fight(bags: list[tuple[int, int, int]], draws: list[int], pairs: list[tuple[int, int]]):
    """The fight with every member's (red, other, out) as icepool's state, a whole round (every pairing
    of standing members in order, ruling 1 and 3, E1, E7) one step of ``map(..., repeat="inf")``."""
    totals = [sum(bag) for bag in bags]

    def exchange(state, a, b):
        if state[a][2] or state[b][2]:
            yield state, Fraction(1)
            return
        bag_a = (state[a][0], state[a][1], totals[a] - state[a][0] - state[a][1])
        bag_b = (state[b][0], state[b][1], totals[b] - state[b][0] - state[b][1])
        for xa, _, out_a, pa in _draws(*bag_a, draws[a]):
            for xb, _, out_b, pb in _draws(*bag_b, draws[b]):
                after = list(state)
                after[a] = (state[a][0], state[a][1], out_a)
                after[b] = (state[b][0], state[b][1], out_b)
                if xa == xb:
                    yield tuple(after), pa * pb
                    continue
                loser, bag = (b, bag_b) if xa > xb else (a, bag_a)
                for x, y, _, q in _draws(*bag, min(abs(xa - xb), totals[loser])):
                    hurt = list(after)
                    hurt[loser] = (after[loser][0] - x, after[loser][1] - y, after[loser][2])
                    yield tuple(hurt), pa * pb * q

    def ended(state):
        return all(state[i][2] for i in range(len(bags)) if i in first) or \
            all(state[i][2] for i in range(len(bags)) if i not in first)

    first = {a for a, _ in pairs}

    def round_of(state):
        if ended(state):
            return state
        partial = {state: Fraction(1)}
        for a, b in pairs:
            following: dict = {}
            for current, p in partial.items():
                if ended(current):
                    following[current] = following.get(current, 0) + p
                    continue
                for after, q in exchange(current, a, b):
                    following[after] = following.get(after, 0) + p * q
            partial = following
        scale = math.lcm(*(p.denominator for p in partial.values()))
        return icepool.Die({after: int(p * scale) for after, p in partial.items()})

    start = tuple((red, other, False) for red, other, _ in bags)
    return icepool.map(round_of, start, repeat="inf")


def test_the_reduced_space_answers_as_icepools_absorbing_chain():
    bags = [(3, 1, 1), (2, 1, 1), (2, 0, 1)]  # a Legionär against two Affenmenschen, small bags
    draws = [3, 2, 2]
    pairs = [(0, 1), (0, 2)]
    final = icepool_fight(bags, draws, pairs)
    total = final.denominator()
    wins = sum(q for state, q in final.items() if all(s[2] for s in state[1:]) and not state[0][2]) / total
    lost = sum(q for state, q in final.items() if state[0][2] and not all(s[2] for s in state[1:])) / total
    sides = ([Side("L", Bag(red=3, green=1, black=1), difficulty=EASY)],
             [Side("A1", Bag(red=2, white=1, black=1)), Side("A2", Bag(red=2, black=1))])
    odds = groups.odds(fight_of(("F", sides[0]), ("S", sides[1])))
    assert odds.outcomes["wins:F"] == pytest.approx(wins, abs=1e-13 + odds.solver.max_error)
    assert odds.outcomes["wins:S"] == pytest.approx(lost, abs=1e-13 + odds.solver.max_error)
