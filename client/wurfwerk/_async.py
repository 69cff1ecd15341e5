"""The asyncio transport: ``httpx`` (the ``async`` extra), with the same retry loop as ``_sync``."""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from typing import Any

import httpx

from wurfwerk._core import (
    Body,
    Operation,
    Options,
    R,
    decode,
    next_delay,
    prepare,
    should_retry_status,
    transport_error,
)

sleep = asyncio.sleep  # replaced in tests, to record the waits instead of waiting


async def send(http: httpx.AsyncClient, options: Options, operation: Operation[R], body: Body,
               query: Mapping[str, Any] | None) -> R:
    request = prepare(options, operation, body, query)
    retry_number = 0
    while True:
        try:
            # httpx times each read and write; wait_for holds the whole attempt to the call's budget, so a
            # bot that must answer in 3 s gets its answer or RequestTimeout in time.
            response = await asyncio.wait_for(
                http.request(request.method, request.url, params=request.params or None, json=request.json,
                             headers=request.headers, timeout=request.attempt_timeout()),
                request.attempt_timeout())
        except (httpx.TransportError, TimeoutError) as error:
            retry_number += 1
            delay = next_delay(options, request, retry_number)
            if delay is None:
                timed_out = isinstance(error, (httpx.TimeoutException, TimeoutError))
                raise transport_error(request, error, timed_out) from error
            await sleep(delay)
            continue
        if should_retry_status(response.status_code):
            retry_number += 1
            delay = next_delay(options, request, retry_number, response.headers.get("retry-after"))
            if delay is not None:
                await sleep(delay)
                continue
        return decode(operation, request, response.status_code, response.headers, response.content,
                      response.reason_phrase)
