"""Persistence: the `Store` seam, with an in-memory store for tests and SQLAlchemy for real."""

from tranque.server.store.base import (
    DuplicateEvent,
    NameTaken,
    Store,
    StoredEvent,
    TableRow,
    UserRow,
)
from tranque.server.store.memory import MemoryStore

__all__ = ["DuplicateEvent", "MemoryStore", "NameTaken", "Store", "StoredEvent", "TableRow", "UserRow"]
