"""Beutelschneider rulings 8 and 9 (../shared/rules/RULINGS.md), each against the sentence it decides:
a contest of sides of several people, and abilities other than combat that injure; the odds twins
checked against an enumeration of every draw."""

from __future__ import annotations

import itertools
from collections import Counter
from fractions import Fraction

from service.platform.dice.randomness import ManualSource
from service.systems.beutelschneider import odds as beutel_odds
from service.systems.beutelschneider import rules as beutel

# --- Beutelschneider 8: sides of several people --------------------------------------------------


def contender(name, bag, ability="combat", difficulty="normal", side=None):
    return beutel.Contender(name, beutel.Bag.of(bag), beutel.Ability(ability), beutel.Difficulty(difficulty), side)


def test_the_side_of_the_best_participant_wins():
    """Ruling 8: „nur einer von ihnen – beziehungsweise nur eine Seite“: the side of the participant with
    the most matching marbles wins; the margin is over the best of any other side."""
    bag = {"red": 3, "white": 3}
    people = [contender("Ada", bag, side="Helden"), contender("Bo", bag, side="Helden"), contender("Cid", bag)]
    result = beutel.contest(people, ManualSource(["red", "white", "red", "red", "red", "white"]))
    assert (result.winner, result.winning_side, result.margin) == ("Bo", "Helden", 1)
    assert [p.side for p in result.participants] == ["Helden", "Helden", None]


def test_a_tie_at_the_top_within_one_side_is_that_sides_win():
    bag = {"red": 3, "white": 3}
    people = [contender("Ada", bag, side="Helden"), contender("Bo", bag, side="Helden"), contender("Cid", bag)]
    result = beutel.contest(people, ManualSource(["red", "red", "red", "red", "red", "white"]))
    assert (result.winner, result.winning_side, result.margin) == ("Ada", "Helden", 1)
    tied = beutel.contest(people, ManualSource(["red", "white", "white", "white", "red", "white"]))
    assert (tied.winner, tied.winning_side, tied.margin) == (None, None, 0)


def _matching_distribution(c: beutel.Contender) -> dict[int, Fraction]:
    marbles = [colour for colour in beutel.Colour for _ in range(c.bag.count(colour))]
    draws = list(itertools.combinations(range(len(marbles)), c.difficulty.draws))
    counts = Counter(sum(marbles[i] is c.ability.colour for i in draw) for draw in draws)
    return {k: Fraction(n, len(draws)) for k, n in counts.items()}


def test_contest_odds_with_sides_match_every_draw():
    """The odds twin follows ruling 8: one `wins:<side>` per side, against every joint draw."""
    people = (contender("Ada", {"red": 2, "green": 3}, side="Helden"),
              contender("Bo", {"red": 1, "white": 4}, "combat", "easy", side="Helden"),
              contender("Cid", {"red": 3, "white": 2}),
              contender("Dan", {"green": 2, "red": 2}, "skill", "hard"))
    expected: Counter = Counter()
    distributions = [_matching_distribution(c) for c in people]
    for joint in itertools.product(*(d.items() for d in distributions)):
        best: dict[str, int] = {}
        for c, (k, _) in zip(people, joint):
            best[c.side_name] = max(best.get(c.side_name, 0), k)
        ranked = sorted(best.values(), reverse=True)
        p = Fraction(1)
        for _, q in joint:
            p *= q
        outcome = "tie" if ranked[0] == ranked[1] else f"wins:{max(best, key=best.get)}"
        expected[outcome] += p
    odds = beutel_odds.contest(people)
    assert odds.outcomes == dict(expected) | {k: v for k, v in odds.outcomes.items() if k not in expected}
    assert set(odds.outcomes) == {"wins:Helden", "wins:Cid", "wins:Dan", "tie"}
    assert sum(odds.outcomes.values()) == 1


def test_without_sides_the_contest_odds_are_per_participant():
    people = (contender("Ada", {"red": 2, "green": 3}), contender("Bo", {"red": 1, "white": 4}))
    assert set(beutel_odds.contest(people).outcomes) == {"wins:Ada", "wins:Bo", "tie"}


def test_a_side_named_like_a_participant_without_one_is_refused(post):
    bag = {"red": 3}
    status, problem = post("/v1/beutelschneider/contest", {"participants": [
        {"name": "Orks", "bag": bag, "ability": "combat"},
        {"name": "Ada", "bag": bag, "ability": "combat", "side": "Orks"}]})
    assert status == 422 and "participants.1.side" in problem["errors"]


# --- Beutelschneider 9: magic that injures -------------------------------------------------------

MAGE = {"blue": 4, "white": 2}
KNIGHT = {"red": 2, "white": 4}


def test_a_world_where_magic_wounds(post):
    """Ruling 9: „welche Effekte wie Verletzung, Heilung oder Tod durch Magie hervorgerufen werden
    können“ is the group's decision: combat takes `injuring_abilities`, `[combat]` by default."""
    fight = {"attacker": {"name": "Mage", "bag": MAGE, "ability": "magic", "difficulty": "hard"},
             "defender": {"name": "Knight", "bag": KNIGHT, "difficulty": "hard"}, "manual": ["blue", "white"]}
    status, harmless = post("/v1/beutelschneider/combat", fight)
    assert status == 200 and harmless["result"]["injury"] is None
    assert harmless["request"]["injuring_abilities"] == ["combat"]
    assert harmless["summary"].endswith("Mage wins with magic, not combat: nobody is injured.")
    status, wounding = post("/v1/beutelschneider/combat?lang=de", {**fight, "injuring_abilities": ["combat", "magic"],
                                                                   "manual": ["blue", "white", "red"]})
    assert wounding["result"]["injury"]["target"] == "Knight" and wounding["result"]["injury"]["severity"] == "light"
    assert "Knight erleidet eine weniger schwere Verletzung" in wounding["summary"]


def test_the_combat_odds_follow_the_injuring_abilities():
    mage = contender("Mage", MAGE, "magic", "hard")
    knight = contender("Knight", KNIGHT, "combat", "hard")
    default = beutel_odds.combat(mage, knight)
    magic = beutel_odds.combat(mage, knight, frozenset({beutel.Ability.COMBAT, beutel.Ability.MAGIC}))
    assert default.outcomes["wins:Mage"] > 0 and "injury:Knight:light" not in default.outcomes
    assert magic.outcomes["wins:Mage"] == 0
    assert magic.outcomes["injury:Knight:light"] == default.outcomes["wins:Mage"]
    assert sum(magic.outcomes.values()) == 1
