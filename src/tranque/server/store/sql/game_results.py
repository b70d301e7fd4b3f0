"""`SqlGameResults`: finished games read across players, on SQLAlchemy."""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa

from tranque.server.store.game_results import GameResult
from tranque.server.store.players import GamePlayerRow
from tranque.server.store.schema import game_players, games
from tranque.server.store.sql.database import SqlDatabase

# A game's columns but its record (the heavy part: every move of every round).
RESULT_COLUMNS = (
    games.c.game_id,
    games.c.finished_at,
    games.c.preset,
    games.c.format,
    games.c.players,
    games.c.competitive,
    games.c.rated,
    games.c.private,
    games.c.summary,
)


def _visible(viewer_id: int | None) -> sa.ColumnElement[bool]:
    """A game the viewer may see: a public one, or a private one they played."""
    if viewer_id is None:
        return sa.not_(games.c.private)
    played = (
        sa.select(game_players.c.game_id)
        .where(game_players.c.game_id == games.c.game_id, game_players.c.user_id == viewer_id)
        .exists()
    )
    return sa.or_(sa.not_(games.c.private), played)


def _newest(game_ids: sa.Select[Any], viewer_id: int | None, limit: int) -> sa.Select[Any]:
    return (
        sa.select(*RESULT_COLUMNS)
        .where(games.c.game_id.in_(game_ids), _visible(viewer_id))
        .order_by(games.c.finished_at.desc(), games.c.game_id.desc())
        .limit(limit)
    )


class SqlGameResults(SqlDatabase):
    """`GameResultStore` on SQLAlchemy."""

    async def games_together(
        self, first_id: int, second_id: int, viewer_id: int | None, limit: int
    ) -> list[GameResult]:
        first, second = game_players.alias("first"), game_players.alias("second")
        both = (
            sa.select(first.c.game_id)
            .join(second, second.c.game_id == first.c.game_id)
            .where(first.c.user_id == first_id, second.c.user_id == second_id)
        )
        return await self._results(_newest(both, viewer_id, limit))

    async def games_of_any(self, user_ids: list[int], viewer_id: int | None, limit: int) -> list[GameResult]:
        if not user_ids:
            return []
        played = sa.select(game_players.c.game_id).where(game_players.c.user_id.in_(user_ids))
        return await self._results(_newest(played, viewer_id, limit))

    async def _results(self, query: sa.Select[Any]) -> list[GameResult]:
        async with self.engine.connect() as connection:
            rows = (await connection.execute(query)).all()
            ids = [row.game_id for row in rows]
            accounts: dict[str, list[GamePlayerRow]] = {game_id: [] for game_id in ids}
            if ids:
                found = await connection.execute(
                    sa.select(*game_players.c)
                    .where(game_players.c.game_id.in_(ids))
                    .order_by(game_players.c.game_id, game_players.c.seat)
                )
                for row in found:
                    accounts[row.game_id].append(GamePlayerRow(**row._mapping))
        return [GameResult(**row._mapping, accounts=accounts[row.game_id]) for row in rows]
