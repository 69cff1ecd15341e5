"""A retry never rolls twice, end to end: the live service rolls, a proxy loses its answer, the SDK
retries with the same Idempotency-Key and gets the dice of the roll it never saw."""

from __future__ import annotations

import asyncio
import threading

import pytest
from werkzeug.serving import make_server

from wurfwerk import AsyncClient, Client, TransportError

from .dropping_proxy import DroppingProxy

ROLL = {"attribute": 12, "difficulty": 3}  # 12d6: two independent rolls agree with chance 6^-12


@pytest.fixture(scope="module")
def live_service(app):
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_port}"
    server.shutdown()


def assert_same_roll(dropped: dict, received: dict, proxy: DroppingProxy) -> None:
    keys = [request["headers"].get("Idempotency-Key") for request in proxy.seen if request["method"] == "POST"]
    assert len(keys) == 2 and keys[0] and keys[0] == keys[1], "the retry carried the first attempt's key"
    assert received["result"] == dropped["result"], "the retry returned the dice of the lost answer"
    assert received["randomness"]["events"] == dropped["randomness"]["events"]
    assert received["randomness"]["idempotency_key"] == dropped["randomness"]["idempotency_key"] == keys[0]


def test_a_lost_answer_is_fetched_again_not_rolled_again(live_service):
    with DroppingProxy(live_service, drop=1) as proxy, Client(proxy.url, max_retries=2) as client:
        roll = client.proben.test(**ROLL)
        assert client.verify(roll).valid
    assert_same_roll(proxy.dropped[0], roll.to_dict(), proxy)


def test_the_async_client_too(live_service):
    async def main():
        async with AsyncClient(proxy.url, max_retries=2) as client:
            roll = await client.proben.test(**ROLL)
            return roll, (await client.verify(roll)).valid

    with DroppingProxy(live_service, drop=1) as proxy:
        roll, valid = asyncio.run(main())
    assert valid
    assert_same_roll(proxy.dropped[0], roll.to_dict(), proxy)


def test_without_retries_the_lost_answer_is_an_error(live_service):
    with DroppingProxy(live_service, drop=1) as proxy, Client(proxy.url, max_retries=0) as client:
        with pytest.raises(TransportError):
            client.proben.test(**ROLL)
    assert len(proxy.seen) == 1 and proxy.dropped[0]["result"]["dice_count"] == 12
