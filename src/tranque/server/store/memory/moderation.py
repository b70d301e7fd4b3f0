"""`MemoryModeration`: roles, the moderators' queue, sanctions and the audit log, in memory."""

from __future__ import annotations

import copy
import dataclasses
import time
from typing import Any

from tranque.server.store.memory.data import MemoryData
from tranque.server.store.moderation import (
    REPORT,
    AlreadyReported,
    LogEntry,
    NewReport,
    ReviewItem,
    SanctionRow,
)
from tranque.server.store.players import RatingRow


class MemoryModeration(MemoryData):
    """`ModerationStore` in memory."""

    def __init__(self) -> None:
        super().__init__()
        self._roles: dict[int, str] = {}
        self._items: dict[int, ReviewItem] = {}
        self._reported: set[tuple[int, int, str]] = set()  # (reporter, account, game key)
        self._sanctions: dict[int, SanctionRow] = {}
        self._log: list[LogEntry] = []
        self._withheld_ratings: dict[tuple[int, str], RatingRow] = {}
        self._withheld_xp: dict[tuple[str, int], int] = {}

    def _write(self, entry: LogEntry) -> None:
        self._log.append(dataclasses.replace(entry, entry_id=len(self._log) + 1))

    async def role_of(self, user_id: int) -> str:
        return self._roles.get(user_id, "player")

    async def set_role(self, user_id: int, role: str, entry: LogEntry) -> None:
        if role == "player":
            self._roles.pop(user_id, None)
        else:
            self._roles[user_id] = role
        self._write(entry)

    async def add_report(self, report: NewReport) -> int:
        key = (report.reporter_id, report.subject_id, report.game_id or "")
        if key in self._reported:
            raise AlreadyReported()
        self._reported.add(key)
        item_id = len(self._items) + 1
        self._items[item_id] = ReviewItem(
            item_id,
            REPORT,
            [report.subject_id],
            {},
            report.game_id,
            report.at,
            report.reporter_id,
            report.reason,
            report.note,
        )
        return item_id

    async def reports_since(self, reporter_id: int, since: float) -> int:
        return sum(
            1 for item in self._items.values() if item.reporter_id == reporter_id and item.created_at > since
        )

    async def add_review(
        self,
        kind: str,
        subjects: list[int],
        evidence: dict[str, Any],
        game_id: str | None = None,
        *,
        at: float | None = None,
    ) -> int:
        item_id = len(self._items) + 1
        when = time.time() if at is None else at
        self._items[item_id] = ReviewItem(
            item_id, kind, list(subjects), copy.deepcopy(evidence), game_id, when
        )
        return item_id

    async def review_items(self, status: str, limit: int) -> list[ReviewItem]:
        found = [item for item in self._items.values() if item.status == status]
        if status == "open":
            found.sort(key=lambda item: (item.created_at, item.item_id))
        else:
            found.sort(key=lambda item: (item.closed_at or 0.0, item.item_id), reverse=True)
        return found[:limit]

    async def review_item(self, item_id: int) -> ReviewItem | None:
        return self._items.get(item_id)

    async def close_item(self, item_id: int, resolution: str, entry: LogEntry) -> bool:
        item = self._items.get(item_id)
        if item is None or item.status != "open":
            return False
        self._items[item_id] = dataclasses.replace(
            item, status="closed", closed_at=entry.at, closed_by=entry.moderator_id, resolution=resolution
        )
        self._write(entry)
        return True

    async def add_sanction(
        self, user_id: int, kind: str, until: float | None, entry: LogEntry
    ) -> SanctionRow:
        sanction_id = len(self._sanctions) + 1
        row = SanctionRow(sanction_id, user_id, kind, until, entry.at, entry.moderator_id, entry.reason)
        self._sanctions[sanction_id] = row
        self._write(dataclasses.replace(entry, details={**entry.details, "sanction": sanction_id}))
        return row

    async def lift_sanction(self, sanction_id: int, entry: LogEntry) -> SanctionRow | None:
        row = self._sanctions.get(sanction_id)
        if row is None or row.lifted_at is not None:
            return None
        lifted = dataclasses.replace(row, lifted_at=entry.at, lifted_by=entry.moderator_id)
        self._sanctions[sanction_id] = lifted
        self._write(entry)
        return lifted

    async def sanction_by_id(self, sanction_id: int) -> SanctionRow | None:
        return self._sanctions.get(sanction_id)

    async def sanctions_of(self, user_ids: list[int]) -> list[SanctionRow]:
        among = set(user_ids)
        found = [row for row in self._sanctions.values() if row.user_id in among]
        return sorted(found, key=lambda row: (row.created_at, row.sanction_id), reverse=True)

    async def write_log(self, entry: LogEntry) -> None:
        self._write(entry)

    async def moderation_log(self, limit: int) -> list[LogEntry]:
        return sorted(self._log, key=lambda entry: (entry.at, entry.entry_id), reverse=True)[:limit]

    async def end_sessions(self, user_id: int) -> None:
        for token, (owner, _) in list(self._sessions.items()):
            if owner == user_id:
                del self._sessions[token]

    async def withhold_standings(self, user_id: int) -> None:
        for key in [key for key in self._ratings if key[0] == user_id]:
            self._withheld_ratings[key] = self._ratings.pop(key)
        for period_key in [key for key in self._xp if key[1] == user_id]:
            self._withheld_xp[period_key] = self._xp.pop(period_key)

    async def restore_standings(self, user_id: int) -> None:
        for key in [key for key in self._withheld_ratings if key[0] == user_id]:
            self._ratings[key] = self._withheld_ratings.pop(key)
        for period_key in [key for key in self._withheld_xp if key[1] == user_id]:
            self._xp[period_key] = self._withheld_xp.pop(period_key)
