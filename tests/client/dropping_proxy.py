"""A loopback HTTP proxy that loses answers: it forwards a request to the live service, reads the
service's complete answer, and then closes the client's connection without sending a byte of it,
the way a load balancer restart or a mobile network loses a response after the roll happened."""

from __future__ import annotations

import http.client
import json
import socket
import socketserver
import threading
from urllib.parse import urlsplit

HOP_BY_HOP = {"connection", "keep-alive", "transfer-encoding", "content-length"}


class DroppingProxy:
    def __init__(self, upstream: str, *, drop: int = 1):
        self.upstream = urlsplit(upstream)
        self.to_drop = drop
        self.dropped: list[dict] = []   # the service's answers the client never saw
        self.seen: list[dict] = []      # every request that came through: method, path, headers
        self._lock = threading.Lock()
        proxy = self

        class Handler(socketserver.StreamRequestHandler):
            def handle(self) -> None:
                proxy._serve(self.rfile, self.connection)

        self._server = socketserver.ThreadingTCPServer(("127.0.0.1", 0), Handler)
        self._server.daemon_threads = True
        self.url = f"http://127.0.0.1:{self._server.server_address[1]}"
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    def __enter__(self) -> DroppingProxy:
        self._thread.start()
        return self

    def __exit__(self, *_exc_info) -> None:
        self._server.shutdown()
        self._server.server_close()

    def _serve(self, rfile, connection: socket.socket) -> None:
        request_line = rfile.readline().decode("latin-1").strip()
        if not request_line:
            return
        method, path, _ = request_line.split(" ", 2)
        headers = {}
        while (line := rfile.readline().decode("latin-1").strip()):
            name, _, value = line.partition(":")
            headers[name.strip()] = value.strip()
        body = rfile.read(int(headers.get("Content-Length", "0") or 0))
        status, reason, answer_headers, answer = self._forward(method, path, headers, body)
        with self._lock:
            self.seen.append({"method": method, "path": path, "headers": headers})
            drop = self.to_drop > 0
            if drop:
                self.to_drop -= 1
                self.dropped.append(json.loads(answer))
        if drop:
            connection.shutdown(socket.SHUT_RDWR)  # the answer existed; the client gets nothing
            return
        head = [f"HTTP/1.1 {status} {reason}", *[f"{k}: {v}" for k, v in answer_headers if k.lower() not in HOP_BY_HOP],
                f"Content-Length: {len(answer)}", "Connection: close", "", ""]
        connection.sendall("\r\n".join(head).encode("latin-1") + answer)

    def _forward(self, method: str, path: str, headers: dict, body: bytes):
        upstream = http.client.HTTPConnection(self.upstream.hostname, self.upstream.port, timeout=30)
        try:
            forwarded = {k: v for k, v in headers.items() if k.lower() not in HOP_BY_HOP | {"host"}}
            upstream.request(method, path, body=body or None, headers=forwarded)
            response = upstream.getresponse()
            return response.status, response.reason, response.getheaders(), response.read()
        finally:
            upstream.close()
