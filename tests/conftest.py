"""Session-wide cleanup: the databases tests created on PostgreSQL are dropped at the end
(an atexit hook would come too late to start the work it needs)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests import fichas_switch, services

fichas_switch.apply()  # TRANQUE_FICHAS_ENABLED=0: the whole suite with fichas off

pytest_plugins = ["tests.hang_report"]


@pytest.fixture(scope="session", autouse=True)
def drop_test_databases() -> Iterator[None]:
    yield
    services.drop_databases()


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Tests that drive the browser run last, whatever order they were named in. The session's
    `browser` fixture keeps Playwright's sync API, and with it a running event loop, in this
    thread until the session ends, so a later test could not start an event loop of its own
    (`asyncio.run`, anyio): "Cannot run the event loop while another loop is running"."""
    items.sort(key=lambda item: "browser" in getattr(item, "fixturenames", ()))
