"""`Ownership`: what the registry asks of the processes that share its tables.

One process alone owns every table it has and needs none. With several (cluster/node.py),
each table is owned by one process and kept as a replica by the others: the registry takes
a table's lease before storing it, says which tables it opened or loaded and which it
retired, and asks for a table another process created. The cluster implements this and
may import the registry; the registry knows only this protocol.
"""

from __future__ import annotations

from typing import Any, Protocol

from tranque.server.table.actor import Table


class Ownership(Protocol):
    async def claim_new(self, table_id: str) -> object:
        """Take the lease of a table being created here, before it is stored."""
        ...

    def owns(self, table: Table) -> None:
        """`table`, just created here, is this process's."""
        ...

    def keeps(self, table: Table) -> None:
        """`table`, loaded from the store, is a replica until this process takes it over."""
        ...

    def forget(self, table: Table) -> None:
        """`table` is retired here."""
        ...

    async def load(self, table_id: str) -> Table | None:
        """A table another process created, as a replica (None if there is none to show)."""
        ...

    def status(self) -> dict[str, Any]:
        """What this process owns and keeps, for `GET /api/cluster`."""
        ...

    @property
    def node(self) -> str:
        """This process's name in the cluster."""
        ...

    def processes(self) -> list[dict[str, Any]]:
        """Every live process as it last said (`node`, `tables_owned`, `replicas`,
        `sockets`, `draining`), for `GET /api/admin/processes`."""
        ...

    def ask_drain(self, node: str) -> bool:
        """Have process `node` drain; False if no live process has that name."""
        ...
