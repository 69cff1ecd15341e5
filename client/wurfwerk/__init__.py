"""wurfwerk SDK: typed calls to the wurfwerk resolution service, blocking or asyncio.

    from wurfwerk import Client
    with Client("http://localhost:8000") as client:
        roll = client.proben.test(attribute=3, difficulty=2)
        print(roll.summary, roll.result.outcome, roll.request_id)

    from wurfwerk import AsyncClient          # pip install 'wurfwerk[async]'
    async with AsyncClient("http://localhost:8000") as client:
        roll = await client.with_options(timeout=2.5).paws.test(rank=2)

    from wurfwerk import verify_session       # a session's log, checked offline (the ``verify`` extra)
    verdict = verify_session(cards, reveal, jwks, seeds={"Rynn": seed})
"""

from __future__ import annotations

from wurfwerk._client import AsyncClient, Client
from wurfwerk._core import Options, __version__
from wurfwerk._models import Model, Result
from wurfwerk.errors import (
    Conflict,
    InvalidRequest,
    NotFound,
    RateLimited,
    RequestTimeout,
    ServerError,
    TransportError,
    Unauthorized,
    WurfwerkError,
)
from wurfwerk.sessions import RevealError, make_seed, seed_commit, verify_session

__all__ = ["AsyncClient", "Client", "Conflict", "InvalidRequest", "Model", "NotFound", "Options", "RateLimited",
           "RequestTimeout", "Result", "RevealError", "ServerError", "TransportError", "Unauthorized",
           "WurfwerkError", "__version__", "make_seed", "seed_commit", "verify_session"]
