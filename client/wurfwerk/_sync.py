"""The blocking transport: ``requests``, with the retry loop of ``_core``."""

from __future__ import annotations

import time
from collections.abc import Mapping
from typing import Any

import requests

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

sleep = time.sleep  # replaced in tests, to record the waits instead of waiting
# A dropped connection, a refused one, a timeout or an answer cut short: nothing usable arrived.
CONNECTION_ERRORS = (requests.ConnectionError, requests.Timeout, requests.exceptions.ChunkedEncodingError)


def send(session: requests.Session, options: Options, operation: Operation[R], body: Body,
         query: Mapping[str, Any] | None) -> R:
    request = prepare(options, operation, body, query)
    retry_number = 0
    while True:
        try:
            response = session.request(request.method, request.url, params=request.params or None,
                                       json=request.json, headers=request.headers, timeout=request.attempt_timeout())
        except CONNECTION_ERRORS as error:
            retry_number += 1
            delay = next_delay(options, request, retry_number)
            if delay is None:
                raise transport_error(request, error, isinstance(error, requests.Timeout)) from error
            sleep(delay)
            continue
        if should_retry_status(response.status_code):
            retry_number += 1
            delay = next_delay(options, request, retry_number, response.headers.get("retry-after"))
            if delay is not None:
                response.close()
                sleep(delay)
                continue
        return decode(operation, request, response.status_code, response.headers, response.content, response.reason)
