"""Code as an SDK user writes it, checked by ``mypy --strict`` in test_typing.py (never run by pytest)."""

from __future__ import annotations

import asyncio

from wurfwerk import AsyncClient, Client, RequestTimeout
from wurfwerk.models import BeutelBagParam, Event, PawsTestResponse, ProbenTestResponse, Verification


def roll_and_read(client: Client) -> tuple[int, list[int | str], str | None]:
    roll: ProbenTestResponse = client.proben.test(attribute=3, difficulty=2, skill=1, success_rule="exceed")
    event: Event = roll.randomness.events[0]
    values: list[int | str] = event.values  # the data, not a mapping method
    dice_count: int = roll.result.dice_count
    if roll.result.outcome == "partial":
        print(roll.summary)
    return dice_count, values, roll.request_id


def send_a_draw_back(client: Client) -> bool:
    bag: BeutelBagParam = {"red": 2, "green": 1, "black": 2}
    draw = client.beutelschneider.healing(bag=bag, chances="fair")
    applied = client.beutelschneider.healing_apply(draw=draw, replacements=["red"])
    verification: Verification = client.verify(applied)
    exact: dict[str, object] = applied.to_dict()
    return verification.valid and bool(exact)


def roll_with_a_ticket(client: Client) -> list[int]:
    ticket = client.tickets(count=1, operation="paws.test", context="world-7").tickets[0]
    roll = client.paws.test(rank=2, ticket=ticket)
    replay = client.paws.test(rank=2, ticket=ticket)  # the same dice: a replay
    return roll.result.dice + replay.result.dice


def odds_and_batch(client: Client) -> float:
    odds = client.with_options(timeout=2.5, max_retries=1).proben.test_odds(attribute=3, difficulty=2)
    first = odds.odds.outcomes[0]
    batch = client.batch(requests=[{"operation": "paws.test", "body": {"rank": 2}}])
    return first.probability + batch.results[0].status


async def discord_command(rank: int) -> str:
    async with AsyncClient("http://localhost:8000") as client:
        try:
            roll: PawsTestResponse = await client.with_options(timeout=2.5).paws.test(rank=rank)
        except RequestTimeout:
            return "The dice are stuck, try again."
        verification = await client.verify(roll)
        return f"{roll.summary} ({'signed' if verification.valid else 'unsigned'})"


if __name__ == "__main__":
    print(asyncio.run(discord_command(2)))
