"""The tournaments' area of the store: each event as one JSON document with a version, who
entered it (for the profiles), and the attendance marks.

A tournament's whole state is its document (`tournaments.machine.Tournament.to_json()`); the
row keeps beside it the few columns the lists filter and sort on. Every change is a
compare-and-set on `version` (`save_tournament`): two processes (the service answering a
request, the director stepping the event) that both loaded version n cannot both write n + 1,
so the one that lost loads again and retries (tournaments/service.py).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal, Protocol

TOURNAMENT_STATUSES = ("open", "running", "finished", "cancelled")
LIVE_STATUSES = ("open", "running")

# How a list is ordered: "soonest", the next to start first (those with no start time last,
# then by creation); "latest", the last to finish (or be created) first.
Order = Literal["soonest", "latest"]


@dataclass(frozen=True)
class TournamentRow:
    """A tournament as stored (schema.tournaments): its document and the columns lists use."""

    id: str
    status: str  # open | running | finished | cancelled
    format: str  # minitorneo | suizo | arena | duplicado
    name: str
    private: bool  # entered only with its invitation, and in nobody's list
    creator_id: int
    created_at: float
    starts_at: float | None  # when it starts (or started); None: when full, or by the creator
    finished_at: float | None  # when it finished or was cancelled
    schedule_key: str | None  # a recurring event's occurrence (tournaments/schedule.py); unique
    version: int  # one more at each save: the compare-and-set's key
    doc: dict[str, Any]  # the machine's JSON document


class TournamentStore(Protocol):
    """Tournaments (tournaments/service.py, director.py): their documents, players, places,
    and the attendance bar."""

    async def create_tournament(self, row: TournamentRow) -> bool:
        """Keep a new tournament; False (nothing kept) if its id or its `schedule_key` is
        taken already: a retried creation, or the same occurrence made by another process."""
        ...

    async def tournament(self, tournament_id: str) -> TournamentRow | None: ...

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
        """Write the document if the stored version is still `version` (it becomes
        `version + 1`); False, and nothing written, if it is not (or the tournament is gone)."""
        ...

    async def tournaments(
        self,
        statuses: Sequence[str],
        public_only: bool,
        limit: int,
        offset: int = 0,
        order: Order = "soonest",
    ) -> list[TournamentRow]:
        """A page of the tournaments in `statuses` (the private ones too unless `public_only`)."""
        ...

    async def count_tournaments(self, statuses: Sequence[str], public_only: bool) -> int:
        """How many `tournaments(statuses, public_only, ...)` lists in all (for its pages)."""
        ...

    async def live_tournaments(self) -> list[str]:
        """The ids of every tournament open or running (what a director steps), oldest first."""
        ...

    async def set_players(self, tournament_id: str, user_ids: Sequence[int]) -> None:
        """The accounts entered in the tournament are now exactly `user_ids` (places kept
        for those who stay)."""
        ...

    async def set_places(self, tournament_id: str, places: Mapping[int, int]) -> None:
        """Each account's final place (1 = the winner); accounts not entered are added."""
        ...

    async def player_tournaments(
        self, user_id: int, limit: int, public_only: bool = False
    ) -> list[tuple[TournamentRow, int | None]]:
        """The tournaments the account entered, the latest first, each with its place (None
        until it finished)."""
        ...

    async def bar(self, user_id: int, until: float) -> None:
        """Mark the account absent (tournaments withdrew it for missing games): events
        requiring attendance refuse it until `until` (a later bar it has already stays)."""
        ...

    async def barred_until(self, user_id: int) -> float | None:
        """Until when the account is barred (maybe a moment past); None: never barred."""
        ...
