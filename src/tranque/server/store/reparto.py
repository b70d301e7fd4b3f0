"""The reparto area of the store: el reparto del día (server/reparto/).

Each day's secret seed and its public commitment (one row per day: the first process to open
the day writes it, every other reads that one), the par of each mode (the expert team's own
result on the day's deals, computed once), and each account's attempt per day and mode (one:
started once, its result kept when it finishes).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol


@dataclass(frozen=True)
class RepartoDay:
    day: str  # YYYY-MM-DD, the day in America/Bogota
    seed: bytes  # the day's master seed (secret until the day is over)
    commitment: str  # SHA-256 of the seed and the day's parameters (server/reparto/deals.py)
    created_at: float


@dataclass(frozen=True)
class RepartoEntry:
    day: str
    mode: str  # "individual" | "pairs"
    user_id: int
    name: str  # the account's name, as it is now
    table_id: str
    started_at: float
    diff: int | None = None  # the team's points minus the other side's; None: not finished
    points: list[list[int]] | None = None  # per hand: [the person's side, the other side]
    finished_at: float | None = None


class RepartoStore(Protocol):
    async def reparto_day(self, day: str) -> RepartoDay | None:
        """The day's row, if it was opened."""
        ...

    async def open_reparto_day(self, day: str, seed: bytes, commitment: str, at: float) -> RepartoDay:
        """The day's row: this one if the day was not opened yet, else the one stored first
        (another process won: its seed is the day's)."""
        ...

    async def reparto_par(self, day: str, mode: str) -> dict[str, Any] | None:
        """The par of a day and mode, once computed."""
        ...

    async def keep_reparto_par(self, day: str, mode: str, par: dict[str, Any]) -> dict[str, Any]:
        """Keep the par unless one is kept already; answer the kept one."""
        ...

    async def start_reparto_attempt(
        self, day: str, mode: str, user_id: int, table_id: str, at: float
    ) -> bool:
        """The account's attempt of the day and mode, at `table_id`; False (and nothing
        changed) if it has one already."""
        ...

    async def finish_reparto_attempt(
        self, day: str, mode: str, user_id: int, table_id: str, diff: int, points: list[list[int]], at: float
    ) -> bool:
        """Keep the result of the attempt at `table_id`; False if that is not the account's
        attempt or it has a result already (the first one stays)."""
        ...

    async def reparto_attempt(self, day: str, mode: str, user_id: int) -> RepartoEntry | None: ...

    async def reparto_entries(self, day: str, mode: str) -> list[RepartoEntry]:
        """Every attempt of the day and mode, finished or not, in the order they started."""
        ...
