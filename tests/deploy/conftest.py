"""The container fixtures: the base image (bootstrapped once per machine) and the service image built
from the real Dockerfile, once per test session."""

from __future__ import annotations

import pytest

from tests.conftest import require_tool
from tests.deploy import podman


@pytest.fixture(scope="session")
def service_image() -> str:
    require_tool("podman", "runc", "mmdebstrap", why="the container tests build and run the real images")
    podman.ensure_base_image()
    podman.build_service_image()
    return podman.SERVICE_IMAGE
