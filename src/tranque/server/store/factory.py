"""Choose the `Store` for a database URL."""

from __future__ import annotations

from tranque.server.store.base import Store
from tranque.server.store.memory import MemoryStore
from tranque.server.store.sql import SqlStore

MEMORY_URL = "memory://"


def make_store(url: str | None, *, migrate: bool = True) -> Store:
    """`MemoryStore` for None or "memory://"; otherwise a `SqlStore` (SQLite or PostgreSQL by URL),
    whose `start()` migrates the schema to head, or with `migrate` off refuses one behind.

    >>> type(make_store(None)).__name__, type(make_store("sqlite:///./tranque.db")).__name__
    ('MemoryStore', 'SqlStore')
    """
    if url is None or url == MEMORY_URL:
        return MemoryStore()
    return SqlStore(url, migrate=migrate)
