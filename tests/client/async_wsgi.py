"""An ``httpx`` async transport served by a WSGI app in-process: AsyncClient tests run the real client
code against the real app without a socket (the async twin of tests/wsgi_session.py)."""

from __future__ import annotations

import httpx


class AsyncWsgiTransport(httpx.AsyncBaseTransport):
    def __init__(self, app):
        self._wsgi = httpx.WSGITransport(app=app)

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        body = await request.aread()
        served = self._wsgi.handle_request(httpx.Request(request.method, request.url, headers=request.headers,
                                                         content=body))
        return httpx.Response(served.status_code, headers=served.headers, content=served.read())
