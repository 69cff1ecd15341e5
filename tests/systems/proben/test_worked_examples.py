"""The worked examples of the Proben rules text (003_ff7aef635d957c0a.txt), with manual dice: the
door kicked in with one success of two, the sword whose further successes raise its quality. Each
test quotes the sentences it checks; the general rules are in test_rules.py."""

from __future__ import annotations

from service.platform.dice.randomness import ManualSource
from service.systems.proben import rules
from service.systems.proben.rules import Outcome, Pool


def test_partial_success_needs_one_success():
    """"Solange mindestens ein Erfolg erzielt wurde, kann der Spielleiter Teilerfolge werten." The
    door example: 2 successes needed, 1 rolled."""
    assert rules.test(Pool(attribute=3), 2, ManualSource([5, 1, 2])).outcome is Outcome.PARTIAL
    assert rules.test(Pool(attribute=3), 2, ManualSource([4, 1, 2])).outcome is Outcome.FAILURE


def test_quality_counts_further_successes():
    """"Möchte ein Charakter beispielsweise ein Schwert schmieden, wäre ein Erfolg ausreichend. Jeder
    weitere Erfolg könnte jedoch z.B. die Qualität des Schwertes erhöhen" """
    result = rules.test(Pool(attribute=4), 1, ManualSource([5, 6, 6, 2]))
    assert result.quality == 2
