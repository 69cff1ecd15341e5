"""Proben ruling 7 (../shared/rules/RULINGS.md): the difficulties named as the text names them."""

from __future__ import annotations


def test_the_difficulty_names_are_in_the_catalogue_and_the_lines(client, post):
    """Ruling 7: 1 Einfach, 2 Standard, 3 Fordernd, 4 and more Schwer."""
    systems = {s["id"]: s for s in client.get("/v1/systems").get_json()["systems"]}
    assert [d["de"] for d in systems["proben"]["difficulties"]] == ["Einfach", "Standard", "Fordernd", "Schwer"]
    status, body = post("/v1/proben/test?lang=de", {"attribute": 6, "difficulty": 5, "seed": 1})
    assert "gegen Schwierigkeit 5 (Schwer)" in body["summary"]
