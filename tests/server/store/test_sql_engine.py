"""The SQL store's database (SQLite, PostgreSQL): URLs get their async drivers, `make_store`
chooses the backend, the migrations create exactly the schema the code uses, a second store on
one database sees the first one's data, SQLite files get WAL and a busy timeout, and
PostgreSQL sessions end runaway statements and idle transactions (but not migrations).
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from alembic.script import ScriptDirectory

from tranque.server.store import MemoryStore, StoredEvent
from tranque.server.store.factory import make_store
from tranque.server.store.schema import metadata
from tranque.server.store.sql import (
    SqlStore,
    alembic_config,
    async_url,
    create_engine,
    upgrade_connection,
    upgrade_to_head,
)

pytestmark = pytest.mark.anyio


def event(seq: int, kind: str = "play", at: float = 1000.0) -> StoredEvent:
    return StoredEvent(seq, kind, {"seat": seq % 4, "tile": f"{seq % 7}-0"}, at + seq)


@pytest.fixture
async def sql_store(sql_url: str) -> AsyncIterator[SqlStore]:
    store = SqlStore(sql_url)
    await store.start()
    try:
        yield store
    finally:
        await store.close()


async def test_a_second_store_on_the_same_database_sees_the_first_ones_data(sql_url: str) -> None:
    first = SqlStore(sql_url)
    await first.start()
    try:
        await first.create_table("t-reinicio", {"preset": "clasico"}, 1.0)
        await first.append_event("t-reinicio", event(1))
        user = await first.create_user("Reinicio", "hash", 1.0)
    finally:
        await first.close()

    second = SqlStore(sql_url)
    await second.start()
    try:
        assert await second.load_events("t-reinicio") == [event(1)]
        assert await second.find_user("reinicio") == user
        assert "t-reinicio" in [row.table_id for row in await second.tables(("waiting",))]
    finally:
        await second.close()


async def test_migrations_create_exactly_the_schema_the_code_uses(sql_store: SqlStore) -> None:
    def differences(connection: sa.Connection) -> list[Any]:
        context = MigrationContext.configure(connection, opts={"compare_type": True})
        return list(compare_metadata(context, metadata))

    async with sql_store.engine.connect() as connection:
        assert await connection.run_sync(differences) == []
        versions = (await connection.execute(sa.text("SELECT version_num FROM alembic_version"))).all()
    head = ScriptDirectory.from_config(alembic_config()).get_current_head()
    assert head is not None and head.isdigit()
    assert [tuple(row) for row in versions] == [(head,)]


async def test_postgres_sessions_end_runaway_statements_and_idle_transactions_but_not_migrations(
    postgres_url: str,
) -> None:
    def show(connection: sa.Connection) -> tuple[str, str]:
        statement = connection.exec_driver_sql("SHOW statement_timeout").scalar_one()
        idle = connection.exec_driver_sql("SHOW idle_in_transaction_session_timeout").scalar_one()
        return statement, idle

    def migrate_then_show(connection: sa.Connection) -> tuple[str, str]:
        upgrade_connection(connection)
        return show(connection)

    engine = create_engine(postgres_url)
    try:
        async with engine.connect() as connection:
            assert await connection.run_sync(show) == ("30s", "1min")
        async with engine.begin() as connection:
            assert await connection.run_sync(migrate_then_show) == ("0", "1min")
        # Lifted for the migration's transaction only.
        async with engine.connect() as connection:
            assert await connection.run_sync(show) == ("30s", "1min")
    finally:
        await engine.dispose()


async def test_upgrade_to_head_creates_the_sqlite_directory_and_is_idempotent(tmp_path: Path) -> None:
    path = tmp_path / "no" / "existe" / "tranque.db"
    await upgrade_to_head(f"sqlite:///{path}")
    await upgrade_to_head(f"sqlite:///{path}")

    store = SqlStore(f"sqlite:///{path}")
    await store.start()
    try:
        await store.create_table("t-ruta", {}, 1.0)
        async with store.engine.connect() as connection:
            journal = await connection.scalar(sa.text("PRAGMA journal_mode"))
            busy = await connection.scalar(sa.text("PRAGMA busy_timeout"))
    finally:
        await store.close()
    assert path.exists()
    assert (journal, busy) == ("wal", 10_000)


def test_urls_are_rewritten_to_the_async_drivers() -> None:
    assert str(async_url("postgresql://u@db:5432/tranque")) == "postgresql+asyncpg://u@db:5432/tranque"
    assert str(async_url("postgres://u@db/tranque")) == "postgresql+asyncpg://u@db/tranque"
    assert str(async_url("sqlite:///./tranque.db")) == "sqlite+aiosqlite:///./tranque.db"
    assert str(async_url("sqlite+aiosqlite:////var/x.db")) == "sqlite+aiosqlite:////var/x.db"
    assert str(async_url("postgresql+asyncpg://u@db/t")) == "postgresql+asyncpg://u@db/t"


def test_make_store_chooses_the_backend_by_url() -> None:
    assert isinstance(make_store(None), MemoryStore)
    assert isinstance(make_store("memory://"), MemoryStore)
    sql = make_store("postgresql://postgres@127.0.0.1/tranque")
    assert isinstance(sql, SqlStore)
    assert sql.url.drivername == "postgresql+asyncpg"
