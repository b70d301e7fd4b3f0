"""Persistence: the `Store` seam, with an in-memory store for tests and SQLAlchemy for real."""

from tranque.server.store.base import (
    DuplicateEvent,
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
