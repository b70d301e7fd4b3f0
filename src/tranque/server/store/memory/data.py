"""`MemoryData`: the one in-memory database every area of a `MemoryStore` reads and writes.

Events are kept as the JSON text a SQL store would hold (encoded once on the way in, decoded
on the rare way out: a restore, a resume), so what comes back is what a database gives back.
"""

from __future__ import annotations

from typing import Any

from tranque.server.store.accounts import UserRow
from tranque.server.store.analyses import AnalysisRow
from tranque.server.store.fairplay import FairPlaySample
from tranque.server.store.fichas import Movement
from tranque.server.store.penas import PenaRow
from tranque.server.store.players import GamePlayerRow, GameRow, RatingRow
from tranque.server.store.reparto import RepartoDay, RepartoEntry
from tranque.server.store.seasons import SeasonInfo
from tranque.server.store.social import SocialSend
from tranque.server.store.tables import TableRow
from tranque.server.store.tournaments import TournamentRow


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
        # Tournaments: each row with its document as JSON text (a copy in, a copy out, as a
        # database gives), who entered each and their places, and the attendance bars.
        self._tournaments: dict[str, tuple[TournamentRow, str]] = {}
        self._tournament_players: dict[str, dict[int, int | None]] = {}  # id → user → place
        self._attendance: dict[int, float] = {}  # user → barred until
        self._learn: dict[tuple[int, str], tuple[int, float]] = {}  # (user, lesson) → stars, at
        # Peñas: each row (its `members` counted when read), members, requests, invitations.
        self._penas: dict[int, PenaRow] = {}
        self._pena_serial = 0
        self._pena_members: dict[tuple[int, int], tuple[str, float]] = {}  # (peña, user) → role, at
        self._pena_requests: dict[tuple[int, int], float] = {}  # (peña, user) → at
        self._pena_invitations: dict[str, tuple[int, float]] = {}  # token hash → peña, expires at
        # El reparto del día: each day's seed, each (day, mode)'s par as JSON text, the attempts.
        self._reparto_days: dict[str, RepartoDay] = {}
        self._reparto_pars: dict[tuple[str, str], str] = {}
        self._reparto_entries: dict[tuple[str, str, int], RepartoEntry] = {}  # (day, mode, user)
        self._chat_mutes: dict[tuple[int, int], float] = {}  # (user, muted) → at
        self._chat_off: dict[int, bool] = {}  # user → chat turned off
        # Seasons of peñas: each season, and the records of the games it counted (by game id).
        self._seasons: dict[int, SeasonInfo] = {}
        self._season_serial = 0
        self._season_games: dict[int, dict[str, dict[str, Any]]] = {}
        # Fichas: every holder's balance, the movements in the order written, their keys' places.
        self._ficha_balances: dict[str, int] = {}
        self._ficha_movements: list[Movement] = []
        self._ficha_keys: dict[str, int] = {}  # key → index in `_ficha_movements`

    async def start(self) -> None:
        return None

    async def close(self) -> None:
        return None
