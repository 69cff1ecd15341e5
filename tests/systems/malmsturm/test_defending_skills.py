"""Malmsturm ruling 9 (../shared/rules/RULINGS.md): the defending skill per attack kind, as the text's
table gives it."""

from __future__ import annotations


def test_the_defender_skills_per_attack_kind_are_in_the_catalogue(client):
    """Ruling 9: the text's table („jemanden körperlich verletzen | Nahkampf / Fernkampf | Ausweichen“ …)."""
    systems = {s["id"]: s for s in client.get("/v1/systems").get_json()["systems"]}
    skills = systems["malmsturm"]["attack_skills"]
    assert {kind: entry["defender"] for kind, entry in skills.items()} == {
        "harm": ["Ausweichen"], "deceive": ["Menschenkenntnis", "Wahrnehmung"], "intimidate": ["Nerven behalten"],
        "charm": ["Nerven behalten"], "push": ["Körperbeherrschung"], "persuade": ["Menschenkenntnis"]}
