"""Malmsturm rules, pure (no HTTP). Each test quotes the sentence of rules file 004 or names the
ruling (RULINGS.md "Malmsturm") it checks."""

from __future__ import annotations

import pytest

from service.platform.dice.randomness import ManualSource
from service.systems.malmsturm import rules
from service.systems.malmsturm.rules import (
    Attacker,
    AttackType,
    ConsequenceReason,
    Contender,
    Defender,
    Participant,
    Stress,
    StressTrack,
    Track,
)

ZERO = [0, 0, 0, 0]


def dice(*rolls: list[int]) -> ManualSource:
    return ManualSource([face for roll in rolls for face in roll])


def fresh_stress(physical: int = 3, mental: int = 2) -> Stress:
    return Stress(StressTrack(physical, physical), StressTrack(mental, mental))


# --- ladder ----------------------------------------------------------------------------------------

@pytest.mark.parametrize("total,de,en", [
    (-4, "hoffnungslos", "hopeless"), (-3, "erbärmlich", "terrible"), (-2, "dilettantisch", "poor"),
    (-1, "unterdurchschnittlich", "below average"), (0, "mäßig", "mediocre"), (1, "durchschnittlich", "average"),
    (2, "passabel", "fair"), (3, "gut", "good"), (4, "hervorragend", "great"), (5, "überwältigend", "superb"),
    (6, "Weltklasse", "fantastic"), (7, "unvergleichlich", "legendary"),
])
def test_ladder_labels(total, de, en):
    """Ruling 1: "−4 hoffnungslos, −3 erbärmlich, … +6 Weltklasse, above +6 unvergleichlich"."""
    assert rules.label(total, "de") == de
    assert rules.label(total, "en") == en


@pytest.mark.parametrize("total,expected", [(-5, "hoffnungslos"), (-12, "hoffnungslos"), (8, "unvergleichlich"),
                                            (30, "unvergleichlich")])
def test_ladder_is_open_at_both_ends(total, expected):
    """Ruling 1: "below −4 stays hoffnungslos"; text: "mehr als +6 Unvergleichlich"."""
    assert rules.label(total, "de") == expected


def test_ladder_lists_every_rung_with_its_open_ends():
    levels = rules.ladder("en").levels
    assert [level.value for level in levels] == list(range(-4, 8))
    assert levels[0].open_end == "below" and levels[-1].open_end == "above"
    assert all(level.open_end is None for level in levels[1:-1])


# --- simple action ---------------------------------------------------------------------------------

def test_action_meeting_the_difficulty_succeeds_without_shifts():
    """"Für einen Erfolg muss man mindestens den DC getroffen haben." (ruling 2)"""
    result = rules.action(3, 2, dice([-1, 0, 0, 0]))
    assert (result.total, result.success, result.shifts, result.margin) == (2, True, 0, 0)


def test_action_surplus_steps_are_shifts():
    """"Wenn man höher gewürfelt hat, als es für das Gelingen der Aktion erforderlich ist, nennt man die
    überzähligen Stufen 'Erfolge'." (ruling 2: shifts = total − difficulty)"""
    result = rules.action(3, 2, dice([1, 1, 0, -1]), modifier=1)
    assert (result.total, result.success, result.shifts) == (5, True, 3)
    assert result.label == "superb" and result.dice == [1, 1, 0, -1]


def test_action_below_the_difficulty_fails_with_no_shifts():
    """Ruling 2: success only when total ≥ difficulty; shifts only when ≥ 0."""
    result = rules.action(1, 3, dice([0, 0, 1, 0]), lang="de")
    assert (result.total, result.success, result.shifts, result.margin) == (2, False, 0, -1)
    assert result.label == "passabel"


# --- contest -----------------------------------------------------------------------------------------

def test_contest_equal_totals_are_a_tie():
    """"Um einen Erfolg zu erzielen, muss das eigene Ergebnis mindestens eine Stufe über dem des
    Konkurrenten liegen." (ruling 3)"""
    result = rules.contest(Contender(3, name="Dieb"), Contender(2, name="Händler"), dice([-1, 0, 0, 0], ZERO))
    assert result.winner is None and result.shifts == 0
    assert result.a.total == result.b.total == 2


@pytest.mark.parametrize("a_roll,b_roll,winner,shifts", [
    ([0, 0, 0, 0], [-1, 0, 0, 0], "a", 2), ([-1, -1, 0, 0], [0, 0, 0, 0], "b", 1), ([1, 0, 0, 0], ZERO, "a", 2),
])
def test_contest_one_step_above_wins(a_roll, b_roll, winner, shifts):
    """Ruling 3: a side wins only with a total at least one step above the other."""
    result = rules.contest(Contender(2), Contender(1), dice(a_roll, b_roll))
    assert (result.winner, result.shifts) == (winner, shifts)


def test_contest_modifiers_count():
    result = rules.contest(Contender(2, modifier=-2), Contender(1, modifier=1), dice(ZERO, ZERO))
    assert (result.a.total, result.b.total, result.winner) == (0, 2, "b")


# --- initiative --------------------------------------------------------------------------------------

def test_initiative_highest_total_first():
    """"Die Reihenfolge wird über einen Intuitions-Wurf ermittelt." (ruling 4: 4dF + intuition)"""
    people = [Participant("Ragna", 1), Participant("Brok", 3)]
    result = rules.initiative(people, dice([1, 1, 1, 0], [-1, 0, 0, 0]))
    assert [(e.name, e.total) for e in result.order] == [("Ragna", 4), ("Brok", 2)]


def test_initiative_ties_go_to_the_higher_intuition():
    """Ruling 4: "ties: higher intuition, then roll-offs"."""
    people = [Participant("Ork", 1), Participant("Ragna", 2)]
    result = rules.initiative(people, dice([1, 0, 0, 0], ZERO))
    assert [e.name for e in result.order] == ["Ragna", "Ork"]
    assert all(e.roll_offs == [] for e in result.order)


def test_initiative_roll_offs_repeat_until_the_tie_breaks():
    """Ruling 4: equal total and intuition: roll-offs, again while still tied."""
    people = [Participant("Ork", 1), Participant("Hexe", 1)]
    source = dice(ZERO, ZERO, [0, 0, 0, 1], [1, 0, 0, 0], [-1, 0, 0, 0], [0, 0, 0, 0])
    result = rules.initiative(people, source)
    source.finish()  # every value was used
    assert [e.name for e in result.order] == ["Hexe", "Ork"]
    hexe, ork = result.order
    assert ork.roll_offs == [[0, 0, 0, 1], [-1, 0, 0, 0]]
    assert hexe.roll_offs == [[1, 0, 0, 0], [0, 0, 0, 0]]


def test_initiative_roll_offs_only_for_the_tied():
    people = [Participant("A", 0), Participant("B", 0), Participant("C", 2)]
    source = dice(ZERO, ZERO, [-1, -1, 0, 0], [1, 0, 0, 0], ZERO)
    result = rules.initiative(people, source)
    assert [e.name for e in result.order] == ["C", "A", "B"]
    assert result.order[0].roll_offs == []


def test_initiative_gives_up_after_twenty_tied_roll_offs():
    people = [Participant("A", 0), Participant("B", 0)]
    result = rules.initiative(people, dice(*[ZERO] * (2 + 2 * rules.MAX_ROLL_OFF_ROUNDS)))
    assert [e.name for e in result.order] == ["A", "B"]
    assert len(result.order[0].roll_offs) == rules.MAX_ROLL_OFF_ROUNDS


# --- attacks ----------------------------------------------------------------------------------------

@pytest.mark.parametrize("kind,track", [
    (AttackType.HARM, Track.PHYSICAL), (AttackType.PUSH, Track.PHYSICAL), (AttackType.DECEIVE, Track.MENTAL),
    (AttackType.INTIMIDATE, Track.MENTAL), (AttackType.CHARM, Track.MENTAL), (AttackType.PERSUADE, Track.MENTAL),
])
def test_the_attack_decides_the_stress_track(kind, track):
    """"Die Fertigkeit, die der Angriff verwendet, bestimmt, ob mentale oder körperliche
    Belastungspunkte im Fall eines Erfolgs abgezogen werden." (attack table, ruling 5)"""
    result = rules.attack(Attacker(3, kind), Defender(2, fresh_stress(4, 4)), dice([1, 0, 0, 0], ZERO))
    assert result.track is track and result.shifts == 2
    assert result.stress_after.track(track).current == 2
    other = Track.MENTAL if track is Track.PHYSICAL else Track.PHYSICAL
    assert result.stress_after.track(other).current == 4


def test_equal_totals_miss():
    """"Wenn der Angreifende mindestens einen Erfolg hat, dann 'trifft' sein Angriff." (ruling 5)"""
    defender = Defender(2, fresh_stress())
    result = rules.attack(Attacker(2, AttackType.HARM), defender, dice(ZERO, ZERO))
    assert (result.hit, result.shifts, result.consequence_required) == (False, 0, False)
    assert result.stress_after == defender.stress and result.consequences_after == 0


def test_stress_lost_equals_the_shifts():
    """"Der Verteidigende verliert so viele Belastungspunkte, wie der Angreifende Erfolge erzielt hat." """
    result = rules.attack(Attacker(3, AttackType.HARM), Defender(2, fresh_stress(3)), dice([1, 0, 0, 0], ZERO))
    assert (result.hit, result.shifts) == (True, 2)
    assert result.stress_after.physical == StressTrack(1, 3)
    assert not result.consequence_required and not result.taken_out


@pytest.mark.parametrize("shifts", [3, 5])
def test_spent_stress_forces_a_consequence_and_refills(shifts):
    """"Wenn seine Belastungspunkte verbraucht sind, dann erleidet er eine Konsequenz und die
    Belastungspunkte werden wieder aufgefüllt." (ruling 5: at 0 or below)"""
    result = rules.attack(Attacker(shifts, AttackType.CHARM), Defender(0, fresh_stress(3, 3)), dice(ZERO, ZERO))
    assert result.consequence_required and result.consequence_reason is ConsequenceReason.STRESS_SPENT
    assert result.stress_after.mental == StressTrack(3, 3)
    assert result.consequences_after == 1 and not result.taken_out


def test_the_second_consequence_takes_the_defender_out():
    """"Wer zwei Konseuenzen hingenommen hat, scheidet aus dem Konflikt aus." """
    defender = Defender(1, Stress(StressTrack(1, 3), StressTrack(2, 2)), consequences=1)
    result = rules.attack(Attacker(2, AttackType.PUSH), defender, dice(ZERO, ZERO))
    assert result.consequences_after == 2 and result.taken_out


def test_a_consequence_may_be_taken_early_instead_of_the_stress():
    """"man kann schon vorher eine Konsequenz hinnehmen, wenn man will" (ruling 5:
    take_consequence_early takes the consequence instead of the stress)"""
    defender = Defender(1, fresh_stress(3))
    result = rules.attack(Attacker(2, AttackType.HARM), defender, dice(ZERO, ZERO), take_consequence_early=True)
    assert result.consequence_reason is ConsequenceReason.TAKEN_EARLY
    assert result.stress_after == defender.stress and result.consequences_after == 1


def test_taking_a_consequence_early_means_nothing_on_a_miss():
    result = rules.attack(Attacker(1, AttackType.HARM), Defender(1, fresh_stress()), dice(ZERO, ZERO),
                          take_consequence_early=True)
    assert not result.hit and not result.consequence_required and result.consequences_after == 0


def test_a_defender_already_out_stays_out_and_unchanged():
    defender = Defender(0, fresh_stress(), consequences=2)
    result = rules.attack(Attacker(4, AttackType.HARM), defender, dice(ZERO, ZERO))
    assert result.hit and result.taken_out and not result.consequence_required
    assert result.stress_after == defender.stress and result.consequences_after == 2


def test_the_attacker_rolls_before_the_defender():
    result = rules.attack(Attacker(0, AttackType.HARM, name="A"), Defender(0, fresh_stress(), name="D"),
                          dice([1, 1, 1, 1], [-1, -1, -1, -1]))
    assert (result.attacker.total, result.defender.total, result.shifts) == (4, -4, 8)
    assert result.attacker.label == "great" and result.defender.label == "hopeless"


def test_results_are_frozen():
    result = rules.action(0, 0, dice(ZERO))
    with pytest.raises(AttributeError):
        result.total = 3  # type: ignore[misc]


# --- ruling 5: not defending; suggested consequences ------------------------------------------------

def test_an_undefended_attack_meets_a_fixed_difficulty():
    """„Sobald ein Charakter an der Reihe ist, kann er einen Angriff durchführen und der angegriffene
    kann sich mit einem Fertigkeitswurf verteidigen“ – kann, not muss (ruling Malmsturm 5): without a
    defense roll the attack meets a difficulty, 0 (mäßig) unless the table sets one."""
    source = dice([0, 0, 0, 1])  # the attacker's four dF, and nothing for the defender
    result = rules.attack(Attacker(2, AttackType.HARM), Defender(None, fresh_stress(5)), source, defend=False)
    source.finish()
    assert (result.defended, result.defender.dice, result.defender.total) == (False, [], 0)
    assert (result.hit, result.shifts) == (True, 3)
    assert result.stress_after.physical == StressTrack(2, 5)
    harder = rules.attack(Attacker(2, AttackType.HARM), Defender(None, fresh_stress(5)), dice([0, 0, 0, 1]),
                          defend=False, difficulty=3)
    assert (harder.hit, harder.shifts, harder.defender.label) == (False, 0, "good")


@pytest.mark.parametrize("attack, german", [
    (AttackType.HARM, ["Körperliche Verwundung"]),
    (AttackType.DECEIVE, ["Getäuscht", "Verwirrt", "Verunsichert", "Unkonzentriert"]),
    (AttackType.INTIMIDATE, ["Eingeschüchtert", "Verunsichert", "Verängstigt"]),
    (AttackType.CHARM, ["Kooperativ", "Verliebt"]),
    (AttackType.PUSH, ["Aus dem Gleichgewicht gebracht", "Stolpern"]),
    (AttackType.PERSUADE, ["Überredet", "ein Auge zudrücken"]),
])
def test_a_required_consequence_comes_with_the_texts_examples(attack, german):
    """The attack table, column „Beispiele für Konsequenzen“ (ruling Malmsturm 5: suggestions); „Normalerweise
    bestimmt der Verteidiger selbst, welche Konsequenz er erleidet“, so they are only suggestions."""
    spent = rules.attack(Attacker(6, attack), Defender(0, fresh_stress(1, 1)), dice(ZERO, ZERO), lang="de")
    assert spent.consequence_required
    assert [s.de for s in spent.suggested_consequences] == german
    assert [s.label for s in spent.suggested_consequences] == german  # lang de: the text's words
    assert all(s.en for s in spent.suggested_consequences)
    light = rules.attack(Attacker(1, attack), Defender(0, fresh_stress(5, 5)), dice(ZERO, ZERO))
    assert not light.consequence_required and light.suggested_consequences == []


# --- ruling 7: the number of dice ----------------------------------------------------------------------

@pytest.mark.parametrize("count", [1, 2, 8])
def test_every_rolling_operation_takes_the_number_of_dice(count):
    """„Wie erwähnt, verwendet Malmsturm FUDGE-Würfel und zwar meistens 4 davon.“ – meistens: the table
    may roll 1..8 (ruling Malmsturm 7)."""
    ones = [1] * count
    assert rules.action(0, 0, dice(ones), dice=count).total == count
    contest = rules.contest(Contender(0), Contender(0), dice(ones, ones), dice=count)
    assert (len(contest.a.dice), len(contest.b.dice)) == (count, count)
    order = rules.initiative([Participant("A", 1), Participant("B", 0)], dice(ones, ones), dice=count)
    assert [len(entry.dice) for entry in order.order] == [count, count]
    hit = rules.attack(Attacker(1, AttackType.HARM), Defender(0, fresh_stress(9)), dice(ones, ones), dice=count)
    assert (len(hit.attacker.dice), len(hit.defender.dice)) == (count, count)


def test_roll_offs_use_the_number_of_dice_too():
    source = dice([0, 0], [0, 0], [1, 0], [0, 0])
    result = rules.initiative([Participant("A", 1), Participant("B", 1)], source, dice=2)
    source.finish()
    assert [entry.name for entry in result.order] == ["A", "B"]
    assert result.order[0].roll_offs == [[1, 0]]
