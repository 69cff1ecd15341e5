"""Every row of the native speaker's review (../shared/reviews/words-2026-12.md), each through the API
with the table's own dice (`manual`): the corrected line is what the service writes now, in the
language of the row. Row numbers are the review's."""

from __future__ import annotations

import pytest

LEGIONARY = {"red": 8, "green": 4, "white": 5, "black": 3}


def summary(post, path, body, lang):
    status, response = post(f"{path}?lang={lang}", body)
    assert status == 200, response
    return response["summary"]


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


def test_row_11_an_averted_catastrophe_is_announced(post):
    body = {"name": "Rynn", "rank": 1, "advantages": {"equipment": "passive"}, "manual": [1, 5]}
    assert summary(post, "/v1/paws/test", body, "de") == (
        "Rynn – Probe mit 1W6: 1 → kein Erfolg. Katastrophe! Rettungswürfel: 5 → 1 Erfolg. Das wendet die "
        "Katastrophe ab, die Probe misslingt nur. Rynn erzählt.")


def test_row_12_a_standing_catastrophe_is_said_in_a_comparison(post):
    """Ruling 8: "A catastrophe that stands is said in the chat line before anything averts it"."""
    body = {"a": {"name": "Ryan", "rank": 2}, "b": {"name": "Jack", "rank": 1}, "manual": [1, 1, 4]}
    status, response = post("/v1/paws/comparison?lang=de", body)
    assert response["result"]["a"]["catastrophe"] is True
    assert response["summary"] == ("Vergleich Ryan gegen Jack: 0:1. Katastrophe für Ryan! Jack gewinnt mit einem "
                                   "Erfolg Vorsprung. Ryan erzählt.")


def test_rows_13_31_number_words_and_possessives_in_a_rescued_comparison(post):
    body = {"a": {"name": "Rynn", "rank": 3}, "b": {"name": "Gegner", "rank": 1,
                                                   "advantages": {"equipment": "passive", "personal": "passive"}},
            "manual": [5, 5, 2, 2, 5, 5]}
    de = summary(post, "/v1/paws/comparison", body, "de")
    # Issue 40 (review 2026-12-03, kind 2): names after "für"/"von", no possessive of a name at all.
    assert "Rettungswürfel für Gegner: 5, 5 → 2 Erfolge. Zwei Erfolge heben den Vorsprung von Rynn auf" in de
    en = summary(post, "/v1/paws/comparison", body, "en")
    assert en.startswith("Comparison, Rynn vs. Gegner: 2:0.")
    assert "Rescue dice for Gegner: 5, 5 → 2 successes. Two successes cancel the lead of Rynn" in en


def test_row_14_no_dice_reads_as_words(post):
    body = {"name": "Alrik", "rank": 0, "fit": "fallback"}
    assert summary(post, "/v1/paws/test", body, "de").startswith(
        "Alrik – Probe ohne Würfel (0W6): kein Erfolg. Die Probe misslingt.")


def test_row_15_one_count_one_way(post):
    line = summary(post, "/v1/paws/rescue", {"dice": 2, "manual": [4, 1]}, "de")
    assert line == "Rettungswürfel (2W6): 4, 1 → 1 Erfolg, er wendet einen negativen Effekt ab."


def test_rows_16_17_the_scene_and_an_empty_narration_order(post):
    body = {"parties": [{"name": "Helden", "members": [{"name": "Toran", "role": "player", "seat": 1,
                                                         "profile": 1}]},
                        {"name": "Felsklippe", "members": [{"name": "Klippe", "role": "obstacle", "profile": 0}]}],
            "manual": [2]}
    assert "Sieger der Szene: Helden." in summary(post, "/v1/weltenbuch/conflict", body, "de")
    nobody = {"parties": [{"name": "A", "members": [{"name": "Toran", "role": "player", "seat": 1, "profile": 0}]},
                          {"name": "B", "members": [{"name": "Klippe", "role": "obstacle", "profile": 0}]}]}
    assert summary(post, "/v1/weltenbuch/conflict", nobody, "de").endswith(
        "Erzählreihenfolge: niemand, keiner hat Würfel.")
    assert summary(post, "/v1/weltenbuch/conflict", nobody, "en").endswith("Narration order: nobody, no one has dice.")


def test_row_19_the_god_rolled_is_not_a_name(post):
    gods = ["Ares", "Bora", "Cyrus", "Dena", "Eris", "Fenn", "Gor", "Hel"]
    assert summary(post, "/v1/weltenbuch/resurrection", {"gods": gods, "manual": [3]}, "de") == (
        "Wiederauferstehung (W8: 3): Cyrus hat in das Schicksal des Charakters eingegriffen.")
    assert summary(post, "/v1/weltenbuch/resurrection", {"manual": [8]}, "de") == (
        "Wiederauferstehung (W8: 8): Der achte Gott hat in das Schicksal des Charakters eingegriffen.")
    assert summary(post, "/v1/weltenbuch/resurrection", {"gods": gods, "manual": [3]}, "en") == (
        "Resurrection (d8: 3): Cyrus intervened in the character's fate.")


def test_rows_20_21_22_what_could_not_succeed(post):
    body = {"name": "Mira", "attribute": 1, "difficulty": 3, "manual": [6]}
    # Issue 53: a partial success is the GM's option ("kann der Spielleiter Teilerfolge werten").
    assert summary(post, "/v1/proben/test", body, "de").endswith(
        "Misslungen; mit mindestens einem Erfolg kann der Spielleiter einen Teilerfolg werten. Die Probe war nicht "
        "zu schaffen (zu wenige Würfel).")
    assert summary(post, "/v1/proben/test", body, "en").endswith(
        "Failed; with at least one success the GM may count a partial success. The test could not have succeeded "
        "(too few dice).")
    first = {"attribute": 0, "difficulty": 1}
    assert summary(post, "/v1/proben/test", first, "de") == (
        "Probe gegen Schwierigkeit 1 (Einfach): keine Würfel, die Probe ist nicht zu schaffen.")
    retry = {"attribute": 1, "difficulty": 1, "attempt": 2}
    assert summary(post, "/v1/proben/test", retry, "de").endswith("keine Würfel mehr, kein weiterer Versuch.")


@pytest.mark.parametrize("manual, de, en", [
    ([5, 2, 5, 2, 5, 5, 2, 2], "Zusammenarbeit: Beide Unterstützer geben je einen Vorteil.",
     "Cooperation: both helpers grant an advantage each."),
    ([2, 2, 2, 2, 5, 5], "Zusammenarbeit: Keiner der beiden Unterstützer gibt einen Vorteil.",
     "Cooperation: neither helper grants an advantage."),
])
def test_row_23_two_helpers_are_beide(post, manual, de, en):
    body = {"leader": {"attribute": 2}, "helpers": [{"attribute": 2}, {"attribute": 2}], "difficulty": 1,
            "manual": manual}
    assert summary(post, "/v1/proben/cooperation", body, "de").startswith(de)
    assert summary(post, "/v1/proben/cooperation", body, "en").startswith(en)


def test_rows_24_25_units_are_words_of_the_language_with_plurals(post):
    """Ruling Proben 6: known units are written in the request's language with plurals."""
    body = {"name": "Alrik", "attribute": 4, "required": 4, "interval": {"amount": 1, "unit": "hours"},
            "manual": [5, 5, 2, 2, 5, 2, 2, 5, 2]}
    assert "(3 Stunden)" in summary(post, "/v1/proben/extended", body, "de")
    once = {**body, "required": 1, "manual": [5, 2, 2, 2]}
    assert "in 1 roll (1 hour)." in summary(post, "/v1/proben/extended", once, "en")
    assert "(1 Stunde)" in summary(post, "/v1/proben/extended", once, "de")
    other = {**once, "interval": {"amount": 2, "unit": "Gezeiten"}}
    assert "(2 Gezeiten)" in summary(post, "/v1/proben/extended", other, "de")


def test_rows_26_33_opposed_tests(post):
    body = {"a": {"name": "Alrik", "attribute": 2}, "b": {"name": "Stadtwache", "attribute": 2},
            "manual": [5, 2, 5, 2, 6, 6, 2, 2]}
    assert summary(post, "/v1/proben/opposed", body, "de") == (
        "Vergleichende Probe Alrik gegen Stadtwache: Alrik gewinnt (2:0) nach einer Wiederholung.")
    once = {**body, "manual": [6, 6, 5, 2]}
    assert summary(post, "/v1/proben/opposed", once, "en") == "Opposed test, Alrik vs. Stadtwache: Alrik wins (2:1)."


def _attack(stress, manual, defender_max=3):
    return {"attacker": {"name": "Rhea", "skill": 2, "attack": "harm"},
            "defender": {"name": "Ork", "skill": 0, "stress": {"physical": {"current": stress, "max": defender_max},
                                                               "mental": {"current": 2, "max": 2}}},
            "manual": manual}


def test_rows_27_28_a_hit_loses_named_stress_points(post):
    line = summary(post, "/v1/malmsturm/attack", _attack(3, [0, 0, 0, 0, 0, 0, 0, 0]), "de")
    assert "Treffer mit 2 Erfolgen: Ork verliert 2 körperliche Belastungspunkte." in line
    assert line.endswith("Ork hat noch 1 von 3 körperlichen Belastungspunkten.")
    assert summary(post, "/v1/malmsturm/attack", _attack(3, [0] * 8), "en").endswith(
        "Ork has 1 of 3 points of physical stress left.")


def test_rows_29_30_refilled_stress_points_and_one_suggestion(post):
    line = summary(post, "/v1/malmsturm/attack", _attack(1, [0] * 8), "de")
    assert "die Belastungspunkte werden wieder auf 3 aufgefüllt." in line and "Leiste" not in line
    assert "Vorschlag: Körperliche Verwundung." in line


def test_row_32_an_attack_in_defense_mode(post):
    body = {"a": {"name": "Ryan", "rank": 2}, "b": {"name": "Jack", "rank": 1}, "mode": "defense",
            "manual": [5, 5, 4]}
    assert summary(post, "/v1/paws/comparison", body, "en").startswith(
        "Ryan attacks Jack: 2:1. The attack lands by one success.")


def test_row_34_one_colon_per_sentence_in_german(post):
    line = summary(post, "/v1/paws/test", {"name": "Ryan", "rank": 3, "manual": [4, 5, 2]}, "de")
    assert line.startswith("Ryan – Probe mit 3W6: 4, 5, 2 → 2 Erfolge.")
