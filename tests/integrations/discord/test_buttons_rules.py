"""The follow-up buttons state rules: each is offered only where the text offers the move (issue 53)."""

from __future__ import annotations

from wurfwerk_discord.buttons import follow_ups


def _retry_offered(dice: int, difficulty: int, rule: str = "meet") -> bool:
    response = {"operation": "proben.test", "result": {"outcome": "failure", "dice_count": dice},
                "request": {"attribute": dice, "difficulty": difficulty, "success_rule": rule}}
    return any(":retry:" in button["custom_id"] for row in follow_ups(response, None, "de")  # type: ignore[arg-type]
               for button in row["components"])


def test_a_retry_only_while_one_die_fewer_can_still_make_the_test():
    """"Möchte ein Spieler eine misslungene Probe wiederholen, wird hierfür ein Würfel entfernt" and "Hat ein
    Spieler nicht genügend Würfel, um eine Schwierigkeit zu erreichen, kann er die Probe nicht schaffen"."""
    assert _retry_offered(4, 3)
    assert not _retry_offered(3, 3)  # two dice cannot reach 3
    assert not _retry_offered(4, 3, "exceed")  # ruling 1, exceed: three dice cannot exceed 3
    assert not _retry_offered(1, 1)  # no dice left
