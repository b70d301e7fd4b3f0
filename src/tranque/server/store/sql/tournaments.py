"""`SqlTournaments`: tournaments, their players and the attendance bars, on SQLAlchemy."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import sqlalchemy as sa

from tranque.server.store.schema import attendance, tournament_players, tournaments
from tranque.server.store.sql.database import SqlDatabase
from tranque.server.store.tournaments import LIVE_STATUSES, Order, TournamentRow


def _row(found: sa.Row[Any]) -> TournamentRow:
    return TournamentRow(**{column.name: found._mapping[column.name] for column in tournaments.columns})


def _order(order: Order) -> list[sa.ColumnElement[Any]]:
    if order == "soonest":
        unset = sa.case((tournaments.c.starts_at.is_(None), 1), else_=0)
        return [unset, tournaments.c.starts_at, tournaments.c.created_at, tournaments.c.id]
    last = sa.func.coalesce(tournaments.c.finished_at, tournaments.c.created_at)
    return [last.desc(), tournaments.c.id]


def _listed(statuses: Sequence[str], public_only: bool) -> sa.ColumnElement[bool]:
    where = tournaments.c.status.in_(list(statuses))
    return sa.and_(where, ~tournaments.c.private) if public_only else where


class SqlTournaments(SqlDatabase):
    """`TournamentStore` on SQLAlchemy."""

    async def create_tournament(self, row: TournamentRow) -> bool:
        values = {column.name: getattr(row, column.name) for column in tournaments.columns}
        try:
            async with self.engine.begin() as connection:
                await connection.execute(tournaments.insert().values(values))
        except sa.exc.IntegrityError:  # its id or its schedule key is taken
            return False
        return True

    async def tournament(self, tournament_id: str) -> TournamentRow | None:
        query = sa.select(tournaments).where(tournaments.c.id == tournament_id)
        async with self.engine.connect() as connection:
            found = (await connection.execute(query)).first()
        return None if found is None else _row(found)

    async def save_tournament(
        self,
        tournament_id: str,
        version: int,
        doc: dict[str, Any],
        status: str,
        *,
        starts_at: float | None,
        finished_at: float | None,
    ) -> bool:
        statement = (
            tournaments.update()
            .where(tournaments.c.id == tournament_id, tournaments.c.version == version)
            .values(version=version + 1, doc=doc, status=status, starts_at=starts_at, finished_at=finished_at)
        )
        async with self.engine.begin() as connection:
            result = await connection.execute(statement)
        return result.rowcount == 1

    async def tournaments(
        self,
        statuses: Sequence[str],
        public_only: bool,
        limit: int,
        offset: int = 0,
        order: Order = "soonest",
    ) -> list[TournamentRow]:
        query = (
            sa.select(tournaments)
            .where(_listed(statuses, public_only))
            .order_by(*_order(order))
            .limit(limit)
            .offset(offset)
        )
        async with self.engine.connect() as connection:
            rows = (await connection.execute(query)).all()
        return [_row(row) for row in rows]

    async def count_tournaments(self, statuses: Sequence[str], public_only: bool) -> int:
        query = sa.select(sa.func.count()).select_from(tournaments).where(_listed(statuses, public_only))
        async with self.engine.connect() as connection:
            return int(await connection.scalar(query) or 0)

    async def live_tournaments(self) -> list[str]:
        query = (
            sa.select(tournaments.c.id)
            .where(tournaments.c.status.in_(LIVE_STATUSES))
            .order_by(tournaments.c.created_at, tournaments.c.id)
        )
        async with self.engine.connect() as connection:
            return list((await connection.scalars(query)).all())

    async def set_players(self, tournament_id: str, user_ids: Sequence[int]) -> None:
        mine = tournament_players.c.tournament_id == tournament_id
        wanted = list(dict.fromkeys(user_ids))
        async with self.engine.begin() as connection:
            await connection.execute(
                tournament_players.delete().where(mine, tournament_players.c.user_id.notin_(wanted))
            )
            if wanted:
                await connection.execute(
                    self._insert(tournament_players)
                    .values([{"tournament_id": tournament_id, "user_id": user} for user in wanted])
                    .on_conflict_do_nothing(index_elements=["tournament_id", "user_id"])
                )

    async def set_places(self, tournament_id: str, places: Mapping[int, int]) -> None:
        if not places:
            return
        async with self.engine.begin() as connection:
            for user_id, place in places.items():
                values = {"tournament_id": tournament_id, "user_id": user_id, "place": place}
                await connection.execute(self._upsert(tournament_players, values))

    async def player_tournaments(
        self, user_id: int, limit: int, public_only: bool = False
    ) -> list[tuple[TournamentRow, int | None]]:
        latest = sa.func.coalesce(
            tournaments.c.finished_at, tournaments.c.starts_at, tournaments.c.created_at
        )
        query = (
            sa.select(tournaments, tournament_players.c.place)
            .join(tournament_players, tournament_players.c.tournament_id == tournaments.c.id)
            .where(tournament_players.c.user_id == user_id)
            .order_by(latest.desc(), tournaments.c.id)
            .limit(limit)
        )
        if public_only:
            query = query.where(~tournaments.c.private)
        async with self.engine.connect() as connection:
            rows = (await connection.execute(query)).all()
        return [(_row(row), row.place) for row in rows]

    async def bar(self, user_id: int, until: float) -> None:
        statement = self._insert(attendance).values(user_id=user_id, barred_until=until)
        later = sa.func.greatest if self.engine.dialect.name == "postgresql" else sa.func.max
        statement = statement.on_conflict_do_update(
            index_elements=["user_id"],
            set_={"barred_until": later(attendance.c.barred_until, statement.excluded.barred_until)},
        )
        async with self.engine.begin() as connection:
            await connection.execute(statement)

    async def barred_until(self, user_id: int) -> float | None:
        query = sa.select(attendance.c.barred_until).where(attendance.c.user_id == user_id)
        async with self.engine.connect() as connection:
            found = await connection.scalar(query)
        return None if found is None else float(found)
