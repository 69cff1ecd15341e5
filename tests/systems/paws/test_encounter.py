"""A whole Paws duel (paws.encounter, paws.encounter.odds): exact against icepool's absorbing chain,
against 100,000 independently simulated duels, against its own rolling twin, and its properties.

"Der Sieger eines Runde wird durch einen normalen Vergleich ermittelt ... Der Verlierer erleidet eine
neue Wunde ... Bei Gleichstand wird niemand verletzt. Der Kampf dauert so lange an, bis einer der
Beteiligten Kampfunfähig ist oder auf gibt." (rules file 001; RULINGS.md "Encounters", Paws E1–E5)
"""

from __future__ import annotations

import random
from collections import Counter
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from oracles.paws import icepool_duel
from service.platform.dice.randomness import make_source
from service.platform.maths import chains
from service.systems.paws import encounter, odds
from service.systems.paws.rules import Pool
from tests.stats import chi_square_sf


def pool(dice: int, rescue: int = 0, wounds: int = 0, name: str | None = None) -> Pool:
    return Pool(rank=0, extra_bonus_dice=dice, extra_rescue_dice=rescue, wounds=wounds, name=name)


def fighter(dice: int, rescue: int = 0, *, one_shot: int = 0, out_at: int | None = None,
            give_up_at: int | None = None, wounds: int = 0) -> encounter.Fighter:
    return encounter.Fighter(pool(dice, rescue, wounds), out_at, give_up_at, one_shot)


def exact(duel: encounter.Duel, **kwargs):
    return encounter.encounter_odds(duel, exact=True, **kwargs)


# --- icepool's absorbing chain as the oracle ------------------------------------------------------


def icepool_wins(a: tuple, b: tuple) -> dict[str, Fraction]:
    final = icepool_duel(a, b)
    wins = {"wins:a": Fraction(0), "wins:b": Fraction(0)}
    for (wounds_a, _, _, _), quantity in final.items():
        a_down = wounds_a >= a[0] or (a[3] is not None and wounds_a >= a[3]) or (a[4] is not None and wounds_a >= a[4])
        wins["wins:b" if a_down else "wins:a"] += Fraction(quantity, final.denominator())
    return wins


@pytest.mark.parametrize("a, b", [
    ((3, 0, 0, None, None), (2, 0, 0, None, None)),  # Ryan (3 Ränge) and Jack (2 Ränge)
    ((2, 1, 0, None, None), (3, 0, 0, None, None)),  # armour: a rescue die every round
    ((3, 0, 2, None, None), (3, 1, 1, None, None)),  # one-shot rescue dice (E3)
    ((4, 0, 0, 2, None), (3, 0, 0, None, 1)),  # out_at_wounds (E1), give_up_at_wounds (E2)
])
def test_duel_odds_match_icepools_absorbing_chain(a, b):
    """"bis einer der Beteiligten Kampfunfähig ist oder auf gibt": the same Fractions as icepool."""
    duel = encounter.Duel(fighter(a[0], a[1], one_shot=a[2], out_at=a[3], give_up_at=a[4]),
                          fighter(b[0], b[1], one_shot=b[2], out_at=b[3], give_up_at=b[4]))
    assert exact(duel).outcomes == icepool_wins(a, b)


def test_ryan_and_jack_fight_it_out():
    """The text's fight: "Ryan hat drei Ränge in „Schlägereien“, aber Jack ist mir 2 Rängen in
    „Kickboxen“ auch nicht zu unterschätzen." Fought to the end (no dice left, E1), Ryan wins 283/330."""
    duel = encounter.Duel(encounter.Fighter(Pool(3, name="Ryan")), encounter.Fighter(Pool(2, name="Jack")))
    result = exact(duel)
    assert result.outcomes == {"wins:a": Fraction(283, 330), "wins:b": Fraction(47, 330)}
    assert result.expected["rounds"] == Fraction(194, 55)
    assert result.solver.states == 11 and result.solver.precision == "exact"


def test_the_round_winner_is_the_comparisons_outcome():
    """E1: each round is a `paws.comparison` (contest), rescue dice included (ruling 3)."""
    for a_dice in range(0, 7):
        for b_dice in range(0, 7):
            for a_rescue, b_rescue in ((0, 0), (1, 0), (0, 2), (2, 1)):
                outcomes = odds.comparison(pool(a_dice, a_rescue), pool(b_dice, b_rescue)).outcomes
                assert odds.contest_winner(a_dice, a_rescue, b_dice, b_rescue) == (outcomes["a"], outcomes["b"])
                floats = odds.contest_winner(a_dice, a_rescue, b_dice, b_rescue, exact=False)
                assert floats == (float(outcomes["a"]), float(outcomes["b"]))


# --- an independent simulation --------------------------------------------------------------------

def simulate(rng: random.Random, a: tuple, b: tuple) -> str:
    """One duel with plain random bits (a die succeeds with 1/2: one bit each); a and b as
    (dice, armour rescue, one-shot)."""
    wounds, shots = [0, 0], [a[2], b[2]]
    sides = (a, b)
    while wounds[0] < a[0] and wounds[1] < b[0]:
        successes = [rng.getrandbits(sides[i][0] - wounds[i]).bit_count() for i in (0, 1)]
        rescue = [rng.getrandbits(sides[i][1]).bit_count() if sides[i][1] else 0 for i in (0, 1)]
        loser = 1 if successes[0] - successes[1] > rescue[1] else 0 if successes[1] - successes[0] > rescue[0] else None
        if loser is None:
            continue
        while shots[loser]:
            shots[loser] -= 1
            if rng.getrandbits(1):
                break
        else:
            wounds[loser] += 1
    return "wins:a" if wounds[1] >= b[0] else "wins:b"


def test_odds_agree_with_100000_simulated_duels():
    """A realistic duel (5 dice with armour against 6, one one-shot die each): within 3σ."""
    a, b = (5, 1, 1), (6, 0, 1)
    rng = random.Random(20261202)
    runs = 100_000
    wins = Counter(simulate(rng, a, b) for _ in range(runs))
    p = float(exact(encounter.Duel(fighter(*a[:2], one_shot=a[2]), fighter(*b[:2], one_shot=b[2]))).outcomes["wins:a"])
    sigma = (p * (1 - p) / runs) ** 0.5
    assert abs(wins["wins:a"] / runs - p) < 3 * sigma


def test_the_rolling_twin_agrees_with_the_odds():
    """Seeded play-outs of `paws.encounter` (each round a `paws.comparison`) against the exact odds:
    the chi-square of the outcomes × wounds taken by the winner."""
    duel = encounter.Duel(fighter(3, 1, one_shot=1), fighter(4))
    result = exact(duel)
    runs = 3000
    seen = Counter()
    for seed in range(runs):
        played = encounter.play(duel, make_source(seed, None))
        seen[(played.outcome, played.end.wounds_taken["a"])] += 1
    expected = Counter()
    solved = chains.solve(duel.start(), lambda s: encounter.step(duel, s), lambda s: encounter.outcome(duel, s))
    for end, p in solved.ends.items():
        expected[(encounter.outcome(duel, end), end[0])] += p
    cells = [key for key in expected if expected[key] * runs >= 5]
    statistic = sum((seen[key] - runs * float(expected[key])) ** 2 / (runs * float(expected[key])) for key in cells)
    assert chi_square_sf(statistic, len(cells) - 1) > 1e-4
    assert sum(result.distributions["wounds:a"].values()) == 1


def test_each_step_is_the_comparison_and_the_rescue_rolled():
    """E3: "Jeder Rettungswürfel darf nur einmal gewürfelt werden": after a lost round, one die at a
    time until one averts the wound; a round's `comparison` is the full comparison result."""
    duel = encounter.Duel(fighter(4, one_shot=3), fighter(4, one_shot=3))
    for seed in range(40):
        played = encounter.play(duel, make_source(seed, None))
        shots = {"a": 3, "b": 3}
        for step in played.steps:
            if step.comparison.winner is None:
                assert not step.one_shot_rescue and step.wounded is None
                continue
            loser = "b" if step.comparison.winner == "a" else "a"
            assert all(len(r.dice) == 1 for r in step.one_shot_rescue)
            assert [r.successes for r in step.one_shot_rescue[:-1]] == [0] * (len(step.one_shot_rescue) - 1)
            shots[loser] -= len(step.one_shot_rescue)
            averted = bool(step.one_shot_rescue) and step.one_shot_rescue[-1].successes == 1
            assert step.wounded == (None if averted else loser)
            assert step.comparison.a.pool.dice == 4 - (step.wounds["a"] - (step.wounded == "a"))
        assert played.end.one_shot_rescue == shots
        assert played.outcome in ("wins:a", "wins:b")


# --- properties -------------------------------------------------------------------------------------

SMALL = st.integers(min_value=1, max_value=5)


@given(SMALL, SMALL, st.integers(0, 2), st.integers(0, 2), st.integers(1, 2))
def test_a_stronger_side_never_has_a_lower_chance(a_dice, b_dice, a_rescue, one_shot, more):
    """One more die (or one more one-shot rescue die) never lowers a side's chance to win."""
    base = exact(encounter.Duel(fighter(a_dice, a_rescue, one_shot=one_shot), fighter(b_dice))).outcomes["wins:a"]
    stronger = exact(encounter.Duel(fighter(a_dice + more, a_rescue, one_shot=one_shot), fighter(b_dice)))
    armoured = exact(encounter.Duel(fighter(a_dice, a_rescue, one_shot=one_shot + more), fighter(b_dice)))
    assert stronger.outcomes["wins:a"] >= base and armoured.outcomes["wins:a"] >= base


@given(SMALL, st.integers(0, 2), st.integers(0, 2))
def test_a_symmetric_duel_is_symmetric(dice, rescue, one_shot):
    result = exact(encounter.Duel(fighter(dice, rescue, one_shot=one_shot), fighter(dice, rescue, one_shot=one_shot)))
    assert result.outcomes["wins:a"] == result.outcomes["wins:b"] == Fraction(1, 2)


@given(SMALL, SMALL, st.integers(1, 12))
def test_max_rounds_leaves_the_curves_running_mass_undecided(a_dice, b_dice, rounds):
    duel = encounter.Duel(fighter(a_dice, 1), fighter(b_dice))
    curve = exact(duel, curve_rounds=rounds).curve
    cut = exact(duel, max_rounds=rounds)
    assert sum(cut.outcomes.values()) == 1
    assert float(cut.outcomes.get(chains.UNDECIDED, 0)) == pytest.approx(curve[rounds - 1]["running"], abs=1e-12)


@given(SMALL, SMALL, st.integers(0, 2), st.integers(0, 2))
def test_float64_agrees_within_its_error(a_dice, b_dice, a_shots, b_shots):
    duel = encounter.Duel(fighter(a_dice, one_shot=a_shots), fighter(b_dice, 1, one_shot=b_shots))
    exact_odds = exact(duel)
    floating = encounter.encounter_odds(duel, exact=False)
    assert floating.solver.precision == "float64" and floating.solver.max_error <= 1e-9
    assert abs(sum(floating.outcomes.values()) - 1) <= floating.solver.max_error
    for name, p in exact_odds.outcomes.items():
        assert floating.outcomes[name] == pytest.approx(float(p), abs=floating.solver.max_error)


def test_starting_wounds_count_toward_out_and_give_up():
    """API.md §1.7: "a pool's starting `wounds` count toward `out_at_wounds` and `give_up_at_wounds`"."""
    fresh = exact(encounter.Duel(fighter(4, out_at=3), fighter(4)))
    hurt = exact(encounter.Duel(fighter(4, out_at=3, wounds=1), fighter(4)))
    # 4 dice, 1 wound = 3 dice: the same as a fresh pool of 3 that is out after 2 more wounds.
    assert hurt.outcomes == exact(encounter.Duel(fighter(3, out_at=2), fighter(4))).outcomes
    assert hurt.outcomes["wins:a"] < fresh.outcomes["wins:a"]
    down = exact(encounter.Duel(fighter(4, give_up_at=1, wounds=1), fighter(4, out_at=1, wounds=1)))
    assert down.outcomes == {chains.STALEMATE: 1}


def test_the_state_bound_grows_with_the_work_of_one_shot_dice():
    """A lost round with s one-shot dice left has s + 1 ways to end (E3): many dice are refused
    before solving, though their states alone would fit under the limit."""
    many = encounter.Duel(fighter(40, one_shot=100), fighter(40, one_shot=100))
    assert encounter.state_bound(many) > 20000
    few = encounter.Duel(fighter(8, one_shot=2), fighter(7, one_shot=2))
    assert encounter.state_bound(few) == (6 + 8) * (6 + 7) <= 300  # answered exact under auto


def test_the_state_bound_holds():
    for a, b in (((3, 0, 2, None, None), (4, 1, 1, 2, None)), ((6, 0, 0, None, 3), (2, 0, 3, None, None))):
        duel = encounter.Duel(fighter(a[0], a[1], one_shot=a[2], out_at=a[3], give_up_at=a[4]),
                              fighter(b[0], b[1], one_shot=b[2], out_at=b[3], give_up_at=b[4]))
        assert exact(duel).solver.states <= encounter.state_bound(duel)


# --- over HTTP --------------------------------------------------------------------------------------

RYAN_JACK = {"a": {"name": "Ryan", "rank": 3}, "b": {"name": "Jack", "rank": 2}}


def test_odds_over_http_echo_every_policy(post):
    status, body = post("/v1/paws/encounter/odds", {**RYAN_JACK, "curve_rounds": 3})
    assert status == 200, body
    assert body["operation"] == "paws.encounter.odds"
    assert body["request"]["a"]["out_at_wounds"] is None and body["request"]["b"]["give_up_at_wounds"] is None
    assert body["request"]["one_shot_rescue"] == {"a": 0, "b": 0}
    assert body["request"]["exact"] == "auto" and body["request"]["max_rounds"] is None
    assert body["solver"] == {"states": 11, "precision": "exact", "max_error": 0.0}
    outcomes = {o["outcome"]: o["exact"] for o in body["odds"]["outcomes"]}
    assert outcomes == {"wins:a": "283/330", "wins:b": "47/330"}
    assert [point["round"] for point in body["odds"]["curve"]] == [1, 2, 3]


def test_rolling_over_http(post):
    status, body = post("/v1/paws/encounter?lang=de", {**RYAN_JACK, "seed": 7})
    assert status == 200, body
    assert body["operation"] == "paws.encounter" and body["receipt"]["alg"] == "Ed25519"
    result = body["result"]
    assert result["outcome"] in ("wins:a", "wins:b") and result["rounds"] == len(result["steps"])
    winner = "Ryan" if result["winner"] == "a" else "Jack"
    assert body["summary"].startswith(f"Sieg für {winner} nach {result['rounds']} Runde")
    assert "kampfunfähig" in body["summary"]
    again = post("/v1/paws/encounter?lang=de", {**RYAN_JACK, "seed": 7})[1]
    assert again["result"] == result


def test_idempotency_key_rolls_once(client):
    headers = {"Idempotency-Key": "duel-ryan-jack-0001"}
    first = client.post("/v1/paws/encounter", json=RYAN_JACK, headers=headers).get_json()
    second = client.post("/v1/paws/encounter", json=RYAN_JACK, headers=headers).get_json()
    assert first["result"] == second["result"] and first["randomness"]["source"] != "seeded"


def test_too_large_is_refused_before_solving(post, monkeypatch):
    """Limits before work: 422 `encounter-too-large` with `states` and `limit`, without solving."""
    monkeypatch.setattr(chains, "solve", lambda *args, **kwargs: pytest.fail("solved a refused encounter"))
    big = {"a": {"rank": 10, "extra_bonus_dice": 90}, "b": {"rank": 10, "extra_bonus_dice": 90},
           "one_shot_rescue": {"a": 50, "b": 50}}
    status, body = post("/v1/paws/encounter/odds", big)
    assert status == 422 and body["type"].endswith("/encounter-too-large")
    # per side: 50 one-shot dice (51 counts left before the first wound, weighing 51 × 52 / 2 with the
    # rescues each can still roll), then 100 wounds with none left
    assert body["states"] == (51 * 52 // 2 + 100) ** 2 and body["limit"]["value"] == 20000
    status, body = post("/v1/paws/encounter/odds", {"a": {"rank": 10, "extra_bonus_dice": 20}, "b": {"rank": 10},
                                                    "one_shot_rescue": {"a": 2, "b": 2}, "exact": "required"})
    assert status == 422 and body["type"].endswith("/encounter-too-large")
    assert body["states"] == (3 * 4 // 2 + 30) * (3 * 4 // 2 + 10) and body["limit"]["value"] == 300


def test_auto_answers_float64_above_the_exact_limit(post):
    status, body = post("/v1/paws/encounter/odds", {"a": {"rank": 10, "extra_bonus_dice": 20}, "b": {"rank": 10}})
    assert status == 200, body
    assert body["solver"]["precision"] == "float64" and body["solver"]["states"] > 300
    assert all(o["exact"] is None for o in body["odds"]["outcomes"])
    assert abs(sum(o["probability"] for o in body["odds"]["outcomes"]) - 1) <= body["solver"]["max_error"]


def test_pools_whose_exact_fractions_would_not_fit_in_text_answer_in_float64(client):
    """A hundred bonus and rescue dice: the exact fractions would run to thousands of digits (Python
    refuses to write them: schemathesis found a 500 here), so `auto` answers float64 and `required` is
    refused before solving."""
    body = {"a": {"rank": 0, "extra_bonus_dice": 100, "extra_rescue_dice": 100}, "b": {"rank": 1}}
    answer = client.post("/v1/paws/encounter/odds", json=body)
    assert answer.status_code == 200
    assert answer.get_json()["solver"]["precision"] == "float64"
    refused = client.post("/v1/paws/encounter/odds", json={**body, "exact": "required"})
    assert refused.status_code == 422 and refused.get_json()["type"].endswith("/encounter-too-large")


def test_a_fight_given_up_before_it_starts_is_said_not_to_happen(post):
    """E2, "bis einer der Beteiligten Kampfunfähig ist oder auf gibt": starting wounds at the side's
    give-up mark end the duel before the first round, so the summary says there is no fight (review
    2026-12-03 kind 3), not "Sieg für Jack nach 0 Runden"; a concession is said before the victory it
    gives away (kind 4)."""
    body = {"a": {"name": "Ryan", "rank": 3, "wounds": 2, "give_up_at_wounds": 2}, "b": {"name": "Jack", "rank": 2},
            "seed": 1}
    status, answer = post("/v1/paws/encounter?lang=de", body)
    assert status == 200 and answer["result"]["rounds"] == 0
    assert answer["summary"] == "Es kommt zu keinem Kampf: Ryan gibt schon vorher auf; Sieg für Jack."
    status, answer = post("/v1/paws/encounter?lang=de", {"a": {"name": "Ryan", "rank": 3, "give_up_at_wounds": 1},
                                                         "b": {"name": "Jack", "rank": 5}, "seed": 1})
    assert status == 200 and answer["result"]["winner"] == "b" and answer["result"]["rounds"] == 1
    assert answer["summary"] == "Ryan gibt nach 1 Runde auf (1 Wunde); Sieg für Jack."
