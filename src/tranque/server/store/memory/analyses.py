"""`MemoryAnalyses`: the post-game analyses' queue, in memory."""

from __future__ import annotations

import copy
import dataclasses

from tranque.server.store.analyses import AnalysisRow, turn_order
from tranque.server.store.memory.data import MemoryData


class MemoryAnalyses(MemoryData):
    """`AnalysisStore` in memory."""

    async def save_analysis(self, row: AnalysisRow) -> None:
        if row.game_id not in self._games:
            raise KeyError(row.game_id)
        self._analyses[row.game_id] = copy.deepcopy(row)

    async def analysis(self, game_id: str) -> AnalysisRow | None:
        row = self._analyses.get(game_id)
        return copy.deepcopy(row) if row is not None else None

    async def analyses_requested(self, user_id: int, since: float) -> tuple[int, int]:
        mine = [row for row in self._analyses.values() if row.user_id == user_id]
        recent = sum(1 for row in mine if row.created_at >= since)
        return recent, sum(1 for row in mine if row.status in ("pending", "running"))

    async def unfinished_analyses(self) -> list[AnalysisRow]:
        rows = [row for row in self._analyses.values() if row.status in ("pending", "running")]
        return [copy.deepcopy(row) for row in sorted(rows, key=lambda row: (row.created_at, row.game_id))]

    async def unfinished_analysis_count(self) -> int:
        return sum(1 for row in self._analyses.values() if row.status in ("pending", "running"))

    async def claim_analysis(self, worker: str, now: float, stale_before: float) -> AnalysisRow | None:
        def claimable(row: AnalysisRow) -> bool:
            stale = row.heartbeat_at is None or row.heartbeat_at < stale_before
            return row.status == "pending" or (row.status == "running" and stale)

        unfinished = [row for row in self._analyses.values() if row.status in ("pending", "running")]
        rows = [row for row in turn_order(unfinished) if claimable(row)]
        if not rows:
            return None
        claimed = dataclasses.replace(rows[0], status="running", claimed_by=worker, heartbeat_at=now)
        self._analyses[claimed.game_id] = claimed
        return copy.deepcopy(claimed)

    async def save_claimed_analysis(self, row: AnalysisRow) -> bool:
        stored = self._analyses.get(row.game_id)
        if row.claimed_by is None or stored is None:
            return False
        if stored.status != "running" or stored.claimed_by != row.claimed_by:
            return False
        self._analyses[row.game_id] = copy.deepcopy(row)
        return True
