"""`SqlTableLog`: tables, their event logs and epochs, on SQLAlchemy (SQLite or PostgreSQL).

Event appends are group-committed: the appends that arrive while a transaction is running are
written together in the next one (one max(seq) check and one multi-row INSERT for all of them),
so a thousand live tables cost a few transactions per tick, not one each. Appends that carry
their owner's epoch (fencing, `TableLog.claim_table`) have their tables' rows locked and their
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
from collections.abc import Sequence
from typing import Any

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncConnection

from tranque.server.store.schema import records, table_events, tables
from tranque.server.store.sql.database import SqlDatabase
from tranque.server.store.sql.engine import sqlite_file, sqlite_pragmas
from tranque.server.store.sql.postgres_appends import PostgresAppends, asyncpg_dsn
from tranque.server.store.sql.sqlite_appends import SqliteAppends
from tranque.server.store.tables import (
    DuplicateEvent,
    DuplicateTable,
    StoredEvent,
    TableRow,
    fresh_in_batch,
    split_by_epoch,
    stale_epoch,
)

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


class SqlTableLog(SqlDatabase):
    """`TableLog` on SQLAlchemy, its appends group-committed."""

    def __init__(self, url: str, *, migrate: bool = True) -> None:
        super().__init__(url, migrate=migrate)
        # Appends waiting for the next group commit: table, event, epoch (None: unchecked), answer.
        self._pending: list[tuple[str, StoredEvent, int | None, asyncio.Future[None]]] = []
        self._writer: asyncio.Task[None] | None = None
        self._appends: SqliteAppends | None = None  # a SQLite file's appends, on the loop
        self._batches: PostgresAppends | None = None  # a PostgreSQL database's batches, on asyncpg

    async def start(self) -> None:
        await super().start()
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
        await super().close()

    async def create_table(self, table_id: str, config: dict[str, Any], created_at: float) -> None:
        try:
            async with self.engine.begin() as connection:
                await connection.execute(
                    tables.insert().values(
                        table_id=table_id, config=config, status="waiting", created_at=created_at
                    )
                )
        except sa.exc.IntegrityError:
            raise DuplicateTable(table_id) from None

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
