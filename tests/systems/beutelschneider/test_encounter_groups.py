"""Beutelschneider fights of sides with several members (RULINGS.md "Encounters" E7, 2026-12-03):
"Kämpft beispielsweise ein Legionär gegen zwei Affenmenschen, so gibt es zwei Auseinandersetzungen –
einmal der Legionär gegen den einen, und dann der Legionär gegen den anderen Affenmenschen."

Oracles: the fight of two characters' own solver (a side of one through the group solver answers
the same), an independent Monte Carlo of 100,000 fights drawn marble by marble, seeded rolling fights,
and the text's first round with `manual` marbles.
"""

from __future__ import annotations

import math
import random

import numpy as np
import pytest

from service.platform.dice.randomness import GeneratorSource
from service.systems.beutelschneider import encounter, groups, sweep
from service.systems.beutelschneider.encounter import Side
from service.systems.beutelschneider.rules import Ability, Bag, Danger, Difficulty
from tests.stats import chi_square_sf
from tests.systems.beutelschneider.test_encounter import _draw_counts

LEGIONARY = Bag(red=8, green=4, white=5, black=3)
APE_MAN = Bag(red=10, green=5, white=5)


def fight_of(first, second, pairs=None) -> groups.Fight:
    g = (groups.Group(first[0], tuple(first[1])), groups.Group(second[0], tuple(second[1])))
    return groups.Fight(g, pairs or groups.default_pairs(len(first[1]), len(second[1])))


@pytest.mark.parametrize("a, b", [
    (Side("A", Bag(red=3, green=1, white=1, black=1)), Side("B", Bag(red=2, white=2, black=1),
                                                            difficulty=Difficulty.EASY)),
    (Side("Dieb", Bag(green=3, red=1, black=2), ability=Ability.SKILL), Side("Wache", Bag(red=3, white=1, black=1))),
    (Side("L", Bag(red=5, green=2, white=2, black=1)), Side("A", Bag(red=3, green=2, white=2))),
])
def test_a_side_of_one_answers_as_the_fight_of_two_characters(a, b):
    ours = groups.odds(fight_of((a.name, [a]), (b.name, [b])), aftermath=Danger.LOW)
    theirs = encounter.odds((a, b), aftermath=Danger.LOW)
    tolerance = ours.solver.max_error + theirs.solver.max_error
    for name, p in theirs.outcomes.items():
        assert ours.outcomes[name] == pytest.approx(p, abs=tolerance), name
    for name in (f"black_after:{a.name}", f"black_after:{b.name}"):
        for value, p in theirs.distributions[name].items():
            assert ours.distributions[name][value] == pytest.approx(p, abs=tolerance)
    assert ours.expected["exchanges"] == pytest.approx(theirs.expected["exchanges"], rel=1e-9)
    assert ours.expected[f"dies:{a.name}"] == pytest.approx(theirs.expected[f"dies:{a.name}"], abs=tolerance)


# --- an independent Monte Carlo: 100,000 fights at once -------------------------------------------

def monte_carlo(first, second, fights, seed):
    """Rounds of every pairing (first side's member attacking), marble by marble; ruling 1 and 3, E6, E7."""
    rng = np.random.default_rng(seed)
    members = [*first, *second]
    side = [0] * len(first) + [1] * len(second)
    pairs = [(a, len(first) + b) for a in range(len(first)) for b in range(len(second))]
    bags = [np.tile([m.matching, m.others, m.bag.black], (fights, 1)) for m in members]
    out = [np.zeros(fights, dtype=bool) for _ in members]
    outcome = np.full(fights, "", dtype=object)
    running = np.ones(fights, dtype=bool)
    while running.any():
        for a, b in pairs:
            live = np.flatnonzero(running & ~out[a] & ~out[b])
            if not len(live):
                continue
            drawn = [_draw_counts(rng, bags[i][live], members[i].difficulty.draws) for i in (a, b)]
            fell = [drawn[0][:, 2] == members[a].difficulty.draws, drawn[1][:, 2] == members[b].difficulty.draws]
            margin = drawn[0][:, 0] - drawn[1][:, 0]
            for winner, loser, sign, k in ((a, b, 1, 1), (b, a, -1, 0)):
                won = sign * margin > 0
                if not members[winner].injures:
                    away = live[won & ~fell[k]]
                    outcome[away] = f"escapes:{('F', 'S')[side[winner]]}"
                    running[away] = False
                    continue
                for severity in (1, 2, 3):
                    rows = live[won & (sign * margin == severity)]
                    if len(rows):
                        hurt = _draw_counts(rng, bags[loser][rows], min(severity, members[loser].bag.total))
                        changed = bags[loser][rows] - hurt
                        changed[:, 2] += hurt.sum(axis=1)
                        bags[loser][rows] = changed
            out[a][live[fell[0]]] = True
            out[b][live[fell[1]]] = True
            gone = [np.logical_and.reduce([out[i] for i in range(len(members)) if side[i] == s]) for s in (0, 1)]
            ended = running & (gone[0] | gone[1])
            outcome[ended & gone[0] & gone[1]] = "both_out"
            outcome[ended & gone[0] & ~gone[1]] = "wins:S"
            outcome[ended & gone[1] & ~gone[0]] = "wins:F"
            running &= ~ended
    return {name: int((outcome == name).sum()) for name in set(outcome)}


ONE_AGAINST_TWO = ([Side("Legionär", Bag(red=4, green=1, white=1, black=1))],
                   [Side("Affe 1", Bag(red=2, white=1, black=1)), Side("Affe 2", Bag(red=2, green=1, black=1))])
TWO_AGAINST_TWO = ([Side("Dieb", Bag(green=3, red=1, black=1), ability=Ability.SKILL),
                    Side("Wolf", Bag(red=2, white=1, black=1))],
                   [Side("Wache 1", Bag(red=2, white=1, black=1)), Side("Wache 2", Bag(red=1, white=2, black=1))])


@pytest.mark.parametrize("members, seed", [(ONE_AGAINST_TWO, 7), (TWO_AGAINST_TWO, 8)])
def test_e7_matches_100000_sampled_fights(members, seed):
    fight = fight_of(("F", members[0]), ("S", members[1]))
    odds = groups.odds(fight)
    assert abs(sum(odds.outcomes.values()) - 1) <= odds.solver.max_error <= 1e-8
    fights = 100_000
    counts = monte_carlo(members[0], members[1], fights, seed)
    assert set(counts) <= {name for name, p in odds.outcomes.items() if p > 0}
    for name, p in odds.outcomes.items():
        sigma = math.sqrt(fights * p * (1 - p))
        assert abs(counts.get(name, 0) - fights * p) <= 3 * sigma, (name, counts, p)


def test_seeded_rolling_group_fights_agree_with_the_odds():
    fight = fight_of(("F", ONE_AGAINST_TWO[0]), ("S", ONE_AGAINST_TWO[1]))
    odds = groups.odds(fight)
    source = GeneratorSource(random.Random(12), "seeded")
    runs = 1000
    counts: dict[str, int] = {}
    for _ in range(runs):
        outcome = groups.play(fight, source).outcome
        counts[outcome] = counts.get(outcome, 0) + 1
    names = [name for name, p in odds.outcomes.items() if p > 0]
    statistic = sum((counts.get(name, 0) - runs * odds.outcomes[name]) ** 2 / (runs * odds.outcomes[name])
                    for name in names)
    assert chi_square_sf(statistic, len(names) - 1) > 1e-3, counts


def test_max_rounds_counts_rounds_of_every_pairing():
    fight = fight_of(("F", ONE_AGAINST_TWO[0]), ("S", ONE_AGAINST_TWO[1]))
    free = groups.odds(fight, curve_rounds=4)
    cut = groups.odds(fight, max_rounds=4, curve_rounds=4)
    assert cut.outcomes["undecided"] == pytest.approx(free.curve[3]["running"], abs=1e-12)
    assert cut.curve == free.curve
    assert abs(sum(cut.outcomes.values()) - 1) <= cut.solver.max_error


# --- the text's fight ----------------------------------------------------------------------------

TEXT_FIGHT = {"sides": [{"name": "Legionär", "bag": LEGIONARY.counts(), "difficulty": "easy"},
                        {"name": "Affenmenschen", "members": [
                            {"name": "Affenmensch 1", "bag": APE_MAN.counts(), "difficulty": "easy"},
                            {"name": "Affenmensch 2", "bag": APE_MAN.counts(), "difficulty": "easy"}]}]}


def test_the_texts_first_round_against_two_ape_men(post):
    """"Im ersten Durchgang zieht der Legionär drei rote Murmeln, der Affenmensch jedoch nur eine. Zwei
    Murmeln aus dem Beutel des Affenmenschen müssen durch schwarze Murmeln ersetzt werden. Gegen den
    zweiten Affenmenschen sieht es schlechter für den Legionär aus, er zieht zwar zwei rote Murmeln, sein
    Gegner jedoch drei, und der Legionär erleidet eine Verletzung, die dazu führt, dass eine seiner
    Murmeln durch eine schwarze ausgetauscht werden muss.\""""
    manual = ["red", "red", "red", "red", "white", "green",  # Legionär 3 red, Affenmensch 1 one red
              "red", "green",  # the serious injury: two marbles of Affenmensch 1 turn black
              "red", "red", "white", "red", "red", "red",  # Legionär 2 red, Affenmensch 2 three
              "green"]  # the light injury: one marble of the Legionär turns black
    status, body = post("/v1/beutelschneider/encounter?lang=de", {**TEXT_FIGHT, "max_rounds": 1, "manual": manual})
    assert status == 200, body
    first, second = body["result"]["steps"]
    assert [p["name"] for p in first["participants"]] == ["Legionär", "Affenmensch 1"]
    assert first["winner"] == "Legionär" and first["margin"] == 2 and first["injury"]["severity"] == "serious"
    assert [p["name"] for p in second["participants"]] == ["Legionär", "Affenmensch 2"]
    assert second["winner"] == "Affenmensch 2" and second["injury"]["target"] == "Legionär"
    assert second["injury"]["severity"] == "light"
    ends = {end["name"]: end["bag"] for end in body["result"]["end"]}
    assert ends["Affenmensch 1"] == {"red": 9, "green": 4, "blue": 0, "white": 5, "black": 2}
    assert ends["Legionär"] == {"red": 8, "green": 3, "blue": 0, "white": 5, "black": 4}
    assert body["result"]["outcome"] == "undecided" and body["result"]["exchanges"] == 2


def test_the_texts_fight_is_solved_on_its_reduced_space(post):
    """The text's fight with 20-marble bags: Legionär (8 red, 9 other) against two Affenmenschen
    (10 red, 10 other each), three marbles each ("auf beiden Seiten jeweils drei Murmeln")."""
    status, body = post("/v1/beutelschneider/encounter/odds", {**TEXT_FIGHT, "aftermath": {"mortal_danger": "clear"}})
    assert status == 200, body
    solver = body["solver"]
    assert solver["precision"] == "float64" and solver["max_error"] <= 1e-12
    # all three standing, or the Legionär and one Affenmensch: the fallen one's bag leaves the state
    assert solver["states"] <= 9 * 10 * 11 * 11 * 11 * 11 + 2 * 9 * 10 * 11 * 11
    outcomes = {entry["outcome"]: entry["probability"] for entry in body["odds"]["outcomes"]}
    assert abs(sum(outcomes.values()) - 1) <= solver["max_error"]
    assert outcomes["wins:Affenmenschen"] > 0.99  # two against one, three draws each


def test_a_fight_over_the_reduced_bound_is_refused_before_solving(post, monkeypatch):
    monkeypatch.setattr(sweep, "odds", lambda *a, **k: pytest.fail("solved"))
    three = {**TEXT_FIGHT, "sides": [TEXT_FIGHT["sides"][0], {"name": "Affenmenschen", "members": [
        {"name": f"Affenmensch {i}", "bag": APE_MAN.counts(), "difficulty": "easy"} for i in range(3)]}]}
    status, body = post("/v1/beutelschneider/encounter/odds", three)
    assert status == 422 and body["type"].endswith("/encounter-too-large")
    # per set of standing members with someone on each side, Π (red + 1)(other non-black + 1); 3 pairings
    assert body["states"] == 9 * 10 * ((1 + 11 * 11) ** 3 - 1) * 3
    assert body["limit"]["value"] == 8_000_000


def test_explicit_pairs_set_the_order_and_unknown_names_are_refused(post):
    small = {"sides": [{"name": "L", "bag": {"red": 3, "green": 1, "black": 1}},
                       {"name": "Affen", "members": [{"name": "A1", "bag": {"red": 2, "white": 1}},
                                                     {"name": "A2", "bag": {"red": 1, "white": 2}}]}]}
    status, body = post("/v1/beutelschneider/encounter", {**small, "pairs": [["L", "A2"], ["L", "A1"]], "seed": 1})
    assert status == 200, body
    assert [p["name"] for p in body["result"]["steps"][0]["participants"]] == ["L", "A2"]
    status, odds = post("/v1/beutelschneider/encounter/odds", small)
    assert status == 200 and {e["outcome"] for e in odds["odds"]["outcomes"]} >= {"wins:L", "wins:Affen"}
    assert "black_after:A2" in odds["odds"]["expected"]
    status, bad = post("/v1/beutelschneider/encounter/odds?lang=de", {**small, "pairs": [["A1", "L"]]})
    assert status == 422 and "pairs.0.0" in bad["errors"]
    status, both = post("/v1/beutelschneider/encounter/odds", {"sides": [
        {"name": "L", "bag": {"red": 1}, "members": [{"name": "x", "bag": {"red": 1}}]}, small["sides"][1]]})
    assert status == 422


# --- E5 as amended 2026-12-04: only the side left behind draws -----------------------------------

# 2 v 1 in which a winner of either side may lie unconscious at the end, and the thief may get away
# leaving the wolf behind.
LEFT_BEHIND_FIGHTS = {
    "two against one": ([Side("Wolf 1", Bag(red=2, white=1, black=1)), Side("Wolf 2", Bag(red=2, green=1, black=1))],
                        [Side("Jäger", Bag(red=3, white=2, black=1))]),
    "a thief flees, the wolf stays": ([Side("Dieb", Bag(green=3, red=1, black=1), ability=Ability.SKILL),
                                       Side("Wolf", Bag(red=2, white=1, black=1))],
                                      [Side("Wache", Bag(red=3, white=1, black=1))]),
}


@pytest.mark.parametrize("name", LEFT_BEHIND_FIGHTS)
@pytest.mark.parametrize("winners_draw", [False, True])
def test_e5_the_reduced_space_weighs_each_fall_as_the_full_states_read_the_end(name, winners_draw):
    """E5 as amended: "auf dem Schlachtfeld zurückgelassen" are the losing side's unconscious (both
    after `both_out`, the fleeing side's after an escape); the reduced space cannot see the end when
    a member falls and weighs the fall by the backward pass, the full states (`max_rounds`) read it."""
    first, second = LEFT_BEHIND_FIGHTS[name]
    fight = fight_of(("F", first), ("S", second))
    swept = groups.odds(fight, aftermath=Danger.CLEAR, winners_draw=winners_draw)
    full = groups.odds(fight, aftermath=Danger.CLEAR, winners_draw=winners_draw, max_rounds=300)
    assert full.outcomes["undecided"] < 1e-30
    for member in fight.members:
        key = f"dies:{member.name}"
        assert swept.expected[key] == pytest.approx(full.expected[key], rel=1e-11, abs=1e-13), key
    every = groups.odds(fight, aftermath=Danger.CLEAR, winners_draw=True)
    tended = [m.name for m in fight.members if swept.expected[f"dies:{m.name}"] < every.expected[f"dies:{m.name}"]]
    assert bool(tended) != winners_draw  # the rule changes something in these fights, not nothing


def test_e5_seeded_rolling_fights_draw_only_for_those_left_behind():
    """The rolling twin: only the unconscious "auf dem Schlachtfeld zurückgelassen" draw, the rest
    are `tended`; each member's deaths agree with `dies:<member>` (3 sigma over 4000 fights)."""
    first, second = LEFT_BEHIND_FIGHTS["a thief flees, the wolf stays"]
    fight = fight_of(("Die Diebe", first), ("Die Wache", second))
    odds = groups.odds(fight, aftermath=Danger.CLEAR)
    source = GeneratorSource(random.Random(53), "seeded")
    runs = 4000
    deaths = dict.fromkeys((m.name for m in fight.members), 0)
    seen_escape_with_fallen = seen_tended = 0
    for _ in range(runs):
        result = groups.play(fight, source, aftermath=Danger.CLEAR)
        fallen = {end.name for end in result.end if end.unconscious}
        drawing = {draw.name for draw in result.aftermath}
        assert drawing | set(result.tended) == fallen and not drawing & set(result.tended)
        for name in fallen:
            side = "Die Diebe" if name in ("Dieb", "Wolf") else "Die Wache"
            other = "Die Wache" if side == "Die Diebe" else "Die Diebe"
            assert (name in drawing) == encounter.left_behind(result.outcome, side, other), (result.outcome, name)
        seen_escape_with_fallen += result.outcome == "escapes:Die Diebe" and bool(fallen)
        seen_tended += bool(result.tended)
        for draw in result.aftermath:
            deaths[draw.name] += draw.dies
    assert seen_escape_with_fallen and seen_tended  # both readings of the ruling were met
    for name, count in deaths.items():
        p = odds.expected[f"dies:{name}"]
        assert abs(count - runs * p) <= 3 * math.sqrt(runs * p * (1 - p)) + 1, (name, count, runs * p)


def test_e5_winners_draw_false_is_the_default_in_the_body(post):
    body = {"sides": [{"name": "Die Wölfe", "members": [
        {"name": "Wolf 1", "bag": {"red": 2, "white": 1, "black": 1}},
        {"name": "Wolf 2", "bag": {"red": 2, "green": 1, "black": 1}}]},
        {"name": "Jäger", "bag": {"red": 3, "white": 2, "black": 1}}], "aftermath": {"mortal_danger": "clear"}}
    status, default = post("/v1/beutelschneider/encounter/odds", body)
    assert status == 200 and default["request"]["aftermath"]["winners_draw"] is False
    status, every = post("/v1/beutelschneider/encounter/odds",
                         {**body, "aftermath": {"mortal_danger": "clear", "winners_draw": True}})
    assert status == 200
    assert default["odds"]["expected"]["dies:Wolf 1"] < every["odds"]["expected"]["dies:Wolf 1"]
    assert default["odds"]["expected"]["dies:Jäger"] == pytest.approx(every["odds"]["expected"]["dies:Jäger"])
