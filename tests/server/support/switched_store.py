"""A store with a switch: while `down`, every call fails as a database out of reach does
(`StoreUnavailable`, store/outage.py). The fast twin of stopping a real PostgreSQL
(tests/server/table/test_store_outage.py does both)."""

from __future__ import annotations

from typing import Any

from tranque.server.store.outage import StoreUnavailable


class SwitchedStore:
    def __init__(self, store: Any) -> None:
        self._store = store
        self.down = False

    def __getattr__(self, name: str) -> Any:
        real = getattr(self._store, name)
        if not callable(real):
            return real

        async def call(*args: Any, **kwargs: Any) -> Any:
            if self.down:
                raise StoreUnavailable("the test switched the store off")
            return await real(*args, **kwargs)

        return call


def switch_tables(server: Any, down: bool) -> None:
    """Switch the store of every table of `server` (a LiveServer) off or on."""

    async def switch() -> None:
        for table in server.state.registry.tables.values():
            if not isinstance(table.store, SwitchedStore):
                table.store = SwitchedStore(table.store)
            table.store.down = down

    server.on_server(switch)
