"""`PostgresAppends`: a PostgreSQL database's group-committed event appends, on asyncpg directly.

Appends are the server's one steady write (every move of every table). Through SQLAlchemy's
async engine each batch was a pool checkout with its ping, then a begin, an epoch lock, a
max(seq) check, an INSERT and a commit, each statement compiled, cached by key and run
through a greenlet, and the `IN (...)` lists a new statement text for each batch size:
measured with `benchmarks/server_load.py --processes 2 --db postgresql --redis`, about a
quarter of each server process's CPU went there. Here the same transaction runs on one
connection of its own, with four statements that never change text (`= ANY($1)` takes the
whole list as one array), prepared once and cached by asyncpg, and the rows inserted with one
`unnest`: the database does the same work, the server a fraction of it.

The batch is `SqlStore`'s, and decided the same way (`split_by_epoch`, `fresh_in_batch`): the
epochs of the tables written with one are locked (FOR NO KEY UPDATE, in table order) and a
stale one refused; every event newer than its table's last is inserted. When the batch fails
as a whole (an unknown table, a race with another writer, the database gone) nothing is
decided and the caller writes each append alone, which says precisely why. A connection that
broke is opened again for the next batch; the database ends one left idle in the middle of a
batch (a stopped process), so that the rows it locked do not hold off another owner's claim.
"""

from __future__ import annotations

import contextlib
from collections.abc import Sequence

import asyncpg
import sqlalchemy as sa

from tranque.server import json_text
from tranque.server.store.tables import StoredEvent, fresh_in_batch, split_by_epoch

Outcome = BaseException | None

APPLICATION_NAME = "tranque-appends"  # the connection's name in pg_stat_activity
# A batch's transaction is a few milliseconds. One idle this long is a process stopped in the
# middle of it (SIGSTOP, a pause, a partition) with its tables' rows locked: the database ends
# its session, so another process's claim of those tables does not wait for it. Shorter than
# the lease (cluster/settings.py), after which another process may claim them.
IDLE_IN_TRANSACTION_MS = 2_000
SETTINGS = {
    "application_name": APPLICATION_NAME,
    "idle_in_transaction_session_timeout": str(IDLE_IN_TRANSACTION_MS),
    # Each statement planned for its own arguments. A prepared statement's generic plan, made
    # once while the log was small (a new database), stays cached as the log grows: measured,
    # a sequential scan of table_events in every batch, the database's CPU per move tripled.
    "plan_cache_mode": "force_custom_plan",
}

# The locked rows in one order: two batches never deadlock. FOR NO KEY UPDATE: a claim (an
# UPDATE of the row) waits for this transaction, this one for a claim under way, and reads the
# row as the claim left it; other writers' inserts into table_events (their foreign key's FOR
# KEY SHARE) do not wait.
LOCK_EPOCHS = (
    "SELECT table_id, epoch FROM tables WHERE table_id = ANY($1::text[]) ORDER BY table_id FOR NO KEY UPDATE"
)
# Each table's last seq read from the end of its index (a table's log only grows: max(seq)
# with GROUP BY would read all of it).
LAST_SEQS = (
    "SELECT batch.table_id, (SELECT seq FROM table_events WHERE table_events.table_id = batch.table_id "
    "ORDER BY seq DESC LIMIT 1) FROM unnest($1::text[]) AS batch(table_id)"
)
INSERT = (
    "INSERT INTO table_events (table_id, seq, kind, data, at) "
    "SELECT table_id, seq, kind, data::json, at "
    "FROM unnest($1::text[], $2::int[], $3::text[], $4::text[], $5::float8[]) "
    "AS batch(table_id, seq, kind, data, at)"
)


def asyncpg_dsn(url: sa.URL) -> str:
    """The libpq-style address asyncpg takes for a SQLAlchemy PostgreSQL URL."""
    return url.set(drivername="postgresql").render_as_string(hide_password=False)


class PostgresAppends:
    """Batches of event appends, each written in one transaction on a connection of its own."""

    def __init__(self, dsn: str) -> None:
        self._dsn = dsn
        self._connection: asyncpg.Connection | None = None

    async def write(self, batch: Sequence[tuple[str, StoredEvent, int | None]]) -> dict[int, Outcome]:
        """In one transaction: refuse every event whose epoch is stale, and insert every other
        event newer than its table's last one. Their indexes, with their outcomes (None: stored;
        `StaleEpoch`); none when the transaction fails."""
        ids = sorted({table_id for table_id, _, _ in batch})
        checked = sorted({table_id for table_id, _, epoch in batch if epoch is not None})
        try:
            connection = await self._connect()
            async with connection.transaction():
                epochs: dict[str, int] = {}
                if checked:
                    epochs = {row[0]: row[1] for row in await connection.fetch(LOCK_EPOCHS, checked)}
                # (An unknown table's write is left to the one-row path, which says so.)
                writes = [(table_id, epoch) for table_id, _, epoch in batch]
                candidates, refused = split_by_epoch(writes, epochs)
                rows = await connection.fetch(LAST_SEQS, ids)
                last = {row[0]: row[1] for row in rows if row[1] is not None}
                chosen = fresh_in_batch([(batch[i][0], batch[i][1]) for i in candidates], last)
                fresh = [candidates[i] for i in chosen]
                if fresh:
                    events = [batch[i][1] for i in fresh]
                    await connection.execute(
                        INSERT,
                        [batch[i][0] for i in fresh],
                        [event.seq for event in events],
                        [event.kind for event in events],
                        [json_text.dumps(event.data) for event in events],
                        [event.at for event in events],
                    )
        except Exception:  # an unknown table, a race with another owner, a busy database...
            self._drop_if_broken()
            return {}  # ...the one-row path retries each event and reports its own outcome
        decided: dict[int, Outcome] = dict(refused)
        decided.update((index, None) for index in fresh)
        return decided

    async def close(self) -> None:
        connection, self._connection = self._connection, None
        if connection is not None:
            with contextlib.suppress(Exception):
                await connection.close(timeout=5)

    async def _connect(self) -> asyncpg.Connection:
        connection = self._connection
        if connection is not None and connection.is_closed():  # the database ended it
            connection.terminate()
            connection = self._connection = None
        if connection is None:
            connection = self._connection = await asyncpg.connect(self._dsn, server_settings=SETTINGS)
        return connection

    def _drop_if_broken(self) -> None:
        """Forget a connection that cannot take the next batch (closed, or left in a transaction)."""
        connection = self._connection
        if connection is not None and (connection.is_closed() or connection.is_in_transaction()):
            self._connection = None
            connection.terminate()
