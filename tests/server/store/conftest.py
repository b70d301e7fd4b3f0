"""Fixtures of the store's tests that need a real database (the `store` fixture of every
backend is the server tests', in tests/server/conftest.py)."""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture(params=["sqlite", "postgresql"])
def sql_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """The URL of a database of each kind: a new SQLite file, or this session's PostgreSQL one."""
    if request.param == "sqlite":
        return f"sqlite+aiosqlite:///{tmp_path / 'tranque.db'}"
    url: str = request.getfixturevalue("postgres_url")
    return url
