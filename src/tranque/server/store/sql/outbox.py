"""The game ends to record (store/outbox.py) on SQLAlchemy: a marker row per recorded end."""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa

from tranque.server.store.fichas import Movement
from tranque.server.store.outbox import GAME_ENDED, GameEnd, Keep
from tranque.server.store.players import RatingRow
from tranque.server.store.schema import ratings, recorded_game_ends, table_events
from tranque.server.store.sql.fichas import write_movements
from tranque.server.store.sql.players import RATING_COLUMNS, SqlPlayers

RECORDING_LOCK = 0x7472616E  # the advisory lock one recording of a game end holds (PostgreSQL)


class SqlOutbox(SqlPlayers):
    """`GameEnds`: recording a game end keeps its game as `save_game` does, in one transaction."""

    async def game_ends(self, limit: int) -> list[GameEnd]:
        recorded = sa.select(recorded_game_ends.c.seq).where(
            recorded_game_ends.c.table_id == table_events.c.table_id,
            recorded_game_ends.c.seq == table_events.c.seq,
        )
        query = (
            sa.select(table_events.c.table_id, table_events.c.seq, table_events.c.at)
            .where(table_events.c.kind == GAME_ENDED, ~recorded.exists())
            .order_by(table_events.c.at, table_events.c.table_id, table_events.c.seq)
            .limit(limit)
        )
        async with self.engine.connect() as connection:
            rows = (await connection.execute(query)).all()
        return [GameEnd(row.table_id, row.seq, row.at) for row in rows]

    async def record_game_end(
        self, end: GameEnd, pool: str, accounts: Sequence[int], keep: Keep, fichas: Sequence[Movement] = ()
    ) -> bool:
        mark = (
            self._insert(recorded_game_ends)
            .values(table_id=end.table_id, seq=end.seq, recorded_at=end.at)
            .on_conflict_do_nothing()
        )
        async with self.engine.begin() as connection:
            if self.engine.dialect.name == "postgresql":
                # One recording at a time, across processes: each reads the ratings the one
                # before it wrote (SQLite's writes are one at a time already, from the mark on).
                await connection.execute(sa.select(sa.func.pg_advisory_xact_lock(RECORDING_LOCK)))
            if (await connection.execute(mark)).rowcount != 1:
                return False
            query = sa.select(*RATING_COLUMNS).where(ratings.c.pool == pool, ratings.c.user_id.in_(accounts))
            found = {
                row.user_id: RatingRow(**row._mapping) for row in (await connection.execute(query)).all()
            }
            kept = keep(found)
            if kept is not None:
                await self._keep_game(connection, kept.game, kept.players, kept.ratings, kept.xp)
            await write_movements(self, connection, fichas)
        return True
