"""The moderation tests' HTTP clients are closed after each test."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.server.moderation.helpers import OPEN


@pytest.fixture(autouse=True)
def close_clients() -> Iterator[None]:
    yield
    while OPEN:
        OPEN.pop().close()
