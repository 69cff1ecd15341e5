"""Advice for a Beutelschneider fight of two (RULINGS.md "Advice", Beutelschneider: "Flucht wird über
Geschick abgehandelt"; the ability chosen anew before every exchange, given both bags as they stand).

Oracles: the fight's own odds (service/systems/beutelschneider/encounter.py) for every fixed ability,
an exact model in Fractions written from the rules here (every draw's colours counted, ruling 1, 3,
E2, E6), brute force over every deterministic choice per state on small fights, and a hand-worked
fight with its fractions.
"""

from __future__ import annotations

import itertools
from fractions import Fraction
from functools import cache
from math import comb

import pytest

from service.systems.beutelschneider import advice, encounter
from service.systems.beutelschneider.encounter import Side
from service.systems.beutelschneider.rules import Ability, Bag, Difficulty

HARD, EASY = Difficulty.HARD, Difficulty.EASY
COLOURS = ("red", "green", "blue", "white", "black")
Counts = tuple[int, int, int, int, int]


def _draws(bag: Counts, count: int):
    """Every composition of ``count`` marbles drawn without replacement, with its chance."""
    count = min(count, sum(bag))
    for drawn in itertools.product(*(range(n + 1) for n in bag)):
        if sum(drawn) == count:
            ways = 1
            for n, k in zip(bag, drawn):
                ways *= comb(n, k)
            yield drawn, Fraction(ways, comb(sum(bag), count))


def _injured(bag: Counts, margin: int):
    """Ruling 3: ``margin`` marbles drawn, each replaced by black."""
    for drawn, p in _draws(bag, margin):
        after = [n - k for n, k in zip(bag, drawn)]
        after[4] += sum(drawn)
        yield tuple(after), p


def _exchange(me: Counts, them: Counts, mine: Ability, theirs: Ability, draws: tuple[int, int],
              injuring=frozenset({Ability.COMBAT})):
    """(kind, after) with chances: kind "run" (the bags after), "win", "lose", "safe" (an escape)."""
    colour = {Ability.COMBAT: 0, Ability.SKILL: 1, Ability.MAGIC: 2}
    for drawn_me, p in _draws(me, draws[0]):
        for drawn_them, q in _draws(them, draws[1]):
            out_me, out_them = sum(drawn_me) == drawn_me[4], sum(drawn_them) == drawn_them[4]
            if out_me or out_them:
                yield ("lose" if out_me else "win"), None, p * q  # E2: both out is a loss too
                continue
            a, b = drawn_me[colour[mine]], drawn_them[colour[theirs]]
            if a == b:
                yield "run", (me, them), p * q
            elif (a > b and mine not in injuring) or (b > a and theirs not in injuring):
                yield "safe", None, p * q  # E6: the winner with a non-injuring ability gets away
            elif a > b:
                for after, r in _injured(them, a - b):
                    yield "run", (me, after), p * q * r
            else:
                for after, r in _injured(me, b - a):
                    yield "run", (after, them), p * q * r


def _value(start: tuple[Counts, Counts], policy, theirs: Ability, draws: tuple[int, int]):
    """(win, not lose) when the advised side plays ``policy`` (state -> ability): the exchange that
    changes nothing divided out; a state where nothing can change is a stalemate."""
    @cache
    def value(state):
        stay, win, safe = Fraction(0), Fraction(0), Fraction(0)
        for kind, after, p in _exchange(*state, policy(state), theirs, draws):
            if kind == "run" and after == state:
                stay += p
            elif kind == "run":
                w, s = value(after)
                win, safe = win + p * w, safe + p * s
            elif kind == "win":
                win, safe = win + p, safe + p
            elif kind == "safe":
                safe += p
        if stay == 1:
            return Fraction(0), Fraction(1)
        return win / (1 - stay), safe / (1 - stay)
    return value(start)


def _states(start: tuple[Counts, Counts], abilities, theirs: Ability, draws: tuple[int, int]) -> list:
    """Every state some choice can reach."""
    seen, stack = {start}, [start]
    while stack:
        state = stack.pop()
        for ability in abilities:
            for kind, after, _ in _exchange(*state, ability, theirs, draws):
                if kind == "run" and after not in seen:
                    seen.add(after)
                    stack.append(after)
    return sorted(seen)


def _counts(bag: Bag) -> Counts:
    return tuple(getattr(bag, colour) for colour in COLOURS)  # type: ignore[return-value]


def brute_force(me: Side, them: Side, abilities) -> tuple[Fraction, Fraction]:
    """The best (win, then not lose) over every deterministic choice per state."""
    start = (_counts(me.bag), _counts(them.bag))
    draws = (me.difficulty.draws, them.difficulty.draws)
    states = _states(start, abilities, them.ability, draws)
    best = (Fraction(-1), Fraction(-1))
    for chosen in itertools.product(abilities, repeat=len(states)):
        table = dict(zip(states, chosen))
        best = max(best, _value(start, table.__getitem__, them.ability, draws))
    return best


SMALL = {
    "no red left, the flight ties": (Side("Dieb", Bag(green=1, black=1), difficulty=HARD),
                                     Side("Wache", Bag(red=1, black=1), difficulty=HARD)),
    "red and green, a guard who may draw white": (Side("Dieb", Bag(red=1, green=1, black=1), difficulty=HARD),
                                                  Side("Wache", Bag(red=1, white=1, black=1), difficulty=HARD)),
    "two draws against one": (Side("Dieb", Bag(red=1, green=1, black=1)),
                              Side("Wache", Bag(red=1, white=1), difficulty=HARD)),
}


@pytest.mark.parametrize("name", SMALL)
def test_the_adaptive_optimum_is_the_best_of_every_deterministic_choice_per_state(name):
    """RULINGS.md "Advice": "adaptive: flee or fight anew before every exchange, given both bags as
    they stand", checked against every deterministic policy of the small fight."""
    me, them = SMALL[name]
    abilities = (Ability.COMBAT, Ability.SKILL)
    solved = advice.solve(me, them, abilities)
    win, not_lose = brute_force(me, them, abilities)
    assert solved.win == pytest.approx(float(win), abs=1e-12)
    assert solved.not_lose == pytest.approx(float(not_lose), abs=1e-12)
    for ability in abilities:  # never below a fixed ability: the fight's own odds
        fixed = encounter.odds([Side(me.name, me.bag, ability, me.difficulty), them]).outcomes[f"wins:{me.name}"]
        assert solved.win >= fixed - 1e-12


@pytest.mark.parametrize("name", SMALL)
def test_one_ability_only_is_the_fights_own_odds(name):
    me, them = SMALL[name]
    for ability in (Ability.COMBAT, Ability.SKILL):
        solved = advice.solve(Side(me.name, me.bag, ability, me.difficulty), them, (ability,))
        odds = encounter.odds([Side(me.name, me.bag, ability, me.difficulty), them])
        assert solved.win == pytest.approx(odds.outcomes[f"wins:{me.name}"], abs=1e-13)


def test_hand_worked_a_thief_without_red_does_better_with_geschick():
    """The thief (1 green, 1 black, one marble drawn) against a guard (1 red, 1 black, one marble).
    Kampf: the thief never draws red. Both black 1/4 (both out), thief black 1/4 (out), guard black
    1/4 (the guard falls: a win), thief green and guard red 1/4: the guard wins by 1 and draws one of
    the thief's two marbles, green 1/2 (the thief holds only black: lost from there) or black 1/2
    (nothing changes). Win = (1/4) / (1 − 1/8) = 2/7. Geschick: green against red is a tie (1/4 stays),
    so win = (1/4) / (1 − 1/4) = 1/3: the flight never succeeds here, but it spares the injury."""
    thief, guard = SMALL["no red left, the flight ties"]
    fight = encounter.odds([thief, guard]).outcomes["wins:Dieb"]
    flight = encounter.odds([Side("Dieb", thief.bag, Ability.SKILL, HARD), guard]).outcomes["wins:Dieb"]
    assert fight == pytest.approx(2 / 7, abs=1e-15)
    assert flight == pytest.approx(1 / 3, abs=1e-15)
    solved = advice.solve(thief, guard, (Ability.COMBAT, Ability.SKILL))
    assert solved.win == pytest.approx(1 / 3, abs=1e-15)
    assert brute_force(thief, guard, (Ability.COMBAT, Ability.SKILL)) == (Fraction(1, 3), Fraction(1, 3))
    assert solved.where(Ability.SKILL)[-1]  # the start state chooses Geschick


def test_the_texts_fight_adaptive_is_the_fixed_fight_within_rounding():
    """"Im Kampf wird jeweils ein Schlagabtausch ... als eine Auseinandersetzung behandelt": the
    Legionär against an Affenmensch; with skill to choose, the optimum wins what fighting wins (a
    flight ends without a win) and loses less."""
    me = Side("Legionär", Bag(red=8, green=4, white=5, black=3), difficulty=EASY)
    them = Side("Affenmensch", Bag(red=10, green=5, white=5), difficulty=EASY)
    fixed = encounter.odds([me, them])
    solved = advice.solve(me, them, (Ability.COMBAT, Ability.SKILL))
    assert solved.win == pytest.approx(fixed.outcomes["wins:Legionär"], abs=1e-10)
    assert solved.not_lose >= fixed.outcomes["wins:Legionär"] + fixed.outcomes["stalemate"]
    assert solved.states == advice.state_bound(me, them, (Ability.COMBAT, Ability.SKILL)) or \
        solved.states <= advice.state_bound(me, them, (Ability.COMBAT, Ability.SKILL))


def test_http_every_option_is_the_fights_own_odds_and_the_adaptive_is_never_below(post):
    """API.md §1.10 over HTTP: each fixed `ability` answered as `beutelschneider.encounter.odds` answers
    the body with it; the adaptive optimum never below the best fixed option; the thief's rule."""
    body = {"sides": [{"name": "Dieb", "bag": {"green": 1, "black": 1}, "difficulty": "hard"},
                      {"name": "Wache", "bag": {"red": 1, "black": 1}, "difficulty": "hard"}]}
    status, answer = post("/v1/beutelschneider/encounter/advice?lang=de", {**body, "advise": {"side": "Dieb"}})
    assert status == 200, answer
    advised = answer["advice"]
    for option in advised["options"]:
        sides = [{**body["sides"][0], "ability": option["policy"]["ability"]}, body["sides"][1]]
        status, odds = post("/v1/beutelschneider/encounter/odds", {"sides": sides})
        won = next(entry for entry in odds["odds"]["outcomes"] if entry["outcome"] == "wins:Dieb")
        assert option["win"]["probability"] == won["probability"]
    assert advised["best"]["policy"] == {"ability": "skill"}
    assert advised["best"]["win"]["probability"] == pytest.approx(1 / 3, abs=1e-15)
    assert advised["default"]["win"]["probability"] == pytest.approx(2 / 7, abs=1e-15)
    assert advised["adaptive"]["win"]["probability"] >= advised["best"]["win"]["probability"] - 1e-12
    assert "Wechsle zu Geschick (grün: die Flucht), sobald für Kampf (rot) keine Murmel mehr übrig ist." in \
        advised["adaptive"]["rules"]


def test_http_groups_offer_pairs_and_no_adaptive(post):
    body = {"sides": [{"name": "Legionär", "bag": {"red": 3, "white": 2}},
                      {"name": "Affen", "members": [{"name": "A1", "bag": {"red": 2, "white": 1}},
                                                    {"name": "A2", "bag": {"red": 1, "green": 1, "white": 1}}]}],
            "advise": {"side": "Legionär"}}
    status, answer = post("/v1/beutelschneider/encounter/advice", body)
    assert status == 200, answer
    policies = [option["policy"] for option in answer["advice"]["options"]]
    assert {"ability": "combat", "pairs": [["Legionär", "A2"], ["Legionär", "A1"]]} in policies
    assert answer["advice"]["adaptive"] is None  # between sides of several: not solved (notes)


def test_http_where_deciding_anew_wins_no_more_but_loses_less_it_says_so(post):
    """RULINGS.md "Advice": ties broken by the chance not to lose. A thief with one black marble against a
    stronger guard wins only by fighting; where winning is out of reach, fleeing ("Flucht wird über
    Geschick abgehandelt") loses less. The adaptive rule then says so, not "play the best fixed option"
    (review of stop 56: "choose skill in 249 states" beside "no gain")."""
    body = {"sides": [{"name": "Dieb", "bag": {"red": 3, "green": 6, "white": 5, "black": 1}},
                      {"name": "Wache", "bag": {"red": 7, "green": 3, "white": 5}}], "advise": {"side": "Dieb"}}
    status, answer = post("/v1/beutelschneider/encounter/advice", body)
    assert status == 200, answer
    advised = answer["advice"]
    best = advised["options"][0]
    assert best["policy"] == {"ability": "combat"}
    assert advised["adaptive"]["gain_over_best_fixed"]["probability"] < 1e-9
    assert advised["adaptive"]["not_lose"]["probability"] > best["not_lose"]["probability"] + 0.01
    assert advised["adaptive"]["rules"][0].startswith("Choose skill (green: the flight) in ")
    assert advised["adaptive"]["rules"][-1].startswith(
        "Deciding anew in every state wins no more than the best fixed option, but loses less: ")
    assert "loses less" in answer["summary"] and "gains nothing" not in answer["summary"]


def test_the_default_is_combat_whatever_the_body_gives(post):
    """API.md §1.10: `default` is the documented defaults, combat (E4) and E7's order, not the body's
    own ability (stop 57: the systems disagreed)."""
    body = {"sides": [{"name": "Dieb", "bag": {"red": 3, "green": 6, "white": 5, "black": 1}, "ability": "skill"},
                      {"name": "Wache", "bag": {"red": 7, "green": 3, "white": 5}}], "advise": {"side": "Dieb"}}
    status, answer = post("/v1/beutelschneider/encounter/advice", body)
    assert status == 200, answer
    assert answer["advice"]["default"]["policy"] == {"ability": "combat"}
