"""`MemoryTournaments`: tournaments, their players and the attendance bars, in memory."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Mapping, Sequence
from typing import Any

from tranque.server.store.memory.data import MemoryData
from tranque.server.store.tournaments import LIVE_STATUSES, Order, TournamentRow


def _sort_key(order: Order) -> Any:
    if order == "soonest":
        return lambda row: (row.starts_at is None, row.starts_at or 0.0, row.created_at, row.id)
    return lambda row: (-(row.finished_at if row.finished_at is not None else row.created_at), row.id)


class MemoryTournaments(MemoryData):
    """`TournamentStore` in memory."""

    def _row(self, tournament_id: str) -> TournamentRow | None:
        found = self._tournaments.get(tournament_id)
        if found is None:
            return None
        row, text = found
        return dataclasses.replace(row, doc=json.loads(text))

    async def create_tournament(self, row: TournamentRow) -> bool:
        taken = row.id in self._tournaments or (
            row.schedule_key is not None
            and any(kept.schedule_key == row.schedule_key for kept, _ in self._tournaments.values())
        )
        if taken:
            return False
        self._tournaments[row.id] = (dataclasses.replace(row, doc={}), json.dumps(row.doc))
        return True

    async def tournament(self, tournament_id: str) -> TournamentRow | None:
        return self._row(tournament_id)

    async def save_tournament(
        self,
        tournament_id: str,
        version: int,
        doc: dict[str, Any],
        status: str,
        *,
        starts_at: float | None,
        finished_at: float | None,
    ) -> bool:
        found = self._tournaments.get(tournament_id)
        if found is None or found[0].version != version:
            return False
        row = dataclasses.replace(
            found[0], version=version + 1, status=status, starts_at=starts_at, finished_at=finished_at
        )
        self._tournaments[tournament_id] = (row, json.dumps(doc))
        return True

    def _listed(self, statuses: Sequence[str], public_only: bool) -> list[TournamentRow]:
        return [
            row
            for row, _ in self._tournaments.values()
            if row.status in statuses and not (public_only and row.private)
        ]

    async def tournaments(
        self,
        statuses: Sequence[str],
        public_only: bool,
        limit: int,
        offset: int = 0,
        order: Order = "soonest",
    ) -> list[TournamentRow]:
        rows = sorted(self._listed(statuses, public_only), key=_sort_key(order))[offset : offset + limit]
        return [row for row in (self._row(row.id) for row in rows) if row is not None]

    async def count_tournaments(self, statuses: Sequence[str], public_only: bool) -> int:
        return len(self._listed(statuses, public_only))

    async def live_tournaments(self) -> list[str]:
        rows = sorted(self._listed(LIVE_STATUSES, False), key=lambda row: (row.created_at, row.id))
        return [row.id for row in rows]

    async def set_players(self, tournament_id: str, user_ids: Sequence[int]) -> None:
        before = self._tournament_players.get(tournament_id, {})
        self._tournament_players[tournament_id] = {user: before.get(user) for user in user_ids}

    async def set_places(self, tournament_id: str, places: Mapping[int, int]) -> None:
        self._tournament_players.setdefault(tournament_id, {}).update(places)

    async def player_tournaments(
        self, user_id: int, limit: int, public_only: bool = False
    ) -> list[tuple[TournamentRow, int | None]]:
        entered = [
            (row, players[user_id])
            for tournament_id, players in self._tournament_players.items()
            if user_id in players and (row := self._row(tournament_id)) is not None
            if not (public_only and row.private)
        ]
        entered.sort(key=lambda found: (-_latest(found[0]), found[0].id))
        return entered[:limit]

    async def bar(self, user_id: int, until: float) -> None:
        self._attendance[user_id] = max(until, self._attendance.get(user_id, until))

    async def barred_until(self, user_id: int) -> float | None:
        return self._attendance.get(user_id)


def _latest(row: TournamentRow) -> float:
    """When a tournament last happened, for a player's list: finished, else started, else made."""
    for at in (row.finished_at, row.starts_at):
        if at is not None:
            return at
    return row.created_at
