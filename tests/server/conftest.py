"""Fixtures for server tests: services (PostgreSQL, Redis) and a started `store` for every backend.

Async tests use anyio's pytest plugin: mark them `@pytest.mark.anyio`; `anyio_backend` is asyncio.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest
import sqlalchemy as sa

from tests import services
from tranque.server.store import MemoryStore, Store
from tranque.server.store.schema import metadata
from tranque.server.store.sql import SqlStore


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture(scope="session")
def postgres_url() -> Iterator[str]:
    """This session's own PostgreSQL database (skipped, or failed under TRANQUE_REQUIRE_SERVICES=1)."""
    yield services.postgres_url()
    services.drop_databases()


@pytest.fixture(scope="session")
def redis_url() -> str:
    return services.redis_url()


async def empty_tables(store: SqlStore) -> None:
    """Delete every row, so each test starts from an empty schema (the database is per session)."""
    async with store.engine.begin() as connection:
        if connection.dialect.name == "postgresql":
            names = ", ".join(table.name for table in metadata.sorted_tables)
            await connection.execute(sa.text(f"TRUNCATE {names} RESTART IDENTITY"))
        else:
            for table in reversed(metadata.sorted_tables):
                await connection.execute(table.delete())


async def empty_database(url: str) -> None:
    """`empty_tables` on the database at `url`, from outside any server."""
    store = SqlStore(url)
    await store.start()
    try:
        await empty_tables(store)
    finally:
        await store.close()


def empty_database_url(backend: str, request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """The URL of an empty database of `backend` (memory, sqlite or postgresql) for a server to
    open: this session's PostgreSQL database is emptied of other tests' rows first."""
    if backend == "memory":
        return "memory://"
    if backend == "sqlite":
        return f"sqlite+aiosqlite:///{tmp_path / 'tranque.db'}"
    url: str = request.getfixturevalue("postgres_url")
    asyncio.run(empty_database(url))
    return url


def make_test_store(backend: str, request: pytest.FixtureRequest, tmp_path: Path) -> Store:
    """A store of `backend`: memory, sqlite (a file), postgresql, or "sqlite-memory", a
    `SqlStore` on an in-memory SQLite database (its appends through SQLAlchemy, not on a
    connection of their own), which a test may ask `store` for by indirect parametrization."""
    if backend == "memory":
        return MemoryStore()
    if backend == "sqlite-memory":
        return SqlStore("sqlite+aiosqlite://")
    if backend == "sqlite":
        return SqlStore(f"sqlite+aiosqlite:///{tmp_path / 'tranque.db'}")
    return SqlStore(request.getfixturevalue("postgres_url"))


@pytest.fixture(params=["memory", "sqlite", "postgresql"])
async def store(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Store]:
    """A started, empty store of each backend."""
    started = make_test_store(request.param, request, tmp_path)
    await started.start()
    try:
        if isinstance(started, SqlStore):
            await empty_tables(started)
        yield started
    finally:
        await started.close()
