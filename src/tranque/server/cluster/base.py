"""What a process keeps as part of a cluster, shared by the parts that act on it.

`Cluster` (node.py) is made of three parts over this state, each a module: keeping the
replicas in step with their owners (replicas.py), commands between a replica and the owner
(forwarding.py), and the leases, renewed and taken over (takeover.py). The parts call one
another through `Cluster`; what each uses of another is declared here.
"""

from __future__ import annotations

import asyncio
import itertools
import os
import secrets
import socket
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from tranque.server.cluster import wire
from tranque.server.cluster.bus import Bus
from tranque.server.cluster.leases import Leases
from tranque.server.cluster.settings import ClusterSettings
from tranque.server.store import Store
from tranque.server.table.actor import RemoteSocket, Subscriber, Table

if TYPE_CHECKING:
    from tranque.server.cluster.local_tables import LocalTables


def new_node_id() -> str:
    """A process's name in the cluster: where it runs, and a part no other process has."""
    return f"{socket.gethostname()}-{os.getpid()}-{secrets.token_hex(3)}"


@dataclass
class Counters:
    """What a process has done as part of a cluster (GET /api/cluster)."""

    takeovers: int = 0
    given_up: int = 0
    refused_writes: int = 0
    forwarded: int = 0
    gaps_filled: int = 0
    handed_over: int = 0  # tables it handed to another process (rebalancing, draining)


@dataclass
class LocalSocket:
    """A socket of this process following a table: its name for the owner, and its token."""

    ref: str
    token: str | None
    address: str | None = None  # the socket's client address (commands.Subscribe)
    admitted: bool = False  # a spectator the table's policy lets watch (commands.Subscribe)


@dataclass
class ReplicaState:
    owner: str | None = None  # the node that owns it, as last read or heard
    misses: int = 0  # scans in a row that found no lease
    waiters: list[tuple[int, asyncio.Future[None]]] = field(default_factory=list)


class ClusterBase:
    """The state of this process's part in a cluster; `Cluster` (node.py) is the whole."""

    def __init__(
        self,
        store: Store,
        bus: Bus,
        leases: Leases,
        settings: ClusterSettings | None = None,
        node: str | None = None,
    ) -> None:
        self.store, self.bus, self.leases = store, bus, leases
        self.settings = settings or ClusterSettings()
        self.node = node or new_node_id()
        self.registry: LocalTables | None = None
        self.counters = Counters()
        prefix = self.settings.prefix
        self.events_channel = f"{prefix}:events"
        self.node_channel = self._channel_of(self.node)
        self.status_channel = f"{prefix}:status"  # every process's `wire.NodeStatus` (balance.py)
        self._held: dict[str, str] = {}  # table id → the value of its lease this process holds
        self._replicas: dict[str, ReplicaState] = {}
        self._locals: dict[tuple[str, Subscriber], LocalSocket] = {}  # (table id, socket) → its name
        self._stubs: dict[tuple[str, str, str], RemoteSocket] = {}  # (table, node, ref) → stub
        self._calls: dict[int, tuple[str, asyncio.Future[wire.TableReply]]] = {}  # id → (owner, answer)
        self._gone: set[str] = set()  # owners of replicas whose process lease has lapsed
        self._calls_served = 0  # calls from other processes served here so far...
        self._heard: dict[str, int] = {}  # ...and, per process, the count at its latest one
        self._call_ids = itertools.count(1)
        self._loading: dict[str, asyncio.Task[Table | None]] = {}
        self._tasks: set[asyncio.Task[Any]] = set()
        self._loops: list[asyncio.Task[None]] = []
        self._closed = False
        # Other processes that this one's presence and quick match know of (state.py), and
        # what to tell them when one's lease lapses: watched alongside the tables' owners.
        self.watched: Callable[[], set[str]] = set
        self.on_node_gone: Callable[[str], None] = lambda node: None
        # What to tell them when this process's own lease had lapsed and is taken back (they
        # may have called it gone meanwhile).
        self.on_lease_taken_again: Callable[[], None] = lambda: None
        self._started = False  # past the first renewal, which takes a new process's lease
        # Spreading the tables (balance.py): the others' statuses as heard (with when), the
        # tables this process handed over lately (until when it leaves them to the others),
        # when it may move one next, and whether it drains.
        self._statuses: dict[str, tuple[wire.NodeStatus, float]] = {}
        self._handed: dict[str, float] = {}
        self._next_move = 0.0
        self.draining = False
        self.sockets: Callable[[], int] = lambda: 0  # this process's open WebSockets
        self.on_drain: Callable[[], None] = lambda: None  # told when this process starts draining

    def _channel_of(self, node: str) -> str:
        return f"{self.settings.prefix}:node:{node}"

    def _lease(self, table_id: str) -> str:
        return f"{self.settings.prefix}:table:{table_id}"

    def _node_lease(self, node: str) -> str:
        return f"{self.settings.prefix}:node:{node}"

    def _spawn(self, coroutine: Any) -> None:
        task = asyncio.get_running_loop().create_task(coroutine)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    if TYPE_CHECKING:  # defined by the parts (replicas.py, forwarding.py, takeover.py)

        def reached(self, table: Table) -> None: ...

        async def load(self, table_id: str, owner: str | None = None) -> Table | None: ...

        def _set_owner(self, table: Table, owner: str | None) -> None: ...

        async def _follow_new_owner(
            self, table: Table, sockets: list[tuple[Subscriber, LocalSocket]]
        ) -> None: ...

        def _follow_owners_again(self) -> None: ...

        async def _until_reached(self, table: Table, seq: int) -> None: ...

        async def _call(self, table: Table, request: wire.Request) -> Any: ...

        async def _owner_of(self, table: Table) -> str: ...

        async def _take_over(self, table: Table) -> None: ...

        def _on_balance_message(self, message: object) -> None: ...

        def may_take_over(self) -> bool: ...

        def leaves_to_others(self, table_id: str) -> bool: ...
