"""Session-wide cleanup: the databases tests created on PostgreSQL are dropped at the end
(an atexit hook would come too late to start the work it needs)."""

from __future__ import annotations

import contextlib
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


# Marks of heavy tests that take turns across pytest-xdist's workers, one lock file each: at
# most one test of each kind runs at a time, beside the workers' lighter tests.
TURNS = ("processes", "browser_game")


def turns_lock(mark: str) -> Path:
    return Path(tempfile.gettempdir()) / f"tranque-tests-{mark}-{os.getuid()}.lock"


@pytest.fixture(autouse=True)
def heavy_tests_take_turns(request: pytest.FixtureRequest) -> Iterator[None]:
    """Tests marked `processes` start servers in processes of their own (a cluster's nodes, a
    server to SIGKILL and restart); tests marked `browser_game` have two browser pages play a
    whole game. Two or three of either kind at once, beside the other workers' browsers, starved
    each other past their deadlines (on 2 cores, with 4 workers): each kind takes turns, by a
    lock on a file."""
    marks = [mark for mark in TURNS if request.node.get_closest_marker(mark) is not None]
    with contextlib.ExitStack() as stack:
        for mark in marks:
            lock = stack.enter_context(turns_lock(mark).open("w"))
            fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file closes
        yield


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Tests that drive the browser run last, whatever order they were named in. The session's
    `browser` fixture keeps Playwright's sync API, and with it a running event loop, in this
    thread until the session ends, so a later test could not start an event loop of its own
    (`asyncio.run`, anyio): "Cannot run the event loop while another loop is running"."""
    items.sort(key=lambda item: "browser" in getattr(item, "fixturenames", ()))
