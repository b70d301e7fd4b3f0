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
from tranque.server.store.base import DuplicateEvent, StoredEvent, fresh_in_batch

# The columns of schema.table_events, in this order.
INSERT = "INSERT INTO table_events (table_id, seq, kind, data, at) VALUES (?, ?, ?, ?, ?)"
INSERT_IF_NEWER = (
    "INSERT INTO table_events (table_id, seq, kind, data, at) "
    "SELECT ?, ?, ?, ?, ? WHERE EXISTS (SELECT 1 FROM tables WHERE table_id = ?) "
    "AND NOT EXISTS (SELECT 1 FROM table_events WHERE table_id = ? AND seq >= ?)"
)
KNOWN_TABLE = "SELECT 1 FROM tables WHERE table_id = ?"
LAST_SEQS = "SELECT table_id, max(seq) FROM table_events WHERE table_id IN ({marks}) GROUP BY table_id"
MAX_VARIABLES = 900  # below SQLite's smallest limit on host parameters (999) for the IN (...) check
MAX_REMEMBERED = 100_000  # tables whose last seq the thread remembers (forgotten ones are read again)

BUSY_RETRY_SECONDS = 0.002  # how soon a batch that found the file locked is tried again
CHECKPOINT_SECONDS = 1.0  # how often the WAL is checkpointed (it grows ~1,000 pages a second at 1,000 tables)

UPDATE_STATUS = "UPDATE tables SET status = ? WHERE table_id = ?"

Append = tuple[str, StoredEvent, "asyncio.Future[None]"]
StatusChange = tuple[str, str, "asyncio.Future[None]"]
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

    async def append(self, table_id: str, event: StoredEvent) -> None:
        """Store `event` after every append queued before it; `DuplicateEvent` if its seq is
        not newer than the table's last one, `KeyError` for a table that does not exist."""
        await self.append_many(table_id, [event])

    async def append_many(self, table_id: str, events: Sequence[StoredEvent]) -> None:
        """`append` for each of `events`, in order, awaited together: one turn of the loop for
        a command's events. An event refused leaves the ones after it unstored."""
        if self._loop is None:
            raise RuntimeError("SqliteAppends.start() has not been called")
        futures = [self._loop.create_future() for _ in events]
        self._pending.extend((table_id, event, future) for event, future in zip(events, futures, strict=True))
        self._schedule()
        await asyncio.gather(*futures)

    async def set_status(self, table_id: str, status: str) -> None:
        """Set a table's status, in the same turn's writes as the appends (a table's status
        changes with its events, and a second writer would hold the file's lock against
        them); `KeyError` for a table that does not exist."""
        if self._loop is None:
            raise RuntimeError("SqliteAppends.start() has not been called")
        future: asyncio.Future[None] = self._loop.create_future()
        self._statuses.append((table_id, status, future))
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
        appends = _write_queued(appends, lambda items: write(connection, items, self._last))
        statuses = _write_queued(statuses, lambda items: set_statuses(connection, items))
        self._pending = appends + self._pending
        self._statuses = statuses + self._statuses
        return not (appends or statuses)


Queued = TypeVar("Queued", StoredEvent, str)


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
    connection: sqlite3.Connection, batch: list[tuple[str, StoredEvent]], last: dict[str, int] | None = None
) -> list[Outcome]:
    """Store the batch's events, together where they can be; each one's outcome, in order.

    `last` remembers each table's last stored seq across batches, so a batch reads the
    database only for tables it has not seen. Another writer of a table cannot slip past it:
    seqs go one by one, so that writer's next event takes a seq this one will also try, and
    the primary key refuses the second (the batch then fails, and each event is tried alone).
    Once one of a table's events is refused, its later ones in the batch are refused with it:
    a log has no gaps, and what followed a refused event was decided on a state never stored."""
    last = {} if last is None else last
    if len(last) > MAX_REMEMBERED:
        last.clear()
    stored = _write_together(connection, batch, last)
    outcomes: list[Outcome] = []
    refused: dict[str, BaseException] = {}  # a table's first refused event: none after it is stored
    for index, (table_id, event) in enumerate(batch):
        outcome = refused.get(table_id)
        if outcome is None and index not in stored:
            outcome = _write_alone(connection, table_id, event)
        if outcome is not None:
            refused.setdefault(table_id, outcome)
        outcomes.append(outcome)
    for (table_id, event), outcome in zip(batch, outcomes, strict=True):
        if outcome is None:
            last[table_id] = max(last.get(table_id, 0), event.seq)
    return outcomes


def _write_together(
    connection: sqlite3.Connection, batch: list[tuple[str, StoredEvent]], last: dict[str, int]
) -> set[int]:
    """Insert every event newer than its table's last one, in one transaction; their indexes
    (none when the transaction fails: an unknown table, a race, a busy database...)."""
    unseen = sorted({table_id for table_id, _ in batch if table_id not in last})
    if len(unseen) > MAX_VARIABLES:
        half = len(batch) // 2  # one table's events stay in order: both halves keep it
        first = _write_together(connection, batch[:half], last)
        return first | {half + i for i in _write_together(connection, batch[half:], last)}
    try:
        connection.execute("BEGIN IMMEDIATE")
        try:
            newest = dict(last)
            if unseen:
                marks = ", ".join("?" * len(unseen))
                newest.update(connection.execute(LAST_SEQS.format(marks=marks), unseen).fetchall())
            fresh = fresh_in_batch(batch, newest)
            connection.executemany(INSERT, [_row(*batch[index]) for index in fresh])
            connection.execute("COMMIT")
        except BaseException:
            connection.execute("ROLLBACK")
            raise
    except Exception:  # ...each event is tried alone, and says what went wrong with it
        return set()
    return set(fresh)


def _write_alone(connection: sqlite3.Connection, table_id: str, event: StoredEvent) -> Outcome:
    """One event in its own transaction: None once stored, else why not."""
    try:
        row = _row(table_id, event)
        connection.execute("BEGIN IMMEDIATE")
        try:
            inserted = connection.execute(INSERT_IF_NEWER, (*row, table_id, table_id, event.seq)).rowcount
            known = inserted == 1 or connection.execute(KNOWN_TABLE, (table_id,)).fetchone() is not None
            connection.execute("COMMIT")
        except BaseException:
            connection.execute("ROLLBACK")
            raise
    except sqlite3.IntegrityError:  # another writer stored this seq between our check and our insert
        return DuplicateEvent(f"{table_id}#{event.seq}")
    except Exception as error:  # data that is not JSON, or the database failed (full, locked, gone)
        return error
    if inserted == 1:
        return None
    return DuplicateEvent(f"{table_id}#{event.seq}") if known else KeyError(table_id)


def set_statuses(connection: sqlite3.Connection, changes: list[tuple[str, str]]) -> list[Outcome]:
    """Set each table's status, in one transaction: None, or `KeyError` for an unknown table."""
    connection.execute("BEGIN IMMEDIATE")
    try:
        counts = [
            connection.execute(UPDATE_STATUS, (status, table_id)).rowcount for table_id, status in changes
        ]
        connection.execute("COMMIT")
    except BaseException:
        connection.execute("ROLLBACK")
        raise
    return [
        None if count == 1 else KeyError(table_id)
        for (table_id, _), count in zip(changes, counts, strict=True)
    ]


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
