"""The orc ambush of the rules text (002), reproduced through the HTTP API with manual dice.

"Toran und Fayla haben in der Wildnis ein Lager aufgeschlagen. Es ist mitten in der Nacht und Toran
hält Wache, als drei Orks ihr Lager überfallen."
"""

from __future__ import annotations

import pytest

from service.platform.dice.randomness import manual_values

# The text writes a d10's ten as "0"; the API reports faces 1..10 (ruling 1) and accepts 0 in `manual`.
TORAN = [1, 2, 5, 6, 8, 9, 10]  # "(1 2 5 6 8 9 0) = 4 Erfolge"
FAYLA = [1, 6, 10]  # "(1 6 0) = 2 Erfolge"
ORC_1, ORC_2, ORC_3 = [3, 4, 10], [2, 3, 9], [2, 6, 7]  # "(3 4 0)", "(2 3 9)", "(2 6 7)"

AMBUSH = {
    "parties": [
        {"name": "Heroes", "members": [
            # "Silvia würfelt für Toran mit seinem Krieger-Profil (5) und gibt noch einen Heldenpunkt
            # (+2 Würfel) aus"
            {"name": "Toran", "role": "player", "seat": 1, "profile": 5, "hero_points": 1},
            # "Manu würfelt für Fayla mit ihrem Krieger-Profil (2) und ihrer Magiekategorie Lebloses (1)"
            {"name": "Fayla", "role": "player", "seat": 2, "profile": 2, "magic_bonus": 1},
        ]},
        # "Der Spielleiter würfelt für die 3 Orks (Krieger 3, Zähigkeit 2)"
        {"name": "Orcs", "members": [{"name": f"Orc {n}", "role": "npc", "profile": 3} for n in (1, 2, 3)]},
    ],
}
MANUAL = TORAN + FAYLA + ORC_1 + ORC_2 + ORC_3

# Toran's warrior toughness is six ("auf die vollen sechs Punkte"); the text does not say how much he
# had left when the orcs came, nor Fayla's toughness: 4 of 6 and 4 of 4 are our choice.
TOUGHNESS = {
    "Toran": {"current": 4, "max": 6}, "Fayla": {"current": 4, "max": 4},
    **{f"Orc {n}": {"current": 2, "max": 2} for n in (1, 2, 3)},
}
ROUND_1 = [
    # "Toran – 2 Erfolge: ... erwischt so gleich zwei Orks. Die Zähigkeit der Orks sinkt jeweils um einen Punkt."
    {"member": "Toran", "die": 1, "target": "Orc 1"},
    {"member": "Toran", "die": 3, "target": "Orc 2"},
    # "Fayla – 1 Misserfolg: ... trifft aber nur den Baum hinter ihm."
    {"member": "Fayla", "die": 0},
    # "Spielleiter – 1 Erfolg: Der erste Ork ... Torans Krieger-Zähigkeit sinkt um einen Punkt."
    {"member": "Orc 1", "die": 1, "target": "Toran"},
    # "Spielleiter – 1 Erfolg: Der zweite Ork packt Fayla ... Faylas Krieger-Zähigkeit sinkt um einen Punkt."
    {"member": "Orc 2", "die": 0, "target": "Fayla"},
    # "Spielleiter – 1 Misserfolg: Der dritte Ork ... fällt fast in das Feuer."
    {"member": "Orc 3", "die": 2},
]
# "Nun ist Silvia wieder an der Reihe und so geht es weiter, bis alle geworfenen Würfel verbraucht sind."
LATER_ROUNDS = [
    {"member": "Toran", "die": 0}, {"member": "Toran", "die": 4, "target": "Orc 1"},
    {"member": "Fayla", "die": 1, "target": "Orc 3"},
    {"member": "Orc 1", "die": 2, "target": "Toran"}, {"member": "Orc 3", "die": 0, "target": "Toran"},
    {"member": "Toran", "die": 2}, {"member": "Toran", "die": 6, "target": "Orc 2"},
    {"member": "Fayla", "die": 2, "target": "Orc 3"},
    {"member": "Orc 1", "die": 0}, {"member": "Orc 2", "die": 1}, {"member": "Orc 2", "die": 2},
    {"member": "Orc 3", "die": 1, "target": "Toran"},
    {"member": "Toran", "die": 5},
]


@pytest.fixture
def ambush(post):
    status, body = post("/v1/weltenbuch/conflict", {**AMBUSH, "manual": MANUAL})
    assert status == 200, body
    return body


def test_the_dice_entered_exactly_as_printed(post, ambush):
    """Ruling 1: "(1 2 5 6 8 9 0) = 4 Erfolge", "(1 6 0) = 2 Erfolge", "(3 4 0)", "(2 3 9)", "(2 6 7)":
    the text's own dice, a d10's ten written as 0, give the same result; events record 10."""
    as_printed = [1, 2, 5, 6, 8, 9, 0, 1, 6, 0, 3, 4, 0, 2, 3, 9, 2, 6, 7]
    status, body = post("/v1/weltenbuch/conflict", {**AMBUSH, "manual": as_printed})
    assert status == 200, body
    assert body["result"] == ambush["result"]
    assert manual_values(body["randomness"]["events"]) == MANUAL
    assert body["request"]["manual"] == as_printed  # the request is echoed as sent


def test_zero_is_a_ten_only_on_a_d10(post):
    body = {**AMBUSH, "die": 6, "manual": [0] + MANUAL[1:]}
    status, problem = post("/v1/weltenbuch/conflict", body)
    assert status == 422 and "manual.0" in str(problem)


def test_dice_and_successes_per_member(ambush):
    members = {m["name"]: m for m in ambush["result"]["members"]}
    assert [members[n]["dice_count"] for n in ("Toran", "Fayla", "Orc 1", "Orc 2", "Orc 3")] == [7, 3, 3, 3, 3]
    assert members["Toran"]["dice"] == TORAN and members["Toran"]["successes"] == 4
    assert members["Fayla"]["dice"] == FAYLA and members["Fayla"]["successes"] == 2
    # "Ork 1: (3 4 0) = 2 Erfolge", "Ork 2: (2 3 9) = 1 Erfolg", "Ork 3: (2 6 7) = 2 Erfolge"
    assert [members[f"Orc {n}"]["successes"] for n in (1, 2, 3)] == [2, 1, 2]


def test_heroes_win_six_to_five(ambush):
    """"Toran und Fayla erreichen zusammen 6 Erfolge, die Orks nur 5, somit gewinnen die
    Spielercharaktere die Konfliktszene." """
    assert ambush["result"]["parties"] == [{"name": "Heroes", "successes": 6}, {"name": "Orcs", "successes": 5}]
    assert ambush["result"]["winner"] == "Heroes"


def test_toran_starts_then_fayla_then_the_gm(ambush):
    """"Toran darf beginnen, da Silvia die meisten Würfel geworfen hat." Round 1 of the text: Toran,
    Fayla, then the Spielleiter for all three orcs."""
    assert ambush["result"]["narration_order"] == [
        {"seat": 1, "actor": "player", "members": ["Toran"]},
        {"seat": 2, "actor": "player", "members": ["Fayla"]},
        {"seat": 0, "actor": "gm", "members": ["Orc 1", "Orc 2", "Orc 3"]},
    ]


def test_events_replay_as_manual(ambush, post):
    assert [e["kind"] for e in ambush["randomness"]["events"]] == ["d10"] * 5
    assert manual_values(ambush["randomness"]["events"]) == MANUAL
    _, again = post("/v1/weltenbuch/conflict", {**AMBUSH, "manual": manual_values(ambush["randomness"]["events"])})
    assert again["result"] == ambush["result"]


def test_round_one_lowers_toughness_as_the_text_says(ambush, post):
    status, body = post("/v1/weltenbuch/narration",
                        {"conflict": ambush, "toughness": TOUGHNESS, "spends": ROUND_1})
    assert status == 200, body
    after = body["result"]["toughness_after"]
    assert after["Orc 1"]["current"] == 1 and after["Orc 2"]["current"] == 1  # "sinkt jeweils um einen Punkt"
    assert after["Orc 3"]["current"] == 2  # the stone hit the tree
    assert after["Toran"]["current"] == 3  # "Torans Krieger-Zähigkeit sinkt um einen Punkt"
    assert after["Fayla"]["current"] == 3  # "Faylas Krieger-Zähigkeit sinkt um einen Punkt"
    assert body["result"]["complete"] is False and body["result"]["consequences"] == []
    assert len(body["result"]["unspent"]) == 19 - 6
    assert "receipt" in body and body["receipt"]["signature"]


def test_toran_takes_a_consequence_and_is_back_at_six(ambush, post):
    """"Die Zähigkeit des Krieger-Profils von Toran beträgt am Ende der Konfliktszene null, daher erhält
    er eine Konsequenz. ... Dadurch regeneriert die Zähigkeit ihres Krieger-Profils auf die vollen sechs
    Punkte." """
    status, body = post("/v1/weltenbuch/narration",
                        {"conflict": ambush, "toughness": TOUGHNESS, "spends": ROUND_1 + LATER_ROUNDS})
    assert status == 200, body
    result = body["result"]
    assert result["complete"] is True and result["unspent"] == []
    assert result["toughness_after"]["Toran"] == {"current": 6, "max": 6, "equipment": 0}
    assert "Toran" in result["consequences"]
    assert set(result["consequences"]) == {"Toran", "Orc 1", "Orc 2", "Orc 3"}
    assert result["toughness_after"]["Fayla"]["current"] == 3


def test_a_hero_point_avoids_torans_consequence(ambush, post):
    """"Natürlich kann der Spieler immer einen Heldenpunkt ausgeben, um die Zähigkeit um drei Punkte zu
    regenerieren und dadurch eine Konsequenz vermeiden." """
    status, body = post("/v1/weltenbuch/narration",
                        {"conflict": ambush, "toughness": TOUGHNESS, "spends": ROUND_1 + LATER_ROUNDS,
                         "hero_points": [{"member": "Toran", "count": 1}]})
    assert status == 200, body
    assert body["result"]["toughness_after"]["Toran"]["current"] == 3
    assert "Toran" not in body["result"]["consequences"]


def test_a_hero_point_between_the_dice_is_applied_when_spent(ambush, post):
    """Ruling 5: "Natürlich kann der Spieler immer einen Heldenpunkt ausgeben, um die Zähigkeit um drei
    Punkte zu regenerieren": Toran spends it in the ledger after round 1 (3 of 6 left, +3 = 6)."""
    spends = ROUND_1 + [{"member": "Toran", "hero_point": True}] + LATER_ROUNDS
    status, body = post("/v1/weltenbuch/narration?lang=de",
                        {"conflict": ambush, "toughness": TOUGHNESS, "spends": spends})
    assert status == 200, body
    result = body["result"]
    assert result["hero_points_spent"] == [{"member": "Toran", "spend": 6, "restored": 3}]
    assert len(result["spent"]) == 19 and result["complete"] is True
    # 6 after the hero point, then three more hits (orc 1's ten, orc 3's two and six): 3 left.
    assert "Toran" not in result["consequences"] and result["toughness_after"]["Toran"]["current"] == 3
    assert "Heldenpunkt" in body["summary"]


@pytest.mark.parametrize("entry, field", [
    ({"member": "Toran", "hero_point": True, "die": 0}, "die"),
    ({"member": "Toran", "hero_point": True, "target": "Orc 1"}, "target"),
    ({"member": "Toran"}, "die"),
    ({"member": "Orc 1", "hero_point": True}, "member"),
])
def test_bad_hero_point_entries_are_refused(ambush, post, entry, field):
    status, problem = post("/v1/weltenbuch/narration",
                           {"conflict": ambush, "toughness": TOUGHNESS, "spends": [entry]})
    assert status == 422 and field in str(problem), problem
