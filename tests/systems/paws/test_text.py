"""Paws's chat lines (text.py): the rows of the native speaker's review
(../shared/reviews/words-2026-12.md) about Paws, each through the API with the table's own dice
(`manual`): the corrected line is what the service writes now, in the language of the row. Row numbers
are the review's."""

from __future__ import annotations

from tests.systems.lines import summary


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


def test_row_32_an_attack_in_defense_mode(post):
    body = {"a": {"name": "Ryan", "rank": 2}, "b": {"name": "Jack", "rank": 1}, "mode": "defense",
            "manual": [5, 5, 4]}
    assert summary(post, "/v1/paws/comparison", body, "en").startswith(
        "Ryan attacks Jack: 2:1. The attack lands by one success.")


def test_row_34_one_colon_per_sentence_in_german(post):
    line = summary(post, "/v1/paws/test", {"name": "Ryan", "rank": 3, "manual": [4, 5, 2]}, "de")
    assert line.startswith("Ryan – Probe mit 3W6: 4, 5, 2 → 2 Erfolge.")
