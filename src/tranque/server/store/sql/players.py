"""`SqlPlayers`: finished games, ratings, XP, leaderboards and profiles, on SQLAlchemy."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncConnection

from tranque.server.store.players import (
    GamePlayerRow,
    GameRow,
    Leaderboard,
    PlayedGame,
    PlayerPage,
    PlayerStat,
    PoolRating,
    Ranked,
    RatingPoint,
    RatingRow,
    Standing,
)
from tranque.server.store.schema import board_sizes, game_players, games, ratings, users, xp
from tranque.server.store.sql.database import SqlDatabase
from tranque.server.store.sql.social import relation_on


def _row_values(row: Any) -> dict[str, Any]:
    return {name: getattr(row, name) for name in row.__dataclass_fields__}


@dataclass(frozen=True)
class _Board:
    """A leaderboard as a query: its table, the value it ranks by, the rows it ranks, its name
    in `board_sizes`, and the columns a rating row adds (a NULL σ and 0 games for XP)."""

    table: sa.Table
    value: sa.ColumnElement[Any]
    where: sa.ColumnElement[bool]
    name: str
    sigma: sa.ColumnElement[Any]
    games: sa.ColumnElement[Any]

    def count(self, *conditions: sa.ColumnElement[bool]) -> sa.Select[Any]:
        return sa.select(sa.func.count()).select_from(self.table).where(self.where, *conditions)

    def capped_count(self, cap: int, *conditions: sa.ColumnElement[bool]) -> sa.Select[Any]:
        """How many rows meet `conditions`, counting no further than `cap`."""
        rows = sa.select(self.table.c.user_id).where(self.where, *conditions).limit(cap).subquery()
        return sa.select(sa.func.count()).select_from(rows)

    def nth(self, index: int, descending: bool) -> sa.Select[Any]:
        """The value and player at `index` (from 0) of the board ordered by value then player,
        from the top or from the bottom: in the (board, value, player) index alone."""
        user_id = self.table.c.user_id
        order = (self.value.desc(), user_id.desc()) if descending else (self.value, user_id)
        return sa.select(self.value, user_id).where(self.where).order_by(*order).offset(index).limit(1)


def _xp_board(period: str) -> _Board:
    return _Board(xp, xp.c.xp, xp.c.period == period, f"xp:{period}", sa.null(), sa.literal(0))


def _rating_board(pool: str) -> _Board:
    return _Board(
        ratings, ratings.c.shown, ratings.c.pool == pool, f"rating:{pool}", ratings.c.sigma, ratings.c.games
    )


def _name_key_of(user_id: int) -> sa.ScalarSelect[Any]:
    """The player's name key, for the leaderboard rows that keep it (revision 0005)."""
    return sa.select(users.c.name_key).where(users.c.id == user_id).scalar_subquery()


def _ranked(row: Any) -> Ranked:
    return Ranked(row.user_id, row.name, row.avatar, row.value, row.sigma, row.games)


PLAYED_COLUMNS = (*game_players.c, games.c.players, games.c.competitive, games.c.rated, games.c.summary)


# The players' queries (`player_page`, `player_games`) ------------------------------------------


def _xp_query(user_id: int, periods: list[str]) -> sa.Select[Any]:
    return sa.select(xp.c.period, xp.c.xp).where(xp.c.user_id == user_id, xp.c.period.in_(periods))


def _stats_query(user_id: int) -> sa.Select[Any]:
    played = game_players.c
    return (
        sa.select(
            played.preset,
            played.format,
            sa.func.count().label("played"),
            sa.func.sum(sa.cast(played.won, sa.Integer)).label("won"),
        )
        .where(played.user_id == user_id)
        .group_by(played.preset, played.format)
        .order_by(played.preset, played.format)
    )


# A `RatingRow`'s columns (the row's copy of its player's name key is the leaderboard's).
RATING_COLUMNS = tuple(column for column in ratings.c if column.name != "name_key")


def _ratings_query(user_id: int) -> sa.Select[Any]:
    return sa.select(*RATING_COLUMNS).where(ratings.c.user_id == user_id).order_by(ratings.c.pool)


def _history_query(user_id: int, pool: str, limit: int) -> sa.Select[Any]:
    """The pool's last `limit` ratings after a game, newest first."""
    played = game_players.c
    return (
        sa.select(played.format, played.finished_at, played.mu_after, played.sigma_after)
        .where(
            played.user_id == user_id,
            played.format == pool,
            played.mu_after.is_not(None),
            played.sigma_after.is_not(None),
        )
        .order_by(played.finished_at.desc())
        .limit(limit)
    )


def _games_query(user_id: int, viewer_id: int | None, before: float | None, limit: int) -> sa.Select[Any]:
    played = game_players.c
    query = (
        sa.select(*PLAYED_COLUMNS)
        .join(games, games.c.game_id == played.game_id)
        .where(played.user_id == user_id)
        .order_by(played.finished_at.desc())
        .limit(limit)
    )
    if before is not None:
        query = query.where(played.finished_at < before)
    if viewer_id is None:
        return query.where(sa.not_(played.private))
    if viewer_id == user_id:
        return query
    fellow = game_players.alias("fellow")
    together = (
        sa.select(fellow.c.game_id)
        .where(fellow.c.game_id == played.game_id, fellow.c.user_id == viewer_id)
        .exists()
    )
    return query.where(sa.or_(sa.not_(played.private), together))


def _played_game(row: Any) -> PlayedGame:
    player = GamePlayerRow(**{name: row._mapping[name] for name in GamePlayerRow.__dataclass_fields__})
    return PlayedGame(player, row.players, row.competitive, row.rated, row.summary)


class SqlPlayers(SqlDatabase):
    """`PlayerStore` on SQLAlchemy."""

    async def save_game(
        self,
        game: GameRow,
        players: list[GamePlayerRow],
        ratings_now: list[RatingRow],
        xp_gained: list[tuple[str, int, int]],
    ) -> None:
        async with self.engine.begin() as connection:
            await self._keep_game(connection, game, players, ratings_now, xp_gained)

    async def _keep_game(
        self,
        connection: AsyncConnection,
        game: GameRow,
        players: list[GamePlayerRow],
        ratings_now: list[RatingRow],
        xp_gained: list[tuple[str, int, int]],
    ) -> None:
        """`save_game`'s writes, in the caller's transaction."""
        known = await connection.scalar(sa.select(games.c.game_id).where(games.c.game_id == game.game_id))
        if known is not None:
            return
        await connection.execute(games.insert().values(_row_values(game)))
        if players:
            await connection.execute(game_players.insert(), [_row_values(player) for player in players])
        # In one order (ratings, then XP by period): a new row's trigger locks its board's
        # size, and games saved at once must lock those rows in the same order.
        for rating in sorted(ratings_now, key=lambda rating: (rating.pool, rating.user_id)):
            values = {**_row_values(rating), "name_key": _name_key_of(rating.user_id)}
            await connection.execute(self._upsert(ratings, values))
        for period, user_id, gained in sorted(xp_gained):
            await connection.execute(self._add_xp(period, user_id, gained))

    def _add_xp(self, period: str, user_id: int, gained: int) -> sa.Executable:
        statement = self._insert(xp).values(
            period=period, user_id=user_id, xp=gained, name_key=_name_key_of(user_id)
        )
        return statement.on_conflict_do_update(
            index_elements=["period", "user_id"], set_={"xp": xp.c.xp + gained}
        )

    async def load_game(self, game_id: str) -> GameRow | None:
        async with self.engine.connect() as connection:
            row = (await connection.execute(sa.select(games).where(games.c.game_id == game_id))).first()
        return GameRow(**row._mapping) if row is not None else None

    async def kept_games(self, game_ids: list[str]) -> set[str]:
        if not game_ids:
            return set()
        query = sa.select(games.c.game_id).where(games.c.game_id.in_(sorted(set(game_ids))))
        async with self.engine.connect() as connection:
            return set((await connection.execute(query)).scalars())

    async def game_players(self, game_id: str) -> list[GamePlayerRow]:
        query = sa.select(game_players).where(game_players.c.game_id == game_id).order_by(game_players.c.seat)
        async with self.engine.connect() as connection:
            rows = (await connection.execute(query)).all()
        return [GamePlayerRow(**row._mapping) for row in rows]

    async def ratings_of(self, user_ids: list[int], pool: str) -> dict[int, RatingRow]:
        if not user_ids:
            return {}
        query = sa.select(*RATING_COLUMNS).where(ratings.c.pool == pool, ratings.c.user_id.in_(user_ids))
        async with self.engine.connect() as connection:
            rows = (await connection.execute(query)).all()
        return {row.user_id: RatingRow(**row._mapping) for row in rows}

    async def xp_of(self, user_id: int) -> dict[str, int]:
        query = sa.select(xp.c.period, xp.c.xp).where(xp.c.user_id == user_id)
        async with self.engine.connect() as connection:
            rows = (await connection.execute(query)).all()
        return {row.period: row.xp for row in rows}

    def _board_rows(self, board: _Board) -> sa.Select[Any]:
        return (
            sa.select(
                board.table.c.user_id,
                users.c.name,
                users.c.avatar,
                board.value.label("value"),
                board.sigma.label("sigma"),
                board.games.label("games"),
            )
            .join(users, users.c.id == board.table.c.user_id)
            .where(board.where)
        )

    async def _leaderboard(self, board: _Board, offset: int, limit: int, me: int | None) -> Leaderboard:
        """The page starting at `offset`, its first rank, and `me`'s standing, exact, without
        counting the whole board: its size is kept in `board_sizes`; the row at `offset` is
        found in the (board, value, player) index from whichever end is nearer, and how many
        rank above it from its ties; then the page's players are read from the board's page
        index (value, then name: rows keep their player's name key) and only they are joined
        to their names, never every player tied with them."""
        rows: list[Any] = []
        async with self.engine.connect() as connection:
            size = sa.select(board_sizes.c.players).where(board_sizes.c.board == board.name)
            count = int(await connection.scalar(size) or 0)
            above, value = offset, None
            if offset < count:
                above, value = await self._above(connection, board, offset, count)
                order = (board.value.desc(), board.table.c.name_key)  # the board's page index
                players = (
                    sa.select(board.table.c.user_id)
                    .where(board.where, board.value <= value)
                    .order_by(*order)
                    .offset(offset - above)
                    .limit(limit)
                    .subquery()
                )
                page = (
                    self._board_rows(board)
                    .join(players, players.c.user_id == board.table.c.user_id)
                    .order_by(*order)
                )
                rows = list((await connection.execute(page)).all())
            mine = None
            if me is not None:
                row = (
                    await connection.execute(self._board_rows(board).where(board.table.c.user_id == me))
                ).first()
                if row is not None:
                    ahead = await self._ahead(connection, board, row.value, count, value, above)
                    mine = Standing(1 + ahead, _ranked(row))
        return Leaderboard([_ranked(row) for row in rows], count, 1 + above, mine)

    async def _above(
        self, connection: AsyncConnection, board: _Board, offset: int, count: int
    ) -> tuple[int, Any]:
        """How many rows have more than the one at `offset` (ordered by value then player,
        most first), and its value, reading no more of the index than the nearer end."""
        user_id = board.table.c.user_id
        from_bottom = count - 1 - offset
        if offset <= from_bottom:
            value, player = (await connection.execute(board.nth(offset, descending=True))).one()
            tied_before = await connection.scalar(board.count(board.value == value, user_id > player))
            return offset - int(tied_before or 0), value
        value, player = (await connection.execute(board.nth(from_bottom, descending=False))).one()
        tied_after = int(await connection.scalar(board.count(board.value == value, user_id < player)) or 0)
        tied = int(await connection.scalar(board.count(board.value == value)) or 0)
        return count - (from_bottom - tied_after) - tied, value

    async def _ahead(
        self, connection: AsyncConnection, board: _Board, mine: Any, count: int, value: Any, above: int
    ) -> int:
        """How many rows have more than `mine`. At or above the page's first value (`value`,
        `above` rows above it): counted from the top, no further than the page. Below it:
        counted down from the page, or, past half of what is left, up from the bottom."""
        if value is None or mine >= value:
            return int(await connection.scalar(board.count(board.value > mine)) or 0)
        at_least = above + int(await connection.scalar(board.count(board.value == value)) or 0)
        cap = max(1, (count - at_least) // 2)
        between = board.capped_count(cap, board.value > mine, board.value < value)
        found = int(await connection.scalar(between) or 0)
        if found < cap:
            return at_least + found
        return count - int(await connection.scalar(board.count(board.value <= mine)) or 0)

    async def xp_leaderboard(
        self, period: str, offset: int, limit: int, me: int | None = None
    ) -> Leaderboard:
        return await self._leaderboard(_xp_board(period), offset, limit, me)

    async def rating_leaderboard(
        self, pool: str, offset: int, limit: int, me: int | None = None
    ) -> Leaderboard:
        return await self._leaderboard(_rating_board(pool), offset, limit, me)

    async def player_games(
        self, user_id: int, viewer_id: int | None, before: float | None, limit: int
    ) -> list[PlayedGame]:
        async with self.engine.connect() as connection:
            rows = (await connection.execute(_games_query(user_id, viewer_id, before, limit))).all()
        return [_played_game(row) for row in rows]

    async def player_page(
        self, user_id: int, viewer_id: int | None, periods: list[str], history: int, recent: int
    ) -> PlayerPage:
        # One connection for the page's dozen small queries: a checkout and a release each
        # would cost more than the queries (with aiosqlite every step is a thread hand-off).
        async with self.engine.connect() as connection:
            totals = {row.period: row.xp for row in await connection.execute(_xp_query(user_id, periods))}
            stats = [
                PlayerStat(row.preset, row.format, int(row.played), int(row.won))
                for row in await connection.execute(_stats_query(user_id))
            ]
            pools = []
            for row in (await connection.execute(_ratings_query(user_id))).all():
                rating = RatingRow(**row._mapping)
                points = (await connection.execute(_history_query(user_id, rating.pool, history))).all()
                pools.append(
                    PoolRating(
                        rating,
                        [
                            RatingPoint(p.format, p.finished_at, p.mu_after, p.sigma_after)
                            for p in reversed(points)
                        ],
                    )
                )
            games_rows = (await connection.execute(_games_query(user_id, viewer_id, None, recent))).all()
            relation = None
            if viewer_id is not None and viewer_id != user_id:
                relation = await relation_on(connection, viewer_id, user_id)
        return PlayerPage(totals, stats, pools, [_played_game(row) for row in games_rows], relation)
