"""The rulings on the pure rules (no HTTP), and the chat lines in both languages."""

from __future__ import annotations

import pytest

from service.platform.dice.randomness import ManualSource
from service.platform.values.errors import InputError, RuleViolation
from service.platform.words.catalogs import translations
from service.systems.beutelschneider import rules, text
from service.systems.beutelschneider.rules import Ability, Bag, Colour, Contender, CreationRules, Difficulty, Severity

R, G, B, W, K = Colour.RED, Colour.GREEN, Colour.BLUE, Colour.WHITE, Colour.BLACK
BAG = Bag(red=8, green=6, white=3, black=3)


def manual(*values):
    return ManualSource([colour.value for colour in values])


@pytest.mark.parametrize("drawn, unconscious", [((K,), True), ((K, K), True), ((K, K, K), True),
                                                ((K, W), False), ((), False)])
def test_ruling_1_unconscious_only_when_every_marble_is_black(drawn, unconscious):
    """Ruling 1: "... jemals nur schwarze Murmeln ziehen sollte (also zwei schwarze Murmeln bei
    gewöhnlicher Schwierigkeit, drei ... bei niedriger ..., oder eine ... bei hoher Schwierigkeit)"."""
    assert rules.is_unconscious(drawn) is unconscious


@pytest.mark.parametrize("scores, winner, margin", [
    ([2, 1, 0], 0, 1), ([0, 3, 1], 1, 2), ([2, 2, 1], None, 0), ([1, 3, 3], None, 0), ([0, 0], None, 0),
])
def test_ruling_2_most_matching_wins_by_the_next_best(scores, winner, margin):
    """Ruling 2: "Wer die meisten passenden Murmeln gezogen hat, der konnte sich durchsetzen";
    margin over the next best; a tie at the top has no winner."""
    assert rules.decide(scores) == (winner, margin)


def test_ruling_3_no_injury_on_a_tie():
    attacker = Contender("a", BAG, Ability.COMBAT, Difficulty.HARD)
    defender = Contender("b", BAG, Ability.COMBAT, Difficulty.HARD)
    result = rules.combat(attacker, defender, manual(R, R))
    assert (result.winner, result.injury) == (None, None)


def test_ruling_3_magic_winner_inflicts_nothing():
    """Ruling 3: only a winner using combat inflicts an injury."""
    attacker = Contender("Zauberer", Bag(blue=5, white=1), Ability.MAGIC, Difficulty.EASY)
    defender = Contender("Barbar", BAG, Ability.COMBAT, Difficulty.HARD)
    result = rules.combat(attacker, defender, manual(B, B, B, W))
    assert (result.winner, result.margin, result.injury) == ("Zauberer", 3, None)


def test_ruling_4_healing_colours_and_count():
    """Ruling 4: "eine beliebige farbige Murmel": red, green or blue, one per black marble drawn."""
    assert rules.healed(BAG, (K, G, K), [B, G]) == Bag(red=8, green=7, blue=1, white=3, black=1)
    with pytest.raises(RuleViolation, match="ruling 4") as raised:
        rules.healed(BAG, (K, G, K), [B])
    assert raised.value.field == "replacements"
    with pytest.raises(RuleViolation, match="ruling 4") as raised:
        rules.healed(BAG, (K,), [W])
    assert raised.value.field == "replacements.0"


def test_ruling_5_experience_exchanges():
    """Ruling 5 / "Dies gilt auch für weiße und schwarze Murmeln": a black marble drawn may become
    white; the new colour differs from the drawn one and is never black."""
    assert rules.experienced(BAG, (K, R), [W, None]) == Bag(red=8, green=6, white=4, black=2)
    with pytest.raises(RuleViolation, match="anderen Farbe") as raised:
        rules.experienced(BAG, (K, R), [W, R])
    assert raised.value.field == "replacements.1"
    with pytest.raises(RuleViolation, match="never puts a black"):
        rules.experienced(BAG, (R,), [K])


def test_ruling_6_first_aid_grants_one_healing_draw_per_green():
    """Ruling 6: "wobei für jede bei der Versorgung gezogene grüne Murmel dann entsprechend eine
    Murmel bei der Heilung gezogen werden darf"."""
    result = rules.first_aid(BAG, Difficulty.EASY, manual(G, K, G))
    assert (result.success, result.healing_draws) == (True, 2)
    assert rules.first_aid(BAG, Difficulty.NORMAL, manual(R, W)).healing_draws == 0


@pytest.mark.parametrize("bag, problems", [
    (Bag(red=9, green=6, white=5), ()),
    (Bag(blue=15, white=5), ()),  # "maximal 15 Murmeln einer Farbe (zusätzlich zu den 5 weißen)"
    (Bag(red=10, green=6, white=4), (rules.BagProblem.WHITE, rules.BagProblem.FREE)),
    (Bag(red=9, green=6, white=5, black=1), (rules.BagProblem.SIZE, rules.BagProblem.BLACK)),
    (Bag(red=10, green=6, white=5, black=1), (rules.BagProblem.SIZE, rules.BagProblem.FREE, rules.BagProblem.BLACK)),
])
def test_ruling_7_creation(bag, problems):
    """Ruling 7: 20 marbles, "5 dieser Murmeln müssen weiß sein", the other 15 on red/green/blue."""
    assert tuple(f.problem for f in rules.check_creation(bag, CreationRules())) == problems


def test_variant_creation_rules():
    assert rules.check_creation(Bag(red=20, white=10), CreationRules(size=30, white=10, free=20)) == ()


def test_bags_are_never_mutated():
    before = Bag(red=2, black=1)
    after = rules.injury(before, Severity.SERIOUS, manual(R, R)).bag_after
    assert (before, after) == (Bag(red=2, black=1), Bag(black=3))


def test_a_bag_is_read_and_written_colour_by_colour():
    counts = {"red": 9, "green": 6, "blue": 1, "white": 5, "black": 2}
    bag = Bag.of(counts)
    assert [bag.count(colour) for colour in Colour] == [9, 6, 1, 5, 2]
    assert (bag.counts(), bag.total) == (counts, 23)
    assert Bag.of({"white": 3}) == Bag(white=3)


def test_drawing_more_than_the_bag_holds_names_the_bag():
    with pytest.raises(InputError) as raised:
        rules.challenge(Bag(red=1), Ability.COMBAT, Difficulty.EASY, manual(R))
    assert raised.value.field == "bag"


# --- chat lines ---------------------------------------------------------------------------------

def test_marbles_read_like_the_rules_text():
    assert text.marbles((G, W), translations("de")) == "eine grüne und eine weiße Murmel"
    assert text.marbles((R, R), translations("de")) == "zwei rote Murmeln"
    assert text.marbles((W, G, R), translations("de")) == "eine weiße, eine grüne und eine rote Murmel"
    assert text.marbles((B, K), translations("en")) == "a blue and a black marble"
    assert text.marbles((R, R, W), translations("en")) == "two red and a white marble"


def test_challenge_lines():
    result = rules.challenge(Bag(blue=1, white=1, red=1), Ability.MAGIC, Difficulty.EASY, manual(B, W, R))
    assert text.challenge(result, Ability.MAGIC, Difficulty.EASY, "Ayla", "de") == (
        "Ayla zieht bei einer besonders einfachen Herausforderung auf Magie eine blaue, eine weiße und "
        "eine rote Murmel. Bestanden.")
    assert text.challenge(result, Ability.MAGIC, Difficulty.EASY, "Ayla", "en") == (
        "Ayla draws a blue, a white and a red marble in an especially easy magic challenge. Success.")


def test_combat_lines():
    attacker = Contender("Legionär", BAG, Ability.COMBAT, Difficulty.NORMAL)
    defender = Contender("Affenmensch", Bag(red=3, green=3), Ability.COMBAT, Difficulty.NORMAL)
    result = rules.combat(attacker, defender, manual(R, R, G, G, G, R))
    assert text.combat(result, "de") == (
        "Schlagabtausch – Legionär (Kampf): zwei rote Murmeln; Affenmensch (Kampf): zwei grüne Murmeln. "
        "Legionär setzt sich mit zwei Murmeln Vorsprung durch. Affenmensch erleidet eine ernsthafte "
        "Verletzung: eine grüne und eine rote Murmel durch schwarze ersetzt.")
    assert text.combat(result, "en") == (
        "Exchange of blows – Legionär (combat): two red marbles; Affenmensch (combat): two green marbles. "
        "Legionär prevails by two marbles. Affenmensch suffers a serious injury: a green and a red marble "
        "replaced by black ones.")


def test_combat_line_for_a_single_marble_injury():
    attacker = Contender("Legionär", BAG, Ability.COMBAT, Difficulty.NORMAL)
    defender = Contender("Affenmensch", Bag(red=3, green=3), Ability.COMBAT, Difficulty.NORMAL)
    result = rules.combat(attacker, defender, manual(R, G, G, G, G))  # one red ahead: a light injury
    assert text.combat(result, "en").endswith("a green marble replaced by a black one.")
    assert text.combat(result, "de").endswith("eine grüne Murmel durch eine schwarze ersetzt.")


def test_healing_lines():
    result = rules.healing(BAG, 2, manual(G, K))
    assert text.healing(result, "Matthäus", "de") == (
        "Matthäus zieht zur Heilung eine grüne und eine schwarze Murmel. Die schwarze Murmel darf durch "
        "eine farbige ersetzt werden.")
    assert text.healing(result, "Matthäus", "en") == (
        "Matthäus draws a green and a black marble for healing. The black marble may be replaced by a red, "
        "green or blue one.")
