"""Weltenbuch's chat lines (text.py): the rows of the native speaker's review
(../shared/reviews/words-2026-12.md) about Weltenbuch, each through the API with the table's own dice
(`manual`): the corrected line is what the service writes now, in the language of the row. Row numbers
are the review's."""

from __future__ import annotations

from tests.systems.lines import summary


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
