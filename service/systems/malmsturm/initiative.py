"""The exact chance of every order of action under Malmsturm's initiative (E6, ruling 4), for the
odds of a whole conflict (service/systems/malmsturm/solver.py). Pure: no Flask, no JSON.

"Die Reihenfolge wird über einen Intuitions-Wurf ermittelt": every member rolls dice dF + intuition
once, highest first; equal totals: higher intuition first; still equal: roll-offs, as
``rules.initiative`` rolls them.
"""

from __future__ import annotations

import functools
import itertools
import math
from collections.abc import Iterator
from fractions import Fraction

from service.platform.maths.odds import Probability
from service.platform.maths.time_slicing import cooperate
from service.systems.malmsturm import odds as malm_odds
from service.systems.malmsturm import rules

Order = tuple[int, ...]  # member indices in order of action


def initiative_orders(intuitions: list[int], dice: int) -> list[tuple[Order, Probability]]:
    """E6, ruling 4, as ``rules.initiative`` rolls it: every member rolls dice dF + intuition once,
    highest first; equal totals: higher intuition first; still equal (same total, same intuition):
    roll-offs (``roll_off_orders``). The chance of every whole order, exact: the rolls are counted in
    integer ways per tie structure (the ranked groups), each structure then spread over the
    roll-offs' orders."""
    return list(_initiative_orders(tuple(intuitions), dice))


@functools.lru_cache(maxsize=64)
def _initiative_orders(intuitions: tuple[int, ...], dice: int) -> tuple[tuple[Order, Probability], ...]:
    """Counted in integers over one denominator, 3^(dice × count × (1 + roll-off rounds)) × count!
    (a structure's roll-offs roll dice × count × rounds dice in all, and its blocks' b! divide
    count!), each order's chance made a Fraction once."""
    count = len(intuitions)
    rounds = rules.MAX_ROLL_OFF_ROUNDS
    structures = _tie_structures(intuitions, dice)
    ways_of: dict[Order, int] = {}
    for structure, ways in structures.items():
        cooperate()
        blocks = math.prod(math.factorial(len(group)) for group in structure)
        partial: dict[Order, int] = {(): ways * (math.factorial(count) // blocks)}
        for group in structure:
            spread = _roll_off_ways(len(group), rounds, dice)
            partial = {prefix + tuple(group[rank] for rank in ranks): chance * inner
                       for prefix, chance in partial.items() for ranks, inner in spread.items()}
        for order, chance in partial.items():
            ways_of[order] = ways_of.get(order, 0) + chance
    denominator = 3 ** (dice * count * (1 + rounds)) * math.factorial(count)
    return tuple(sorted((order, Fraction(ways, denominator)) for order, ways in ways_of.items()))


def _tie_structures(intuitions: tuple[int, ...], dice: int) -> dict[tuple[tuple[int, ...], ...], int]:
    """The integer ways (of 3^(dice × count) rolls) of every tie structure: the members ranked by
    their roll (higher total first, then higher intuition), a block per set of equal keys, each block
    in request order. A roll's key holds the intuition, so only members of equal intuition can tie:
    the structures are the ordered partitions into such blocks, and the ways of one are a sum over
    strictly decreasing keys, one per block (``_structure_ways``). A few thousand products for five
    members instead of enumerating the 9^5 rolls one by one (review of issue 40: 3 v 2 by initiative
    at the state limit spent two thirds of its time there)."""
    ways_of = malm_odds.fudge_ways(dice)
    keys = sorted({(intuition + value, intuition) for intuition in set(intuitions) for value in ways_of},
                  reverse=True)  # best first
    per_member = [tuple(ways_of.get(total - intuition, 0) if kept == intuition else 0 for total, kept in keys)
                  for intuition in intuitions]
    structures: dict[tuple[tuple[int, ...], ...], int] = {}
    known: dict[tuple[tuple[int, int], ...], int] = {}  # a structure's ways depend on its blocks' sizes and intuitions
    for structure in _tie_partitions(tuple(range(len(intuitions))), intuitions):
        cooperate()
        signature = tuple((len(block), intuitions[block[0]]) for block in structure)
        if signature not in known:
            known[signature] = _structure_ways(structure, per_member)
        if known[signature]:
            structures[structure] = known[signature]
    return structures


def _tie_partitions(items: tuple[int, ...], intuitions: tuple[int, ...]) -> Iterator[tuple[tuple[int, ...], ...]]:
    """Every ordered partition of ``items`` into blocks of equal intuition (each block ascending)."""
    if not items:
        yield ()
        return
    for size in range(1, len(items) + 1):
        for first in itertools.combinations(items, size):
            if len({intuitions[item] for item in first}) != 1:
                continue
            rest = tuple(item for item in items if item not in first)
            for tail in _tie_partitions(rest, intuitions):
                yield (first, *tail)


def _structure_ways(structure: tuple[tuple[int, ...], ...], per_member: list[tuple[int, ...]]) -> int:
    """Σ over keys k_1 better than k_2 … better than k_m of Π_blocks Π_members ways(member rolls k_j)."""
    keys = len(per_member[0])
    below = [1] * keys  # ways of the blocks so far with the last block's key better than each key
    for position, block in enumerate(structure):
        here = [math.prod(per_member[member][key] for member in block) for key in range(keys)]
        if position:
            here = [ways * below[key] for key, ways in enumerate(here)]
        below, running = [0] * keys, 0
        for key in range(keys):
            below[key] = running  # strictly better keys only
            running += here[key]
    return running


@functools.lru_cache(maxsize=256)
def roll_off_orders(size: int, rounds: int, dice: int) -> dict[Order, Fraction]:
    """The chance of every order of a tied group (members 0..size-1 in request order) after its
    roll-offs, as ``rules._roll_off`` rolls them: each rolls dice dF, higher first; groups still tied
    roll again; after ``rounds`` roll-offs a group keeps the request order.

    The members roll alike, so the roll-offs end in an ordered partition of the group whose chance
    depends on its block sizes only (``_roll_off_sizes``), spread evenly over the s!/Πb! partitions
    of those sizes; each ends in the order of its blocks, a block still tied in request order. An
    order's chance is then the sum over the block sizes it can be cut into with every block
    ascending."""
    denominator = 3 ** (dice * size * rounds) * math.factorial(size)
    return {order: Fraction(ways, denominator) for order, ways in _roll_off_ways(size, rounds, dice).items()}


@functools.lru_cache(maxsize=256)
def _roll_off_ways(size: int, rounds: int, dice: int) -> dict[Order, int]:
    """``roll_off_orders`` in integer ways of 3^(dice × size × rounds) × size!."""
    sizes = _roll_off_sizes(size, rounds, dice)
    chances: dict[Order, int] = {}
    for order in itertools.permutations(range(size)):
        ways = 0
        for blocks, count in sizes.items():
            start, fits = 0, True
            for block in blocks:
                part = order[start:start + block]
                if any(a > b for a, b in itertools.pairwise(part)):
                    fits = False
                    break
                start += block
            if fits:
                ways += count * math.prod(math.factorial(block) for block in blocks)
        if ways:
            chances[order] = ways
    return chances


@functools.lru_cache(maxsize=256)
def _roll_off_sizes(size: int, rounds: int, dice: int) -> dict[tuple[int, ...], int]:
    """The block sizes a tied group of ``size`` ends in after ``rounds`` roll-offs, in integer ways
    of 3^(dice × size × rounds) (every branch rolls that many dice in all): a roll-off splits the
    group into blocks by value (``_partition_ways`` for one assignment of members, times the
    assignments), each block of two or more rolls off again."""
    if size == 1 or rounds == 0:
        return {(size,): 3 ** (dice * size * rounds)}
    values = tuple(sorted(malm_odds.fudge_ways(dice).items(), reverse=True))
    found: dict[tuple[int, ...], int] = {}
    for first in _compositions(size):
        assignments = math.factorial(size) // math.prod(math.factorial(block) for block in first)
        ways = _partition_ways(first, values) * assignments
        if not ways:
            continue
        partial: dict[tuple[int, ...], int] = {(): ways}
        for block in first:
            inner = _roll_off_sizes(block, rounds - 1, dice)
            partial = {prefix + blocks: chance * p for prefix, chance in partial.items() for blocks, p in inner.items()}
        for blocks, chance in partial.items():
            found[blocks] = found.get(blocks, 0) + chance
    return found


@functools.lru_cache(maxsize=32)
def _compositions(total: int) -> tuple[tuple[int, ...], ...]:
    """Every sequence of positive sizes summing to ``total``."""
    if total == 0:
        return ((),)
    return tuple((first, *rest) for first in range(1, total + 1) for rest in _compositions(total - first))


@functools.lru_cache(maxsize=32)
def _ordered_partitions(items: tuple[int, ...]) -> tuple[tuple[tuple[int, ...], ...], ...]:
    """Every ordered partition of ``items`` into non-empty blocks (each block in ascending order)."""
    if not items:
        return ((),)
    found: list[tuple[tuple[int, ...], ...]] = []
    for size in range(1, len(items) + 1):
        for first in itertools.combinations(items, size):
            rest = tuple(item for item in items if item not in first)
            found += [(first, *tail) for tail in _ordered_partitions(rest)]
    return tuple(found)


@functools.lru_cache(maxsize=256)
def _partition_ways(sizes: tuple[int, ...], values: tuple[tuple[int, int], ...]) -> int:
    """Ways that blocks of these sizes roll values strictly decreasing block to block, each block
    one value: Σ over v_1 > ... > v_m of Π ways(v_j)^size_j (``values`` from the highest)."""
    if not sizes:
        return 1
    return sum(ways ** sizes[0] * _partition_ways(sizes[1:], values[position + 1:])
               for position, (_, ways) in enumerate(values))
