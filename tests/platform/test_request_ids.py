"""Generated request ids (API.md §1: every response carries X-Request-ID): the hex form of a version-4
UUID, as before, and no two workers forked from one master repeat each other's."""

from __future__ import annotations

import os
import uuid

from service.platform.hooks import new_request_id


def test_new_ids_are_uuid4_hex():
    ids = {new_request_id() for _ in range(1000)}
    assert len(ids) == 1000
    for given in ids:
        parsed = uuid.UUID(hex=given)
        assert parsed.hex == given and parsed.version == 4 and parsed.variant == uuid.RFC_4122


def test_forked_workers_draw_different_ids():
    reader, writer = os.pipe()
    child = os.fork()
    if child == 0:  # as a gunicorn worker: forked, then drawing ids
        os.write(writer, new_request_id().encode())
        os._exit(0)
    os.close(writer)
    os.waitpid(child, 0)
    from_child = os.read(reader, 64).decode()
    os.close(reader)
    assert len(from_child) == 32 and from_child != new_request_id()
