"""The largest Beutelschneider contest the limits allow (tests/systems/beutelschneider/test_odds.py
answers it; bench/odds_speed.py times it)."""

from __future__ import annotations

import random

from service.systems.beutelschneider.rules import Ability, Bag, Contender, Difficulty


def largest_contenders() -> tuple[Contender, ...]:
    """20 participants with random 100-marble bags, every ability and difficulty (also a case of
    bench/odds_speed.py)."""
    generator = random.Random(5)
    contenders = []
    for i in range(20):
        cuts = sorted(generator.sample(range(1, 100), 4))
        counts = [b - a for a, b in zip([0, *cuts], [*cuts, 100])]
        contenders.append(Contender(f"p{i}", Bag(*counts), list(Ability)[i % 3], list(Difficulty)[i % 3]))
    return tuple(contenders)


LARGEST_CONTEST_BODY = {"participants": [
    {"name": f"p{i}", "bag": {"red": 40 - i, "green": 30, "blue": 10, "white": 15, "black": 5}, "ability": "combat",
     "difficulty": "easy"} for i in range(20)]}
