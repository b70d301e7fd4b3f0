"""`SqlFairPlay`: the sampled games' fair-play figures, on SQLAlchemy."""

from __future__ import annotations

import dataclasses

import sqlalchemy as sa

from tranque.server.store.fairplay import FairPlaySample, RatedGame
from tranque.server.store.players import GamePlayerRow
from tranque.server.store.schema import fairplay_samples, game_players, games
from tranque.server.store.sql.database import SqlDatabase


class SqlFairPlay(SqlDatabase):
    """`FairPlayStore` on SQLAlchemy."""

    async def rated_games_after(self, after: tuple[float, str] | None, limit: int) -> list[RatedGame]:
        query = sa.select(games.c.game_id, games.c.finished_at, games.c.format).where(games.c.rated)
        if after is not None:
            at, game_id = after
            query = query.where(
                sa.or_(
                    games.c.finished_at > at, sa.and_(games.c.finished_at == at, games.c.game_id > game_id)
                )
            )
        query = query.order_by(games.c.finished_at, games.c.game_id).limit(limit)
        async with self.engine.connect() as connection:
            rows = (await connection.execute(query)).all()
        return [RatedGame(row.game_id, row.finished_at, row.format) for row in rows]

    async def save_fairplay_samples(self, samples: list[FairPlaySample]) -> None:
        async with self.engine.begin() as connection:
            for sample in samples:
                await connection.execute(self._upsert(fairplay_samples, dataclasses.asdict(sample)))

    async def fairplay_sampled(self, game_id: str) -> bool:
        query = sa.select(fairplay_samples.c.game_id).where(fairplay_samples.c.game_id == game_id).limit(1)
        async with self.engine.connect() as connection:
            return (await connection.execute(query)).first() is not None

    async def fairplay_samples(self, since: float) -> list[FairPlaySample]:
        query = (
            sa.select(fairplay_samples)
            .where(fairplay_samples.c.finished_at >= since)
            .order_by(fairplay_samples.c.finished_at, fairplay_samples.c.game_id, fairplay_samples.c.user_id)
        )
        async with self.engine.connect() as connection:
            rows = (await connection.execute(query)).all()
        return [FairPlaySample(**row._mapping) for row in rows]

    async def last_fairplay_sample(self) -> tuple[float, str] | None:
        query = (
            sa.select(fairplay_samples.c.finished_at, fairplay_samples.c.game_id)
            .order_by(fairplay_samples.c.finished_at.desc(), fairplay_samples.c.game_id.desc())
            .limit(1)
        )
        async with self.engine.connect() as connection:
            row = (await connection.execute(query)).first()
        return None if row is None else (row.finished_at, row.game_id)

    async def rated_results(self, since: float) -> list[GamePlayerRow]:
        played = game_players.c
        query = (
            sa.select(game_players)
            .where(played.finished_at >= since, played.mu_before.is_not(None))
            .order_by(played.finished_at, played.game_id, played.seat)
        )
        async with self.engine.connect() as connection:
            rows = (await connection.execute(query)).all()
        return [GamePlayerRow(**row._mapping) for row in rows]
