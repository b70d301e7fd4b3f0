"""`SqlStore`: the `Store` on SQLAlchemy 2 (async), SQLite by default and PostgreSQL by URL.

Every method is one short transaction. The schema lives in `schema.py` and is created and
upgraded by the Alembic revisions in `tranque.server.migrations`, which `start()` runs to head.

Event appends are group-committed: the appends that arrive while a transaction is running are
written together in the next one (one max(seq) check and one multi-row INSERT for all of them),
so a thousand live tables cost a few transactions per tick, not one each. Appends that carry
their owner's epoch (fencing, `Store.claim_table`) have their tables' rows locked and their
epochs checked in that same transaction: a stale one is refused there, the others stored. A
row the batch cannot take (a stale seq, an unknown table, a race with another owner) goes
through the one-row path, which says precisely why. For a SQLite file the appends run on the event loop
on a connection of their own (`sqlite_appends`), with the same pragmas, once per turn of the
loop: through aiosqlite every statement would be a round trip between the loop and the
driver's thread. For PostgreSQL each batch runs on an asyncpg connection of its own
(`postgres_appends`), with statements prepared once: through the engine, the batches were a
quarter of a server process's CPU under load.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from alembic import command
from alembic.config import Config
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine, create_async_engine

from tranque.server import json_text, migrations
from tranque.server.accounts.names import skeleton
from tranque.server.store.base import (
    AnalysisRow,
    BotRow,
    DuplicateEvent,
    FriendLink,
    GamePlayerRow,
    GameRow,
    Leaderboard,
    NameTaken,
    PlayedGame,
    PlayerPage,
    PlayerStat,
    PoolRating,
    Ranked,
    RatingPoint,
    RatingRow,
    Standing,
    StoredEvent,
    TableRow,
    TooManyBots,
    UserRow,
    fresh_in_batch,
    split_by_epoch,
    stale_epoch,
)
from tranque.server.store.friendship import friendship
from tranque.server.store.outbox import GAME_ENDED, GameEnd, Keep
from tranque.server.store.postgres_appends import PostgresAppends, asyncpg_dsn
from tranque.server.store.schema import (
    analyses,
    blocks,
    board_sizes,
    friends,
    game_players,
    games,
    ratings,
    recorded_game_ends,
    records,
    sessions,
    table_events,
    tables,
    users,
    xp,
)
from tranque.server.store.sqlite_appends import SqliteAppends

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


Outcome = BaseException | None  # an append's: None once stored, else why it was not


def _event_row(table_id: str, event: StoredEvent) -> sa.Select[Any]:
    """The event as a one-row SELECT, empty when the table is unknown or a seq >= this one is stored."""
    known_table = sa.select(tables.c.table_id).where(tables.c.table_id == table_id).exists()
    later = (
        sa.select(table_events.c.seq)
        .where(table_events.c.table_id == table_id, table_events.c.seq >= event.seq)
        .exists()
    )
    return sa.select(
        sa.literal(table_id, sa.String),
        sa.literal(event.seq, sa.Integer),
        sa.literal(event.kind, sa.String),
        sa.literal(event.data, sa.JSON),
        sa.literal(event.at, sa.Double),
    ).where(known_table, ~later)


EVENT_COLUMNS = ["table_id", "seq", "kind", "data", "at"]
TABLE_COLUMNS = (tables.c.table_id, tables.c.config, tables.c.status, tables.c.created_at, tables.c.epoch)


def _table_row(row: Any) -> TableRow:
    return TableRow(row.table_id, row.config, row.status, row.created_at, row.epoch)


def _answer(future: asyncio.Future[None], outcome: Outcome) -> None:
    if future.done():  # the table stopped waiting (cancelled)
        return
    if outcome is None:
        future.set_result(None)
    else:
        future.set_exception(outcome)


USER_COLUMNS = (
    users.c.id,
    users.c.name,
    users.c.password_hash,
    users.c.created_at,
    users.c.avatar,
    users.c.bot_owner,
)


def user_row(row: Any) -> UserRow:
    return UserRow(row.id, row.name, row.password_hash, row.created_at, row.avatar, row.bot_owner)


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
RECORDING_LOCK = 0x7472616E  # the advisory lock one recording of a game end holds (PostgreSQL)


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


async def _relation(connection: AsyncConnection, user_id: int, other_id: int) -> tuple[str, bool]:
    pair = sa.or_(
        sa.and_(friends.c.user_id == user_id, friends.c.friend_id == other_id),
        sa.and_(friends.c.user_id == other_id, friends.c.friend_id == user_id),
    )
    blocking = sa.select(blocks.c.user_id).where(blocks.c.user_id == user_id, blocks.c.blocked_id == other_id)
    rows = (await connection.execute(sa.select(friends.c.user_id, friends.c.status).where(pair))).all()
    blocked = await connection.scalar(blocking.exists().select())
    return friendship({(row.user_id == user_id, row.status) for row in rows}), bool(blocked)


class SqlStore:
    """The persistent `Store`. `SqlStore("sqlite+aiosqlite:///./tranque.db")`, or a PostgreSQL URL."""

    def __init__(self, url: str) -> None:
        self.url = async_url(url)
        self._engine: AsyncEngine | None = None
        # Appends waiting for the next group commit: table, event, epoch (None: unchecked), answer.
        self._pending: list[tuple[str, StoredEvent, int | None, asyncio.Future[None]]] = []
        self._writer: asyncio.Task[None] | None = None
        self._appends: SqliteAppends | None = None  # a SQLite file's appends, on the loop
        self._batches: PostgresAppends | None = None  # a PostgreSQL database's batches, on asyncpg

    @property
    def engine(self) -> AsyncEngine:
        if self._engine is None:
            raise RuntimeError("SqlStore.start() has not been awaited")
        return self._engine

    async def start(self) -> None:
        if self._engine is None:
            self._engine = create_engine(self.url)
        async with self._engine.begin() as connection:
            await connection.run_sync(upgrade_connection)
        path = sqlite_file(self.url)
        if path is not None and self._appends is None:
            self._appends = SqliteAppends(path, sqlite_pragmas)
            self._appends.start()
        if self.url.get_backend_name() == "postgresql" and self._batches is None:
            self._batches = PostgresAppends(asyncpg_dsn(self.url))

    async def close(self) -> None:
        if self._writer is not None and not self._writer.done():
            await asyncio.wait({self._writer})
        appends, self._appends = self._appends, None
        if appends is not None:
            await appends.close()
        batches, self._batches = self._batches, None
        if batches is not None:
            await batches.close()
        engine, self._engine = self._engine, None
        if engine is not None:
            await engine.dispose()

    def _upsert(self, table: sa.Table, values: dict[str, Any]) -> sa.Executable:
        insert = postgresql.insert if self.engine.dialect.name == "postgresql" else sqlite.insert
        statement = insert(table).values(values)
        key = [column.name for column in table.primary_key]
        return statement.on_conflict_do_update(
            index_elements=key, set_={name: statement.excluded[name] for name in values if name not in key}
        )

    # Tables and their event logs ------------------------------------------------------

    async def create_table(self, table_id: str, config: dict[str, Any], created_at: float) -> None:
        async with self.engine.begin() as connection:
            await connection.execute(
                tables.insert().values(
                    table_id=table_id, config=config, status="waiting", created_at=created_at
                )
            )

    async def claim_table(self, table_id: str) -> int:
        claim = (
            tables.update()
            .where(tables.c.table_id == table_id)
            .values(epoch=tables.c.epoch + 1)
            .returning(tables.c.epoch)
        )
        async with self.engine.begin() as connection:
            epoch = await connection.scalar(claim)
        if epoch is None:
            raise KeyError(table_id)
        return int(epoch)

    async def table_epoch(self, table_id: str) -> int:
        async with self.engine.connect() as connection:
            epoch = await connection.scalar(sa.select(tables.c.epoch).where(tables.c.table_id == table_id))
        if epoch is None:
            raise KeyError(table_id)
        return int(epoch)

    async def table(self, table_id: str) -> TableRow | None:
        async with self.engine.connect() as connection:
            row = (
                await connection.execute(sa.select(*TABLE_COLUMNS).where(tables.c.table_id == table_id))
            ).first()
        return _table_row(row) if row is not None else None

    async def set_table_status(self, table_id: str, status: str, epoch: int | None = None) -> None:
        if self._appends is not None:  # a SQLite file: with the appends, on the loop
            await self._appends.set_status(table_id, str(status), epoch)
            return
        where = tables.c.table_id == table_id
        if epoch is not None:  # one statement: on PostgreSQL it waits for a claim under way
            where = sa.and_(where, tables.c.epoch == epoch)
        async with self.engine.begin() as connection:
            result = await connection.execute(tables.update().where(where).values(status=status))
            if result.rowcount == 1:
                return
            current = await connection.scalar(sa.select(tables.c.epoch).where(tables.c.table_id == table_id))
        if current is None or epoch is None:
            raise KeyError(table_id)
        raise stale_epoch(table_id, epoch, current)

    async def append_event(self, table_id: str, event: StoredEvent, epoch: int | None = None) -> None:
        """Store `event` once every earlier event of the table is stored (group commit)."""
        await self.append_events(table_id, [event], epoch)

    async def append_events(
        self, table_id: str, events: Sequence[StoredEvent], epoch: int | None = None
    ) -> None:
        """`append_event` for each of `events`, in order, awaited together (one batch)."""
        if self._appends is not None:
            await self._appends.append_many(table_id, events, epoch)
            return
        loop = asyncio.get_running_loop()
        futures = [loop.create_future() for _ in events]
        self._pending.extend(
            (table_id, event, epoch, future) for event, future in zip(events, futures, strict=True)
        )
        if self._writer is None or self._writer.done():
            self._writer = loop.create_task(self._write_pending())
        await asyncio.gather(*futures)

    async def _write_pending(self) -> None:
        while self._pending:
            batch, self._pending = self._pending, []
            decided = await self._append_batch(
                [(table_id, event, epoch) for table_id, event, epoch, _ in batch]
            )
            # A table's first event refused alone (per epoch: a former owner's refusal says
            # nothing of the new owner's events): none after it is stored.
            refused: dict[tuple[str, int | None], BaseException] = {}
            index = 0
            while index < len(batch):
                table_id, _, epoch, future = batch[index]
                end = index + 1
                if index in decided:
                    _answer(future, decided[index])
                elif future.done():  # the table stopped waiting (cancelled)
                    pass
                elif (table_id, epoch) in refused:
                    _answer(future, refused[table_id, epoch])
                else:
                    # Alone: this event, or with an epoch the run of the table's events that
                    # carry it, in one transaction, so that a claim cannot split them.
                    while epoch is not None and end < len(batch) and end not in decided:
                        following, _, its_epoch, waiting = batch[end]
                        if (following, its_epoch) != (table_id, epoch) or waiting.done():
                            break
                        end += 1
                    run = batch[index:end]
                    try:
                        outcomes = await self._append_alone(table_id, [item[1] for item in run], epoch)
                    except Exception as error:
                        outcomes = [error] * len(run)
                    for (_, _, _, waiting), outcome in zip(run, outcomes, strict=True):
                        if outcome is not None:
                            refused.setdefault((table_id, epoch), outcome)
                        _answer(waiting, outcome)
                index = end

    async def _lock_epochs(self, connection: AsyncConnection, ids: list[str]) -> dict[str, int]:
        """The epochs of the tables `ids` (an unknown one is left out), which no claim can change
        before this transaction ends, nor this transaction read while a claim is under way."""
        query = (
            sa.select(tables.c.table_id, tables.c.epoch)
            .where(tables.c.table_id.in_(ids))
            .order_by(tables.c.table_id)  # the rows locked in one order: two batches never deadlock
        )
        if connection.dialect.name == "postgresql":
            # FOR NO KEY UPDATE: a claim (an UPDATE of the row) waits for this transaction, this
            # one for a claim under way, and reads the row as the claim left it; other writers'
            # inserts into table_events (their foreign key's FOR KEY SHARE) do not wait.
            query = query.with_for_update(key_share=True)
        else:
            # SQLite: the driver begins the transaction at its first write; this one takes the
            # database's write lock first, so no claim can come between the read and the commit.
            await connection.execute(
                tables.update().where(tables.c.table_id.in_(ids)).values(epoch=tables.c.epoch)
            )
        return {row.table_id: row.epoch for row in await connection.execute(query)}

    async def _append_batch(self, batch: list[tuple[str, StoredEvent, int | None]]) -> dict[int, Outcome]:
        """In one transaction: refuse every event whose epoch is stale, and insert every other
        event newer than its table's last one. Their indexes, with their outcomes (None: stored;
        `StaleEpoch`); none when the transaction fails."""
        if self._batches is not None:
            return await self._batches.write(batch)
        ids = sorted({table_id for table_id, _, _ in batch})
        checked = sorted({table_id for table_id, _, epoch in batch if epoch is not None})
        last_query = (
            sa.select(table_events.c.table_id, sa.func.max(table_events.c.seq))
            .where(table_events.c.table_id.in_(ids))
            .group_by(table_events.c.table_id)
        )
        decided: dict[int, Outcome] = {}
        try:
            async with self.engine.begin() as connection:
                epochs = await self._lock_epochs(connection, checked) if checked else {}
                # (An unknown table's write is left to the one-row path, which says so.)
                candidates, refused = split_by_epoch(
                    [(table_id, epoch) for table_id, _, epoch in batch], epochs
                )
                decided.update(refused)
                last: dict[str, int] = {row[0]: row[1] for row in await connection.execute(last_query)}
                chosen = fresh_in_batch([(batch[i][0], batch[i][1]) for i in candidates], last)
                fresh = [candidates[i] for i in chosen]
                if fresh:
                    rows = [
                        {
                            "table_id": batch[i][0],
                            "seq": batch[i][1].seq,
                            "kind": batch[i][1].kind,
                            "data": batch[i][1].data,
                            "at": batch[i][1].at,
                        }
                        for i in fresh
                    ]
                    await connection.execute(table_events.insert(), rows)
        except Exception:  # an unknown table, a race with another owner, a busy database...
            return {}  # ...the one-row path retries each event and reports its own outcome
        decided.update((index, None) for index in fresh)
        return decided

    async def _append_alone(
        self, table_id: str, events: Sequence[StoredEvent], epoch: int | None
    ) -> list[Outcome]:
        """`events`, of one table, in one transaction of their own: each stored only if newer
        than the table's last one, none after the first refused; with an `epoch`, none unless it
        is the table's (checked with the row locked). Each one's outcome, precisely: when one
        fails the transaction, the ones before it are tried again without it."""
        outcomes: list[Outcome] = [None] * len(events)
        end = len(events)  # the events still to try (the later ones are answered)
        while end:
            at = 0
            try:
                async with self.engine.begin() as connection:
                    if epoch is not None:
                        current = (await self._lock_epochs(connection, [table_id])).get(table_id)
                        if current is None or current != epoch:
                            refusal: Outcome = KeyError(table_id)
                            if current is not None:
                                refusal = stale_epoch(table_id, epoch, current)
                            outcomes[:end] = [refusal] * end
                            return outcomes
                    for at in range(end):
                        result = await connection.execute(
                            table_events.insert().from_select(EVENT_COLUMNS, _event_row(table_id, events[at]))
                        )
                        if result.rowcount != 1:
                            known = await connection.scalar(
                                sa.select(tables.c.table_id).where(tables.c.table_id == table_id)
                            )
                            refused = (
                                DuplicateEvent(f"{table_id}#{events[at].seq}")
                                if known
                                else KeyError(table_id)
                            )
                            outcomes[at:end] = [refused] * (end - at)
                            break
                return outcomes  # committed: the events before a refused one are stored
            except sa.exc.IntegrityError as error:
                # Another writer stored this seq between our check and our insert.
                failure: BaseException = DuplicateEvent(f"{table_id}#{events[at].seq}")
                failure.__cause__ = error
            except Exception as error:  # data that is not JSON, the database failing...
                failure = error
            outcomes[at:end] = [failure] * (end - at)
            end = at  # the events before it were rolled back with it: once more without it
        return outcomes

    async def load_events(self, table_id: str, after_seq: int = 0) -> list[StoredEvent]:
        query = (
            sa.select(table_events.c.seq, table_events.c.kind, table_events.c.data, table_events.c.at)
            .where(table_events.c.table_id == table_id, table_events.c.seq > after_seq)
            .order_by(table_events.c.seq)
        )
        async with self.engine.connect() as connection:
            rows = (await connection.execute(query)).all()
        return [StoredEvent(row.seq, row.kind, row.data, row.at) for row in rows]

    async def tables(self, statuses: tuple[str, ...]) -> list[TableRow]:
        query = (
            sa.select(*TABLE_COLUMNS)
            .where(tables.c.status.in_(statuses))
            .order_by(tables.c.created_at, tables.c.table_id)
        )
        async with self.engine.connect() as connection:
            rows = (await connection.execute(query)).all()
        return [_table_row(row) for row in rows]

    async def save_record(self, table_id: str, record: dict[str, Any]) -> None:
        async with self.engine.begin() as connection:
            await connection.execute(self._upsert(records, {"table_id": table_id, "record": record}))

    async def load_record(self, table_id: str) -> dict[str, Any] | None:
        async with self.engine.connect() as connection:
            record: dict[str, Any] | None = await connection.scalar(
                sa.select(records.c.record).where(records.c.table_id == table_id)
            )
        return record

    # Accounts -------------------------------------------------------------------------

    async def create_user(self, name: str, password_hash: str, created_at: float) -> UserRow:
        return await self._create_user(name, password_hash, created_at, None)

    async def _create_user(
        self, name: str, password_hash: str, created_at: float, bot_owner: int | None, most: int = 0
    ) -> UserRow:
        """A new account; a bot account (`bot_owner`) only while its owner has fewer than `most`."""
        values = {
            "name": name,
            "name_key": name.casefold(),
            "name_skeleton": skeleton(name),
            "password_hash": password_hash,
            "created_at": created_at,
            "bot_owner": bot_owner,
        }
        try:
            async with self.engine.begin() as connection:
                if bot_owner is not None:
                    await self._count_bots(connection, bot_owner, most)
                user_id = await connection.scalar(users.insert().values(values).returning(users.c.id))
        except sa.exc.IntegrityError as error:
            raise NameTaken(name) from error
        return UserRow(int(user_id), name, password_hash, created_at, bot_owner=bot_owner)

    @staticmethod
    async def _count_bots(connection: AsyncConnection, owner_id: int, most: int) -> None:
        """`TooManyBots` if the owner has `most` bots. It first writes the owner's own row (to
        what it holds), which another creation for the same owner must then wait for: a row
        lock on PostgreSQL, the database's write lock on SQLite. So the count stays true until
        this transaction ends."""
        await connection.execute(
            users.update().where(users.c.id == owner_id).values(bot_owner=users.c.bot_owner)
        )
        owned: int = (
            await connection.scalar(
                sa.select(sa.func.count()).select_from(users).where(users.c.bot_owner == owner_id)
            )
            or 0
        )
        if owned >= most:
            raise TooManyBots(owner_id)

    async def _user(self, condition: sa.ColumnElement[bool]) -> UserRow | None:
        query = sa.select(*USER_COLUMNS).where(condition)
        async with self.engine.connect() as connection:
            row = (await connection.execute(query)).first()
        return user_row(row) if row is not None else None

    async def find_user(self, name: str) -> UserRow | None:
        return await self._user(users.c.name_key == name.casefold())

    async def find_similar_user(self, name: str) -> UserRow | None:
        return await self._user(users.c.name_skeleton == skeleton(name))

    async def user_by_id(self, user_id: int) -> UserRow | None:
        return await self._user(users.c.id == user_id)

    async def create_session(self, token_hash: str, user_id: int, expires_at: float) -> None:
        values = {"token_hash": token_hash, "user_id": user_id, "expires_at": expires_at}
        async with self.engine.begin() as connection:
            await connection.execute(self._upsert(sessions, values))

    async def session_user(self, token_hash: str, now: float) -> UserRow | None:
        live = sa.select(sessions.c.user_id).where(
            sessions.c.token_hash == token_hash, sessions.c.expires_at > now
        )
        return await self._user(users.c.id == live.scalar_subquery())

    async def delete_session(self, token_hash: str) -> None:
        async with self.engine.begin() as connection:
            await connection.execute(sessions.delete().where(sessions.c.token_hash == token_hash))

    # Bot accounts ---------------------------------------------------------------------------

    async def create_bot(self, name: str, owner_id: int, created_at: float, most: int) -> UserRow:
        return await self._create_user(name, "", created_at, owner_id, most)

    async def bots_of(self, owner_id: int) -> list[BotRow]:
        query = (
            sa.select(
                users.c.id, users.c.name, users.c.created_at, users.c.bot_token_hash, users.c.bot_used_at
            )
            .where(users.c.bot_owner == owner_id)
            .order_by(users.c.id)
        )
        async with self.engine.connect() as connection:
            rows = (await connection.execute(query)).all()
        return [
            BotRow(row.id, row.name, row.created_at, row.bot_token_hash is not None, row.bot_used_at)
            for row in rows
        ]

    async def set_bot_token(self, bot_id: int, token_hash: str | None) -> None:
        async with self.engine.begin() as connection:
            await connection.execute(
                users.update()
                .where(users.c.id == bot_id, users.c.bot_owner.is_not(None))
                .values(bot_token_hash=token_hash)
            )

    async def bot_by_token(self, token_hash: str, now: float) -> UserRow | None:
        async with self.engine.begin() as connection:
            row = (
                await connection.execute(
                    users.update()
                    .where(users.c.bot_token_hash == token_hash, users.c.bot_owner.is_not(None))
                    .values(bot_used_at=now)
                    .returning(*USER_COLUMNS)
                )
            ).first()
        return user_row(row) if row is not None else None

    # Finished games, ratings and XP ---------------------------------------------------

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
        insert = postgresql.insert if self.engine.dialect.name == "postgresql" else sqlite.insert
        statement = insert(xp).values(
            period=period, user_id=user_id, xp=gained, name_key=_name_key_of(user_id)
        )
        return statement.on_conflict_do_update(
            index_elements=["period", "user_id"], set_={"xp": xp.c.xp + gained}
        )

    # Game ends to record (outbox.py) ------------------------------------------------------

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

    async def record_game_end(self, end: GameEnd, pool: str, accounts: Sequence[int], keep: Keep) -> bool:
        insert = postgresql.insert if self.engine.dialect.name == "postgresql" else sqlite.insert
        mark = (
            insert(recorded_game_ends)
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
        return True

    async def load_game(self, game_id: str) -> GameRow | None:
        async with self.engine.connect() as connection:
            row = (await connection.execute(sa.select(games).where(games.c.game_id == game_id))).first()
        return GameRow(**row._mapping) if row is not None else None

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
                relation = await _relation(connection, viewer_id, user_id)
        return PlayerPage(totals, stats, pools, [_played_game(row) for row in games_rows], relation)

    async def set_avatar(self, user_id: int, avatar: str | None) -> None:
        async with self.engine.begin() as connection:
            await connection.execute(users.update().where(users.c.id == user_id).values(avatar=avatar))

    # Friends and blocks -------------------------------------------------------------------

    async def relation(self, user_id: int, other_id: int) -> tuple[str, bool]:
        async with self.engine.connect() as connection:
            return await _relation(connection, user_id, other_id)

    async def request_friend(self, user_id: int, friend_id: int, at: float) -> None:
        linked = sa.select(friends.c.user_id).where(_between(user_id, friend_id)).exists()
        row = sa.select(
            sa.literal(user_id, sa.Integer),
            sa.literal(friend_id, sa.Integer),
            sa.literal("pending", sa.String),
            sa.literal(at, sa.Double),
        ).where(~linked)
        columns = ["user_id", "friend_id", "status", "created_at"]
        with contextlib.suppress(sa.exc.IntegrityError):  # the same request twice at once
            async with self.engine.begin() as connection:
                await connection.execute(friends.insert().from_select(columns, row))

    async def accept_friend(self, user_id: int, requester_id: int, at: float) -> bool:
        async with self.engine.begin() as connection:
            result = await connection.execute(
                friends.update()
                .where(
                    friends.c.user_id == requester_id,
                    friends.c.friend_id == user_id,
                    friends.c.status == "pending",
                )
                .values(status="accepted", created_at=at)
            )
            if result.rowcount != 1:
                return False
            values = {"user_id": user_id, "friend_id": requester_id, "status": "accepted", "created_at": at}
            await connection.execute(self._upsert(friends, values))
        return True

    async def remove_friend(self, user_id: int, other_id: int) -> bool:
        async with self.engine.begin() as connection:
            result = await connection.execute(friends.delete().where(_between(user_id, other_id)))
        return bool(result.rowcount)

    async def friend_links(self, user_id: int) -> list[FriendLink]:
        mine = sa.select(
            friends.c.friend_id.label("other"),
            friends.c.status,
            friends.c.created_at,
            sa.literal(True).label("ours"),
        ).where(friends.c.user_id == user_id)
        theirs = sa.select(
            friends.c.user_id.label("other"),
            friends.c.status,
            friends.c.created_at,
            sa.literal(False).label("ours"),
        ).where(friends.c.friend_id == user_id, friends.c.status == "pending")
        links = sa.union_all(mine, theirs).subquery()
        query = (
            sa.select(*USER_COLUMNS, links.c.status, links.c.created_at.label("at"), links.c.ours)
            .join(links, links.c.other == users.c.id)
            .order_by(users.c.name_key)
        )
        async with self.engine.connect() as connection:
            rows = (await connection.execute(query)).all()
        return [FriendLink(user_row(row), _link_status(row.status, row.ours), row.at) for row in rows]

    async def block(self, user_id: int, blocked_id: int, at: float) -> None:
        insert = postgresql.insert if self.engine.dialect.name == "postgresql" else sqlite.insert
        async with self.engine.begin() as connection:
            await connection.execute(friends.delete().where(_between(user_id, blocked_id)))
            await connection.execute(
                insert(blocks)
                .values(user_id=user_id, blocked_id=blocked_id, created_at=at)
                .on_conflict_do_nothing(index_elements=["user_id", "blocked_id"])
            )

    async def unblock(self, user_id: int, blocked_id: int) -> bool:
        async with self.engine.begin() as connection:
            result = await connection.execute(
                blocks.delete().where(blocks.c.user_id == user_id, blocks.c.blocked_id == blocked_id)
            )
        return bool(result.rowcount)

    async def blocked_users(self, user_id: int) -> list[UserRow]:
        query = (
            sa.select(*USER_COLUMNS)
            .join(blocks, blocks.c.blocked_id == users.c.id)
            .where(blocks.c.user_id == user_id)
            .order_by(users.c.name_key)
        )
        async with self.engine.connect() as connection:
            rows = (await connection.execute(query)).all()
        return [user_row(row) for row in rows]

    async def blocks_among(self, user_ids: list[int]) -> set[tuple[int, int]]:
        if not user_ids:
            return set()
        query = sa.select(blocks.c.user_id, blocks.c.blocked_id).where(
            blocks.c.user_id.in_(user_ids), blocks.c.blocked_id.in_(user_ids)
        )
        async with self.engine.connect() as connection:
            rows = (await connection.execute(query)).all()
        return {(row.user_id, row.blocked_id) for row in rows}

    # Post-game analyses -----------------------------------------------------------------

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
        oldest = (
            sa.select(analyses.c.game_id)
            .where(claimable)
            .order_by(analyses.c.created_at, analyses.c.game_id)
            .limit(1)
            .with_for_update(skip_locked=True)
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
        for key in ("game_id", "user_id", "created_at", "claimed_by"):
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


def _between(one: int, other: int) -> sa.ColumnElement[bool]:
    """The `friends` rows linking two accounts, either way."""
    return sa.or_(
        sa.and_(friends.c.user_id == one, friends.c.friend_id == other),
        sa.and_(friends.c.user_id == other, friends.c.friend_id == one),
    )


def _link_status(status: str, ours: bool) -> str:
    if status == "accepted":
        return "friends"
    return "outgoing" if ours else "incoming"
