"""For tests of a schema revision: a database of the test's own, and raw SQL run on it as a
server at an older revision would have written it."""

from __future__ import annotations

from pathlib import Path

import pytest
import sqlalchemy as sa

from tests import services
from tranque.server.store.sql import create_engine


def own_database_url(backend: str, request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """An empty database of its own (one at an older revision cannot share the session's)."""
    if backend == "sqlite":
        return f"sqlite+aiosqlite:///{tmp_path / 'tranque.db'}"
    request.getfixturevalue("postgres_url")  # its teardown drops the databases made here too
    return services.fresh_postgres_url()


async def execute(url: str, *statements: sa.Executable) -> None:
    """Run `statements` on the database at `url`, in one transaction, from outside any server."""
    engine = create_engine(url)
    try:
        async with engine.begin() as connection:
            for statement in statements:
                await connection.execute(statement)
    finally:
        await engine.dispose()
