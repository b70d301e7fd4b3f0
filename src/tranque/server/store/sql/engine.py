"""The SQL store's database: URLs with their async drivers, engines, and the migrations.

The schema lives in `schema.py` and is created and upgraded by the Alembic revisions in
`tranque.server.migrations`, which `SqlStore.start()` runs to head.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from alembic import command
from alembic.config import Config
from sqlalchemy.ext.asyncio import AsyncEngine, create_async_engine

from tranque.server import json_text, migrations

ASYNC_DRIVERS = {
    "sqlite": "sqlite+aiosqlite",
    "postgresql": "postgresql+asyncpg",
    "postgres": "postgresql+asyncpg",
}

SQLITE_BUSY_TIMEOUT_MS = 10_000


def async_url(url: str | sa.URL) -> sa.URL:
    """The URL with its async driver: `sqlite:///f.db` → `sqlite+aiosqlite:///f.db`, likewise asyncpg.

    >>> async_url("postgresql://postgres@127.0.0.1:5432/tranque").drivername
    'postgresql+asyncpg'
    >>> async_url("sqlite+aiosqlite:///./tranque.db").database
    './tranque.db'
    """
    parsed = sa.make_url(url)
    driver = ASYNC_DRIVERS.get(parsed.drivername)
    return parsed.set(drivername=driver) if driver else parsed


# Every PostgreSQL session of the site's engine: a statement that runs this long, or a
# transaction left open and idle this long (a task stuck between two statements), is ended by
# the database rather than holding its locks and a pool connection. The site's queries take
# milliseconds; the migrations, which may wait for another process's and rewrite a big
# table, lift the first limit for their transaction (`migrations/env.py`).
STATEMENT_TIMEOUT_MS = 30_000
IDLE_IN_TRANSACTION_MS = 60_000
POSTGRES_SETTINGS = {
    "statement_timeout": str(STATEMENT_TIMEOUT_MS),
    "idle_in_transaction_session_timeout": str(IDLE_IN_TRANSACTION_MS),
}


def create_engine(url: str | sa.URL) -> AsyncEngine:
    """An async engine for `url`; for PostgreSQL, its sessions have `POSTGRES_SETTINGS`; for a
    SQLite file, its directory is created, a new file is readable by its owner only, and WAL
    is on."""
    target = async_url(url)
    if target.get_backend_name() != "sqlite":
        return create_async_engine(
            target,
            pool_pre_ping=True,
            json_serializer=json_text.dumps,
            connect_args={"server_settings": POSTGRES_SETTINGS},
        )
    if target.database and target.database != ":memory:" and not target.database.startswith("file:"):
        Path(target.database).parent.mkdir(parents=True, exist_ok=True)
        _create_owner_only(Path(target.database))
    engine = create_async_engine(target, json_serializer=json_text.dumps)
    sa.event.listen(engine.sync_engine, "connect", lambda connection, _record: sqlite_pragmas(connection))
    return engine


def sqlite_file(url: str | sa.URL) -> str | None:
    """The path of the SQLite file at `url`; None for another database or an in-memory one.

    >>> sqlite_file("sqlite+aiosqlite:///./tranque.db"), sqlite_file("sqlite://")
    ('./tranque.db', None)
    """
    target = sa.make_url(url)
    database = target.database
    if target.get_backend_name() != "sqlite" or not database or database == ":memory:":
        return None
    return None if database.startswith("file:") else database


def _create_owner_only(path: Path) -> None:
    """Create an empty database file with mode 0600 if there is none. It holds password hashes
    and the seeds and hands of rounds in play; SQLite gives its -wal and -shm files the mode of
    the database file, so they are owner-only too."""
    with contextlib.suppress(FileExistsError):
        os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))


def sqlite_pragmas(dbapi_connection: Any) -> None:
    """The settings of every connection to a SQLite file (the engine's and the appends')."""
    cursor = dbapi_connection.cursor()
    # WAL lets readers run beside the writer; the busy timeout makes a second writer wait, not fail.
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute(f"PRAGMA busy_timeout={SQLITE_BUSY_TIMEOUT_MS}")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.close()


def alembic_config(url: str | sa.URL | None = None) -> Config:
    """An Alembic config for the packaged migrations (no alembic.ini), optionally with a database URL."""
    config = Config()
    config.set_main_option("script_location", str(Path(migrations.__file__).parent).replace("%", "%%"))
    if url is not None:
        rendered = async_url(url).render_as_string(hide_password=False)
        config.set_main_option("sqlalchemy.url", rendered.replace("%", "%%"))
    return config


def upgrade_connection(connection: sa.Connection) -> None:
    """Run the migrations to head on an open connection, inside its transaction."""
    config = alembic_config()
    config.attributes["connection"] = connection
    command.upgrade(config, "head")


async def upgrade_to_head(url: str) -> None:
    """Create or upgrade the schema of the database at `url` (idempotent)."""
    await run_in_transaction(url, upgrade_connection)


async def run_in_transaction(url: str, work: Callable[[sa.Connection], None]) -> None:
    """Run `work` on a synchronous connection to the database at `url`, in one transaction."""
    engine = create_engine(url)
    try:
        async with engine.begin() as connection:
            await connection.run_sync(work)
    finally:
        await engine.dispose()
