"""Persistence: the `Store` seam, with an in-memory store for tests and SQLAlchemy for real."""

from tranque.server.store.base import (
    DuplicateEvent,
    FriendLink,
    GamePlayerRow,
    GameRow,
    NameTaken,
    RatingRow,
    Store,
    StoredEvent,
    TableRow,
    UserRow,
)
from tranque.server.store.memory import MemoryStore

__all__ = [
    "DuplicateEvent",
    "FriendLink",
    "GamePlayerRow",
    "GameRow",
    "MemoryStore",
    "NameTaken",
    "RatingRow",
    "Store",
    "StoredEvent",
    "TableRow",
    "UserRow",
]
