"""Paws rules, pure (no HTTP), with the table's own dice (`manual`); the worked examples of rules file
001 are in test_worked_examples.py.

Each test quotes the German sentence (or names the ruling) it checks. The rules module is imported
as a module: its ``test`` function and ``TestResult`` class would otherwise be collected by pytest.
"""

from __future__ import annotations

import pytest

from service.platform.dice.randomness import ManualSource, make_source
from service.systems.paws import rules
from service.systems.paws.rules import Advantage, Advantages, Category, Fit, Mode, Pool, ProblemKind, Trait

ACTIVE, PASSIVE = Advantage.ACTIVE, Advantage.PASSIVE


def roll_test(pool: Pool, *faces: int):
    source = ManualSource(faces)
    result = rules.test(pool, source)
    source.finish()  # every value given was consumed
    return result


def roll_comparison(a: Pool, b: Pool, *faces: int, mode: Mode = Mode.CONTEST):
    source = ManualSource(faces)
    result = rules.comparison(a, b, source, mode=mode)
    source.finish()
    return result


# --- pools --------------------------------------------------------------------------------------

def test_fallback_trait_of_rank_zero_rolls_no_dice():
    # Dice never go below 0 (API.md §3).
    assert Pool(rank=0, fit=Fit.FALLBACK).dice == 0


def test_gm_extra_dice_go_beyond_one_advantage_per_category():
    """„kann der Spielleiter … auch einen zusätzlichen Bonus gewähren, der über das Maximum von einem
    Vorteil pro Kategorie hinaus geht.“ (ruling Paws 1)"""
    pool = Pool(rank=1, advantages=Advantages(ACTIVE, ACTIVE, PASSIVE), extra_bonus_dice=2, extra_rescue_dice=1)
    assert (pool.dice, pool.rescue_dice) == (5, 2)


def test_each_applicable_wound_removes_one_die_not_below_zero():
    """„Das Unangenehme an Wunden ist, das sie von jeder Probe, die von der Wunde beeinflusst wird, einen
    Würfel ab ziehen.“ (ruling Paws 5)"""
    assert Pool(rank=3, wounds=1).dice == 2
    assert Pool(rank=3, wounds=5).dice == 0
    assert Pool(rank=3, extra_bonus_dice=2, wounds=4).dice == 1


# --- tests (Proben) -----------------------------------------------------------------------------

@pytest.mark.parametrize("face, successes", [(1, 0), (2, 0), (3, 0), (4, 1), (5, 1), (6, 1)])
def test_four_five_and_six_are_successes(face, successes):
    """„Jeder Würfel, der eine 4, 5 oder 6 zeigt, zählt als Erfolg.“"""
    assert roll_test(Pool(rank=1), face).successes == successes


def test_only_ones_is_a_catastrophe():
    """„Fallen nur Einsen, geht der Versuch sogar katastrophal schief.“ (ruling Paws 2)"""
    assert roll_test(Pool(rank=3), 1, 1, 1).catastrophe
    assert not roll_test(Pool(rank=3), 1, 1, 2).catastrophe


def test_zero_dice_is_a_plain_failure_not_a_catastrophe():
    """Ruling Paws 2: „A pool of 0 dice is a plain failure.“"""
    result = roll_test(Pool(rank=1, wounds=1))
    assert result.dice == [] and not result.success and not result.catastrophe


def test_one_rescue_success_averts_a_catastrophe_but_not_the_failure():
    """„Durch Rettungswürfel kann eine Katastrophe abgewendet … aber niemals ein Sieg erzielt werden.“
    (ruling Paws 3)"""
    armoured = Pool(rank=2, advantages=Advantages(equipment=PASSIVE))
    result = roll_test(armoured, 1, 1, 5)
    assert result.rescue == rules.TestRescue([5], 1, True, 0)
    assert not result.catastrophe and not result.success and result.successes == 0


def test_a_failed_rescue_leaves_the_catastrophe():
    result = roll_test(Pool(rank=2, extra_rescue_dice=2), 1, 1, 3, 1)
    assert result.rescue == rules.TestRescue([3, 1], 0, False, 0) and result.catastrophe


def test_rescue_successes_after_a_plain_failure_avert_negative_effects():
    """„der erst dann geworfen werden darf, wenn die normale Probe bereits gescheitert ist.“ and
    „Zeigt er einen Erfolg, kann man damit einen negativen Effekt abwenden.“ (ruling Paws 3: each
    success averts one negative effect of the failure, never a success)"""
    result = roll_test(Pool(rank=2, extra_rescue_dice=2), 2, 3, 6, 4)
    assert result.rescue == rules.TestRescue([6, 4], 2, False, 2)
    assert not result.success and not result.catastrophe


def test_the_first_rescue_success_averts_the_catastrophe_the_others_negative_effects():
    """„Durch Rettungswürfel kann eine Katastrophe abgewendet … werden“ – the first success; ruling
    Paws 3: „every other success averts one negative effect of the failure (`averted`)“."""
    result = roll_test(Pool(rank=2, extra_rescue_dice=3), 1, 1, 6, 2, 5)
    assert result.rescue == rules.TestRescue([6, 2, 5], 2, True, 1)
    assert not result.catastrophe and not result.success


def test_the_acting_player_narrates_a_failed_test_the_gm_a_successful_one():
    """„Ryan hat keinen Erfolg beim Sprung über den Graben. Ob er … stoppt oder in den Graben stürzt,
    liegt in seiner Entscheidung.“ and „Bei erfolgreichen Proben … übernimmt diese Aufgabe der
    Spielleiter.“ (ruling Paws 7)"""
    assert roll_test(Pool(rank=2, name="Ryan"), 2, 3).narrator == "Ryan"
    assert roll_test(Pool(rank=2, name="Ryan"), 4, 3).narrator == "gm"
    assert roll_test(Pool(rank=1), 1).narrator == "player"


def test_rescue_dice_are_not_rolled_after_a_success():
    result = roll_test(Pool(rank=1, extra_rescue_dice=3), 4)
    assert result.rescue is None


# --- comparisons (Vergleiche) -------------------------------------------------------------------

RYAN = Pool(rank=3, name="Ryan")  # „Ryan hat drei Ränge in „Schlägereien““
JACK = Pool(rank=2, name="Jack")  # „Jack ist mir 2 Rängen in „Kickboxen““


def test_equal_successes_are_a_tie():
    """„Bei Gleichstand gewinnt keiner von Beiden und niemand hat einen Vorteil.“"""
    result = roll_comparison(RYAN, JACK, 5, 1, 1, 6, 2)
    assert (result.winner, result.net, result.effects) == (None, 0, 0)


def test_jack_wins_with_more_successes():
    result = roll_comparison(RYAN, JACK, 1, 2, 3, 6, 4)
    assert (result.winner, result.net, result.effects) == ("b", 2, 1)
    assert result.a.catastrophe is False


RYNN = Pool(rank=2, advantages=Advantages(equipment=ACTIVE, situation=ACTIVE), name="Rynn")
OPPONENT = Pool(rank=2, advantages=Advantages(personal=PASSIVE, equipment=PASSIVE), name="Gegner")


def test_rescue_dice_never_win_a_comparison():
    """„Durch Rettungswürfel kann … ein Vergleich zum Unentschieden gerettet, aber niemals ein Sieg
    erzielt werden.“"""
    result = roll_comparison(RYNN, OPPONENT, 4, 1, 1, 2, 1, 3, 6, 5)
    assert result.b.rescue == rules.ComparisonRescue([6, 5], 2, 1, True, False)
    assert (result.winner, result.net) == (None, 0)


def test_the_winner_rolls_no_rescue_dice():
    result = roll_comparison(OPPONENT, RYNN, 4, 5, 1, 1, 2, 3)
    assert result.winner == "a" and result.a.rescue is None and result.b.rescue is None


def test_defense_repels_with_as_many_successes():
    """„Jeder Erfolg des Verteidigers zieht einen Erfolg vom Angriff ab. Hat er gleich viele oder sogar
    mehr Erfolge als der Angreifer, kann er den Angriff vollständig abwehren.“ (ruling Paws 4)"""
    equal = roll_comparison(RYAN, JACK, 4, 1, 1, 5, 2, mode=Mode.DEFENSE)
    assert (equal.winner, equal.attack_lands, equal.net) == (None, False, 0)
    more = roll_comparison(RYAN, JACK, 4, 1, 1, 5, 6, mode=Mode.DEFENSE)
    assert (more.winner, more.attack_lands, more.net, more.effects) == (None, False, 0, 0)


def test_defense_attack_lands_with_net_one():
    """„Ein einziger Erfolg reicht aus, um einem Gegner eine normale Wunde zu zu fügen“."""
    result = roll_comparison(RYAN, JACK, 4, 6, 1, 5, 2, mode=Mode.DEFENSE)
    assert (result.winner, result.attack_lands, result.net, result.effects) == ("a", True, 1, 0)


def test_defender_armour_can_stop_the_attack():
    """„Jede Form von Rüstung ist gegen den Effekt wirksam und gibt dem Ziel einen Rettungswürfel.“"""
    armoured = Pool(rank=1, advantages=Advantages(equipment=PASSIVE))
    result = roll_comparison(JACK, armoured, 4, 1, 2, 6, mode=Mode.DEFENSE)
    assert (result.winner, result.attack_lands) == (None, False)
    assert result.b.rescue == rules.ComparisonRescue([6], 1, 1, True, False)


def test_contest_mode_has_no_attack_lands():
    assert roll_comparison(RYAN, JACK, 4, 1, 1, 5, 2).attack_lands is None


def test_comparison_side_reports_its_own_catastrophe():
    result = roll_comparison(RYAN, JACK, 1, 1, 1, 5, 2)
    assert result.a.catastrophe and not result.b.catastrophe


def test_a_catastrophe_rescued_to_a_tie_is_gone():
    """„Durch Rettungswürfel kann eine Katastrophe abgewendet oder ein Vergleich zum Unentschieden
    gerettet … werden“; ruling Paws 3: „a tie is no failure, so a catastrophe of the rescued side is
    gone too“. The request of the issue: Rynn (rank 1) against an armoured opponent (rank 2)."""
    opponent = Pool(rank=2, advantages=Advantages(equipment=PASSIVE), name="Gegner")
    result = roll_comparison(Pool(rank=1, name="Rynn"), opponent, 5, 1, 1, 6)
    assert (result.winner, result.net) == (None, 0)
    assert result.b.rescue == rules.ComparisonRescue([6], 1, 1, True, True)
    assert not result.b.catastrophe and result.narrator == "gm"


def test_short_of_a_tie_the_first_rescue_success_averts_the_catastrophe():
    """Ruling Paws 3: „when the successes cannot reach a tie, the first of them averts the side's
    catastrophe instead and the rest cancel.“"""
    opponent = Pool(rank=2, extra_rescue_dice=2, name="Gegner")
    one = roll_comparison(RYAN, opponent, 4, 5, 6, 1, 1, 6, 2)
    assert one.b.rescue == rules.ComparisonRescue([6, 2], 1, 0, False, True)
    assert (one.winner, one.net, one.effects) == ("a", 3, 2) and not one.b.catastrophe
    two = roll_comparison(RYAN, opponent, 4, 5, 6, 1, 1, 6, 5)
    assert two.b.rescue == rules.ComparisonRescue([6, 5], 2, 1, False, True)
    assert (two.winner, two.net) == ("a", 2) and not two.b.catastrophe
    none = roll_comparison(RYAN, opponent, 4, 5, 6, 1, 1, 3, 2)
    assert none.b.rescue == rules.ComparisonRescue([3, 2], 0, 0, False, False) and none.b.catastrophe


def test_the_loser_narrates_a_comparison_the_gm_a_tie():
    """„Bei Vergleichen hat grundsätzlich der Verlierer das Recht, den Verlauf und die Auswirkungen des
    Konfliktes zu beschreiben. Bei … unentschiedenen Vergleichen übernimmt diese Aufgabe der
    Spielleiter.“ (ruling Paws 7)"""
    assert roll_comparison(RYAN, JACK, 4, 5, 1, 5, 2).narrator == "Jack"
    assert roll_comparison(RYAN, JACK, 4, 1, 1, 5, 2).narrator == "gm"
    assert roll_comparison(Pool(rank=1), Pool(rank=1), 1, 4).narrator == "a"
    # ruling 7, defense mode too: a repelled attack is narrated by the attacker
    assert roll_comparison(RYAN, JACK, 4, 1, 1, 5, 2, mode=Mode.DEFENSE).narrator == "Ryan"


def test_rules_never_mutate_their_inputs():
    before = (RYNN, OPPONENT)
    roll_comparison(RYNN, OPPONENT, 4, 5, 1, 2, 1, 3, 6, 5)
    assert (RYNN, OPPONENT) == before and RYNN.advantages == Advantages(ACTIVE, None, ACTIVE)


# --- the group's rescue dice ---------------------------------------------------------------------

def test_each_group_rescue_success_averts_one_negative_effect():
    """„Zeigt er einen Erfolg, kann man damit einen negativen Effekt abwenden.“"""
    source = ManualSource([6, 3, 4])
    assert rules.rescue(3, source) == rules.RescueResult([6, 3, 4], 2)


def test_seeded_rolls_repeat():
    first = rules.comparison(RYNN, OPPONENT, make_source(seed=7))
    assert rules.comparison(RYNN, OPPONENT, make_source(seed=7)) == first


# --- character validation -----------------------------------------------------------------------

def _ranks(total: int, *, bad: bool = False, prefix: str = "t", rank: int = 3, category=None) -> list[Trait]:
    """``total`` ranks spread over traits of at most ``rank`` ranks."""
    traits, index = [], 0
    while total > 0:
        traits.append(Trait(f"{prefix}{index}", min(rank, total), bad, category))
        total -= rank
        index += 1
    return traits


def test_potential_3_and_power_15():
    """„Mit einem Potenzial von 3 und einer Macht von 15 darf keine Eigenschaft über den Rang von drei
    liegen und die Summe aller Ränge aller Eigenschaft darf 15 nicht überschreiten.“"""
    assert rules.validate_character(3, 15, _ranks(15)).valid
    check = rules.validate_character(3, 15, _ranks(16))
    assert not check.valid and check.power_used == 16
    assert [issue.kind for issue in check.issues] == [ProblemKind.OVER_POWER]


def test_twenty_good_ranks_balanced_by_five_bad_ones():
    """„Hat man 20 Ränge in guten Eigenschaften, braucht man mindestens 5 Ränge in Schlechten, um das
    Potenzial nicht zu überschreiten.“ (ruling Paws 6: good ranks minus bad ranks <= power)"""
    check = rules.validate_character(3, 15, _ranks(20) + _ranks(5, bad=True, prefix="b"))
    assert check.valid and check.power_used == 15 and check.issues == []
    short = rules.validate_character(3, 15, _ranks(20) + _ranks(4, bad=True, prefix="b"))
    assert not short.valid and short.power_used == 16


def test_bad_traits_obey_the_potential_too():
    """„Trotzdem darf keine Eigenschaft, egal ob gut oder schlecht, mehr als drei Ränge besitzen.“"""
    traits = _ranks(20) + [Trait("feige", 4, bad=True), Trait("gierig", 1, bad=True)]
    check = rules.validate_character(3, 15, traits)
    assert check.power_used == 15
    assert [(i.kind, i.trait, i.value, i.limit, i.bad) for i in check.issues] == [
        (ProblemKind.OVER_POTENTIAL, "feige", 4, 3, True)]


def test_every_problem_is_listed():
    traits = [Trait("a", 4), Trait("b", 5), Trait("a", 3)] + _ranks(12, prefix="c")
    check = rules.validate_character(3, 15, traits)
    kinds = [issue.kind for issue in check.issues]
    assert kinds == [ProblemKind.DUPLICATE_TRAIT, ProblemKind.OVER_POTENTIAL, ProblemKind.OVER_POTENTIAL,
                     ProblemKind.OVER_POWER]


def test_categories_have_their_own_potential_and_power():
    """„zwei Kategorien fest gelegt: „Mundane Eigenschaften“ mit einem Potenzial von 3 und einer
    Machtstufe von 15 und „Magische Eigenschaften“ mit einem geringeren Potenzial von 2 und einer
    geringeren Machtstufe von 10.“"""
    categories = [Category("Mundane Eigenschaften", 3, 15), Category("Magische Eigenschaften", 2, 10)]
    traits = (_ranks(15, category="Mundane Eigenschaften")
              + _ranks(10, prefix="m", rank=2, category="Magische Eigenschaften"))
    check = rules.validate_character(3, 0, traits, categories)
    assert check.valid, check.issues
    assert [(use.name, use.power_used) for use in check.categories] == [
        ("Mundane Eigenschaften", 15), ("Magische Eigenschaften", 10)]
    over = traits + [Trait("Feuerball", 3, category="Magische Eigenschaften")]
    check = rules.validate_character(3, 0, over, categories)
    assert [(i.kind, i.trait, i.category, i.limit) for i in check.issues] == [
        (ProblemKind.OVER_POTENTIAL, "Feuerball", "Magische Eigenschaften", 2),
        (ProblemKind.CATEGORY_OVER_POWER, None, "Magische Eigenschaften", 10)]


def test_a_category_may_set_only_its_potential():
    """„Dabei kann es hilfreich sein, für bestimmte Kategorien ein eigenes Potenzial oder eine eigene
    Machtstufe fest zu legen“ (ruling Paws 6): what a category does not set, the character's value
    governs; the character's power bounds its traits together with those without a category."""
    categories = [Category("Magische Eigenschaften", potential=2)]
    traits = [Trait("athletisch", 3), Trait("Feuerball", 2, category="Magische Eigenschaften")]
    check = rules.validate_character(3, 5, traits, categories)
    assert check.valid and check.power_used == 5
    assert check.categories == [rules.CategoryUse("Magische Eigenschaften", 2, None, 2)]
    check = rules.validate_character(3, 4, traits + [Trait("Blitz", 3, category="Magische Eigenschaften")],
                                     categories)
    assert [(i.kind, i.trait, i.category, i.limit) for i in check.issues] == [
        (ProblemKind.OVER_POTENTIAL, "Blitz", "Magische Eigenschaften", 2),
        (ProblemKind.OVER_POWER, None, None, 4)]


def test_a_category_may_set_only_its_power():
    """„… oder eine eigene Machtstufe fest zu legen“ (ruling Paws 6): the character's potential still
    bounds every rank in it; its own power bounds its traits, which leave the character's power."""
    categories = [Category("Magische Eigenschaften", power=2)]
    traits = [Trait("athletisch", 3), Trait("Feuerball", 4, category="Magische Eigenschaften")]
    check = rules.validate_character(3, 3, traits, categories)
    assert check.power_used == 3
    assert [(i.kind, i.trait, i.category, i.limit) for i in check.issues] == [
        (ProblemKind.OVER_POTENTIAL, "Feuerball", None, 3),
        (ProblemKind.CATEGORY_OVER_POWER, None, "Magische Eigenschaften", 2)]
