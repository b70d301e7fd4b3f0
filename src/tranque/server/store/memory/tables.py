"""`MemoryTableLog`: tables, their event logs and epochs, in memory."""

from __future__ import annotations

import copy
import dataclasses
import json
from collections.abc import Sequence
from typing import Any

from tranque.server import json_text
from tranque.server.store.memory.data import MemoryData
from tranque.server.store.tables import DuplicateEvent, DuplicateTable, StaleEpoch, StoredEvent, TableRow


class MemoryTableLog(MemoryData):
    """`TableLog` in memory."""

    async def create_table(self, table_id: str, config: dict[str, Any], created_at: float) -> None:
        if table_id in self._tables:
            raise DuplicateTable(table_id)
        self._tables[table_id] = TableRow(table_id, copy.deepcopy(config), "waiting", created_at)
        self._events[table_id] = []

    async def claim_table(self, table_id: str) -> int:
        row = self._tables[table_id]
        self._tables[table_id] = dataclasses.replace(row, epoch=row.epoch + 1)
        return row.epoch + 1

    async def table_epoch(self, table_id: str) -> int:
        return self._tables[table_id].epoch

    async def table(self, table_id: str) -> TableRow | None:
        row = self._tables.get(table_id)
        return dataclasses.replace(row, config=copy.deepcopy(row.config)) if row is not None else None

    def _check_epoch(self, table_id: str, epoch: int | None) -> None:
        """`KeyError` for an unknown table, `StaleEpoch` for an epoch given that is not its own."""
        row = self._tables[table_id]
        if epoch is not None and row.epoch != epoch:
            raise StaleEpoch(f"{table_id}: epoch {epoch}, the table's is {row.epoch}")

    async def set_table_status(self, table_id: str, status: str, epoch: int | None = None) -> None:
        self._check_epoch(table_id, epoch)
        self._tables[table_id] = dataclasses.replace(self._tables[table_id], status=status)

    async def append_event(self, table_id: str, event: StoredEvent, epoch: int | None = None) -> None:
        self._append(table_id, [event], epoch)

    async def append_events(
        self, table_id: str, events: Sequence[StoredEvent], epoch: int | None = None
    ) -> None:
        self._append(table_id, events, epoch)

    def _append(self, table_id: str, events: Sequence[StoredEvent], epoch: int | None) -> None:
        """Nothing is awaited between the epoch's check and the writes: they are atomic."""
        if events and epoch is not None:
            self._check_epoch(table_id, epoch)
        for event in events:
            self._append_one(table_id, event)

    def _append_one(self, table_id: str, event: StoredEvent) -> None:
        log = self._events[table_id]
        if log and log[-1][0] >= event.seq:
            raise DuplicateEvent(f"{table_id}#{event.seq}")
        log.append((event.seq, event.kind, json_text.dumps(event.data), event.at))

    async def load_events(self, table_id: str, after_seq: int = 0) -> list[StoredEvent]:
        return [
            StoredEvent(seq, kind, json.loads(data), at)
            for seq, kind, data, at in self._events.get(table_id, [])
            if seq > after_seq
        ]

    async def tables(self, statuses: tuple[str, ...]) -> list[TableRow]:
        return [row for row in self._tables.values() if row.status in statuses]

    async def save_record(self, table_id: str, record: dict[str, Any]) -> None:
        self._records[table_id] = copy.deepcopy(record)

    async def load_record(self, table_id: str) -> dict[str, Any] | None:
        record = self._records.get(table_id)
        return copy.deepcopy(record) if record is not None else None
