"""Paws rulings 7 to 10 (../shared/rules/RULINGS.md), each against the sentence it decides: who narrates
a comparison, a tie of ones, penalty dice, the combat effects and the character's hints; the odds twins
checked against an enumeration of every roll."""

from __future__ import annotations

from fractions import Fraction

from service.platform.dice.randomness import ManualSource
from service.systems.paws import odds as paws_odds
from service.systems.paws import rules as paws

# --- Paws 7 and 8: narrator and catastrophe in a comparison -------------------------------------

RYAN, JACK = paws.Pool(rank=1, name="Ryan"), paws.Pool(rank=1, name="Jack")


def test_a_repelled_attack_is_narrated_by_the_attacker():
    """Ruling 7: „Bei Vergleichen hat grundsätzlich der Verlierer das Recht“, in defense mode too."""
    result = paws.comparison(RYAN, JACK, ManualSource([2, 5]), mode=paws.Mode.DEFENSE)
    assert result.attack_lands is False and result.narrator == "Ryan"


def test_a_tie_of_ones_is_no_catastrophe_for_either_side(post):
    """Ruling 8: a tie is no failure, so a 0:0 with every die showing 1 is no catastrophe."""
    result = paws.comparison(RYAN, JACK, ManualSource([1, 1]))
    assert (result.winner, result.a.catastrophe, result.b.catastrophe) == (None, False, False)
    status, body = post("/v1/paws/comparison", {"a": {"name": "Ryan", "rank": 1}, "b": {"name": "Jack", "rank": 1},
                                                "manual": [1, 1]})
    assert "Catastrophe" not in body["summary"]
    lost = paws.comparison(RYAN, JACK, ManualSource([1, 5]))
    assert lost.a.catastrophe is True and lost.b.catastrophe is False


def test_the_catastrophe_odds_follow_ruling_8():
    """P(catastrophe) = all ones, a loss (the opponent has a success), no rescue success."""
    odds = paws_odds.comparison(paws.Pool(rank=1), paws.Pool(rank=1))
    assert odds.distributions["catastrophe_a"][1] == Fraction(1, 6) * Fraction(1, 2)
    defense = paws_odds.comparison(paws.Pool(rank=2), paws.Pool(rank=1), mode=paws.Mode.DEFENSE)
    assert defense.distributions["catastrophe_a"][1] == Fraction(1, 36) * Fraction(1, 2)


# --- Paws 9 and 10: combat effects, penalty dice, hints -----------------------------------------

def test_penalty_dice_take_dice_away_and_the_odds_follow(post):
    """Ruling 9: „Gegner schwächen: … einen Abzug von einem Würfel“ = `penalty_dice`, not wounds."""
    status, body = post("/v1/paws/test", {"rank": 3, "penalty_dice": 1, "seed": 7})
    assert body["result"]["pool"]["dice"] == 2
    status, weakened = post("/v1/paws/test/odds", {"rank": 3, "penalty_dice": 1})
    status, plain = post("/v1/paws/test/odds", {"rank": 2})
    assert weakened["odds"] == plain["odds"]


def test_the_combat_effects_are_in_the_catalogue(client):
    """Ruling 9: Vorteil, Schutz, Gegner schwächen, Gezielter Treffer, Entwaffnen, Vorbereitung."""
    systems = {s["id"]: s for s in client.get("/v1/systems").get_json()["systems"]}
    effects = {e["name"]: e["entered_as"] for e in systems["paws"]["combat_effects"]}
    assert effects == {"Vorteil": "extra_bonus_dice", "Schutz": "extra_rescue_dice",
                       "Gegner schwächen": "penalty_dice", "Gezielter Treffer": None, "Entwaffnen": None,
                       "Vorbereitung": "extra_bonus_dice"}
    assert "defense" in systems["paws"]["dodging"]


def test_validate_character_gives_the_texts_guidance_as_hints(post):
    """Ruling 10: potential „mit 3 gut bemessen“, power „etwa dem fünffachen“: hints, never problems."""
    traits = [{"name": "Kampf", "rank": 3}]
    status, measured = post("/v1/paws/validate-character", {"potential": 3, "power": 15, "traits": traits})
    assert measured["result"]["hints"] == [] and measured["result"]["valid"] is True
    status, divine = post("/v1/paws/validate-character?lang=de", {"potential": 5, "power": 5, "traits": traits})
    assert divine["result"]["valid"] is True and len(divine["result"]["hints"]) == 2
    assert divine["result"]["hints"][0].startswith("ab einem Potenzial von 5 werden die Charaktere zu Göttern")
    assert "deutlich unter 25" in divine["result"]["hints"][1]
