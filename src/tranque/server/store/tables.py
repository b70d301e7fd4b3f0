"""The tables' area of the store: table rows, their event logs and the fencing of their owners.

A table's log is its truth (the table actor appends to it, a restart or another process
replays it); with several processes on one database, the epochs fence a former owner off.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol


class DuplicateEvent(Exception):
    """An event with this (table_id, seq) is already stored: two owners for one table."""


class DuplicateTable(Exception):
    """A table with this id is already stored: `create_table` creates a table once, so a
    creation retried with the same chosen id is told it was done."""


class StaleEpoch(Exception):
    """Another owner has taken the table over: this writer's epoch is older than the table's
    (`TableLog.claim_table`), so nothing it asked to write was written."""


def stale_epoch(table_id: str, epoch: int, current: int) -> StaleEpoch:
    """The refusal of a write from `epoch` to a table whose epoch is `current` now."""
    return StaleEpoch(f"{table_id}: epoch {epoch}, the table's is {current}")


def split_by_epoch(
    writes: Sequence[tuple[str, int | None]], current: dict[str, int]
) -> tuple[list[int], dict[int, StaleEpoch]]:
    """A group commit's epoch check. Of a batch's writes (each its table and the writer's
    epoch, None for one not checked), the indexes that go on to the seq check, and those
    refused, with one `StaleEpoch` for each table and stale epoch. A checked write to a table
    missing from `current` (the tables' epochs) is in neither: written alone, it is told the
    table is unknown."""
    candidates: list[int] = []
    refused: dict[int, StaleEpoch] = {}
    errors: dict[tuple[str, int], StaleEpoch] = {}
    for index, (table_id, epoch) in enumerate(writes):
        if epoch is None:
            candidates.append(index)
        elif table_id not in current:
            continue
        elif current[table_id] != epoch:
            key = (table_id, epoch)
            refused[index] = errors.setdefault(key, stale_epoch(table_id, epoch, current[table_id]))
        else:
            candidates.append(index)
    return candidates, refused


def fresh_in_batch(batch: Sequence[tuple[str, StoredEvent]], last: dict[str, int]) -> list[int]:
    """The indexes of `batch`'s events newer than their table's last stored seq (`last`), as
    the backends' group commits insert them together. Once one of a table's events is not
    newer, none of its later ones in the batch is: a log has no gaps, and what followed a
    refused event was decided on a state never stored."""
    newest = dict(last)
    fresh: list[int] = []
    stale: set[str] = set()
    for index, (table_id, event) in enumerate(batch):
        if table_id not in stale and event.seq > newest.get(table_id, 0):
            fresh.append(index)
            newest[table_id] = event.seq
        else:
            stale.add(table_id)
    return fresh


@dataclass(frozen=True)
class StoredEvent:
    """One numbered table event as persisted: the referee's data, before any filtering."""

    seq: int
    kind: str
    data: dict[str, Any]
    at: float  # seconds since the epoch


@dataclass(frozen=True)
class TableRow:
    table_id: str
    config: dict[str, Any]
    status: str  # waiting | playing | finished | annulled
    created_at: float
    epoch: int = 0  # how many times a process has claimed the table (`TableLog.claim_table`)


class TableLog(Protocol):
    """Tables, their event logs and records, and their owners' epochs."""

    async def create_table(self, table_id: str, config: dict[str, Any], created_at: float) -> None:
        """Store a new table, waiting; `DuplicateTable` (and nothing changed) if the id is taken."""
        ...

    # Fencing: with several processes on one database, one owns a table at a time. A process
    # taking a table over claims it (its epoch goes up by one) and passes the epoch it got with
    # its writes; a write carrying an older epoch (a former owner, paused or cut off) changes
    # nothing and raises `StaleEpoch`. The check is atomic with the write: a write and a claim
    # of the same table never interleave. `epoch=None` writes without a check.

    async def claim_table(self, table_id: str) -> int:
        """Take the table over: add one to its epoch, atomically, and return the new epoch.
        From then on, writes carrying an older epoch are refused. `KeyError` for an unknown table."""
        ...

    async def table_epoch(self, table_id: str) -> int:
        """The table's current epoch (0 until it is first claimed); `KeyError` for an unknown table."""
        ...

    async def table(self, table_id: str) -> TableRow | None:
        """One table's row, config and epoch included; None for an unknown table."""
        ...

    async def set_table_status(self, table_id: str, status: str, epoch: int | None = None) -> None:
        """`KeyError` for an unknown table; `StaleEpoch`, unchanged, if `epoch` is given and is
        not the table's epoch."""
        ...

    async def append_event(self, table_id: str, event: StoredEvent, epoch: int | None = None) -> None:
        """Persist one event; `DuplicateEvent` if its seq is taken (UNIQUE(table_id, seq));
        `StaleEpoch`, and nothing stored, if `epoch` is given and is not the table's epoch."""
        ...

    async def append_events(
        self, table_id: str, events: Sequence[StoredEvent], epoch: int | None = None
    ) -> None:
        """Persist `events`, in order, as `append_event` would one by one, awaited together
        (a command's events: one wait for the store, not one per event). On a refusal the
        events before the refused one may be stored and those after it are not; but with an
        `epoch` that is not the table's, none is stored (`StaleEpoch`), whatever claim of the
        table runs at the same time. An empty `events` writes and checks nothing."""
        ...

    async def load_events(self, table_id: str, after_seq: int = 0) -> list[StoredEvent]:
        """The table's events with seq > after_seq, in order."""
        ...

    async def tables(self, statuses: tuple[str, ...]) -> list[TableRow]: ...

    async def save_record(self, table_id: str, record: dict[str, Any]) -> None: ...

    async def load_record(self, table_id: str) -> dict[str, Any] | None: ...
