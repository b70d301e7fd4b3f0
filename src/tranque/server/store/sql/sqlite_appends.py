"""`SqliteAppends`: a SQLite file's event appends, group-committed once per turn of the event loop.

Appends are the server's one steady write (every move of every table). Through aiosqlite a
transaction is a dozen round trips between the loop and a thread; on a thread of their own,
every statement releases the GIL and takes it back, and with the loop busy each take waits
for the loop's forced switch (5 ms): measured at 1,000 tables, a move waited hundreds of
milliseconds for its appends and the server spent ~40% more CPU per move than on the memory
store. So the appends run on the loop itself, on a plain `sqlite3` connection: what the
tables append during one turn of the loop is written at the start of the next in one
transaction (one max(seq) check, one `executemany`), and every append is answered then.
While a batch is written nothing else runs, so a batch is a few milliseconds at most.

Two things could block the loop, and neither does. The connection never waits for a lock:
its busy timeout is zero, and a batch that finds another writer in the file (the store's
other connections: accounts, statuses, records) is tried again a moment later. It never
checkpoints the WAL either (the fsyncs): `Checkpointer` does that on a thread with its own
connection, in the passive mode that never holds up a writer.

Appends that carry their owner's epoch (fencing, `TableLog.claim_table`) have it checked in the
batch's transaction, which holds the file's write lock from its start (no claim can come
between the check and the commit): a stale one is refused there, the others stored.

An append the batch cannot take (a stale seq, an unknown table, a race with another owner)
is tried again alone, in its own transaction, which says precisely why it was refused.
The connection has the pragmas of the store's other connections (`pragmas`), WAL among them,
so the store's readers and other writers run beside this one.
"""

from __future__ import annotations

import asyncio
import contextlib
import sqlite3
import threading
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from tranque.server import json_text
from tranque.server.store.tables import (
    DuplicateEvent,
    StoredEvent,
    fresh_in_batch,
    split_by_epoch,
    stale_epoch,
)

# The columns of schema.table_events, in this order.
INSERT = "INSERT INTO table_events (table_id, seq, kind, data, at) VALUES (?, ?, ?, ?, ?)"
INSERT_IF_NEWER = (
    "INSERT INTO table_events (table_id, seq, kind, data, at) "
    "SELECT ?, ?, ?, ?, ? WHERE EXISTS (SELECT 1 FROM tables WHERE table_id = ?) "
    "AND NOT EXISTS (SELECT 1 FROM table_events WHERE table_id = ? AND seq >= ?)"
)
KNOWN_TABLE = "SELECT 1 FROM tables WHERE table_id = ?"
EPOCHS = "SELECT table_id, epoch FROM tables WHERE table_id IN ({marks})"
LAST_SEQS = "SELECT table_id, max(seq) FROM table_events WHERE table_id IN ({marks}) GROUP BY table_id"
MAX_VARIABLES = 900  # below SQLite's smallest limit on host parameters (999) for the IN (...) check
MAX_REMEMBERED = 100_000  # tables whose last seq the thread remembers (forgotten ones are read again)

BUSY_RETRY_SECONDS = 0.002  # how soon a batch that found the file locked is tried again
CHECKPOINT_SECONDS = 1.0  # how often the WAL is checkpointed (it grows ~1,000 pages a second at 1,000 tables)

UPDATE_STATUS = "UPDATE tables SET status = ? WHERE table_id = ?"
UPDATE_STATUS_AT_EPOCH = "UPDATE tables SET status = ? WHERE table_id = ? AND epoch = ?"
TABLE_EPOCH = "SELECT epoch FROM tables WHERE table_id = ?"

# What is queued, by table: an event or a status, with the epoch its writer owns the table at
# (None: unchecked), and the answer awaited.
Append = tuple[str, tuple[StoredEvent, int | None], "asyncio.Future[None]"]
StatusChange = tuple[str, tuple[str, int | None], "asyncio.Future[None]"]
Outcome = BaseException | None


class SqliteAppends:
    """Appends to the SQLite file at `path`; `start()` on the event loop that will await them."""

    def __init__(self, path: str, pragmas: Callable[[sqlite3.Connection], None]) -> None:
        self.path = path
        self.pragmas = pragmas
        self._pending: list[Append] = []
        self._statuses: list[StatusChange] = []  # tables' status changes, written with the appends
        self._flushing: asyncio.Handle | None = None  # the next batch's write, once one is scheduled
        self._connection: sqlite3.Connection | None = None
        self._error: BaseException | None = None  # why the file could not be opened
        self._last: dict[str, int] = {}  # each table's last stored seq, as far as this writer knows
        self._checkpointer: Checkpointer | None = None
        self._loop: asyncio.AbstractEventLoop | None = None

    def start(self) -> None:
        self._loop = asyncio.get_running_loop()
        try:
            connection = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
            self.pragmas(connection)
            connection.execute("PRAGMA busy_timeout=0")  # never wait on the loop: try again instead
            connection.execute("PRAGMA wal_autocheckpoint=0")  # the checkpointer's thread does it
            self._connection = connection
        except BaseException as failure:  # the file cannot be opened: every append says why
            self._error = failure
            return
        self._checkpointer = Checkpointer(self.path, self.pragmas)
        self._checkpointer.start()

    async def append(self, table_id: str, event: StoredEvent, epoch: int | None = None) -> None:
        """Store `event` after every append queued before it; `DuplicateEvent` if its seq is
        not newer than the table's last one, `KeyError` for a table that does not exist,
        `StaleEpoch` if `epoch` is given and is not the table's."""
        await self.append_many(table_id, [event], epoch)

    async def append_many(
        self, table_id: str, events: Sequence[StoredEvent], epoch: int | None = None
    ) -> None:
        """`append` for each of `events`, in order, awaited together: one turn of the loop for
        a command's events. An event refused leaves the ones after it unstored; a stale
        `epoch`, all of them."""
        if self._loop is None:
            raise RuntimeError("SqliteAppends.start() has not been called")
        futures = [self._loop.create_future() for _ in events]
        self._pending.extend(
            (table_id, (event, epoch), future) for event, future in zip(events, futures, strict=True)
        )
        self._schedule()
        await asyncio.gather(*futures)

    async def set_status(self, table_id: str, status: str, epoch: int | None = None) -> None:
        """Set a table's status, in the same turn's writes as the appends (a table's status
        changes with its events, and a second writer would hold the file's lock against
        them); `KeyError` for a table that does not exist, `StaleEpoch` (unchanged) if
        `epoch` is given and is not the table's."""
        if self._loop is None:
            raise RuntimeError("SqliteAppends.start() has not been called")
        future: asyncio.Future[None] = self._loop.create_future()
        self._statuses.append((table_id, (status, epoch), future))
        self._schedule()
        await future

    def _schedule(self) -> None:
        if self._flushing is None:
            assert self._loop is not None
            self._flushing = self._loop.call_soon(self._flush)

    async def close(self) -> None:
        """Write what is queued, then close the connection and stop checkpointing."""
        if self._loop is None:
            return
        if self._flushing is not None:
            self._flushing.cancel()
        while self._pending or self._statuses:
            if not self._write_batch():
                await asyncio.sleep(BUSY_RETRY_SECONDS)
        self._flushing = None
        if self._checkpointer is not None:
            await asyncio.get_running_loop().run_in_executor(None, self._checkpointer.stop)
            self._checkpointer = None
        if self._connection is not None:
            self._connection.close()
            self._connection = None
        self._loop = None

    def _flush(self) -> None:
        self._flushing = None
        if not self._write_batch():  # the file was locked: the same batch, a moment later
            assert self._loop is not None
            self._flushing = self._loop.call_later(BUSY_RETRY_SECONDS, self._flush)

    def _write_batch(self) -> bool:
        """Write every pending append and status change and answer each; False if the file was
        locked by another writer (what found it locked stays pending, first, for the next try)."""
        appends, self._pending = self._pending, []
        statuses, self._statuses = self._statuses, []
        connection = self._connection
        if connection is None:
            _settle(appends, [self._error] * len(appends))
            _settle(statuses, [self._error] * len(statuses))
            return True
        appends = _write_queued(
            appends,
            lambda items: write(
                connection,
                [(table_id, event) for table_id, (event, _) in items],
                self._last,
                [epoch for _, (_, epoch) in items],
            ),
        )
        statuses = _write_queued(
            statuses,
            lambda items: set_statuses(connection, [(table_id, *change) for table_id, change in items]),
        )
        self._pending = appends + self._pending
        self._statuses = statuses + self._statuses
        return not (appends or statuses)


Queued = TypeVar("Queued", tuple[StoredEvent, int | None], tuple[str, int | None])


def _write_queued(
    queued: list[tuple[str, Queued, asyncio.Future[None]]],
    store: Callable[[list[tuple[str, Queued]]], list[Outcome]],
) -> list[tuple[str, Queued, asyncio.Future[None]]]:
    """Store `queued` and answer each item the file took or refused; the items that found it
    locked by another writer, still unanswered, for the next try."""
    if not queued:
        return []
    try:
        outcomes = store([(table_id, value) for table_id, value, _ in queued])
    except BaseException as failure:  # never leave an item waiting (a lock held: all try again)
        outcomes = [failure] * len(queued)
    locked = [item for item, outcome in zip(queued, outcomes, strict=True) if _locked(outcome)]
    _settle(
        [item for item, outcome in zip(queued, outcomes, strict=True) if not _locked(outcome)],
        [outcome for outcome in outcomes if not _locked(outcome)],
    )
    return locked


def _locked(outcome: Outcome) -> bool:
    """Whether a write failed only because another writer held the file's lock."""
    return isinstance(outcome, sqlite3.OperationalError) and outcome.sqlite_errorcode in (
        sqlite3.SQLITE_BUSY,
        sqlite3.SQLITE_LOCKED,
    )


class Checkpointer:
    """Checkpoints the WAL of the file at `path` every `CHECKPOINT_SECONDS`, on a thread and a
    connection of its own, passively: it copies what no reader still needs and never waits
    for, nor holds up, a writer. The checkpoint's fsyncs happen here, not on the event loop."""

    def __init__(self, path: str, pragmas: Callable[[sqlite3.Connection], None]) -> None:
        self.path = path
        self.pragmas = pragmas
        self.checkpoints = 0
        self._stopping = threading.Event()
        self._thread = threading.Thread(target=self._run, name="tranque-sqlite-checkpoints", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        """Checkpoint once more, then end the thread (blocks until it has)."""
        self._stopping.set()
        self._thread.join()

    def _run(self) -> None:
        connection = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        try:
            self.pragmas(connection)
            while True:
                stopping = self._stopping.wait(CHECKPOINT_SECONDS)
                with contextlib.suppress(sqlite3.Error):  # busy or failing: the next tick tries again
                    connection.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall()
                    self.checkpoints += 1
                if stopping:
                    return
        finally:
            connection.close()


def write(
    connection: sqlite3.Connection,
    batch: list[tuple[str, StoredEvent]],
    last: dict[str, int] | None = None,
    epochs: Sequence[int | None] | None = None,
) -> list[Outcome]:
    """Store the batch's events, together where they can be; each one's outcome, in order.

    `epochs[i]`, when given and not None, is the epoch the writer of event i owns its table
    at: the event is stored only if it is the table's (else `StaleEpoch`), checked in the
    transaction that stores it, which holds the file's write lock from its start.

    `last` remembers each table's last stored seq across batches, so a batch reads the
    database only for tables it has not seen. Another writer of a table cannot slip past it:
    seqs go one by one, so that writer's next event takes a seq this one will also try, and
    the primary key refuses the second (the batch then fails, and each event is tried alone).
    Once one of a table's events is refused, its later ones in the batch are refused with it:
    a log has no gaps, and what followed a refused event was decided on a state never stored.
    (A stale epoch's refusal says nothing of the same table's events at another epoch.)"""
    last = {} if last is None else last
    if len(last) > MAX_REMEMBERED:
        last.clear()
    fenced: list[int | None] = list(epochs) if epochs is not None else [None] * len(batch)
    decided = _write_together(connection, batch, last, fenced)
    outcomes: list[Outcome] = [None] * len(batch)
    # A table's first refused event (per epoch): none after it is stored.
    refused: dict[tuple[str, int | None], BaseException] = {}
    index = 0
    while index < len(batch):
        table_id, _ = batch[index]
        epoch = fenced[index]
        end = index + 1
        if index in decided:
            outcomes[index] = decided[index]
        elif (table_id, epoch) in refused:
            outcomes[index] = refused[table_id, epoch]
        else:
            # Alone: this event, or with an epoch the run of the table's events that carry
            # it, in one transaction, so that a claim cannot split them.
            while (
                epoch is not None
                and end < len(batch)
                and end not in decided
                and (batch[end][0], fenced[end]) == (table_id, epoch)
            ):
                end += 1
            alone = _write_alone(connection, table_id, [event for _, event in batch[index:end]], epoch)
            outcomes[index:end] = alone
            for outcome in alone:
                if outcome is not None:
                    refused.setdefault((table_id, epoch), outcome)
        index = end
    for (table_id, event), outcome in zip(batch, outcomes, strict=True):
        if outcome is None:
            last[table_id] = max(last.get(table_id, 0), event.seq)
    return outcomes


def _split(batch: list[tuple[str, StoredEvent]]) -> int:
    """Where to cut a batch in two near its middle, between two tables' events (a writer's
    events of one table, checked against one epoch, stay in one transaction)."""
    middle = len(batch) // 2
    for distance in range(len(batch)):
        for cut in (middle + distance, middle - distance):
            if 0 < cut < len(batch) and batch[cut - 1][0] != batch[cut][0]:
                return cut
    return middle


def _write_together(
    connection: sqlite3.Connection,
    batch: list[tuple[str, StoredEvent]],
    last: dict[str, int],
    epochs: list[int | None],
) -> dict[int, Outcome]:
    """Refuse every event whose epoch is stale and insert every other event newer than its
    table's last one, in one transaction; their indexes, with their outcomes (None: stored;
    `StaleEpoch`). None when the transaction fails: an unknown table, a race, a busy database..."""
    unseen = sorted({table_id for table_id, _ in batch if table_id not in last})
    checked = sorted(
        {table_id for (table_id, _), epoch in zip(batch, epochs, strict=True) if epoch is not None}
    )
    if len(unseen) > MAX_VARIABLES or len(checked) > MAX_VARIABLES:
        half = _split(batch)  # one table's events stay in order: both halves keep it
        first = _write_together(connection, batch[:half], last, epochs[:half])
        second = _write_together(connection, batch[half:], last, epochs[half:])
        return first | {half + i: outcome for i, outcome in second.items()}
    decided: dict[int, Outcome] = {}
    try:
        connection.execute("BEGIN IMMEDIATE")  # the write lock from here: no claim until COMMIT
        try:
            current: dict[str, int] = {}
            if checked:
                marks = ", ".join("?" * len(checked))
                current.update(connection.execute(EPOCHS.format(marks=marks), checked).fetchall())
            # (An unknown table's write is left to be written alone, which says so.)
            writes = [(table_id, epoch) for (table_id, _), epoch in zip(batch, epochs, strict=True)]
            candidates, refused = split_by_epoch(writes, current)
            decided.update(refused)
            newest = dict(last)
            if unseen:
                marks = ", ".join("?" * len(unseen))
                newest.update(connection.execute(LAST_SEQS.format(marks=marks), unseen).fetchall())
            chosen = fresh_in_batch([batch[index] for index in candidates], newest)
            fresh = [candidates[i] for i in chosen]
            connection.executemany(INSERT, [_row(*batch[index]) for index in fresh])
            connection.execute("COMMIT")
        except BaseException:
            connection.execute("ROLLBACK")
            raise
    except Exception:  # ...each event is tried alone, and says what went wrong with it
        return {}
    decided.update((index, None) for index in fresh)
    return decided


def _write_alone(
    connection: sqlite3.Connection, table_id: str, events: list[StoredEvent], epoch: int | None
) -> list[Outcome]:
    """`events`, of one table, in a transaction of their own: each stored only if newer than
    the table's last one, none after the first refused; with an `epoch`, none unless it is
    the table's. Each one's outcome, precisely: when one fails the transaction, the ones
    before it are tried again without it."""
    outcomes: list[Outcome] = [None] * len(events)
    end = len(events)  # the events still to try (the later ones are answered)
    while end:
        at = 0
        try:
            connection.execute("BEGIN IMMEDIATE")
            try:
                refusal = _epoch_refusal(connection, table_id, epoch)
                if refusal is not None:
                    outcomes[:end] = [refusal] * end
                else:
                    for at in range(end):
                        event = events[at]
                        row = (*_row(table_id, event), table_id, table_id, event.seq)
                        if connection.execute(INSERT_IF_NEWER, row).rowcount != 1:
                            known = connection.execute(KNOWN_TABLE, (table_id,)).fetchone() is not None
                            refused = (
                                DuplicateEvent(f"{table_id}#{event.seq}") if known else KeyError(table_id)
                            )
                            outcomes[at:end] = [refused] * (end - at)
                            break
                connection.execute("COMMIT")
            except BaseException:
                connection.execute("ROLLBACK")
                raise
            return outcomes  # committed: the events before a refused one are stored
        except sqlite3.IntegrityError:  # another writer stored this seq between our check and our insert
            failure: BaseException = DuplicateEvent(f"{table_id}#{events[at].seq}")
        except Exception as error:  # data that is not JSON, or the database failed (full, locked, gone)
            failure = error
        outcomes[at:end] = [failure] * (end - at)
        end = at  # the events before it were rolled back with it: once more without it
    return outcomes


def _epoch_refusal(connection: sqlite3.Connection, table_id: str, epoch: int | None) -> Outcome:
    """None if `epoch` is None or the table's; else `KeyError` (no such table) or `StaleEpoch`."""
    if epoch is None:
        return None
    found = connection.execute(TABLE_EPOCH, (table_id,)).fetchone()
    if found is None:
        return KeyError(table_id)
    return None if found[0] == epoch else stale_epoch(table_id, epoch, found[0])


def set_statuses(
    connection: sqlite3.Connection, changes: Sequence[tuple[str, str] | tuple[str, str, int | None]]
) -> list[Outcome]:
    """Set each table's status, in one transaction: None, or `KeyError` for an unknown table,
    or `StaleEpoch` (unchanged) for a change whose epoch, given third, is not the table's."""
    outcomes: list[Outcome] = []
    connection.execute("BEGIN IMMEDIATE")
    try:
        for table_id, status, *fenced in changes:
            epoch = fenced[0] if fenced else None
            if epoch is None:
                count = connection.execute(UPDATE_STATUS, (status, table_id)).rowcount
            else:
                count = connection.execute(UPDATE_STATUS_AT_EPOCH, (status, table_id, epoch)).rowcount
            outcomes.append(
                None if count == 1 else _epoch_refusal(connection, table_id, epoch) or KeyError(table_id)
            )
        connection.execute("COMMIT")
    except BaseException:
        connection.execute("ROLLBACK")
        raise
    return outcomes


def _row(table_id: str, event: StoredEvent) -> tuple[Any, ...]:
    """The event as table_events' row; `data` in the JSON text SQLAlchemy's JSON type reads."""
    return (table_id, event.seq, event.kind, json_text.dumps(event.data), event.at)


# Answering ------------------------------------------------------------------------------------


def _settle(batch: Sequence[tuple[str, object, asyncio.Future[None]]], outcomes: list[Outcome]) -> None:
    for (_, _, future), outcome in zip(batch, outcomes, strict=True):
        if future.done():  # the table stopped waiting (cancelled)
            continue
        if outcome is None:
            future.set_result(None)
        else:
            future.set_exception(outcome)
