"""The seasons' area of the store: a peña's seasons, the games each counted, and the rows of a
season that ended, frozen (the rules are seasons/service.py's and seasons/table.py's).

A season's games are kept as they are counted (`add_season_games`: each game's compact record,
checked against the peña's members when it was counted), so a member leaving later takes
nothing out of the table. When a season ends its final rows are kept (`freeze_season`) and
never change again.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol

from tranque.server.store.players import GameRow


@dataclass(frozen=True)
class SeasonInfo:
    id: int
    pena_id: int
    name: str
    scope: str  # seasons/table.py SCOPES
    points: str  # seasons/table.py POINTS
    starts_at: float
    ends_at: float
    created_by: int | None
    created_at: float
    scanned_until: float  # games finished before this were looked at
    final: list[dict[str, Any]] | None = None  # the frozen rows of a season that ended
    frozen_at: float | None = None


class SeasonOverlaps(Exception):
    """Another season of the peña overlaps these dates."""


class SeasonStore(Protocol):
    async def create_season(
        self,
        pena_id: int,
        name: str,
        scope: str,
        points: str,
        starts_at: float,
        ends_at: float,
        created_by: int,
        at: float,
    ) -> SeasonInfo:
        """A new season; `SeasonOverlaps` (and nothing changes) if another season of the peña
        has dates overlapping [starts_at, ends_at), checked in the same transaction."""
        ...

    async def season_by_id(self, season_id: int) -> SeasonInfo | None: ...

    async def seasons_of_pena(self, pena_id: int) -> list[SeasonInfo]:
        """The peña's seasons, the latest first (by start)."""
        ...

    async def add_season_games(
        self, season_id: int, records: list[tuple[str, dict[str, Any]]], scanned_until: float
    ) -> None:
        """Keep the counted games (game id, record); a game kept already is not kept again.
        `scanned_until` only moves forward. Nothing is added to a frozen season."""
        ...

    async def season_games(self, season_id: int, game_ids: list[str] | None = None) -> list[dict[str, Any]]:
        """The records of the games the season counted (only those of `game_ids`, if given), in
        the order they finished."""
        ...

    async def season_game_ids(self, season_id: int) -> list[str]:
        """The ids of the games the season counted."""
        ...

    async def freeze_season(self, season_id: int, rows: list[dict[str, Any]], at: float) -> bool:
        """Keep the final rows of a season that ended; False (and nothing changes) if they were
        kept already."""
        ...

    async def games_of_players(self, user_ids: list[int], since: float, until: float) -> list[GameRow]:
        """The finished games (since <= finished_at < until) an account of `user_ids` played,
        in the order they finished."""
        ...
