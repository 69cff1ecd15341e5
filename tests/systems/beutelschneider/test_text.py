"""Beutelschneider's chat lines (text.py): the rows of the native speaker's review
(../shared/reviews/words-2026-12.md) about Beutelschneider, each through the API with the table's own dice
(`manual`): the corrected line is what the service writes now, in the language of the row. Row numbers
are the review's."""

from __future__ import annotations

from tests.systems.lines import summary

LEGIONARY = {"red": 8, "green": 4, "white": 5, "black": 3}


def test_rows_1_2_unconscious_has_a_subject_and_a_singular(post):
    """„Nur schwarze Murmeln: handlungsunfähig (Ohnmacht).“ after one black marble; ruling 1."""
    body = {"name": "Konstantin", "bag": LEGIONARY, "ability": "combat", "difficulty": "hard", "manual": ["black"]}
    assert summary(post, "/v1/beutelschneider/challenge", body, "de").endswith(
        "eine schwarze Murmel. Nur Schwarz gezogen: Konstantin wird ohnmächtig (handlungsunfähig).")
    assert summary(post, "/v1/beutelschneider/challenge", body, "en").endswith(
        "Only black drawn: Konstantin falls unconscious.")


def _combat(attacker_draws, defender_draws, injury, defender_ability="combat"):
    return {"attacker": {"name": "Legionär", "bag": LEGIONARY, "difficulty": "easy"},
            "defender": {"name": "Affenmensch", "bag": LEGIONARY, "difficulty": "easy", "ability": defender_ability},
            "manual": [*attacker_draws, *defender_draws, *injury]}


def test_row_3_a_black_marble_drawn_for_an_injury_stays_black(post):
    """„da eine ja bereits schwarz war“: not „eine schwarze Murmel durch eine schwarze ersetzt“; the severity is
    the text's „weniger schweren“ (issue 53), not „leichte“."""
    body = _combat(["red", "white", "white"], ["white", "white", "white"], ["black"])
    de = summary(post, "/v1/beutelschneider/combat", body, "de")
    assert de.endswith("Affenmensch erleidet eine weniger schwere Verletzung: eine schwarze Murmel gezogen, sie bleibt "
                       "schwarz.")
    assert summary(post, "/v1/beutelschneider/combat", body, "en").endswith(
        "a black marble drawn, it stays black.")
    two = _combat(["red", "red", "white"], ["white", "white", "white"], ["black", "black"])
    assert summary(post, "/v1/beutelschneider/combat", two, "de").endswith(
        "zwei schwarze Murmeln gezogen, sie bleiben schwarz.")


def test_row_4_a_winner_who_fled_is_said_so(post):
    """„Der Sieger hat nicht gekämpft“ for one who fled; ruling 3."""
    body = _combat(["white", "white", "white"], ["green", "white", "white"], [], defender_ability="skill")
    assert summary(post, "/v1/beutelschneider/combat", body, "de").endswith(
        "Affenmensch siegt mit Geschick statt Kampf: Niemand wird verletzt.")
    assert summary(post, "/v1/beutelschneider/combat", body, "en").endswith(
        "Affenmensch wins with skill, not combat: nobody is injured.")


def test_rows_5_6_two_marbles_are_beide_and_the_tail_has_a_verb(post):
    body = {"name": "Legionär", "bag": LEGIONARY, "severity": "serious", "manual": ["black", "red"]}
    assert summary(post, "/v1/beutelschneider/injury", body, "de") == (
        "Legionär erleidet eine ernsthafte Verletzung und zieht eine schwarze und eine rote Murmel; beide werden "
        "durch schwarze ersetzt, jetzt sind 4 schwarze im Beutel.")
    assert summary(post, "/v1/beutelschneider/injury", body, "en").endswith(
        "; both are replaced by black ones, so the bag now holds 4 black marbles.")
    three = {**body, "severity": "grave", "manual": ["red", "red", "green"]}
    assert "; alle drei werden durch schwarze ersetzt, jetzt sind 6 schwarze" in summary(
        post, "/v1/beutelschneider/injury", three, "de")


def test_rows_7_8_black_among_several_is_not_one_black_marble(post):
    body = {"name": "Legionär", "bag": LEGIONARY, "danger": "grave", "manual": ["black", "black", "black"]}
    assert summary(post, "/v1/beutelschneider/mortal-danger", body, "de").endswith(
        "drei schwarze Murmeln. Schwarz ist dabei: Legionär stirbt.")
    two = {**body, "danger": "grave", "manual": ["black", "black", "red"]}
    assert summary(post, "/v1/beutelschneider/mortal-danger", two, "en").endswith(
        "There is black among them: Legionär dies.")


def test_row_9_number_words_for_the_black_marbles_drawn(post):
    body = {"name": "Matthäus", "bag": LEGIONARY, "chances": "fair", "manual": ["black", "black"]}
    assert "Die beiden schwarzen Murmeln dürfen" in summary(post, "/v1/beutelschneider/healing", body, "de")
    assert "Both black marbles may" in summary(post, "/v1/beutelschneider/healing", body, "en")
    three = {**body, "chances": "good", "manual": ["black", "black", "black"]}
    assert "Alle drei schwarzen Murmeln dürfen" in summary(post, "/v1/beutelschneider/healing", three, "de")


def test_row_10_fifteen_marbles_in_all(post):
    body = {"bag": {"red": 8, "green": 4, "blue": 4, "white": 5}}
    assert "15 rote, grüne und blaue Murmeln zusammen verlangt, 16 im Beutel" in summary(
        post, "/v1/beutelschneider/validate-bag", body, "de")
    assert "15 red, green and blue marbles in all required" in summary(
        post, "/v1/beutelschneider/validate-bag", body, "en")
