"""The `Store`: every area of the store behind one object, and the part a table needs.

Each area has its protocol, rows and refusals in a module of its own (`tables`, `accounts`,
`players`, `social`, `analyses`, `fairplay`, `tournaments`, `game_results`, and `outbox`: the
game ends still to record), implemented in memory (`store.memory`) and on SQLAlchemy (`store.sql`). A backend
composes its areas over one database: what the server holds is a `Store`; a part of the server
that needs one area is typed with that area's protocol.
"""

from __future__ import annotations

from typing import Protocol

from tranque.server.store.accounts import AccountStore, UserRow
from tranque.server.store.analyses import AnalysisStore
from tranque.server.store.fairplay import FairPlayStore
from tranque.server.store.fichas import FichasStore, Movement
from tranque.server.store.game_results import GameResultStore
from tranque.server.store.learning import LearnStore
from tranque.server.store.moderation import ModerationStore
from tranque.server.store.outbox import GameEnds
from tranque.server.store.penas import PenaStore
from tranque.server.store.players import PlayerStore, RatingRow
from tranque.server.store.reparto import RepartoStore
from tranque.server.store.seasons import SeasonStore
from tranque.server.store.social import SocialStore
from tranque.server.store.tables import TableLog
from tranque.server.store.talk import TalkStore
from tranque.server.store.tournaments import TournamentStore


class Store(
    TableLog,
    AccountStore,
    PlayerStore,
    SocialStore,
    AnalysisStore,
    ModerationStore,
    FairPlayStore,
    GameEnds,
    TournamentStore,
    LearnStore,
    GameResultStore,
    PenaStore,
    RepartoStore,
    TalkStore,
    SeasonStore,
    FichasStore,
    Protocol,
):
    """Every area, over one database."""

    async def start(self) -> None:
        """Connect, and create or migrate the schema."""
        ...

    async def close(self) -> None: ...


class TableStore(TableLog, Protocol):
    """What a table's actor needs: its log, and the reads it makes of its players' accounts
    (which are bots') and ratings (the ones it shows); its finished games are kept by the
    recorder (players/recorder.py), not by the table."""

    async def user_by_id(self, user_id: int) -> UserRow | None: ...

    async def ratings_of(self, user_ids: list[int], pool: str) -> dict[int, RatingRow]:
        """The current ratings in `pool` of those of `user_ids` who have one (by user id)."""
        ...

    async def ficha_movements_of(self, ref: str) -> list[Movement]:
        """The movements of fichas of one game (its pot's stakes, shown at its end)."""
        ...
