"""Several server processes sharing one database and one Redis (docs/design.md, scale-out).

Every process keeps every open table: the one process that **owns** a table runs its actor
as a single process would (it decides, stores, sends, runs its clocks and bots); every other
process keeps a **replica**, folded from the owner's events with the same `apply`, that
sends its own sockets their projections and forwards their commands to the owner.

- **Ownership** is a lease in Redis (`leases.py`, `SET NX PX`, renewed every
  `renew_seconds`) whose value names the owner and its **epoch**. The epoch comes from the
  database (`Store.claim_table`), and every write of the owner carries it: the store refuses
  an older one (`StaleEpoch`), so a former owner that was paused or cut off past its lease
  can never write after another took over; it gives the table up (`Table.give_up`).
- **Events fan out** to every process over the bus (`bus.py`), one message per command; a
  replica that finds a gap in `seq` reads it from the log, so its sockets get every event
  once, in order. After the bus lost Redis, every replica reads what it missed from the log
  (`replicas.py`).
- **Commands** of a replica's sockets reach the owner over the bus (`forwarding.py`), with an
  acknowledgement that names the owner's last event: the answer is given once the replica
  has sent that event, so a socket sees what its move did before its `ack`, as with one
  process. The owner counts another process's sockets as `RemoteSocket`s (who is here,
  which seat each may act for) and drops them when that process's own lease lapses; a
  process that finds its lease had lapsed as it renews it has its sockets counted again.
- **Takeover.** Every `scan_seconds` each process reads the leases of the tables it does
  not own; a table whose lease stayed missing over two reads is taken over by the first
  process to acquire it: its state rebuilt from the log (the same fold as a restart), whoever
  was to act given a full new turn (`commands.Resume`), its clocks and bots run there. The
  other processes see the new owner in its events and follow it with their sockets
  (`takeover.py`).
- **Spreading the tables.** Each process says what it owns; one that owns more than its
  share hands a table over, between two commands, to the one that owns fewest, and a
  draining process hands over all it owns (`balance.py`).

What travels on the bus is `wire.py`'s messages. `Cluster` puts the parts together over
their shared state (`base.py`) and runs their life: start, the renewing and scanning loops,
close, and the tables this process creates, keeps and retires.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
from typing import TYPE_CHECKING, Any

from tranque.server.cluster.balance import Balance
from tranque.server.cluster.base import ReplicaState
from tranque.server.cluster.forwarding import Forwarding
from tranque.server.cluster.leases import LeasesUnavailable
from tranque.server.cluster.replicas import Replicas
from tranque.server.cluster.takeover import Takeover
from tranque.server.stopping import stop_tasks
from tranque.server.store.outage import log_failure
from tranque.server.table.actor import Table
from tranque.server.table.state import TableError

if TYPE_CHECKING:
    from tranque.server.cluster.local_tables import LocalTables

log = logging.getLogger(__name__)


class Cluster(Replicas, Forwarding, Takeover, Balance):
    """This process's part in a cluster: the `Peers` of its tables (table/actor.py)."""

    async def start(self, registry: LocalTables) -> None:
        self.registry = registry
        await self.bus.start()
        await self.leases.start()
        await self.bus.subscribe(self.events_channel, self._on_event_message)
        await self.bus.subscribe(self.node_channel, self._on_node_message)
        await self.bus.subscribe(self.status_channel, self._on_status_message)
        self.bus.on_reset(self._on_bus_reset)
        await self._renew()
        self._started = True
        self._loops = [
            asyncio.get_running_loop().create_task(self._every(self.settings.renew_seconds, self._renew)),
            asyncio.get_running_loop().create_task(self._every(self.settings.scan_seconds, self._scan)),
            asyncio.get_running_loop().create_task(self._every(self.settings.status_seconds, self._balance)),
        ]
        self._publish_status()

    async def close(self) -> None:
        self._closed = True
        await stop_tasks([*self._loops, *self._tasks])
        with contextlib.suppress(LeasesUnavailable):
            for table_id, value in list(self._held.items()):
                await self.leases.release(self._lease(table_id), value)
            await self.leases.release(self._node_lease(self.node), self.node)
        self._held.clear()
        with contextlib.suppress(TimeoutError):  # a Redis that is down does not hold the shutdown
            async with asyncio.timeout(self.settings.call_seconds):
                await self.bus.flush()
        await self.bus.close()
        await self.leases.close()

    def status(self) -> dict[str, Any]:
        registry = self.registry
        tables = registry.tables.values() if registry is not None else []
        owned = sum(1 for table in tables if table.owned)
        return {
            "node": self.node,
            "owned": owned,
            "replicas": len(self._replicas),
            **dataclasses.asdict(self.counters),
        }

    async def _every(self, seconds: float, step: Any) -> None:
        while not self._closed:  # (a lease call may lose a cancellation: stopping.py)
            await asyncio.sleep(seconds)
            try:
                await step()
            except LeasesUnavailable as error:
                log.warning("cluster: leases unavailable (%s)", error)
            except Exception as error:
                log_failure(log, error, "cluster: %s failed", getattr(step, "__name__", step))

    async def claim_new(self, table_id: str) -> int:
        """The lease of a table this process is creating: it owns it from the start, at epoch 0."""
        value = f"{self.node}/0"
        if not await self.leases.acquire(self._lease(table_id), value, self.settings.lease_seconds):
            raise TableError("internal")  # a fresh random id already leased: never in practice
        self._held[table_id] = value
        return 0

    def owns(self, table: Table) -> None:
        """`table`, just created here, is this process's: it fans out and is fenced."""
        table.peers = self
        table.owned, table.epoch = True, 0

    def keeps(self, table: Table, owner: str | None = None) -> None:
        """`table`, loaded from the store, is a replica until this process takes it over."""
        table.peers = self
        table.owned, table.epoch = False, None
        self._replicas.setdefault(table.table_id, ReplicaState(owner))

    def forget(self, table: Table) -> None:
        """`table` is retired here: its lease (if held) is given back."""
        self._replicas.pop(table.table_id, None)
        value = self._held.pop(table.table_id, None)
        if value is not None:
            self._spawn(self._release(table.table_id, value))
        for stub in [key for key in self._stubs if key[0] == table.table_id]:
            del self._stubs[stub]
        for local in [key for key in self._locals if key[0] == table.table_id]:
            del self._locals[local]

    async def _release(self, table_id: str, value: str) -> None:
        with contextlib.suppress(LeasesUnavailable):
            await self.leases.release(self._lease(table_id), value)
