"""`LocalTables`: what the cluster needs of the tables this process has.

The lobby's registry holds them (lobby/registry.py) and implements this; the cluster reads
them through it and never imports the lobby, which uses the cluster's bus and leases.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Protocol

from tranque.server.store import TableRow
from tranque.server.table.actor import Table


class LocalTables(Protocol):
    @property
    def tables(self) -> Mapping[str, Table]:
        """Every open table of this process, owned or a replica, by id."""
        ...

    async def open_replica(self, row: TableRow) -> Table | None:
        """A replica of a table another process owns, from its row and log (None: retired)."""
        ...
