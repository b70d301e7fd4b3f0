"""The game-results area of the store: finished games read across players, without their records.

Two reads other pages build on: the games two accounts both played (a head-to-head,
players/head_to_head.py) and the latest games any of a set of accounts played (the home page's
friends' results). Each answers only what `viewer_id` may see, as a player's history does
(players/access.py): a private game only if the viewer played it too (None: a guest, who sees
public games only).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol

from tranque.server.store.players import GamePlayerRow


@dataclass(frozen=True)
class GameResult:
    """A finished game without its record: how it ended, and each account's part in it."""

    game_id: str
    finished_at: float
    preset: str
    format: str  # duel | individual | pairs
    players: int
    competitive: bool
    rated: bool
    private: bool
    summary: dict[str, Any]  # seats (names, kinds, user ids), scores and winners by team
    accounts: list[GamePlayerRow]  # by seat: the accounts at the table, won / abandoned


class GameResultStore(Protocol):
    """Finished games read across players, as a viewer may see them, newest first."""

    async def games_together(
        self, first_id: int, second_id: int, viewer_id: int | None, limit: int
    ) -> list[GameResult]:
        """The last `limit` games both accounts played (at most), newest first."""
        ...

    async def games_of_any(self, user_ids: list[int], viewer_id: int | None, limit: int) -> list[GameResult]:
        """The last `limit` games any of `user_ids` played, newest first, each game once."""
        ...
