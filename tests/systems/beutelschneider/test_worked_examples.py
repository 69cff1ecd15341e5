"""Every worked example of the rules text (000_617633d4e2bd3e3f.txt), replayed over HTTP with the
marbles the text names as ``manual`` draws. Each test quotes the sentences it checks."""

from __future__ import annotations

import pytest

from service.platform.dice.randomness import manual_values

BASE = "/v1/beutelschneider"
MATTHAEUS = {"red": 9, "green": 6, "blue": 0, "white": 5, "black": 0}
BARTHOLOMAEUS = {"red": 8, "green": 4, "blue": 3, "white": 5}
LEGIONARY = {"red": 8, "green": 4, "white": 5, "black": 3}
APE_MAN = {"red": 10, "green": 5, "white": 5}


def roll(post, operation, body, lang="en"):
    status, response = post(f"{BASE}/{operation}?lang={lang}", body)
    assert status == 200, response
    return response


def test_matthaeus_creation(post):
    """"Matthäus ... wird nach den üblichen Regeln erschaffen und mit 9 roten, 6 grünen, 0 blauen und
    den obligatorischen 5 weißen Murmeln ausgestattet." (ruling 7)"""
    response = roll(post, "validate-bag", {"name": "Matthäus", "bag": MATTHAEUS})
    assert response["result"] == {"valid": True, "problems": [], "codes": []}


def test_matthaeus_hard_skill_challenge(post):
    """"Bei einer schwierigen Herausforderung gegen Geschick muss Matthäus eine Murmel aus seinem
    Beutel ziehen. Er zieht eine seiner roten Murmeln und hat somit versagt.\""""
    response = roll(post, "challenge", {"name": "Matthäus", "bag": MATTHAEUS, "ability": "skill",
                                        "difficulty": "hard", "manual": ["red"]}, lang="de")
    assert response["result"] == {"drawn": ["red"], "matching": 0, "success": False, "unconscious": False}
    assert response["summary"] == ("Matthäus zieht bei einer besonders schweren Herausforderung auf Geschick "
                                   "eine rote Murmel. Nicht bestanden.")


def test_matthaeus_bartholomaeus_skill_contest(post):
    """"Matthäus und sein Saufkumpan Bartholomäus liegen in einer Geschick-Auseinandersetzung
    miteinander. Keiner von beiden hat einen deutlichen Vorteil oder Nachteil. Daher ziehen beide
    jeweils zwei Murmeln. Matthäus zieht einmal grün und einmal weiß. Bartholomäus zieht zweimal rot.
    Matthäus entscheidet die Auseinandersetzung mit einer (grünen) Murmel Vorsprung für sich.\""""
    body = {"participants": [
        {"name": "Matthäus", "bag": MATTHAEUS, "ability": "skill", "difficulty": "normal"},
        {"name": "Bartholomäus", "bag": BARTHOLOMAEUS, "ability": "skill", "difficulty": "normal"}],
        "manual": ["green", "white", "red", "red"]}
    response = roll(post, "contest", body, lang="de")
    result = response["result"]
    assert [p["drawn"] for p in result["participants"]] == [["green", "white"], ["red", "red"]]
    assert [p["matching"] for p in result["participants"]] == [1, 0]
    assert (result["winner"], result["margin"]) == ("Matthäus", 1)
    assert "Matthäus setzt sich mit einer Murmel Vorsprung durch" in response["summary"]


@pytest.mark.parametrize("difficulties, draws", [
    # "Matthäus wird von einem Räuber überrascht ... Matthäus zieht eine Murmel, der Räuber zwei."
    (("hard", "normal"), (1, 2)),
    # "Ist es hingegen Matthäus, der den Räuber überrascht, so zieht Matthäus drei Murmeln und der Räuber zwei"
    (("easy", "normal"), (3, 2)),
    # "Bartholomäus und Konstantin sind beide betrunken ... dann ziehen sie jeweils nur eine Murmel"
    (("hard", "hard"), (1, 1)),
    # "Diesmal ziehen sie jeweils drei, denn sie wollen den anderen am liebsten tot sehen."
    (("easy", "easy"), (3, 3)),
])
def test_contest_difficulties_set_the_draws(post, difficulties, draws):
    """"Ist die Auseinandersetzung besonders einfach ... so zieht er drei Murmeln. Ist die Schwierigkeit
    hingegen besonders schwer ..., dann wird wieder nur eine Murmel gezogen.\""""
    participants = [{"name": name, "bag": MATTHAEUS, "ability": "combat", "difficulty": difficulty}
                    for name, difficulty in zip(("Matthäus", "Räuber"), difficulties)]
    response = roll(post, "contest", {"participants": participants, "seed": 7})
    assert tuple(len(p["drawn"]) for p in response["result"]["participants"]) == draws


def test_roof_tile_injury_of_the_legionary(post):
    """"Diese potentiell ernsthafte Verletzung sorgt dafür, dass zwei Murmeln aus dem Beutel des
    Legionärs gezogen werden müssen. Es sind eine schwarze und eine rote Murmel. Beide werden durch
    schwarze Murmeln ersetzt – wodurch, da eine ja bereits schwarz war, die Zahl der schwarzen Murmeln
    in seinem Beutel effektiv um eins steigt.\""""
    response = roll(post, "injury", {"name": "Legionär", "bag": LEGIONARY, "severity": "serious",
                                     "manual": ["black", "red"]})
    assert response["result"]["drawn"] == ["black", "red"]
    assert response["result"]["bag_after"] == {"red": 7, "green": 4, "blue": 0, "white": 5, "black": 4}


def test_konstantin_unconscious_at_the_bars(post):
    """"Konstantin zieht bei einer schwierigen Herausforderung auf Kampf (dem Versuch die Gitterstäbe
    seiner Zelle zu lösen) eine Murmel. Sie ist schwarz. ... bricht er völlig erschöpft zusammen"
    (ruling 1)."""
    konstantin = {"red": 7, "green": 5, "blue": 1, "white": 5, "black": 2}
    response = roll(post, "challenge", {"name": "Konstantin", "bag": konstantin, "ability": "combat",
                                        "difficulty": "hard", "manual": ["black"]})
    assert response["result"] == {"drawn": ["black"], "matching": 0, "success": False, "unconscious": True}
    assert response["summary"].endswith("Only black drawn: Konstantin falls unconscious.")  # review row 2


def test_plague_swamp_mortal_danger(post):
    """"Sein langer Marsch durch das todbringende Miasma der westlichen Pestsümpfe bringt einen
    versprengten Legionär in Lebensgefahr. Beim Ziehen von zwei Murmeln aus seinem Beutel fördert er
    allerdings eine weiße und eine rote Murmel zu Tage, so dass er diese Prüfung lebendig übersteht.\""""
    response = roll(post, "mortal-danger", {"name": "Legionär", "bag": LEGIONARY, "danger": "clear",
                                            "manual": ["white", "red"]}, lang="de")
    assert response["result"] == {"drawn": ["white", "red"], "dies": False}
    assert response["summary"] == ("Legionär ist in Lebensgefahr und zieht eine weiße und eine rote Murmel. "
                                   "Keine schwarze Murmel ist darunter: Legionär überlebt.")


WOUNDED_MATTHAEUS = {"red": 8, "green": 6, "blue": 0, "white": 3, "black": 3}


def test_tavern_healing_in_two_steps(post):
    """"So umsorgt, zieht Matthäus zwei Murmeln, eine grüne und eine schwarze. Die schwarze Murmel
    legt er ab und ersetzt sie durch eine rote." (ruling 4)"""
    draw = roll(post, "healing", {"name": "Matthäus", "bag": WOUNDED_MATTHAEUS, "chances": "fair",
                                  "manual": ["green", "black"]})
    assert draw["result"] == {"drawn": ["green", "black"], "black_drawn": 1, "choices_required": 1,
                              "bag_after": None}
    applied = roll(post, "healing/apply", {"draw": draw, "replacements": ["red"]})
    assert applied["operation"] == "beutelschneider.healing-apply"
    assert applied["result"]["bag_after"] == {"red": 9, "green": 6, "blue": 0, "white": 3, "black": 2}
    assert "receipt" in applied


def test_tavern_healing_in_one_step(post):
    """Same example with the choice given up front: one colour per marble drawn, the k-th black
    marble takes the k-th colour (ruling 4)."""
    draw = roll(post, "healing", {"name": "Matthäus", "bag": WOUNDED_MATTHAEUS, "chances": "fair",
                                  "replacements": ["red", "blue"], "manual": ["green", "black"]})
    assert draw["result"]["choices_required"] == 0
    assert draw["result"]["bag_after"] == {"red": 9, "green": 6, "blue": 0, "white": 3, "black": 2}


def test_legionary_experience(post):
    """"... darf er deshalb drei Murmeln aus seinem Beutel ziehen. Er fördert eine weiße, eine grüne
    und eine rote Murmel zu Tage. ... ersetzt er die weiße und die grüne Murmel beide durch weitere
    rote Murmeln, die rote lässt er rot sein." (ruling 5)"""
    draw = roll(post, "experience", {"name": "Legionär", "bag": LEGIONARY, "amount": "much",
                                     "manual": ["white", "green", "red"]})
    assert draw["result"] == {"drawn": ["white", "green", "red"], "choices_required": 3, "bag_after": None}
    applied = roll(post, "experience/apply", {"draw": draw, "replacements": ["red", "red", None]})
    assert applied["result"]["bag_after"] == {"red": 10, "green": 3, "blue": 0, "white": 4, "black": 3}
    one_step = roll(post, "experience", {"bag": LEGIONARY, "amount": "much", "replacements": ["red", "red", None],
                                         "manual": ["white", "green", "red"]})
    assert one_step["result"]["bag_after"] == applied["result"]["bag_after"]


def test_legionary_against_two_ape_men(post):
    """"Kämpft beispielsweise ein Legionär gegen zwei Affenmenschen, so gibt es zwei Auseinandersetzungen"
    ... "sind es auf beiden Seiten jeweils drei Murmeln." "Im ersten Durchgang zieht der Legionär drei
    rote Murmeln, der Affenmensch jedoch nur eine. Zwei Murmeln aus dem Beutel des Affenmenschen müssen
    durch schwarze Murmeln ersetzt werden. Gegen den zweiten Affenmenschen ... er zieht zwar zwei rote
    Murmeln, sein Gegner jedoch drei, und der Legionär erleidet eine Verletzung, die dazu führt, dass
    eine seiner Murmeln durch eine schwarze ausgetauscht werden muss." (ruling 3)"""
    legionary = {"name": "Legionär", "bag": LEGIONARY, "difficulty": "easy"}
    first = roll(post, "combat", {
        "attacker": legionary, "defender": {"name": "Affenmensch 1", "bag": APE_MAN, "difficulty": "easy"},
        "manual": ["red", "red", "red", "red", "white", "green", "green", "white"]})["result"]
    assert [p["matching"] for p in first["participants"]] == [3, 1]
    assert (first["winner"], first["margin"]) == ("Legionär", 2)
    assert first["injury"] == {"target": "Affenmensch 1", "severity": "serious", "drawn": ["green", "white"],
                               "bag_after": {"red": 10, "green": 4, "blue": 0, "white": 4, "black": 2}}

    second = roll(post, "combat", {
        "attacker": legionary, "defender": {"name": "Affenmensch 2", "bag": APE_MAN, "difficulty": "easy"},
        "manual": ["red", "green", "red", "red", "red", "red", "white"]})["result"]
    assert [p["matching"] for p in second["participants"]] == [2, 3]
    assert (second["winner"], second["margin"]) == ("Affenmensch 2", 1)
    assert second["injury"] == {"target": "Legionär", "severity": "light", "drawn": ["white"],
                                "bag_after": {"red": 8, "green": 4, "blue": 0, "white": 4, "black": 4}}


BRUTE = {"red": 12, "green": 2, "white": 6}
THIEF = {"red": 3, "green": 12, "white": 5}


def test_uneven_contest_flight_succeeds(post):
    """"Hat beispielsweise der Fliehende mehr grüne Murmeln (Flucht wird über Geschick abgehandelt)
    gezogen als der Angreifer rote, so ist die Flucht gelungen." (ruling 3: no injury)"""
    response = roll(post, "combat", {
        "attacker": {"name": "Priester", "bag": BRUTE, "ability": "combat"},
        "defender": {"name": "Dieb", "bag": THIEF, "ability": "skill"},
        "manual": ["red", "white", "green", "green"]}, lang="de")
    result = response["result"]
    assert (result["winner"], result["margin"], result["injury"]) == ("Dieb", 1, None)
    assert "Dieb siegt mit Geschick statt Kampf: Niemand wird verletzt." in response["summary"]  # review row 4


def test_uneven_contest_attack_lands(post):
    """"Wenn aber der Angreifer mehr rote Murmeln gezogen hat als der Fliehende grüne, so führt jede
    überschüssige rote Murmel zu einer Verletzung." (ruling 3)"""
    response = roll(post, "combat", {
        "attacker": {"name": "Priester", "bag": BRUTE, "ability": "combat"},
        "defender": {"name": "Dieb", "bag": THIEF, "ability": "skill"},
        "manual": ["red", "red", "white", "red", "green", "white"]})
    result = response["result"]
    assert (result["winner"], result["margin"]) == ("Priester", 2)
    assert result["injury"]["target"] == "Dieb"
    assert result["injury"]["severity"] == "serious"
    assert result["injury"]["bag_after"] == {"red": 3, "green": 11, "blue": 0, "white": 4, "black": 2}


@pytest.mark.parametrize("operation, body", [
    ("challenge", {"bag": MATTHAEUS, "ability": "skill", "difficulty": "easy"}),
    ("contest", {"participants": [{"name": "a", "bag": MATTHAEUS, "ability": "skill"},
                                  {"name": "b", "bag": APE_MAN, "ability": "combat", "difficulty": "easy"},
                                  {"name": "c", "bag": LEGIONARY, "ability": "magic", "difficulty": "hard"}]}),
    ("combat", {"attacker": {"name": "a", "bag": {"red": 20}, "difficulty": "easy"},
                "defender": {"name": "b", "bag": {"white": 19, "black": 1}, "difficulty": "hard"}}),
    ("injury", {"bag": LEGIONARY, "severity": "grave"}),
    ("mortal-danger", {"bag": LEGIONARY, "danger": "grave"}),
    ("healing", {"bag": LEGIONARY, "draws": 7}),
    ("experience", {"bag": LEGIONARY, "amount": "some"}),
    ("first-aid", {"bag": MATTHAEUS, "difficulty": "easy"}),
])
def test_recorded_events_replay_as_manual(post, operation, body):
    """A response's `randomness.events`, fed back as `manual`, reproduce its result (API §1.1)."""
    first = roll(post, operation, body)
    again = roll(post, operation, {**body, "manual": manual_values(first["randomness"]["events"])})
    assert again["result"] == first["result"]
    assert again["randomness"]["events"] == first["randomness"]["events"]
    assert again["randomness"]["source"] == "manual"


def test_seed_repeats(post):
    body = {"bag": LEGIONARY, "draws": 9, "seed": 123456789}
    assert roll(post, "healing", body)["result"] == roll(post, "healing", body)["result"]
