"""`SqlAnalyses`: the post-game analyses' queue, on SQLAlchemy."""

from __future__ import annotations

import dataclasses
from typing import Any

import sqlalchemy as sa

from tranque.server.store.analyses import AnalysisRow
from tranque.server.store.schema import analyses
from tranque.server.store.sql.database import SqlDatabase


class SqlAnalyses(SqlDatabase):
    """`AnalysisStore` on SQLAlchemy."""

    async def save_analysis(self, row: AnalysisRow) -> None:
        async with self.engine.begin() as connection:
            await connection.execute(self._upsert(analyses, dataclasses.asdict(row)))

    async def analysis(self, game_id: str) -> AnalysisRow | None:
        query = sa.select(analyses).where(analyses.c.game_id == game_id)
        async with self.engine.connect() as connection:
            found = (await connection.execute(query)).first()
        return AnalysisRow(**found._mapping) if found is not None else None

    async def analyses_requested(self, user_id: int, since: float) -> tuple[int, int]:
        unfinished = analyses.c.status.in_(("pending", "running"))
        query = sa.select(
            sa.func.count().filter(analyses.c.created_at >= since),
            sa.func.count().filter(unfinished),
        ).where(analyses.c.user_id == user_id)
        async with self.engine.connect() as connection:
            recent, pending = (await connection.execute(query)).one()
        return int(recent), int(pending)

    async def unfinished_analyses(self) -> list[AnalysisRow]:
        query = (
            sa.select(analyses)
            .where(analyses.c.status.in_(("pending", "running")))
            .order_by(analyses.c.created_at, analyses.c.game_id)
        )
        async with self.engine.connect() as connection:
            rows = (await connection.execute(query)).all()
        return [AnalysisRow(**row._mapping) for row in rows]

    async def unfinished_analysis_count(self) -> int:
        query = sa.select(sa.func.count()).where(analyses.c.status.in_(("pending", "running")))
        async with self.engine.connect() as connection:
            return int(await connection.scalar(query) or 0)

    async def claim_analysis(self, worker: str, now: float, stale_before: float) -> AnalysisRow | None:
        claimable = sa.or_(
            analyses.c.status == "pending",
            sa.and_(
                analyses.c.status == "running",
                sa.or_(analyses.c.heartbeat_at.is_(None), analyses.c.heartbeat_at < stale_before),
            ),
        )
        # One statement. PostgreSQL: the oldest claimable row not locked by another claimer is
        # locked (SKIP LOCKED), then updated; a claimer that waited re-checks `claimable` on the
        # row as committed. SQLite (no FOR UPDATE): one writer at a time, and the statement
        # takes the write lock before it reads, so the row it picks is the one it updates.
        # The order is `turn_order`'s: a row's turns are counted from the unfinished rows of its
        # place and of its account that are older (a few rows: the queue is small).
        oldest = (
            sa.select(analyses.c.game_id)
            .where(claimable)
            .order_by(
                _turn(analyses.c.place_key),
                _turn(analyses.c.user_id),
                analyses.c.created_at,
                analyses.c.game_id,
            )
            .limit(1)
            .with_for_update(skip_locked=True, of=analyses)
            .scalar_subquery()
        )
        claim = (
            analyses.update()
            .where(analyses.c.game_id == oldest, claimable)
            .values(status="running", claimed_by=worker, heartbeat_at=now)
            .returning(*analyses.c)
        )
        async with self.engine.begin() as connection:
            found = (await connection.execute(claim)).first()
        return AnalysisRow(**found._mapping) if found is not None else None

    async def save_claimed_analysis(self, row: AnalysisRow) -> bool:
        if row.claimed_by is None:
            return False
        values = dataclasses.asdict(row)
        for key in ("game_id", "user_id", "created_at", "claimed_by", "place_key"):
            del values[key]
        update = (
            analyses.update()
            .where(
                analyses.c.game_id == row.game_id,
                analyses.c.status == "running",
                analyses.c.claimed_by == row.claimed_by,
            )
            .values(values)
        )
        async with self.engine.begin() as connection:
            result = await connection.execute(update)
        return result.rowcount == 1


def _turn(key: sa.ColumnElement[Any]) -> sa.ScalarSelect[int]:
    """How many unfinished analyses with the row's `key` (its place, its account) are older than
    it: its turn among them (`turn_order`); 0 for a row with no place."""
    older = analyses.alias("older")
    same = older.c[key.name] == key
    before = sa.or_(
        older.c.created_at < analyses.c.created_at,
        sa.and_(older.c.created_at == analyses.c.created_at, older.c.game_id < analyses.c.game_id),
    )
    unfinished = older.c.status.in_(("pending", "running"))
    return sa.select(sa.func.count()).where(same, before, unfinished).scalar_subquery()
