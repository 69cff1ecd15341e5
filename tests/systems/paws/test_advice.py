"""Paws advice (RULINGS.md "Advice", Paws): `one_shot_rescue` ("Jeder Rettungswürfel darf nur einmal
gewürfelt werden und ist danach verbraucht", E3) and `give_up_at_wounds` ("oder auf gibt", E2), fixed
and decided anew in every state (service/systems/paws/advice.py)."""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest

from service.platform.maths import chains
from service.systems.paws import advice, encounter, rules
from service.systems.paws.encounter import Duel, Fighter

HALF = Fraction(1, 2)


def _duel(rank_a: int, rank_b: int, shots_a: int, shots_b: int = 0, *, rescue_b: int = 0,
          out_a: int | None = None, give_up_b: int | None = None) -> Duel:
    return Duel(Fighter(rules.Pool(rank=rank_a), out_a, None, shots_a),
                Fighter(rules.Pool(rank=rank_b, extra_rescue_dice=rescue_b), None, give_up_b, shots_b))


def _decision_states(duel: Duel) -> list[encounter.State]:
    """Every state in which a, having lost a round, holds a one-shot die to decide on."""
    start = duel.start()
    return [(wa, wb, sa, sb) for wa in range(start[0], duel.down_at[0]) for wb in range(start[1], duel.down_at[1])
            for sa in range(1, start[2] + 1) for sb in range(0, start[3] + 1)]


def _win_by_policy(duel: Duel, spend: dict[encounter.State, bool]) -> Fraction:
    """a's chance to win when it rolls (True) or keeps (False) in each decision state, by the platform's
    forward solver (chains.solve) on the chain with those decisions written into its steps: independent
    of the backward induction under test."""
    def a_lost(state: encounter.State, mass: Fraction):
        while state[2] and spend[state]:
            yield encounter._after(state, 0, wounds=0, shots_left=state[2] - 1), mass * HALF
            mass *= HALF
            state = encounter._after(state, 0, wounds=0, shots_left=state[2] - 1)
        yield encounter._after(state, 0, wounds=1, shots_left=state[2]), mass

    def step(state):
        a_wins, b_wins = encounter._win_chances(duel, state[0], state[1], True)
        return [(state, 1 - a_wins - b_wins), *encounter._wounded(state, 1, a_wins, HALF), *a_lost(state, b_wins)]

    solved = chains.solve(duel.start(), step, lambda state: encounter.outcome(duel, state), exact=True)
    return solved.outcomes.get("wins:a", Fraction(0))


SMALL = [_duel(2, 2, 2), _duel(2, 1, 2, 1), _duel(1, 2, 2, rescue_b=1), _duel(3, 2, 1, out_a=2),
         _duel(2, 3, 2, give_up_b=2), _duel(1, 1, 3)]


@pytest.mark.parametrize("duel", SMALL, ids=range(len(SMALL)))
def test_the_adaptive_optimum_is_the_best_of_every_deterministic_policy(duel):
    """§1.10 "value iteration over the encounter's chain", checked against brute force: every way to
    spend or keep in every decision state, each solved on its own."""
    states = _decision_states(duel)
    assert 0 < len(states) <= 12
    best = max(_win_by_policy(duel, dict(zip(states, choice, strict=True)))
               for choice in itertools.product((True, False), repeat=len(states)))
    assert advice.solve(duel, 0, exact=True).win == best


@pytest.mark.parametrize("duel", SMALL, ids=range(len(SMALL)))
def test_the_adaptive_optimum_is_never_below_a_fixed_option(duel):
    """Fixed options: spend up to k of the one-shot dice (E3), k = 0..S; give up at w (E2)."""
    solved = advice.solve(duel, 0, exact=True).win
    for shots in range(duel.a.one_shot_rescue + 1):
        for give_up in (None, *range(1, duel.down_at[0])):
            fighter = Fighter(duel.a.pool, duel.a.out_at_wounds, give_up, shots)
            fixed = encounter.encounter_odds(Duel(fighter, duel.b), exact=True).outcomes.get("wins:a", 0)
            assert solved >= fixed


def test_hand_worked_one_die_against_one_die():
    """Rank 1 against rank 1: each round a wins with 1/2 · 1/2 = 1/4, b with 1/4, a tie 1/2 repeats it;
    one wound takes the only die ("Kampfunfähig", E1). Kept, the one-shot die wins nothing: a wins
    1/2. Spent after the lost round (E3), it averts the wound with 1/2 and the duel starts over without
    it: 1/2 + 1/2 · 1/2 · 1/2 = 5/8."""
    keep = encounter.encounter_odds(_duel(1, 1, 0), exact=True).outcomes["wins:a"]
    spend = encounter.encounter_odds(_duel(1, 1, 1), exact=True).outcomes["wins:a"]
    assert (keep, spend) == (Fraction(1, 2), Fraction(5, 8))
    solved = advice.solve(_duel(1, 1, 1), 0, exact=True)
    assert solved.win == Fraction(5, 8) and [d.choice for d in solved.decisions] == [advice.SPEND]


def test_keeping_never_wins_more_in_a_duel():
    """Why the Paws optimum is the fixed "spend them all": a die spent now averts a wound now, and a
    wound only ever takes dice away (ruling 5, E5), so spending after the first lost round is never
    worse than keeping the die for a later one. Checked over a grid of small duels, both sides."""
    grid = itertools.product(range(1, 5), range(1, 5), (1, 2), (0, 1), (0, 1))
    for rank_a, rank_b, shots_a, shots_b, rescue_b in grid:
        duel = _duel(rank_a, rank_b, shots_a, shots_b, rescue_b=rescue_b)
        solved = advice.solve(duel, 0, exact=True)
        assert all(decision.choice == advice.SPEND for decision in solved.decisions)
        assert solved.win == encounter.encounter_odds(duel, exact=True).outcomes.get("wins:a", 0)


def test_side_b_is_advised_on_its_own_dice():
    duel = _duel(2, 2, 0, 2)
    solved = advice.solve(duel, 1, exact=True)
    assert solved.win == encounter.encounter_odds(duel, exact=True).outcomes["wins:b"]
    assert solved.decisions and all(decision.state[3] >= 1 for decision in solved.decisions)


def test_float64_agrees_with_the_fractions():
    duel = _duel(3, 3, 2, 1, rescue_b=1)
    assert advice.solve(duel, 0, exact=False).win == pytest.approx(float(advice.solve(duel, 0, exact=True).win),
                                                                  abs=1e-12)


def test_rules_in_words():
    """The optimum said as a player reads it aloud (golden lines: tests/i18n/cases.py)."""
    spent = advice.Decision((0, 0, 1, 0), advice.SPEND, 2, 2)
    kept = advice.Decision((0, 0, 1, 0), advice.KEEP, 3, 2)
    said = advice.rules(advice.Solved(Fraction(1), (kept, spent), 1), rescue=True, give_up=True)
    assert [line.say("de") for line in said] == [
        "Behalte die einmaligen Rettungswürfel, solange du noch 3 Würfel oder mehr hast; hast du weniger, "
        "würfle sie nach einer verlorenen Runde.",
        "Gib nie auf: Aufgeben verliert sofort, Weiterkämpfen gewinnt nie seltener."]


def test_over_http_the_adaptive_block_says_it_gains_nothing(post):
    status, answer = post("/v1/paws/encounter/advice?lang=de",
                          {"a": {"name": "Ryan", "rank": 1}, "b": {"rank": 1}, "one_shot_rescue": {"a": 1, "b": 0}})
    assert status == 200, answer
    block = answer["advice"]
    assert [o["win"]["exact"] for o in block["options"]] == ["5/8", "1/2"]
    assert block["adaptive"]["win"]["exact"] == "5/8" and block["adaptive"]["gain_over_best_fixed"]["exact"] == "0/1"
    assert block["adaptive"]["rules"][0] == ("Würfle nach jeder verlorenen Runde die einmaligen Rettungswürfel, "
                                             "einen nach dem anderen, bis einer gelingt.")
    assert block["adaptive"]["rules"][-1].startswith("In jeder Lage neu zu entscheiden, gewinnt nicht öfter")
    assert answer["summary"] == ("Rat für Ryan: am besten 1 einmaligen Rettungswürfel einsetzen, nie aufgeben, "
                                 "62,5\u00a0% Siegchance. In jeder Lage neu zu entscheiden, bringt nichts "
                                 "Nennenswertes.")


def test_with_max_rounds_there_is_no_adaptive_block(post):
    status, answer = post("/v1/paws/encounter/advice", {"a": {"rank": 2}, "b": {"rank": 2}, "max_rounds": 3,
                                                        "one_shot_rescue": {"a": 1, "b": 0}})
    assert status == 200 and answer["advice"]["adaptive"] is None
