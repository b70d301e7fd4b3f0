"""Persistence: the `Store` seam by area, with an in-memory store for tests and SQLAlchemy for real."""

from tranque.server.store.accounts import AccountStore, BotRow, NameTaken, TooManyBots, UserRow
from tranque.server.store.analyses import AnalysisRow, AnalysisStore
from tranque.server.store.base import Store, TableStore
from tranque.server.store.fairplay import FairPlaySample, FairPlayStore, RatedGame
from tranque.server.store.memory import MemoryStore
from tranque.server.store.players import (
    GamePlayerRow,
    GameRow,
    Leaderboard,
    PlayedGame,
    PlayerPage,
    PlayerStat,
    PlayerStore,
    PoolRating,
    Ranked,
    RatingPoint,
    RatingRow,
    Standing,
)
from tranque.server.store.social import FriendLink, SocialSend, SocialStore
from tranque.server.store.tables import DuplicateEvent, StaleEpoch, StoredEvent, TableLog, TableRow

__all__ = [
    "AccountStore",
    "AnalysisRow",
    "AnalysisStore",
    "BotRow",
    "DuplicateEvent",
    "FairPlaySample",
    "FairPlayStore",
    "FriendLink",
    "GamePlayerRow",
    "GameRow",
    "Leaderboard",
    "MemoryStore",
    "NameTaken",
    "PlayedGame",
    "PlayerPage",
    "PlayerStat",
    "PlayerStore",
    "PoolRating",
    "Ranked",
    "RatedGame",
    "RatingPoint",
    "RatingRow",
    "SocialSend",
    "SocialStore",
    "StaleEpoch",
    "Standing",
    "Store",
    "StoredEvent",
    "TableLog",
    "TableRow",
    "TableStore",
    "TooManyBots",
    "UserRow",
]
