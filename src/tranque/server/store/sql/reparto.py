"""`SqlReparto`: el reparto del día's days, pars and attempts, on SQLAlchemy."""

from __future__ import annotations

import json
from typing import Any

import sqlalchemy as sa

from tranque.server.store.reparto import RepartoDay, RepartoEntry
from tranque.server.store.schema import reparto_days, reparto_entries, reparto_pars, users
from tranque.server.store.sql.database import SqlDatabase


def _entry(row: Any) -> RepartoEntry:
    return RepartoEntry(
        day=row.day,
        mode=row.mode,
        user_id=row.user_id,
        name=row.name,
        table_id=row.table_id,
        started_at=row.started_at,
        diff=row.diff,
        points=None
        if row.points is None
        else [[int(value) for value in hand] for hand in json.loads(row.points)],
        finished_at=row.finished_at,
    )


class SqlReparto(SqlDatabase):
    """`RepartoStore` on SQLAlchemy."""

    async def reparto_day(self, day: str) -> RepartoDay | None:
        query = sa.select(reparto_days).where(reparto_days.c.day == day)
        async with self.engine.connect() as connection:
            row = (await connection.execute(query)).first()
        if row is None:
            return None
        return RepartoDay(row.day, bytes.fromhex(row.seed), row.commitment, row.created_at)

    async def open_reparto_day(self, day: str, seed: bytes, commitment: str, at: float) -> RepartoDay:
        # The day is the key: of two processes opening it, the second's insert does nothing.
        statement = (
            self._insert(reparto_days)
            .values(day=day, seed=seed.hex(), commitment=commitment, created_at=at)
            .on_conflict_do_nothing(index_elements=["day"])
        )
        async with self.engine.begin() as connection:
            await connection.execute(statement)
        stored = await self.reparto_day(day)
        assert stored is not None  # days are never deleted
        return stored

    async def reparto_par(self, day: str, mode: str) -> dict[str, Any] | None:
        query = sa.select(reparto_pars.c.par).where(reparto_pars.c.day == day, reparto_pars.c.mode == mode)
        async with self.engine.connect() as connection:
            text = (await connection.execute(query)).scalar()
        return None if text is None else dict(json.loads(text))

    async def keep_reparto_par(self, day: str, mode: str, par: dict[str, Any]) -> dict[str, Any]:
        statement = (
            self._insert(reparto_pars)
            .values(day=day, mode=mode, par=json.dumps(par))
            .on_conflict_do_nothing(index_elements=["day", "mode"])
        )
        async with self.engine.begin() as connection:
            await connection.execute(statement)
        kept = await self.reparto_par(day, mode)
        assert kept is not None
        return kept

    async def start_reparto_attempt(
        self, day: str, mode: str, user_id: int, table_id: str, at: float
    ) -> bool:
        statement = (
            self._insert(reparto_entries)
            .values(day=day, mode=mode, user_id=user_id, table_id=table_id, started_at=at)
            .on_conflict_do_nothing(index_elements=["day", "mode", "user_id"])
        )
        async with self.engine.begin() as connection:
            result = await connection.execute(statement)
        return bool(result.rowcount)

    async def finish_reparto_attempt(
        self, day: str, mode: str, user_id: int, table_id: str, diff: int, points: list[list[int]], at: float
    ) -> bool:
        statement = (
            sa.update(reparto_entries)
            .where(
                reparto_entries.c.day == day,
                reparto_entries.c.mode == mode,
                reparto_entries.c.user_id == user_id,
                reparto_entries.c.table_id == table_id,
                reparto_entries.c.diff.is_(None),
            )
            .values(diff=diff, points=json.dumps(points), finished_at=at)
        )
        async with self.engine.begin() as connection:
            result = await connection.execute(statement)
        return bool(result.rowcount)

    def _entries(self) -> sa.Select[Any]:
        return sa.select(reparto_entries, users.c.name).join(users, users.c.id == reparto_entries.c.user_id)

    async def reparto_attempt(self, day: str, mode: str, user_id: int) -> RepartoEntry | None:
        query = self._entries().where(
            reparto_entries.c.day == day, reparto_entries.c.mode == mode, reparto_entries.c.user_id == user_id
        )
        async with self.engine.connect() as connection:
            row = (await connection.execute(query)).first()
        return None if row is None else _entry(row)

    async def reparto_entries(self, day: str, mode: str) -> list[RepartoEntry]:
        query = (
            self._entries()
            .where(reparto_entries.c.day == day, reparto_entries.c.mode == mode)
            .order_by(reparto_entries.c.started_at, reparto_entries.c.user_id)
        )
        async with self.engine.connect() as connection:
            rows = (await connection.execute(query)).all()
        return [_entry(row) for row in rows]
