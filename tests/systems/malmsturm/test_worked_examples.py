"""A worked example of a full Malmsturm conflict over HTTP with the table's own dice (`manual`; rules
file 004 gives none of its own): initiative, physical and mental attacks, stress running out, a
consequence, and the second consequence taking the orc out.

"Konflikte entstehen dann, wenn zwei oder mehr Konkurrenten über mehrere Runden im Widerstreit liegen
und versuchen, den anderen zu übetrumpfen, bis einer der Konkurrenten freiwillig oder unfreiwillig
ausscheidet"
"""

from __future__ import annotations

ZERO = [0, 0, 0, 0]


def test_full_conflict_walkthrough(post):
    # 1. "Die Reihenfolge wird über einen Intuitions-Wurf ermittelt." (ruling 4)
    status, body = post("/v1/malmsturm/initiative?lang=de", {
        "participants": [{"name": "Ragna", "intuition": 2}, {"name": "Ork", "intuition": 1},
                         {"name": "Brok", "intuition": 1}, {"name": "Hexe", "intuition": 1}],
        "manual": [0, 0, 0, 0,      # Ragna 2
                   1, 0, 0, 0,      # Ork 2
                   1, 1, 0, 0,      # Brok 3
                   1, 0, 0, 0,      # Hexe 2
                   0, 0, 0, 0,      # roll-off Ork 0
                   0, 0, 0, 0,      # roll-off Hexe 0: still tied
                   -1, 0, 0, 0,     # second roll-off Ork −1
                   1, 0, 0, 0],     # second roll-off Hexe +1
    })
    assert status == 200, body
    order = body["result"]["order"]
    # Brok has the highest total; Ragna beats the other 2s on intuition; Hexe wins the roll-offs.
    assert [entry["name"] for entry in order] == ["Brok", "Ragna", "Hexe", "Ork"]
    assert order[2]["roll_offs"] == [[0, 0, 0, 0], [1, 0, 0, 0]]
    assert body["summary"] == ("Reihenfolge: 1. Brok gut (+3), 2. Ragna passabel (+2), "
                               "3. Hexe passabel (+2), 4. Ork passabel (+2).")

    orc = {"name": "Ork", "skill": 2, "stress": {"physical": {"current": 3, "max": 3},
                                                  "mental": {"current": 2, "max": 2}}, "consequences": 0}

    def attack(attacker, defender_skill, manual, **extra):
        status, response = post("/v1/malmsturm/attack", {
            "attacker": attacker, "defender": {**orc, "skill": defender_skill}, "manual": manual, **extra})
        assert status == 200, response
        result = response["result"]
        orc["stress"], orc["consequences"] = result["stress_after"], result["consequences_after"]
        return result, response["summary"]

    # 2. Brok pushes (Körperbeherrschung 2 vs 2): 3 against 2, one shift of physical stress.
    result, summary = attack({"name": "Brok", "skill": 2, "attack": "push"}, 2, [1, 0, 0, 0] + ZERO)
    assert (result["hit"], result["shifts"], result["track"]) == (True, 1, "physical")
    assert orc["stress"]["physical"] == {"current": 2, "max": 3} and orc["consequences"] == 0
    assert summary == ("Attack: Brok [+ 0 0 0] good (+3) against Ork [0 0 0 0] fair (+2). "
                       "A hit with one shift: Ork loses one point of physical stress. Ork has 2 of 3 points "
                       "of physical stress left.")  # review rows 27, 28

    # 3. Ragna strikes (Nahkampf 3 vs Ausweichen 2): 3 against 3 is no hit.
    result, _ = attack({"name": "Ragna", "skill": 3, "attack": "harm"}, 2, [0, 0, 0, 0, 0, 0, 0, 1])
    assert (result["hit"], result["shifts"], result["consequence_required"]) == (False, 0, False)
    assert orc["stress"]["physical"]["current"] == 2

    # 4. Hexe intimidates (Einschüchtern 2 vs Nerven behalten 1): one shift of mental stress.
    result, _ = attack({"name": "Hexe", "skill": 2, "attack": "intimidate"}, 1, ZERO + ZERO)
    assert (result["track"], result["shifts"]) == ("mental", 1)
    assert orc["stress"]["mental"] == {"current": 1, "max": 2}

    # 5. Hexe deceives (Bluffen 3 vs Menschenkenntnis 1): 5 against 1, the mental stress runs out:
    #    "Wenn seine Belastungspunkte verbraucht sind, dann erleidet er eine Konsequenz und die
    #    Belastungspunkte werden wieder aufgefüllt".
    result, summary = attack({"name": "Hexe", "skill": 3, "attack": "deceive"}, 1, [1, 1, 0, 0] + ZERO)
    assert (result["shifts"], result["consequence_required"], result["consequence_reason"]) == (4, True, "stress_spent")
    assert orc["stress"] == {"physical": {"current": 2, "max": 3}, "mental": {"current": 2, "max": 2}}
    assert orc["consequences"] == 1 and not result["taken_out"]
    assert "Ork takes a consequence, and the track refills to 2." in summary
    # ruling 5: the text's examples for a deception ("Getäuscht, Verwirrt, Verunsichert, Unkonzentriert")
    assert summary.endswith("Suggested: deceived, confused, unsettled, distracted.")
    assert [s["de"] for s in result["suggested_consequences"]] == [
        "Getäuscht", "Verwirrt", "Verunsichert", "Unkonzentriert"]

    # 6. Ragna strikes again: 4 against 2 spends the physical stress exactly (0 counts as spent):
    #    the second consequence: "Wer zwei Konseuenzen hingenommen hat, scheidet aus dem Konflikt aus."
    result, summary = attack({"name": "Ragna", "skill": 3, "attack": "harm"}, 2, [1, 0, 0, 0] + ZERO)
    assert (result["shifts"], result["consequence_reason"], result["consequences_after"]) == (2, "stress_spent", 2)
    assert result["taken_out"]
    assert summary.endswith("Ork is taken out of the conflict.")

    # 7. The orc is out: a further attack changes nothing.
    result, _ = attack({"name": "Brok", "skill": 2, "attack": "push"}, 2, [1, 1, 1, 1] + ZERO)
    assert result["taken_out"] and not result["consequence_required"] and result["consequences_after"] == 2


def test_conflict_with_a_consequence_taken_early(post):
    """"man kann schon vorher eine Konsequenz hinnehmen, wenn man will": instead of the stress, and two
    consequences still take the defender out."""
    defender = {"name": "Ork", "skill": 1, "consequences": 0,
                "stress": {"physical": {"current": 5, "max": 5}, "mental": {"current": 2, "max": 2}}}
    bodies = []
    for _ in range(2):
        status, body = post("/v1/malmsturm/attack?lang=de", {
            "attacker": {"name": "Ragna", "skill": 2, "attack": "charm"}, "defender": defender,
            "take_consequence_early": True, "manual": ZERO + ZERO})
        assert status == 200, body
        bodies.append(body)
        defender = {**defender, "consequences": body["result"]["consequences_after"],
                    "stress": body["result"]["stress_after"]}
    first, second = (b["result"] for b in bodies)
    assert first["consequence_reason"] == "taken_early" and first["stress_after"]["mental"]["current"] == 2
    assert second["taken_out"] and second["consequences_after"] == 2
    assert bodies[1]["summary"] == ("Angriff: Ragna [0 0 0 0] passabel (+2) gegen Ork [0 0 0 0] durchschnittlich "
                                    "(+1). Treffer mit einem Erfolg. Ork nimmt stattdessen "
                                    "eine Konsequenz hin. Vorschläge: Kooperativ, Verliebt. Ork scheidet aus dem "
                                    "Konflikt aus.")
