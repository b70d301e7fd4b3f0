"""`SqliteAppends`: a SQLite file's event appends, group-committed on a thread of their own.

aiosqlite runs every call of a connection on that connection's thread and comes back to the
event loop after each one, so one transaction through SQLAlchemy (check out, select, insert,
commit, reset) is a dozen round trips between the loop and the thread. Appends are the
server's one steady write (every move of every table), so they get a plain `sqlite3`
connection on one thread that does the whole group commit: it takes every append queued so
far, writes them in one transaction (one max(seq) check, one `executemany`), and hands the
outcomes back to the loop in one call. While it writes, the next batch queues up.

An append the batch cannot take (a stale seq, an unknown table, a race with another owner)
is tried again alone, in its own transaction, which says precisely why it was refused.
The connection has the pragmas of the store's other connections (`pragmas`), WAL among them,
so the store's readers and other writers run beside this one.
"""

from __future__ import annotations

import asyncio
import queue
import sqlite3
import threading
from collections.abc import Callable
from typing import Any

from tranque.server import json_text
from tranque.server.store.base import DuplicateEvent, StoredEvent

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

Append = tuple[str, StoredEvent, "asyncio.Future[None]"]
Outcome = BaseException | None


class SqliteAppends:
    """Appends to the SQLite file at `path`; `start()` on the event loop that will await them."""

    def __init__(self, path: str, pragmas: Callable[[sqlite3.Connection], None]) -> None:
        self.path = path
        self.pragmas = pragmas
        self._inbox: queue.SimpleQueue[Append | None] = queue.SimpleQueue()
        self._thread: threading.Thread | None = None
        self._stopped: asyncio.Future[None] | None = None
        self._loop: asyncio.AbstractEventLoop | None = None

    def start(self) -> None:
        self._loop = asyncio.get_running_loop()
        self._stopped = self._loop.create_future()
        self._thread = threading.Thread(target=self._run, name="tranque-sqlite-appends", daemon=True)
        self._thread.start()

    async def append(self, table_id: str, event: StoredEvent) -> None:
        """Store `event` after every append queued before it; `DuplicateEvent` if its seq is
        not newer than the table's last one, `KeyError` for a table that does not exist."""
        if self._loop is None:
            raise RuntimeError("SqliteAppends.start() has not been called")
        future: asyncio.Future[None] = self._loop.create_future()
        self._inbox.put((table_id, event, future))
        await future

    async def close(self) -> None:
        """Write what is queued, then close the connection and end the thread."""
        if self._stopped is None:
            return
        self._inbox.put(None)
        await self._stopped
        self._stopped = None

    # On the thread ------------------------------------------------------------------------

    def _run(self) -> None:
        loop, stopped = self._loop, self._stopped
        assert loop is not None and stopped is not None
        connection: sqlite3.Connection | None = None
        error: BaseException | None = None
        try:
            connection = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
            self.pragmas(connection)
        except BaseException as failure:  # the file cannot be opened: every append says why
            error = failure
        last: dict[str, int] = {}  # each table's last stored seq, as far as this thread knows
        ending = False
        while not ending:
            batch: list[Append] = []
            item = self._inbox.get()
            while True:
                if item is None:
                    ending = True
                else:
                    batch.append(item)
                try:
                    item = self._inbox.get_nowait()
                except queue.Empty:
                    break
            if not batch:
                continue
            if connection is None:
                outcomes: list[Outcome] = [error] * len(batch)
            else:
                try:
                    outcomes = write(connection, [(table_id, event) for table_id, event, _ in batch], last)
                except BaseException as failure:  # never leave an append waiting
                    outcomes = [failure] * len(batch)
            loop.call_soon_threadsafe(_settle, batch, outcomes)
        if connection is not None:
            connection.close()
        loop.call_soon_threadsafe(_set_done, stopped)


def write(
    connection: sqlite3.Connection, batch: list[tuple[str, StoredEvent]], last: dict[str, int] | None = None
) -> list[Outcome]:
    """Store the batch's events, together where they can be; each one's outcome, in order.

    `last` remembers each table's last stored seq across batches, so a batch reads the
    database only for tables it has not seen. Another writer of a table cannot slip past it:
    seqs go one by one, so that writer's next event takes a seq this one will also try, and
    the primary key refuses the second (the batch then fails, and each event is tried alone)."""
    last = {} if last is None else last
    if len(last) > MAX_REMEMBERED:
        last.clear()
    stored = _write_together(connection, batch, last)
    outcomes = [
        None if index in stored else _write_alone(connection, *item) for index, item in enumerate(batch)
    ]
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
            fresh: list[int] = []
            for index, (table_id, event) in enumerate(batch):
                if event.seq > newest.get(table_id, 0):
                    fresh.append(index)
                    newest[table_id] = event.seq
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


def _row(table_id: str, event: StoredEvent) -> tuple[Any, ...]:
    """The event as table_events' row; `data` in the JSON text SQLAlchemy's JSON type reads."""
    return (table_id, event.seq, event.kind, json_text.dumps(event.data), event.at)


# Back on the loop ---------------------------------------------------------------------------


def _settle(batch: list[Append], outcomes: list[Outcome]) -> None:
    for (_, _, future), outcome in zip(batch, outcomes, strict=True):
        if future.done():  # the table stopped waiting (cancelled)
            continue
        if outcome is None:
            future.set_result(None)
        else:
            future.set_exception(outcome)


def _set_done(future: asyncio.Future[None]) -> None:
    if not future.done():
        future.set_result(None)
