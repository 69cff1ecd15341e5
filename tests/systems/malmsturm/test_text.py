"""Malmsturm's chat lines (text.py): the rows of the native speaker's review
(../shared/reviews/words-2026-12.md) about Malmsturm, each through the API with the table's own dice
(`manual`): the corrected line is what the service writes now, in the language of the row. Row numbers
are the review's."""

from __future__ import annotations

from tests.systems.lines import summary


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
