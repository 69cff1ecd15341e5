"""The worked examples of the Paws rules text (rules file 001), with the table's own dice (`manual`):
Ryan's ditch and his brawl with Jack, Alrik's and the "guter Springer"'s pools, Rynn's surprise attack.
Each test quotes the sentences it checks; the general rules are in test_rules.py."""

from __future__ import annotations

import pytest

from service.platform.values.errors import ManualEntryError
from service.systems.paws import rules
from service.systems.paws.rules import Advantages, Fit, Pool
from tests.systems.paws.test_rules import ACTIVE, JACK, OPPONENT, PASSIVE, RYAN, RYNN, roll_comparison, roll_test


def test_ryan_rolls_one_die_per_rank():
    """„Da er 2 Ränge in dieser guten Eigenschaft hat, würfelst er mit zwei Würfeln.“"""
    assert Pool(rank=2).dice == 2
    assert roll_test(Pool(rank=2, name="Ryan"), 3, 5).pool == rules.PoolSize(2, 0)


def test_alrik_fallback_trait_rolls_one_die_less():
    """„Er darf allerdings nur mit einem einzigen Würfel würfeln, da „schneller Läufer“ nicht gut genug
    zur Handlung passt.“"""
    alrik = Pool(rank=2, fit=Fit.FALLBACK, name="Alrik")
    assert alrik.dice == 1
    result = roll_test(alrik, 4)
    assert result.dice == [4] and result.success
    with pytest.raises(ManualEntryError):  # a second die is not rolled
        roll_test(alrik, 4, 4)


def test_guter_springer_specialized_trait_rolls_one_die_more():
    """„Für einen „guten Springer“ mit dem Rang 2 sollte es erst recht kein Problem sein. Er darf mit
    drei Würfeln sein Glück versuchen.“"""
    springer = Pool(rank=2, fit=Fit.SPECIALIZED)
    assert springer.dice == 3
    assert roll_test(springer, 1, 2, 6).successes == 1


def test_rynn_gets_two_bonus_dice_and_her_opponent_two_rescue_dice():
    """„Mit ihrem magischen Schwert (Werkzeug +1), die Sonne im Rücken und der Überraschung auf ihrer
    Seite (Situation +1) hat Rynn gute Karten. Sie bekommt zwei Bonuswürfel für ihre Probe.“ …
    „Er bekommt zwei Rettungswürfel“."""
    rynn = Pool(rank=2, advantages=Advantages(equipment=ACTIVE, situation=ACTIVE))
    opponent = Pool(rank=2, advantages=Advantages(personal=PASSIVE, equipment=PASSIVE))
    assert (rynn.dice, rynn.rescue_dice) == (4, 0)
    assert (opponent.dice, opponent.rescue_dice) == (2, 2)


def test_ryan_jumps_the_ditch_and_lands_softly():
    """„Ryan würfelt zwei Erfolge bei seiner Probe auf „Athletik“, um über einen Graben zu springen.
    Einen Erfolg braucht er, um sein Ziel „Über den Graben springen“ zu erreichen. Mit dem zweiten
    Erfolg legt er fest, das er „weich landen“ möchte.“"""
    result = roll_test(Pool(rank=2, name="Ryan"), 4, 6)
    assert (result.successes, result.success, result.effects) == (2, True, 1)
    assert result.rescue is None and not result.catastrophe


def test_ryan_with_one_success_jumps_without_an_effect():
    """„Hätte er nur einen Erfolg gehabt, wäre es möglich gewesen, das er hart auf kommt und stürzt.“"""
    result = roll_test(Pool(rank=2), 5, 3)
    assert (result.successes, result.success, result.effects) == (1, True, 0)


def test_ryan_without_success_does_not_reach_his_goal():
    """„Ryan hat keinen Erfolg beim Sprung über den Graben. … In jedem Fall hat er sein Ziel nicht
    erreichen können.“"""
    result = roll_test(Pool(rank=2), 2, 3)
    assert (result.successes, result.success, result.effects, result.catastrophe) == (0, False, 0, False)


def test_ryan_against_jack_one_success_more_wins():
    """„Beide würfeln und Ryan hat einen Erfolg mehr als Jack.“"""
    result = roll_comparison(RYAN, JACK, 4, 2, 1, 3, 2)
    assert (result.winner, result.net, result.effects) == ("a", 1, 0)


def test_jacks_success_cancels_one_of_ryans():
    """„Wenn Ryan 2 Erfolge würfelt und Jack nur einen, hat Ryan gewonnen. Jack zieht Ryan aber noch
    einen Erfolg ab, so das nur ein einziger Erfolg für Ryan übrig bleibt.“"""
    result = roll_comparison(RYAN, JACK, 5, 6, 2, 4, 1)
    assert (result.a.successes, result.b.successes) == (2, 1)
    assert (result.winner, result.net, result.effects) == ("a", 1, 0)


def test_two_successes_more_buy_the_hit_in_the_stomach():
    """„Wenn Ryan bei der Schlägerei zwei Erfolge mehr hatte als Jack, kann er den zusätzlichen Effekt
    „Treffer in die Magengrube“ fest legen.“"""
    result = roll_comparison(RYAN, JACK, 5, 6, 6, 4, 1)
    assert (result.winner, result.net, result.effects) == ("a", 2, 1)


def test_rynns_opponent_rescues_a_tie_with_two_rescue_dice():
    """„Er bekommt zwei Rettungswürfel, sollte er gegen Rynn verlieren und kann so mit etwas Glück ein
    Unentschieden erzielen und ihrem Schlag entgehen.“ (ruling Paws 3)"""
    result = roll_comparison(RYNN, OPPONENT, 4, 5, 1, 2, 1, 3, 6, 5)
    assert result.a.dice == [4, 5, 1, 2] and result.b.dice == [1, 3]
    assert result.b.rescue == rules.ComparisonRescue([6, 5], 2, 2, True, False)
    assert (result.winner, result.net, result.effects) == (None, 0, 0)


def test_rynn_still_wins_when_one_rescue_die_fails():
    """Ruling Paws 3: each rescue success cancels one of the winner's net successes."""
    result = roll_comparison(RYNN, OPPONENT, 4, 5, 6, 2, 1, 3, 6, 2)
    assert result.b.rescue == rules.ComparisonRescue([6, 2], 1, 1, False, False)
    assert (result.winner, result.net, result.effects) == ("a", 2, 1)
