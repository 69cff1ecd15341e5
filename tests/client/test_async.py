"""AsyncClient: the same surface on httpx, in-process against the real app and with mocked HTTP."""

from __future__ import annotations

import asyncio
import subprocess
import sys

import httpx
import pytest

from tests.wsgi_session import WsgiSession
from wurfwerk import AsyncClient, Client, InvalidRequest, RequestTimeout, ServerError, TransportError
from wurfwerk.models import PawsTestResponse, Verification

from .async_wsgi import AsyncWsgiTransport
from .support import ROOT, example_answer

BASE = "http://svc.test"


def in_process(app, **options) -> AsyncClient:
    http = httpx.AsyncClient(transport=AsyncWsgiTransport(app))
    return AsyncClient("http://wurfwerk.test", http_client=http, max_retries=0, **options)


def test_async_calls_return_the_same_typed_results_as_sync(app):
    async def main():
        async with in_process(app) as client:
            return await client.paws.test(rank=3, seed=11), await client.with_options(lang="de").proben.test(
                attribute=2, difficulty=1, manual=[5, 6])

    roll, odds = asyncio.run(main())
    same = Client("http://wurfwerk.test", session=WsgiSession(app)).paws.test(rank=3, seed=11)
    assert isinstance(roll, PawsTestResponse) and roll.result.dice == same.result.dice
    assert roll.request_id and odds.lang == "de"


def test_async_verify_takes_the_same_path_offline_and_online(app):
    async def main():
        async with in_process(app) as client:
            roll = await client.proben.test(attribute=3, difficulty=2)
            tampered = roll.to_dict()
            tampered["result"]["successes"] += 1
            return [await client.verify(document, offline=offline)
                    for document in (roll, tampered) for offline in (True, False)]

    verifications = asyncio.run(main())
    assert all(isinstance(verification, Verification) for verification in verifications)
    assert [verification.valid for verification in verifications] == [True, True, False, False]


def test_async_errors_are_typed(app):
    async def main():
        async with in_process(app) as client:
            await client.proben.test(attribute=-1, difficulty=2)

    with pytest.raises(InvalidRequest) as error:
        asyncio.run(main())
    assert error.value.status == 422 and error.value.request_id


@pytest.fixture
def waits(monkeypatch):
    recorded: list[float] = []

    async def record(delay: float) -> None:
        recorded.append(delay)

    monkeypatch.setattr("wurfwerk._async.sleep", record)
    return recorded


def mocked(handler, **options) -> AsyncClient:
    return AsyncClient(BASE, http_client=httpx.AsyncClient(transport=httpx.MockTransport(handler)), **options)


def test_async_retries_reuse_the_idempotency_key_and_honour_retry_after(waits):
    seen: list[httpx.Request] = []
    answers = [httpx.Response(503, headers={"Retry-After": "1"}), "drop", httpx.Response(200, json=example_answer(
        "/v1/paws/test"), headers={"X-Request-ID": "third"})]

    def handler(request: httpx.Request) -> httpx.Response:
        seen.append(request)
        answer = answers[len(seen) - 1]
        if answer == "drop":
            raise httpx.RemoteProtocolError("server disconnected without sending a response", request=request)
        return answer

    async def main():
        async with mocked(handler) as client:
            return await client.paws.test(rank=2)

    roll = asyncio.run(main())
    assert roll.request_id == "third" and len(seen) == 3
    keys = {request.headers["Idempotency-Key"] for request in seen}
    assert len(keys) == 1 and waits[0] == 1.0 and len(waits) == 2


def test_async_gives_up_with_typed_errors(waits):
    async def main(handler, **options):
        async with mocked(handler, **options) as client:
            await client.paws.test_odds(rank=2)

    with pytest.raises(ServerError):
        asyncio.run(main(lambda request: httpx.Response(500), max_retries=2))
    assert len(waits) == 2

    def refuse(request):
        raise httpx.ConnectError("refused", request=request)

    with pytest.raises(TransportError) as error:
        asyncio.run(main(refuse, max_retries=0))
    assert isinstance(error.value.__cause__, httpx.ConnectError)

    def slow(request):
        raise httpx.ReadTimeout("timed out", request=request)

    with pytest.raises(RequestTimeout):
        asyncio.run(main(slow, max_retries=0))


def test_async_timeout_budget_covers_a_slow_answer():
    async def slow(request: httpx.Request) -> httpx.Response:
        await asyncio.sleep(5)
        return httpx.Response(200, json={})

    async def main():
        async with mocked(slow, max_retries=3) as client:
            started = asyncio.get_running_loop().time()
            with pytest.raises(RequestTimeout):
                await asyncio.wait_for(client.with_options(timeout=0.3).paws.test_odds(rank=1), timeout=0.3 + 5)
            return asyncio.get_running_loop().time() - started

    # MockTransport ignores httpx timeouts, so this budget is the SDK's own deadline around each attempt.
    assert asyncio.run(main()) < 1.0


def test_async_client_closes_only_its_own_http_client():
    async def main():
        given = httpx.AsyncClient()
        async with AsyncClient(BASE, http_client=given):
            pass
        async with AsyncClient(BASE) as own:
            pass
        return given.is_closed, own._http.is_closed

    assert asyncio.run(main()) == (False, True)


def test_plain_install_needs_only_requests():
    """``import wurfwerk`` and a blocking client never import httpx; the extra is only for AsyncClient."""
    code = ("import sys, wurfwerk; wurfwerk.Client('http://x.test').with_options(timeout=1); "
            "assert 'httpx' not in sys.modules, 'httpx imported'")
    subprocess.run([sys.executable, "-c", code], check=True, cwd=ROOT)
    project = (ROOT / "client" / "pyproject.toml").read_text()
    assert 'dependencies = ["requests>=2.28,<3"]' in project and 'async = ["httpx' in project
