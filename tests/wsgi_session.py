"""A ``requests.Session`` whose requests are served by a WSGI app in-process, so SDK tests run the
real client code against the real app without a socket."""

from __future__ import annotations

from urllib.parse import urlsplit

import requests
from requests.adapters import BaseAdapter
from requests.structures import CaseInsensitiveDict


class _WsgiAdapter(BaseAdapter):
    def __init__(self, app):
        super().__init__()
        self._client = app.test_client()

    def send(self, request, **kwargs):
        url = urlsplit(request.url)
        served = self._client.open(url.path, method=request.method, query_string=url.query,
                                   headers=dict(request.headers), data=request.body)
        response = requests.Response()
        response.status_code = served.status_code
        response.headers = CaseInsensitiveDict(served.headers)
        response._content = served.get_data()
        response.url = request.url
        response.request = request
        response.reason = served.status.split(" ", 1)[1] if " " in served.status else ""
        return response

    def close(self):
        pass


class WsgiSession(requests.Session):
    def __init__(self, app):
        super().__init__()
        self.mount("http://wurfwerk.test", _WsgiAdapter(app))
