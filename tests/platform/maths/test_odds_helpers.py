"""The platform's exact-arithmetic helpers give what plain Fraction arithmetic gives."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from service.platform.maths.odds import Odds, exact_sum, mean

fractions = st.fractions(max_denominator=2**80)


@given(st.lists(fractions, max_size=30))
def test_exact_sum_is_the_sum(values):
    assert exact_sum(values) == sum(values, Fraction(0))


@given(st.dictionaries(st.integers(-50, 50) | st.fractions(max_denominator=12), fractions, max_size=20))
def test_mean_is_the_weighted_sum(distribution):
    assert mean(distribution) == sum((Fraction(v) * p for v, p in distribution.items()), Fraction(0))


def test_check_refuses_numbers_that_do_not_add_up():
    half = Fraction(1, 2)
    Odds(outcomes={"a": half, "b": half}, distributions={"d": {0: Fraction(1, 3), 1: Fraction(2, 3)}}).check()
    with pytest.raises(AssertionError):
        Odds(outcomes={"a": half, "b": Fraction(1, 3)}).check()
    with pytest.raises(AssertionError):
        Odds(outcomes={"a": Fraction(1)}, distributions={"d": {0: half}}).check()
