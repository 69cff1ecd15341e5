"""Proben rules against the text of 003_ff7aef635d957c0a.txt and RULINGS.md "Proben", with manual dice;
the text's worked examples are in test_worked_examples.py."""

from __future__ import annotations

import pytest

from service.platform.dice.randomness import ManualSource
from service.platform.values.errors import ManualEntryError
from service.systems.proben import rules
from service.systems.proben.rules import Outcome, Pool, SuccessRule


def test_five_and_six_are_successes():
    """"Jeder Würfel, der eine 5 oder 6 zeigt, wird als Erfolg gewertet." """
    result = rules.test(Pool(attribute=6), 2, ManualSource([1, 2, 3, 4, 5, 6]))
    assert result.successes == 2
    assert result.outcome is Outcome.SUCCESS


def test_attribute_gives_the_number_of_dice():
    """"Der Spieler würfelt nun eine Anzahl sechsseitiger Würfel, die seinem Attributwert entspricht." """
    result = rules.test(Pool(attribute=4), 2, ManualSource([1, 1, 1, 1]))
    assert result.dice_count == 4 and result.dice == [1, 1, 1, 1]


def test_meet_is_the_default_and_exceed_is_literal():
    """Ruling 1: `meet` (successes >= difficulty) by default; `exceed` applies "Übersteigt die Anzahl
    der Erfolge die Schwierigkeit, ist die Probe gelungen" literally."""
    dice = [5, 6, 1]
    assert rules.test(Pool(attribute=3), 2, ManualSource(dice)).outcome is Outcome.SUCCESS
    exceed = rules.test(Pool(attribute=3), 2, ManualSource(dice), rule=SuccessRule.EXCEED)
    assert exceed.outcome is Outcome.PARTIAL


def test_not_enough_dice_is_impossible_but_still_rolled():
    """"Hat ein Spieler nicht genügend Würfel, um eine Schwierigkeit zu erreichen, kann er die Probe
    nicht schaffen." Ruling 2: the roll still happens so a partial success can be read."""
    result = rules.test(Pool(attribute=1), 2, ManualSource([6]))
    assert result.impossible is True
    assert result.outcome is Outcome.PARTIAL


def test_each_retry_removes_a_die_until_none_is_left():
    """"Möchte ein Spieler eine misslungene Probe wiederholen, wird hierfür ein Würfel entfernt. Mit
    jedem weiteren Versuch wird auch ein weiterer Würfel entfernt. Hat der Spieler keinen Würfel mehr
    übrig, kann er auch keine weiteren Versuche unternehmen." (ruling 3)"""
    assert rules.test(Pool(attribute=3), 1, ManualSource([1, 1]), attempt=2).dice_count == 2
    assert rules.test(Pool(attribute=3), 1, ManualSource([1]), attempt=3).dice_count == 1
    no_dice = rules.test(Pool(attribute=3), 1, ManualSource([]), attempt=4)
    assert no_dice.outcome is Outcome.NO_DICE and no_dice.dice == []


def test_skill_and_advantages_add_dice_and_disadvantages_remove_them():
    """"erhält der Spieler für seine Probe Bonuswürfel in Höhe der Fertigkeitsstufe"; "kann der
    Spielleiter ggf. auch nur einen Teil der Bonuswürfel zulassen"; "Für jeden Vorteil erhält der
    Spieler einen Bonuswürfel ... Analog wird für jeden Nachteil ein Würfel abgezogen." """
    assert Pool(attribute=2, skill=2).dice == 4
    assert Pool(attribute=2, skill=2, skill_dice=1).dice == 3
    assert Pool(attribute=2, advantages=2, disadvantages=1).dice == 3
    assert Pool(attribute=1, disadvantages=3).dice == 0


def test_opposed_most_successes_wins():
    """"Der Charakter mit den meisten Erfolgen gewinnt." """
    result = rules.opposed(Pool(attribute=2), Pool(attribute=2), ManualSource([5, 6, 5, 1]))
    assert (result.winner, result.decided_by) == ("a", "successes")


def test_opposed_tie_goes_to_higher_base():
    """"Bei Gleichstand entscheidet der höhere Basiswert (Attribut + Fertigkeit)." """
    result = rules.opposed(Pool(attribute=2), Pool(attribute=1, skill=2, skill_dice=1),
                           ManualSource([5, 1, 6, 2]))
    assert (result.winner, result.decided_by) == ("b", "base")


def test_opposed_equal_base_rolls_again():
    """"Ist auch dieser identisch (und ist ein Gleichstand erzählerisch nicht möglich), wird die
    Probe wiederholt." (ruling 4)"""
    result = rules.opposed(Pool(attribute=1), Pool(attribute=1), ManualSource([5, 6, 1, 5]))
    assert len(result.rounds) == 2 and result.winner == "b"


def test_opposed_allow_tie_stops_at_first_equal_round():
    result = rules.opposed(Pool(attribute=1), Pool(attribute=1), ManualSource([5, 6]), allow_tie=True)
    assert (result.winner, result.decided_by, len(result.rounds)) == (None, "tie", 1)


def test_opposed_twenty_equal_rounds_are_a_tie():
    """Ruling 4: after 20 equal rounds it is a tie."""
    result = rules.opposed(Pool(attribute=1), Pool(attribute=1), ManualSource([1] * 40))
    assert (result.winner, len(result.rounds)) == (None, 20)


def test_cooperation_helper_with_a_success_gives_an_advantage():
    """"Hat der Unterstützer mindestens 1 Erfolg erzielt, erhält der Hauptakteur einen Vorteil." """
    source = ManualSource([5, 1, 1, 2, 6, 1, 1])  # helper 1: one success; helper 2: none; leader 3 dice
    result = rules.cooperation(Pool(attribute=2), [Pool(attribute=2), Pool(attribute=2)], 1, source)
    assert [h.helped for h in result.helpers] == [True, False]
    assert result.leader.dice_count == 3


def test_extended_removes_a_die_per_roll_and_accumulates():
    """"mit jeder weiteren Probe wird ein Würfel aus dem Würfelpool des Spielers entfernt. Hat der
    Spieler die erforderliche Anzahl an Erfolgen erreicht, ist die Probe gelungen." """
    source = ManualSource([5, 1, 1, 6, 5])
    result = rules.extended(Pool(attribute=3), 3, source, interval=rules.Elapsed(2, "hours"))
    assert [len(r.dice) for r in result.rolls] == [3, 2]
    assert [r.cumulative for r in result.rolls] == [1, 3]
    assert result.success and result.elapsed == rules.Elapsed(4, "hours")


def test_extended_fails_when_dice_run_out():
    """"Gehen ihm die Würfel aus, misslingt die Probe." """
    result = rules.extended(Pool(attribute=2), 5, ManualSource([5, 1, 6]))
    assert not result.success and result.rolls_used == 2


def test_manual_values_must_be_d6_faces():
    with pytest.raises(ManualEntryError) as error:
        rules.test(Pool(attribute=2), 1, ManualSource([5, 7]))
    assert error.value.field == "manual.1"
