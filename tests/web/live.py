"""A real HTTP server on a free loopback port, for clients that cannot use Flask's test client:
node (the JavaScript client's tests) and Chromium (the browser tests)."""

from __future__ import annotations

import contextlib
import logging
import threading
from collections.abc import Iterator

from werkzeug.serving import make_server


@contextlib.contextmanager
def serve(app, host: str = "127.0.0.1") -> Iterator[str]:
    """Serve ``app`` on ``host`` at a port the OS picks; yields the base URL."""
    logging.getLogger("werkzeug").setLevel(logging.WARNING)  # one access line per request is noise here
    server = make_server(host, 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, name="live-server", daemon=True)
    thread.start()
    try:
        yield f"http://{host}:{server.server_port}"
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)
