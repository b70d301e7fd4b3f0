"""The analyses' area of the store: the post-game analyses asked for, as a queue of jobs."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol

ANALYSIS_STATUSES = ("pending", "running", "done", "failed")


@dataclass(frozen=True)
class AnalysisRow:
    """A finished game's post-game analysis, asked for on the site (schema.analyses): one per
    game, whoever asked first; `done` of `total` decisions evaluated so far."""

    game_id: str
    user_id: int  # the account that asked for it
    status: str  # pending | running | done | failed
    created_at: float
    done: int = 0
    total: int = 0  # the decisions to evaluate; 0 until the analysis starts
    result: dict[str, Any] | None = None  # `GameAnalysis.to_json()`, once done
    finished_at: float | None = None  # when it was done, or failed
    claimed_by: str | None = None  # the queue worker that took it last (`AnalysisStore.claim_analysis`)
    heartbeat_at: float | None = None  # when that worker last said it was still at it
    place_key: str | None = None  # where it was asked from (`lobby.limits.address_key`); None: unknown


def turn_order(unfinished: list[AnalysisRow]) -> list[AnalysisRow]:
    """The site's unfinished analyses in the order the queue takes them: in turns between the
    places they were asked from, then between accounts, the oldest first within a turn. A
    row's turn is how many unfinished rows of its place (of its account) are older, running
    ones included, so one place with many rows waiting cannot hold back another's first.

    >>> rows = [AnalysisRow(game, user, "pending", at, place_key=place) for game, user, at, place in
    ...         [("a", 1, 1.0, "x"), ("b", 2, 2.0, "x"), ("c", 3, 3.0, "x"), ("d", 4, 4.0, "y")]]
    >>> [row.game_id for row in turn_order(rows)]
    ['a', 'd', 'b', 'c']
    """
    places: dict[str | None, int] = {}
    accounts: dict[int, int] = {}
    turns = []
    for row in sorted(unfinished, key=lambda row: (row.created_at, row.game_id)):
        place = places.get(row.place_key, 0) if row.place_key is not None else 0
        account = accounts.get(row.user_id, 0)
        turns.append(((place, account, row.created_at, row.game_id), row))
        if row.place_key is not None:
            places[row.place_key] = place + 1
        accounts[row.user_id] = account + 1
    return [row for _, row in sorted(turns, key=lambda turn: turn[0])]


class AnalysisStore(Protocol):
    """Post-game analyses (`analysis/queue.py`): kept, counted, and claimed by workers."""

    async def save_analysis(self, row: AnalysisRow) -> None:
        """Keep `row` as the analysis of its game, replacing the one there was."""
        ...

    async def analysis(self, game_id: str) -> AnalysisRow | None: ...

    async def analyses_requested(self, user_id: int, since: float) -> tuple[int, int]:
        """How many analyses the account asked for from `since` on, and how many of all it
        asked for are not over yet (pending or running)."""
        ...

    async def unfinished_analyses(self) -> list[AnalysisRow]:
        """The analyses pending or running, oldest first."""
        ...

    async def unfinished_analysis_count(self) -> int:
        """How many analyses of the whole site are pending or running (the queue's bound)."""
        ...

    async def claim_analysis(self, worker: str, now: float, stale_before: float) -> AnalysisRow | None:
        """Take the next analysis that is pending, or running with a heartbeat older than
        `stale_before` (its worker's process died), in turns (`turn_order`): it is marked
        running, claimed by `worker`, heartbeat `now`, and returned. Two claimers never get
        the same row. None: no job."""
        ...

    async def save_claimed_analysis(self, row: AnalysisRow) -> bool:
        """Keep `row` (progress, heartbeat, result, status) only if its worker still holds the
        claim: the stored row is running and claimed by `row.claimed_by`. False, nothing
        written: another worker took the job over (or it is over)."""
        ...
