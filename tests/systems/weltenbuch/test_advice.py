"""Weltenbuch advice (RULINGS.md "Advice", Weltenbuch): `hold_hero_points` per player ("Pro investierten
Heldenpunkt erhält man 2 Würfel" now, or "die Zähigkeit um drei Punkte zu regenerieren" later, E2) and
`targeting` (E1). The encounter is one roll, so the adaptive optimum is the best fixed option."""

from __future__ import annotations

from fractions import Fraction

from service.systems.weltenbuch.routes import ENCOUNTER_EXAMPLE

DUEL = {"die": 10, "parties": [
    {"name": "Held", "members": [{"name": "Toran", "role": "player", "seat": 1, "profile": 0, "hero_points": 1}]},
    {"name": "Ork", "members": [{"name": "Ork", "role": "npc", "profile": 1}]}],
    "toughness": {"Toran": {"current": 1, "max": 3}, "Ork": {"current": 1, "max": 1}}}


def test_hand_worked_hero_point_now_or_later(post):
    """Toran invests his point: 2 dice against the orc's 1 ("Pro investierten Heldenpunkt erhält man 2
    Würfel"); an even face is a success, so he wins with P(his successes > the orc's) = P(orc 0) ·
    P(Toran ≥ 1) + P(orc 1) · P(Toran 2) = 1/2 · 3/4 + 1/2 · 1/4 = 1/2. Held back, he rolls no die and
    cannot win (0 > anything never holds), but one orc success (1/2) drops his toughness 1 to 0 and
    the held point saves that consequence (E2): his consequence chance falls from 1/2 to 0."""
    status, answer = post("/v1/weltenbuch/encounter/advice", {**DUEL, "advise": {"side": "Held"}})
    assert status == 200, answer
    by_hold = {(o["policy"]["hold_hero_points"]["Toran"], o["policy"]["targeting"]): o
               for o in answer["advice"]["options"]}
    invested, held = by_hold[(0, "weakest")], by_hold[(1, "weakest")]
    assert Fraction(invested["win"]["exact"]) == Fraction(1, 2)
    assert Fraction(held["win"]["exact"]) == 0
    assert invested["expected"]["consequence:Toran"] == 0.5 and held["expected"]["consequence:Toran"] == 0.0
    assert answer["advice"]["best"]["policy"] == {"hold_hero_points": {"Toran": 0}, "targeting": "weakest"}


def test_every_option_is_exactly_the_encounter_odds_of_its_body(post):
    _, answer = post("/v1/weltenbuch/encounter/advice", ENCOUNTER_EXAMPLE)
    options = answer["advice"]["options"]
    assert len(options) == 4 * 3  # Toran and Fayla hold 0 or 1 × three targetings
    points = {"Toran": 1, "Fayla": 1}  # Toran's invested point, Fayla's held one (the example's policy)
    for option in options:
        held = option["policy"]["hold_hero_points"]
        body = {**ENCOUNTER_EXAMPLE, "policy": {"targeting": option["policy"]["targeting"],
                                                "hold_hero_points": {k: v for k, v in held.items() if v}},
                "parties": [{**party, "members": [
                    {**m, "hero_points": points[m["name"]] - held[m["name"]]} if m["name"] in held else m
                    for m in party["members"]]} for party in ENCOUNTER_EXAMPLE["parties"]]}
        status, odds = post("/v1/weltenbuch/encounter/odds", body)
        assert status == 200, odds
        assert option["outcomes"] == {point["outcome"]: {"probability": point["probability"], "exact": point["exact"]}
                                      for point in odds["odds"]["outcomes"]}
        assert option["expected"] == odds["odds"]["expected"]


def test_targeting_is_gleich_gut_and_the_optimum_is_the_best_fixed_option(post):
    """One roll: the adaptive optimum equals the best fixed option and says so; targeting moves
    consequences, never the winner, so the three targetings of one hold are "gleich gut"."""
    _, answer = post("/v1/weltenbuch/encounter/advice?lang=de", ENCOUNTER_EXAMPLE)
    block = answer["advice"]
    assert [o["vs_best"]["equal"] for o in block["options"]][:3] == [True, True, True]
    assert block["adaptive"]["win"] == block["best"]["win"]
    assert block["adaptive"]["gain_over_best_fixed"]["exact"] == "0/1"
    assert block["adaptive"]["rules"][0] == ("Die Szene ist ein einziger Wurf: Jede Wahl fällt, bevor die Würfel "
                                             "fallen, neu zu entscheiden gewinnt also nicht öfter.")


def test_the_side_is_a_party(post):
    status, problem = post("/v1/weltenbuch/encounter/advice", {**DUEL, "advise": {"side": "Toran"}})
    assert status == 422 and problem["errors"] == {"advise.side": ["must be one of: Held, Ork"]}
    status, answer = post("/v1/weltenbuch/encounter/advice", {**DUEL, "advise": {"side": "Ork"}})
    assert status == 200 and answer["advice"]["options"][0]["policy"] == {"hold_hero_points": {},
                                                                         "targeting": "weakest"}
