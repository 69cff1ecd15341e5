"""The rulings of December 2026 (../shared/rules/RULINGS.md: Beutelschneider 8–11, Paws 7–10, Weltenbuch 7,
Proben 6–7, Malmsturm 8–9), each against the sentence it decides; odds twins where a ruling changes a
result, checked against an enumeration of every draw."""

from __future__ import annotations

import itertools
from collections import Counter
from fractions import Fraction

from service.platform.dice.randomness import ManualSource
from service.systems.beutelschneider import odds as beutel_odds
from service.systems.beutelschneider import rules as beutel
from service.systems.paws import odds as paws_odds
from service.systems.paws import rules as paws

# --- Beutelschneider 8: sides of several people --------------------------------------------------


def contender(name, bag, ability="combat", difficulty="normal", side=None):
    return beutel.Contender(name, beutel.Bag.of(bag), beutel.Ability(ability), beutel.Difficulty(difficulty), side)


def test_the_side_of_the_best_participant_wins():
    """Ruling 8: „nur einer von ihnen – beziehungsweise nur eine Seite“: the side of the participant with
    the most matching marbles wins; the margin is over the best of any other side."""
    bag = {"red": 3, "white": 3}
    people = [contender("Ada", bag, side="Helden"), contender("Bo", bag, side="Helden"), contender("Cid", bag)]
    result = beutel.contest(people, ManualSource(["red", "white", "red", "red", "red", "white"]))
    assert (result.winner, result.winning_side, result.margin) == ("Bo", "Helden", 1)
    assert [p.side for p in result.participants] == ["Helden", "Helden", None]


def test_a_tie_at_the_top_within_one_side_is_that_sides_win():
    bag = {"red": 3, "white": 3}
    people = [contender("Ada", bag, side="Helden"), contender("Bo", bag, side="Helden"), contender("Cid", bag)]
    result = beutel.contest(people, ManualSource(["red", "red", "red", "red", "red", "white"]))
    assert (result.winner, result.winning_side, result.margin) == ("Ada", "Helden", 1)
    tied = beutel.contest(people, ManualSource(["red", "white", "white", "white", "red", "white"]))
    assert (tied.winner, tied.winning_side, tied.margin) == (None, None, 0)


def _matching_distribution(c: beutel.Contender) -> dict[int, Fraction]:
    marbles = [colour for colour in beutel.Colour for _ in range(c.bag.count(colour))]
    draws = list(itertools.combinations(range(len(marbles)), c.difficulty.draws))
    counts = Counter(sum(marbles[i] is c.ability.colour for i in draw) for draw in draws)
    return {k: Fraction(n, len(draws)) for k, n in counts.items()}


def test_contest_odds_with_sides_match_every_draw():
    """The odds twin follows ruling 8: one `wins:<side>` per side, against every joint draw."""
    people = (contender("Ada", {"red": 2, "green": 3}, side="Helden"),
              contender("Bo", {"red": 1, "white": 4}, "combat", "easy", side="Helden"),
              contender("Cid", {"red": 3, "white": 2}),
              contender("Dan", {"green": 2, "red": 2}, "skill", "hard"))
    expected: Counter = Counter()
    distributions = [_matching_distribution(c) for c in people]
    for joint in itertools.product(*(d.items() for d in distributions)):
        best: dict[str, int] = {}
        for c, (k, _) in zip(people, joint):
            best[c.side_name] = max(best.get(c.side_name, 0), k)
        ranked = sorted(best.values(), reverse=True)
        p = Fraction(1)
        for _, q in joint:
            p *= q
        outcome = "tie" if ranked[0] == ranked[1] else f"wins:{max(best, key=best.get)}"
        expected[outcome] += p
    odds = beutel_odds.contest(people)
    assert odds.outcomes == dict(expected) | {k: v for k, v in odds.outcomes.items() if k not in expected}
    assert set(odds.outcomes) == {"wins:Helden", "wins:Cid", "wins:Dan", "tie"}
    assert sum(odds.outcomes.values()) == 1


def test_without_sides_the_contest_odds_are_per_participant():
    people = (contender("Ada", {"red": 2, "green": 3}), contender("Bo", {"red": 1, "white": 4}))
    assert set(beutel_odds.contest(people).outcomes) == {"wins:Ada", "wins:Bo", "tie"}


def test_a_side_named_like_a_participant_without_one_is_refused(post):
    bag = {"red": 3}
    status, problem = post("/v1/beutelschneider/contest", {"participants": [
        {"name": "Orks", "bag": bag, "ability": "combat"},
        {"name": "Ada", "bag": bag, "ability": "combat", "side": "Orks"}]})
    assert status == 422 and "participants.1.side" in problem["errors"]


# --- Beutelschneider 9: magic that injures -------------------------------------------------------

MAGE = {"blue": 4, "white": 2}
KNIGHT = {"red": 2, "white": 4}


def test_a_world_where_magic_wounds(post):
    """Ruling 9: „welche Effekte wie Verletzung, Heilung oder Tod durch Magie hervorgerufen werden
    können“ is the group's decision: combat takes `injuring_abilities`, `[combat]` by default."""
    fight = {"attacker": {"name": "Mage", "bag": MAGE, "ability": "magic", "difficulty": "hard"},
             "defender": {"name": "Knight", "bag": KNIGHT, "difficulty": "hard"}, "manual": ["blue", "white"]}
    status, harmless = post("/v1/beutelschneider/combat", fight)
    assert status == 200 and harmless["result"]["injury"] is None
    assert harmless["request"]["injuring_abilities"] == ["combat"]
    assert harmless["summary"].endswith("Mage wins with magic, not combat: nobody is injured.")
    status, wounding = post("/v1/beutelschneider/combat?lang=de", {**fight, "injuring_abilities": ["combat", "magic"],
                                                                   "manual": ["blue", "white", "red"]})
    assert wounding["result"]["injury"]["target"] == "Knight" and wounding["result"]["injury"]["severity"] == "light"
    assert "Knight erleidet eine leichte Verletzung" in wounding["summary"]


def test_the_combat_odds_follow_the_injuring_abilities():
    mage = contender("Mage", MAGE, "magic", "hard")
    knight = contender("Knight", KNIGHT, "combat", "hard")
    default = beutel_odds.combat(mage, knight)
    magic = beutel_odds.combat(mage, knight, frozenset({beutel.Ability.COMBAT, beutel.Ability.MAGIC}))
    assert default.outcomes["wins:Mage"] > 0 and "injury:Knight:light" not in default.outcomes
    assert magic.outcomes["wins:Mage"] == 0
    assert magic.outcomes["injury:Knight:light"] == default.outcomes["wins:Mage"]
    assert sum(magic.outcomes.values()) == 1


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


# --- Weltenbuch 7 ---------------------------------------------------------------------------------

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


# --- Proben 7, Malmsturm 9 --------------------------------------------------------------------------

def test_the_difficulty_names_are_in_the_catalogue_and_the_lines(client, post):
    """Ruling 7: 1 Einfach, 2 Standard, 3 Fordernd, 4 and more Schwer."""
    systems = {s["id"]: s for s in client.get("/v1/systems").get_json()["systems"]}
    assert [d["de"] for d in systems["proben"]["difficulties"]] == ["Einfach", "Standard", "Fordernd", "Schwer"]
    status, body = post("/v1/proben/test?lang=de", {"attribute": 6, "difficulty": 5, "seed": 1})
    assert "gegen Schwierigkeit 5 (Schwer)" in body["summary"]


def test_the_defender_skills_per_attack_kind_are_in_the_catalogue(client):
    """Ruling 9: the text's table („jemanden körperlich verletzen | Nahkampf / Fernkampf | Ausweichen“ …)."""
    systems = {s["id"]: s for s in client.get("/v1/systems").get_json()["systems"]}
    skills = systems["malmsturm"]["attack_skills"]
    assert {kind: entry["defender"] for kind, entry in skills.items()} == {
        "harm": ["Ausweichen"], "deceive": ["Menschenkenntnis", "Wahrnehmung"], "intimidate": ["Nerven behalten"],
        "charm": ["Nerven behalten"], "push": ["Körperbeherrschung"], "persuade": ["Menschenkenntnis"]}
