"""The one adapter that owns the ``requests.Session``: timeouts, retries, errors."""

from __future__ import annotations

import time
from typing import Any

import requests

from wurfwerk.errors import TransportError, WurfwerkError, error_for_status
from wurfwerk.result import Result, plain

RETRY_STATUSES = frozenset({502, 503, 504})


class Transport:
    def __init__(self, base_url: str, *, api_key: str | None, timeout: float, retries: int,
                 lang: str | None, session: requests.Session | None, backoff: float = 0.2):
        self.base_url = base_url.rstrip("/")
        self.timeout = timeout
        self.retries = retries
        self.lang = lang
        self.backoff = backoff
        self.session = session or requests.Session()
        self.headers = {"Accept": "application/json"}
        if api_key:
            self.headers["Authorization"] = f"Bearer {api_key}"

    def request(self, method: str, path: str, body: Any = None) -> Result:
        url = self.base_url + path
        params = {"lang": self.lang} if self.lang else None
        json_body = plain(body) if body is not None else None
        attempt = 0
        while True:
            try:
                response = self.session.request(method, url, json=json_body, params=params,
                                                headers=self.headers, timeout=self.timeout)
            except (requests.ConnectionError, requests.Timeout) as error:
                if attempt < self.retries:
                    attempt += 1
                    self._sleep(attempt)
                    continue
                raise TransportError(f"{method} {url} failed: {error}", method=method, url=url) from error
            if response.status_code in RETRY_STATUSES and attempt < self.retries:
                attempt += 1
                self._sleep(attempt)
                continue
            return self._parse(method, url, response)

    def _sleep(self, attempt: int) -> None:
        time.sleep(self.backoff * 2 ** (attempt - 1))

    @staticmethod
    def _parse(method: str, url: str, response: requests.Response) -> Result:
        try:
            data = response.json()
        except ValueError as error:
            data = None
            if response.ok:
                raise WurfwerkError(f"{method} {url}: response is not JSON", method=method, url=url,
                                    status=response.status_code) from error
        if response.ok:
            return Result(data)
        problem = data if isinstance(data, dict) else {}
        detail = problem.get("detail") or response.reason
        error_class = error_for_status(response.status_code)
        raise error_class(f"{method} {url} -> {response.status_code}: {detail}", method=method, url=url,
                          status=response.status_code, problem=problem)
