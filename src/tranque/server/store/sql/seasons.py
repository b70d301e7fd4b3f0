"""`SqlSeasons`: a peña's seasons and their games, on SQLAlchemy."""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa

from tranque.server.store.players import GameRow
from tranque.server.store.schema import game_players, games, penas, season_games, seasons
from tranque.server.store.seasons import SeasonInfo, SeasonOverlaps
from tranque.server.store.sql.database import SqlDatabase


def _season(row: Any) -> SeasonInfo:
    return SeasonInfo(
        row.id,
        row.pena_id,
        row.name,
        row.scope,
        row.points,
        row.starts_at,
        row.ends_at,
        row.created_by,
        row.created_at,
        row.scanned_until,
        row.final,
        row.frozen_at,
    )


class SqlSeasons(SqlDatabase):
    """`SeasonStore` on SQLAlchemy."""

    async def create_season(
        self,
        pena_id: int,
        name: str,
        scope: str,
        points: str,
        starts_at: float,
        ends_at: float,
        created_by: int,
        at: float,
    ) -> SeasonInfo:
        async with self.engine.begin() as connection:
            # The peña's row locked (PostgreSQL): two leaders opening seasons at once take turns.
            await connection.execute(sa.select(penas.c.id).where(penas.c.id == pena_id).with_for_update())
            other = await connection.scalar(
                sa.select(seasons.c.name).where(
                    seasons.c.pena_id == pena_id, seasons.c.starts_at < ends_at, seasons.c.ends_at > starts_at
                )
            )
            if other is not None:
                raise SeasonOverlaps(other)
            values = {
                "pena_id": pena_id,
                "name": name,
                "scope": scope,
                "points": points,
                "starts_at": starts_at,
                "ends_at": ends_at,
                "created_by": created_by,
                "created_at": at,
                "scanned_until": starts_at,
            }
            season_id = await connection.scalar(seasons.insert().values(values).returning(seasons.c.id))
        return SeasonInfo(
            int(season_id), pena_id, name, scope, points, starts_at, ends_at, created_by, at, starts_at
        )

    async def season_by_id(self, season_id: int) -> SeasonInfo | None:
        async with self.engine.connect() as connection:
            row = (await connection.execute(sa.select(seasons).where(seasons.c.id == season_id))).first()
        return _season(row) if row is not None else None

    async def seasons_of_pena(self, pena_id: int) -> list[SeasonInfo]:
        query = (
            sa.select(seasons)
            .where(seasons.c.pena_id == pena_id)
            .order_by(seasons.c.starts_at.desc(), seasons.c.id.desc())
        )
        async with self.engine.connect() as connection:
            rows = (await connection.execute(query)).all()
        return [_season(row) for row in rows]

    async def add_season_games(
        self, season_id: int, records: list[tuple[str, dict[str, Any]]], scanned_until: float
    ) -> None:
        async with self.engine.begin() as connection:
            frozen = await connection.scalar(
                sa.select(seasons.c.frozen_at.is_not(None)).where(seasons.c.id == season_id)
            )
            if frozen is None or frozen:
                return
            for game_id, record in records:
                statement = self._insert(season_games).values(
                    season_id=season_id, game_id=game_id, finished_at=record["finished_at"], record=record
                )
                await connection.execute(statement.on_conflict_do_nothing())
            await connection.execute(
                seasons.update()
                .where(seasons.c.id == season_id, seasons.c.scanned_until < scanned_until)
                .values(scanned_until=scanned_until)
            )

    async def season_games(self, season_id: int, game_ids: list[str] | None = None) -> list[dict[str, Any]]:
        query = (
            sa.select(season_games.c.record)
            .where(season_games.c.season_id == season_id)
            .order_by(season_games.c.finished_at, season_games.c.game_id)
        )
        if game_ids is not None:
            query = query.where(season_games.c.game_id.in_(game_ids))
        async with self.engine.connect() as connection:
            return [dict(record) for record in (await connection.scalars(query)).all()]

    async def season_game_ids(self, season_id: int) -> list[str]:
        query = sa.select(season_games.c.game_id).where(season_games.c.season_id == season_id)
        async with self.engine.connect() as connection:
            return [str(game_id) for game_id in (await connection.scalars(query)).all()]

    async def freeze_season(self, season_id: int, rows: list[dict[str, Any]], at: float) -> bool:
        async with self.engine.begin() as connection:
            result = await connection.execute(
                seasons.update()
                .where(seasons.c.id == season_id, seasons.c.frozen_at.is_(None))
                .values(final=rows, frozen_at=at)
            )
        return bool(result.rowcount)

    async def games_of_players(self, user_ids: list[int], since: float, until: float) -> list[GameRow]:
        if not user_ids:
            return []
        played = (
            sa.select(game_players.c.game_id)
            .where(
                game_players.c.user_id.in_(user_ids),
                game_players.c.finished_at >= since,
                game_players.c.finished_at < until,
            )
            .distinct()
        )
        query = (
            sa.select(games).where(games.c.game_id.in_(played)).order_by(games.c.finished_at, games.c.game_id)
        )
        async with self.engine.connect() as connection:
            rows = (await connection.execute(query)).all()
        return [GameRow(**row._mapping) for row in rows]
