"""`SqliteAppends`: a SQLite file's event appends, group-committed on a thread of their own.

aiosqlite runs every call of a connection on that connection's thread and comes back to the
event loop after each one, so one transaction through SQLAlchemy (check out, select, insert,
commit, reset) is a dozen round trips between the loop and the thread. Appends are the
server's one steady write (every move of every table), so they get a plain `sqlite3`
connection on one thread that does the whole group commit: it takes every append queued so
far, writes them in one transaction (one max(seq) check, one `executemany`), and hands the
outcomes back to the loop in one call. While it writes, the next batch queues up.

The thread shares the GIL with the event loop, and a busy loop keeps it for up to the switch
interval (5 ms by default) each time the thread wants it back; the `sqlite3` module lets go of
it around every statement step, so an `executemany` of N rows waited for the loop N times, and
under load a batch took tens of milliseconds. So the thread does as little as it can holding
the GIL: each event's row (its JSON text among it) is made on the loop when it is queued, a
batch is one multi-row INSERT (a statement step for the lot, not one a row), and the process's
switch interval is shortened (`SWITCH_INTERVAL`) so the thread gets the GIL back soon.

An append the batch cannot take (a stale seq, an unknown table, a race with another owner)
is tried again alone, in its own transaction, which says precisely why it was refused.
The connection has the pragmas of the store's other connections (`pragmas`), WAL among them,
so the store's readers and other writers run beside this one.
"""

from __future__ import annotations

import asyncio
import json
import queue
import sqlite3
import sys
import threading
from collections.abc import Callable

from tranque.server.store.base import DuplicateEvent, StoredEvent

# The columns of schema.table_events, in this order.
INSERT = "INSERT INTO table_events (table_id, seq, kind, data, at) VALUES "
ROW_MARKS = "(?, ?, ?, ?, ?)"
ROW_COLUMNS = 5
INSERT_IF_NEWER = (
    "INSERT INTO table_events (table_id, seq, kind, data, at) "
    "SELECT ?, ?, ?, ?, ? WHERE EXISTS (SELECT 1 FROM tables WHERE table_id = ?) "
    "AND NOT EXISTS (SELECT 1 FROM table_events WHERE table_id = ? AND seq >= ?)"
)
KNOWN_TABLE = "SELECT 1 FROM tables WHERE table_id = ?"
LAST_SEQS = "SELECT table_id, max(seq) FROM table_events WHERE table_id IN ({marks}) GROUP BY table_id"
MAX_VARIABLES = 900  # below SQLite's smallest limit on host parameters (999) for the IN (...) check
MAX_ROWS = MAX_VARIABLES // ROW_COLUMNS  # rows in one INSERT
SWITCH_INTERVAL = 0.0005  # s: how long the loop may keep the GIL the thread waits for
MAX_REMEMBERED = 100_000  # tables whose last seq the thread remembers (forgotten ones are read again)

Row = tuple[str, int, str, str, float]  # (table_id, seq, kind, data, at): table_events' row
Append = tuple[Row, "asyncio.Future[None]"]
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
        if sys.getswitchinterval() > SWITCH_INTERVAL:
            sys.setswitchinterval(SWITCH_INTERVAL)
        self._stopped = self._loop.create_future()
        self._thread = threading.Thread(target=self._run, name="tranque-sqlite-appends", daemon=True)
        self._thread.start()

    async def append(self, table_id: str, event: StoredEvent) -> None:
        """Store `event` after every append queued before it; `DuplicateEvent` if its seq is
        not newer than the table's last one, `KeyError` for a table that does not exist."""
        if self._loop is None:
            raise RuntimeError("SqliteAppends.start() has not been called")
        future: asyncio.Future[None] = self._loop.create_future()
        self._inbox.put((_row(table_id, event), future))
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
                    outcomes = write(connection, [row for row, _ in batch], last)
                except BaseException as failure:  # never leave an append waiting
                    outcomes = [failure] * len(batch)
            loop.call_soon_threadsafe(_settle, batch, outcomes)
        if connection is not None:
            connection.close()
        loop.call_soon_threadsafe(_set_done, stopped)


def write(
    connection: sqlite3.Connection, batch: list[Row], last: dict[str, int] | None = None
) -> list[Outcome]:
    """Store the batch's rows, together where they can be; each one's outcome, in order.

    `last` remembers each table's last stored seq across batches, so a batch reads the
    database only for tables it has not seen. Another writer of a table cannot slip past it:
    seqs go one by one, so that writer's next event takes a seq this one will also try, and
    the primary key refuses the second (the batch then fails, and each event is tried alone)."""
    last = {} if last is None else last
    if len(last) > MAX_REMEMBERED:
        last.clear()
    stored = _write_together(connection, batch, last)
    outcomes = [None if index in stored else _write_alone(connection, row) for index, row in enumerate(batch)]
    for row, outcome in zip(batch, outcomes, strict=True):
        if outcome is None:
            table_id, seq = row[0], row[1]
            last[table_id] = max(last.get(table_id, 0), seq)
    return outcomes


def _write_together(connection: sqlite3.Connection, batch: list[Row], last: dict[str, int]) -> set[int]:
    """Insert every row newer than its table's last one, in one transaction; their indexes
    (none when the transaction fails: an unknown table, a race, a busy database...)."""
    unseen = sorted({row[0] for row in batch if row[0] not in last})
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
            for index, (table_id, seq, *_) in enumerate(batch):
                if seq > newest.get(table_id, 0):
                    fresh.append(index)
                    newest[table_id] = seq
            for start in range(0, len(fresh), MAX_ROWS):
                chunk = fresh[start : start + MAX_ROWS]
                values = [value for index in chunk for value in batch[index]]
                connection.execute(INSERT + ", ".join([ROW_MARKS] * len(chunk)), values)
            connection.execute("COMMIT")
        except BaseException:
            connection.execute("ROLLBACK")
            raise
    except Exception:  # ...each event is tried alone, and says what went wrong with it
        return set()
    return set(fresh)


def _write_alone(connection: sqlite3.Connection, row: Row) -> Outcome:
    """One row in its own transaction: None once stored, else why not."""
    table_id, seq = row[0], row[1]
    try:
        connection.execute("BEGIN IMMEDIATE")
        try:
            inserted = connection.execute(INSERT_IF_NEWER, (*row, table_id, table_id, seq)).rowcount
            known = inserted == 1 or connection.execute(KNOWN_TABLE, (table_id,)).fetchone() is not None
            connection.execute("COMMIT")
        except BaseException:
            connection.execute("ROLLBACK")
            raise
    except sqlite3.IntegrityError:  # another writer stored this seq between our check and our insert
        return DuplicateEvent(f"{table_id}#{seq}")
    except Exception as error:  # the database failed (full, locked, gone)
        return error
    if inserted == 1:
        return None
    return DuplicateEvent(f"{table_id}#{seq}") if known else KeyError(table_id)


def _row(table_id: str, event: StoredEvent) -> Row:
    """The event as table_events' row; `data` in the JSON text SQLAlchemy's JSON type reads."""
    return (table_id, event.seq, event.kind, json.dumps(event.data), event.at)


# Back on the loop ---------------------------------------------------------------------------


def _settle(batch: list[Append], outcomes: list[Outcome]) -> None:
    for (_, future), outcome in zip(batch, outcomes, strict=True):
        if future.done():  # the table stopped waiting (cancelled)
            continue
        if outcome is None:
            future.set_result(None)
        else:
            future.set_exception(outcome)


def _set_done(future: asyncio.Future[None]) -> None:
    if not future.done():
        future.set_result(None)
