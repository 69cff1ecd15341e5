"""Advice for a Weltenbuch conflict scene (RULINGS.md "Advice", Weltenbuch): invest a player's hero point
now ("Pro investierten Heldenpunkt erhält man 2 Würfel") or hold it for the end ("die Zähigkeit um drei
Punkte zu regenerieren", E2), and whom the success dice hit (`targeting`, E1). Pure: no Flask, no JSON.

The encounter is one roll ("The encounter is the scene: one roll and its narration", E2), so every
choice is made before the dice fall and nothing is left to decide anew: the adaptive optimum is the
best fixed option, and its rules say so. Who wins depends only on the dice rolled: a held point is two
dice fewer, so holding never wins more, and `targeting` only moves consequences (each option's
`expected` shows them), never the winner.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from service.platform.words.messages import Message, advised, advised_n

HOLD_AT_MOST = 1  # one held point saves the one consequence a member can take in a scene (E2)


def rules(*, hold: bool, targeting: bool) -> tuple[Message, ...]:
    said = [advised("The scene is one roll: every choice is made before the dice fall, so deciding anew "
                    "wins nothing more.")]
    if hold:
        said.append(advised("Invest the hero points for two dice each: a point held back is two dice fewer and "
                            "never wins more; it only saves a consequence at the end."))
    if targeting:
        said.append(advised("Whom the dice hit changes who takes consequences, not who wins."))
    return tuple(said)


TARGETING_WORDS = {"weakest": advised("aim at the weakest first"), "strongest": advised("aim at the strongest first"),
                   "spread": advised("spread the dice over the targets")}


def policy_words(policy: Mapping[str, Any]) -> list[Message]:
    """A Weltenbuch policy in the chat line's words: the hero points held back, whom the dice aim at."""
    words: list[Message] = []
    if "hold_hero_points" in policy:
        held = {name: count for name, count in policy["hold_hero_points"].items() if count}
        words.extend([advised_n("%(name)s holds back %(count)d hero point", "%(name)s holds back %(count)d hero points",
                                count, name=name) for name, count in held.items()]
                     or [advised("spend every hero point for dice")])
    if "targeting" in policy:
        words.append(TARGETING_WORDS[policy["targeting"]])
    return words
