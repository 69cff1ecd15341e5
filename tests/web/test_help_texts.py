"""The help texts of /play that state a rule agree with the ruling they state (issue 40, the first table
of shared/reviews/words-2026-12-03.md: "The page states four rules wrongly ... and three incompletely —
the service computes them right, the help text a player reads says otherwise"). Each test reads the help
text from service/web/labels.js in both languages and asks the service the question the text answers."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

LABELS = (Path(__file__).parents[2] / "service" / "web" / "labels.js").read_text(encoding="utf-8")
SECTIONS = {"de": LABELS[LABELS.index("const de = {"):LABELS.index("const en = {")],
            "en": LABELS[LABELS.index("const en = {"):]}


def help_text(lang: str, key: str) -> str:
    """The help (second string) of an operation or field entry `key: ["label", "help"]`."""
    quoted = re.escape(key) if re.fullmatch(r"\w+", key) else f'"{re.escape(key)}"'
    match = re.search(rf'(?<![\w."]){quoted}: \["[^"]*", "([^"]*)"\]', SECTIONS[lang])
    assert match, (lang, key)
    return match.group(1)


def outcome_names(post, path, body) -> dict[str, float]:
    status, answer = post(path, body)
    assert status == 200, answer
    return {entry["outcome"]: entry["probability"] for entry in answer["odds"]["outcomes"]}


def test_mortal_danger_one_black_marble_kills(post):
    """Text: "Wenn mindestens eine der gezogenen Murmeln schwarz ist, so stirbt der Charakter"."""
    assert "mindestens eine der gezogenen Murmeln schwarz" in help_text("de", "beutelschneider.mortal-danger")
    assert "at least one of the marbles drawn is black" in help_text("en", "beutelschneider.mortal-danger")
    # Two marbles drawn from one red and one black: exactly one black, and that is death.
    assert outcome_names(post, "/v1/beutelschneider/mortal-danger/odds",
                         {"bag": {"red": 1, "black": 1}, "danger": "clear"})["dies"] == 1


def test_cooperation_one_advantage_per_helper_with_a_success(post):
    """Ruling Proben 5: "each helper with ≥ 1 success gives the leader one advantage die"."""
    assert "jeder Unterstützer mit mindestens 1 Erfolg" in help_text("de", "proben.cooperation")
    assert "each helper with at least 1 success gives the leader one advantage" in help_text("en", "proben.cooperation")
    # A helper of six dice rolls several successes, and still gives one advantage at most.
    status, answer = post("/v1/proben/cooperation/odds", {
        "leader": {"attribute": 2}, "helpers": [{"name": "Mira", "attribute": 6}], "difficulty": 2})
    assert status == 200 and [point["value"] for point in answer["odds"]["distributions"]["advantages"]] == [0, 1]


def test_the_weltenbuch_encounter_is_one_scene(post):
    """Rulings, Encounters, Weltenbuch: "The encounter is the scene: one roll and its narration (no
    chain of scenes)"; the consequences at the end (E1)."""
    assert help_text("de", "weltenbuch.encounter").startswith("Eine Szene")
    assert "Konsequenzen" in help_text("de", "weltenbuch.encounter")
    assert help_text("en", "weltenbuch.encounter").startswith("One scene")
    from service.systems.weltenbuch.routes import ENCOUNTER_EXAMPLE
    status, answer = post("/v1/weltenbuch/encounter", {**ENCOUNTER_EXAMPLE, "seed": 2})
    assert status == 200 and len(answer["result"]["steps"]) == 1


@pytest.mark.parametrize("key", ["injuring_abilities", "beutelschneider.combat"])
def test_the_winners_ability_decides_whether_the_loser_is_injured(post, key):
    """Rulings Beutelschneider 3 and 9: "the loser suffers an injury ... only if the winner used an
    injuring ability"; a winner fleeing with skill injures nobody."""
    german = help_text("de", key)
    assert re.search(r"(Sieger|Gewinnt der Sieger).*(verletzend|mit einer davon)", german), german
    assert "winner" in help_text("en", key)
    outcomes = outcome_names(post, "/v1/beutelschneider/combat/odds", {
        "attacker": {"name": "Dieb", "bag": {"green": 5, "red": 1}, "ability": "skill"},
        "defender": {"name": "Wache", "bag": {"red": 4, "white": 2}}})
    assert outcomes["wins:Dieb"] > 0 and not any(name.startswith("injury:Wache") for name in outcomes)
    assert any(name.startswith("injury:Dieb") for name in outcomes)


def test_allow_tie_the_higher_base_decides_first(post):
    """Ruling Proben 4: "equal → higher base (attribute + skill)"; the text's word: "Bei Gleichstand entscheidet der
    höhere Basiswert (Attribut + Fertigkeit)" (issue 53: the glossary's word, not „Grundwert“)."""
    assert "zuerst der höhere Basiswert" in help_text("de", "allow_tie")
    assert "higher base value" in help_text("en", "allow_tie")
    different = outcome_names(post, "/v1/proben/opposed/odds", {"a": {"name": "A", "attribute": 2, "skill": 1},
                                                                "b": {"name": "B", "attribute": 2}, "allow_tie": True})
    assert different.get("tie", 0) == 0  # bases 3 and 2: no tie, even allowed
    equal = outcome_names(post, "/v1/proben/opposed/odds", {"a": {"name": "A", "attribute": 2},
                                                            "b": {"name": "B", "attribute": 2}, "allow_tie": True})
    assert equal["tie"] > 0


def test_group_rescue_dice_avert_negative_effects(post):
    """Text: "um negative Effekte von verlorenen Proben oder Vergleichen abzuwenden" (ruling Paws 3)."""
    assert "negative Effekte von verlorenen Proben oder Vergleichen abzuwenden" in help_text("de", "paws.rescue")
    assert "Katastrophe" not in help_text("de", "paws.rescue")
    assert "negative effects of lost tests or comparisons" in help_text("en", "paws.rescue")
    status, answer = post("/v1/paws/rescue/odds", {"dice": 2})
    assert status == 200 and [p["value"] for p in answer["odds"]["distributions"]["successes"]] == [0, 1, 2]


WORDS_NOT_THE_TEXTS = ["Begegnung", "Leiste", "Spielleitung", "Nichtspielercharakter", "nimmt eine Wunde", "aufgibt",
                       "Aufgeben bei Konsequenzen"]


@pytest.mark.parametrize("word", WORDS_NOT_THE_TEXTS)
def test_the_page_uses_the_texts_words(word):
    """Review 2026-12-03, kind 7: words none of the five texts uses."""
    assert word not in SECTIONS["de"]


def test_no_english_possessive_of_a_name():
    """Review kind 2: "{name}'s" breaks for names ending in s, x, z; the page writes labels instead."""
    assert "{name}'s" not in LABELS
