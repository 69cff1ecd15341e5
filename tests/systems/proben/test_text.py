"""Proben's chat lines (text.py): the rows of the native speaker's review
(../shared/reviews/words-2026-12.md) about Proben, each through the API with the table's own dice
(`manual`): the corrected line is what the service writes now, in the language of the row. Row numbers
are the review's."""

from __future__ import annotations

import pytest

from tests.systems.lines import summary


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
