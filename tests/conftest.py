"""Session-wide cleanup: the databases tests created on PostgreSQL are dropped at the end
(an atexit hook would come too late to start the work it needs)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests import services

pytest_plugins = ["tests.hang_report"]


@pytest.fixture(scope="session", autouse=True)
def drop_test_databases() -> Iterator[None]:
    yield
    services.drop_databases()
