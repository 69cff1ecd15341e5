"""Weltenbuch ruling 7 (../shared/rules/RULINGS.md): the end of a scene, its hero points and the obstacles
overcome, against the sentence it decides."""

from __future__ import annotations


def test_end_of_scene_hero_points_are_reported_and_obstacles_overcome(post):
    """Ruling 7: hero points given at the end are reported like ledger ones, in `hero_points_spent` and in
    the chat line; an obstacle whose toughness reaches 0 is overcome, and the line says so."""
    conflict_body = {"parties": [
        {"name": "Helden", "members": [{"name": "Toran", "role": "player", "seat": 1, "profile": 2}]},
        {"name": "Berg", "members": [{"name": "Felsklippe", "role": "obstacle", "profile": 1}]}],
        "manual": [2, 4, 1]}
    _, conflict = post("/v1/weltenbuch/conflict", conflict_body)
    status, body = post("/v1/weltenbuch/narration?lang=de", {
        "conflict": conflict, "toughness": {"Toran": {"current": 1, "max": 4}, "Felsklippe": {"current": 2, "max": 2}},
        "spends": [{"member": "Toran", "die": 0, "target": "Felsklippe"},
                   {"member": "Toran", "die": 1, "target": "Felsklippe"}, {"member": "Felsklippe", "die": 0}],
        "hero_points": [{"member": "Toran", "count": 1}]})
    assert status == 200, body
    assert body["result"]["hero_points_spent"] == [{"member": "Toran", "spend": None, "restored": 3}]
    assert body["result"]["overcome"] == ["Felsklippe"]
    assert "1 Heldenpunkt ausgegeben" in body["summary"] and body["summary"].endswith("Überwunden: Felsklippe.")
