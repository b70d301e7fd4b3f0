"""`SqlDatabase`: the one engine every area of a `SqlStore` runs its transactions on."""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.ext.asyncio import AsyncEngine

from tranque.server import metrics
from tranque.server.store.sql.engine import async_url, create_engine
from tranque.server.store.sql.revisions import prepare_schema


class SqlDatabase:
    """A database by URL: `start()` connects and migrates it to head (with `migrate` off:
    refuses it unless it is there, `revisions.SchemaNotAtHead`), `close()` lets it go.
    Every method of an area is one short transaction on `engine`."""

    def __init__(self, url: str, *, migrate: bool = True) -> None:
        self.url = async_url(url)
        self.migrate = migrate
        self._engine: AsyncEngine | None = None

    @property
    def engine(self) -> AsyncEngine:
        if self._engine is None:
            raise RuntimeError("SqlStore.start() has not been awaited")
        return self._engine

    async def start(self) -> None:
        if self._engine is None:
            self._engine = create_engine(self.url)
            sa.event.listen(self._engine.sync_engine, "handle_error", metrics.database_error)
        async with self._engine.begin() as connection:
            await connection.run_sync(prepare_schema, self.migrate)

    async def close(self) -> None:
        engine, self._engine = self._engine, None
        if engine is not None:
            await engine.dispose()

    def _insert(self, table: sa.Table) -> postgresql.Insert | sqlite.Insert:
        """An INSERT of the database's dialect (which knows ON CONFLICT)."""
        if self.engine.dialect.name == "postgresql":
            return postgresql.insert(table)
        return sqlite.insert(table)

    def _upsert(self, table: sa.Table, values: dict[str, Any]) -> sa.Executable:
        statement = self._insert(table).values(values)
        key = [column.name for column in table.primary_key]
        return statement.on_conflict_do_update(
            index_elements=key, set_={name: statement.excluded[name] for name in values if name not in key}
        )
