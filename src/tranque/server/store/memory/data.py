"""`MemoryData`: the one in-memory database every area of a `MemoryStore` reads and writes.

Events are kept as the JSON text a SQL store would hold (encoded once on the way in, decoded
on the rare way out: a restore, a resume), so what comes back is what a database gives back.
"""

from __future__ import annotations

from typing import Any

from tranque.server.store.accounts import UserRow
from tranque.server.store.analyses import AnalysisRow
from tranque.server.store.fairplay import FairPlaySample
from tranque.server.store.players import GamePlayerRow, GameRow, RatingRow
from tranque.server.store.social import SocialSend
from tranque.server.store.tables import TableRow


class MemoryData:
    """The rows of every area, as plain dictionaries; nothing is kept after the process."""

    def __init__(self) -> None:
        self._tables: dict[str, TableRow] = {}
        self._events: dict[str, list[tuple[int, str, str, float]]] = {}  # seq, kind, JSON data, at
        self._records: dict[str, dict[str, Any]] = {}
        self._users: dict[int, UserRow] = {}
        self._sessions: dict[str, tuple[int, float]] = {}
        self._bot_tokens: dict[int, str] = {}  # bot id → its live token's hash
        self._bot_used: dict[int, float] = {}  # bot id → when a token last opened a socket
        self._admin_tokens: dict[int, str] = {}  # account id → its admin token's hash
        self._games: dict[str, GameRow] = {}
        self._game_players: dict[str, list[GamePlayerRow]] = {}
        self._ratings: dict[tuple[int, str], RatingRow] = {}
        self._xp: dict[tuple[str, int], int] = {}  # (period, user_id) → XP
        self._friends: dict[tuple[int, int], tuple[str, float]] = {}  # (user, friend) → status, at
        self._blocks: dict[tuple[int, int], float] = {}  # (user, blocked) → at
        self._analyses: dict[str, AnalysisRow] = {}  # by game id
        self._sends: list[tuple[int, SocialSend]] = []  # (sender, send), oldest first
        self._fairplay: dict[tuple[str, int], FairPlaySample] = {}  # (game id, user id) → figures

    async def start(self) -> None:
        return None

    async def close(self) -> None:
        return None
