"""Session-wide cleanup: the databases tests created on PostgreSQL are dropped at the end
(an atexit hook would come too late to start the work it needs)."""

from __future__ import annotations

import fcntl
import os
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests import fichas_switch, services

fichas_switch.apply()  # TRANQUE_FICHAS_ENABLED=0: the whole suite with fichas off

pytest_plugins = ["tests.hang_report"]


@pytest.fixture(scope="session", autouse=True)
def drop_test_databases() -> Iterator[None]:
    yield
    services.drop_databases()


PROCESSES_LOCK = Path(tempfile.gettempdir()) / f"tranque-tests-processes-{os.getuid()}.lock"


@pytest.fixture(autouse=True)
def one_process_test_at_a_time(request: pytest.FixtureRequest) -> Iterator[None]:
    """Tests marked `processes` start servers in processes of their own (a cluster's nodes, a
    server to SIGKILL and restart). Each start costs seconds of CPU, so two or three such tests
    at once, beside the other workers' browsers, starved each other past their deadlines: across
    pytest-xdist's workers they take turns, by a lock on a file."""
    if request.node.get_closest_marker("processes") is None:
        yield
        return
    with PROCESSES_LOCK.open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Tests that drive the browser run last, whatever order they were named in. The session's
    `browser` fixture keeps Playwright's sync API, and with it a running event loop, in this
    thread until the session ends, so a later test could not start an event loop of its own
    (`asyncio.run`, anyio): "Cannot run the event loop while another loop is running"."""
    items.sort(key=lambda item: "browser" in getattr(item, "fixturenames", ()))
