"""`MemoryReparto`: el reparto del día's days, pars and attempts, in memory."""

from __future__ import annotations

import dataclasses
import json
from typing import Any

from tranque.server.store.memory.data import MemoryData
from tranque.server.store.reparto import RepartoDay, RepartoEntry


class MemoryReparto(MemoryData):
    """`RepartoStore` in memory."""

    async def reparto_day(self, day: str) -> RepartoDay | None:
        return self._reparto_days.get(day)

    async def open_reparto_day(self, day: str, seed: bytes, commitment: str, at: float) -> RepartoDay:
        return self._reparto_days.setdefault(day, RepartoDay(day, seed, commitment, at))

    async def reparto_par(self, day: str, mode: str) -> dict[str, Any] | None:
        text = self._reparto_pars.get((day, mode))
        return None if text is None else dict(json.loads(text))

    async def keep_reparto_par(self, day: str, mode: str, par: dict[str, Any]) -> dict[str, Any]:
        self._reparto_pars.setdefault((day, mode), json.dumps(par))
        return dict(json.loads(self._reparto_pars[day, mode]))

    async def start_reparto_attempt(
        self, day: str, mode: str, user_id: int, table_id: str, at: float
    ) -> bool:
        if user_id not in self._users:
            raise KeyError(user_id)
        key = (day, mode, user_id)
        if key in self._reparto_entries:
            return False
        self._reparto_entries[key] = RepartoEntry(day, mode, user_id, "", table_id, at)
        return True

    async def finish_reparto_attempt(
        self, day: str, mode: str, user_id: int, table_id: str, diff: int, points: list[list[int]], at: float
    ) -> bool:
        key = (day, mode, user_id)
        entry = self._reparto_entries.get(key)
        if entry is None or entry.table_id != table_id or entry.diff is not None:
            return False
        self._reparto_entries[key] = dataclasses.replace(
            entry, diff=diff, points=[list(hand) for hand in points], finished_at=at
        )
        return True

    def _named(self, entry: RepartoEntry) -> RepartoEntry:
        user = self._users.get(entry.user_id)
        return dataclasses.replace(entry, name="" if user is None else user.name)

    async def reparto_attempt(self, day: str, mode: str, user_id: int) -> RepartoEntry | None:
        entry = self._reparto_entries.get((day, mode, user_id))
        return None if entry is None else self._named(entry)

    async def reparto_entries(self, day: str, mode: str) -> list[RepartoEntry]:
        found = [
            self._named(entry)
            for (entry_day, entry_mode, user_id), entry in self._reparto_entries.items()
            if entry_day == day and entry_mode == mode and user_id in self._users
        ]
        return sorted(found, key=lambda entry: (entry.started_at, entry.user_id))
