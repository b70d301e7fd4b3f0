"""`PostgresAppends`: the PostgreSQL group commit's transaction, on a connection of its own.

Appends are the server's one steady write (every move of every table), and `SqlStore`
group-commits them: what the tables append while a batch is written goes in the next one.
Through SQLAlchemy each batch paid for a pool checkout with its ping, the compilation of its
`IN (...)` statements (their lists differ every time) and a greenlet switch per statement:
measured at 1,000 live tables on two processes, about a sixth of each process's CPU. Here
the same transaction runs on one asyncpg connection kept for it, as three prepared
statements whose table lists are array parameters: the checked tables' rows locked and
their epochs read, the tables' last seqs read, and every fresh event inserted with one
`unnest`. What is stored and what refused is decided by `decide_batch`, as for the other
backends.

A batch this transaction cannot take (an unknown table, a race with another owner, a lost
connection) answers nothing: `SqlStore` tries each of its events alone on its own
connections, which says precisely why one was refused. A connection that broke is opened
again for the next batch.
"""

from __future__ import annotations

from collections.abc import Sequence

import asyncpg

from tranque.server import json_text
from tranque.server.store.base import StoredEvent, decide_batch

# The tables' rows locked in one order, so two batches never deadlock. FOR NO KEY UPDATE: a
# claim (an UPDATE of the row) waits for this transaction, this one for a claim under way,
# and reads the row as the claim left it; other writers' inserts into table_events (their
# foreign key's FOR KEY SHARE) do not wait.
LOCK_EPOCHS = (
    "SELECT table_id, epoch FROM tables WHERE table_id = ANY($1::varchar[]) "
    "ORDER BY table_id FOR NO KEY UPDATE"
)
LAST_SEQS = (
    "SELECT table_id, max(seq) FROM table_events WHERE table_id = ANY($1::varchar[]) GROUP BY table_id"
)
# The columns of schema.table_events, in this order.
INSERT = (
    "INSERT INTO table_events (table_id, seq, kind, data, at) "
    "SELECT * FROM unnest($1::varchar[], $2::int[], $3::varchar[], $4::json[], $5::float8[])"
)

Outcome = BaseException | None  # an append's: None once stored, else why it was not


class PostgresAppends:
    """Batches of appends to the PostgreSQL database at `dsn` (a libpq URL), one at a time."""

    def __init__(self, dsn: str) -> None:
        self.dsn = dsn
        self._connection: asyncpg.Connection | None = None

    async def write(self, batch: Sequence[tuple[str, StoredEvent, int | None]]) -> dict[int, Outcome]:
        """In one transaction: refuse every event whose epoch is stale, and insert every other
        event newer than its table's last one. Their indexes, with their outcomes (None:
        stored; `StaleEpoch`); none when the transaction fails."""
        ids = sorted({table_id for table_id, _, _ in batch})
        checked = sorted({table_id for table_id, _, epoch in batch if epoch is not None})
        try:
            connection = await self._connected()
            async with connection.transaction():
                epochs: dict[str, int] = {}
                if checked:
                    epochs = {row[0]: row[1] for row in await connection.fetch(LOCK_EPOCHS, checked)}
                last = {row[0]: row[1] for row in await connection.fetch(LAST_SEQS, ids)}
                refused, fresh = decide_batch(batch, epochs, last)
                if fresh:
                    events = [(batch[i][0], batch[i][1]) for i in fresh]
                    await connection.execute(
                        INSERT,
                        [table_id for table_id, _ in events],
                        [event.seq for _, event in events],
                        [event.kind for _, event in events],
                        [json_text.dumps(event.data) for _, event in events],
                        [event.at for _, event in events],
                    )
        except Exception:  # ...each event is tried alone, and says what went wrong with it
            if self._connection is not None and self._connection.is_closed():
                self._connection = None
            return {}
        decided: dict[int, Outcome] = dict(refused)
        decided.update((index, None) for index in fresh)
        return decided

    async def _connected(self) -> asyncpg.Connection:
        if self._connection is None:
            self._connection = await asyncpg.connect(self.dsn)
        return self._connection

    async def close(self) -> None:
        connection, self._connection = self._connection, None
        if connection is not None:
            await connection.close()
