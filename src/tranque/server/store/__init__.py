"""Persistence: the `Store` seam, with an in-memory store for tests and SQLAlchemy for real."""

from tranque.server.store.base import (
    DuplicateEvent,
    GamePlayerRow,
    GameRow,
    Leaderboard,
    NameTaken,
    PlayedGame,
    PlayerPage,
    PlayerStat,
    PoolRating,
    Ranked,
    RatingPoint,
    RatingRow,
    Standing,
    Store,
    StoredEvent,
    TableRow,
    UserRow,
)
from tranque.server.store.memory import MemoryStore

__all__ = [
    "DuplicateEvent",
    "GamePlayerRow",
    "GameRow",
    "Leaderboard",
    "MemoryStore",
    "NameTaken",
    "PlayedGame",
    "PlayerPage",
    "PlayerStat",
    "PoolRating",
    "Ranked",
    "RatingPoint",
    "RatingRow",
    "Standing",
    "Store",
    "StoredEvent",
    "TableRow",
    "UserRow",
]
