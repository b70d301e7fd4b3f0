"""The leases of a cluster: this process's own and its tables' renewed, orphans taken over.

Every `renew_seconds` a process renews all it holds; every `scan_seconds` it reads the
leases of the tables it does not own and takes over, at a new epoch, each one whose lease
stayed missing over two reads; then it drops what it knows of the processes whose own lease
lapsed (their calls waiting here, their sockets on the tables it owns).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import TYPE_CHECKING

from tranque.server import metrics
from tranque.server.cluster import wire
from tranque.server.cluster.base import ClusterBase, ReplicaState
from tranque.server.cluster.forwarding import refusal_text
from tranque.server.cluster.leases import LeasesUnavailable, Renewal
from tranque.server.cluster.steps import TakeOver
from tranque.server.table import commands
from tranque.server.table.actor import Table
from tranque.server.table.state import TableError

if TYPE_CHECKING:
    pass

log = logging.getLogger(__name__)

TAKEOVERS_AT_ONCE = 32  # orphaned tables a process takes over concurrently


class Takeover(ClusterBase):
    """The cluster's part that keeps the leases and takes orphaned tables over."""

    async def _renew(self) -> None:
        held = {self._lease(table_id): value for table_id, value in self._held.items()}
        node_lease = self._node_lease(self.node)
        held[node_lease] = self.node
        kept = await self.leases.renew(held, self.settings.lease_seconds)
        if kept.get(node_lease) is Renewal.TAKEN_AGAIN and self._started:
            log.warning("cluster: %s's lease had lapsed and is taken back", self.node)
            self._follow_owners_again()
            self.on_lease_taken_again()
        registry = self.registry
        for table_id, value in list(self._held.items()):
            if kept.get(self._lease(table_id)) is not Renewal.LOST or self._held.get(table_id) != value:
                continue
            table = registry.tables.get(table_id) if registry is not None else None
            if table is not None and table.owned:
                table.give_up()
            else:
                self._held.pop(table_id, None)

    async def _scan(self) -> None:
        registry = self.registry
        if registry is None:
            return
        replicas = [
            table
            for table in registry.tables.values()
            if not table.owned and not table.retired and not table.state.phase.is_over
        ]
        orphans = []
        if replicas:
            values = await self.leases.read([self._lease(table.table_id) for table in replicas])
            for table, value in zip(replicas, values, strict=True):
                replica = self._replicas.setdefault(table.table_id, ReplicaState())
                owner = _node_of(value)
                if owner is not None:
                    replica.misses = 0
                    self._set_owner(table, owner)
                    continue
                replica.misses += 1
                if replica.misses >= 2 and not self.leaves_to_others(table.table_id):
                    orphans.append(table)
        if not self.may_take_over():
            orphans = []  # draining: the others take them (balance.py)
        # A dead process's tables are taken over several at a time: each takeover waits on
        # Redis and the database, and there may be hundreds.
        for start in range(0, len(orphans), TAKEOVERS_AT_ONCE):
            batch = orphans[start : start + TAKEOVERS_AT_ONCE]
            results = await asyncio.gather(
                *(self._take_over(table) for table in batch), return_exceptions=True
            )
            for table, result in zip(batch, results, strict=True):
                if isinstance(result, LeasesUnavailable):
                    raise result
                if isinstance(result, Exception):
                    log.error("cluster: taking table %s over failed", table.table_id, exc_info=result)
        await self._drop_gone_nodes()

    async def _owner_of(self, table: Table) -> str:
        """The node that owns `table`: as last known, else as its lease says (waiting a
        moment for a takeover if nobody holds it)."""
        replica = self._replicas.get(table.table_id)
        if replica is None:
            raise TableError("table_moved")  # this process is taking it over, or letting it go
        if replica.owner is not None and replica.owner != self.node and replica.owner not in self._gone:
            return replica.owner
        deadline = asyncio.get_running_loop().time() + self.settings.call_seconds
        misses = 0
        while asyncio.get_running_loop().time() < deadline:
            try:
                (value,) = await self.leases.read([self._lease(table.table_id)])
                lapsed = value is None
            except LeasesUnavailable:
                value, lapsed = None, False  # not known to have lapsed
            if table.owned:
                raise TableError("table_moved")  # taken over by this very process meanwhile
            owner = _node_of(value)
            if owner is not None and owner != self.node and owner not in self._gone:
                self._set_owner(table, owner)
                return owner
            if lapsed and table.state.phase.is_over:
                # The scan leaves ended games alone (their owner lets them go as it retires
                # them): one whose owner died as it ended is taken over by the process asked
                # about it, once its lease stayed missing over two reads, as the scan would.
                misses += 1
                if misses >= 2:
                    await self._take_over(table)
                    if table.owned:
                        raise TableError("table_moved")  # asked again, it is answered here
            await asyncio.sleep(self.settings.scan_seconds / 2)
        raise TableError("table_moved")

    async def _take_over(self, table: Table) -> None:
        table_id = table.table_id
        name, pending = self._lease(table_id), f"{self.node}/?"
        if not await self.leases.acquire(name, pending, self.settings.lease_seconds):
            return
        try:
            epoch = await self.store.claim_table(table_id)
            value = f"{self.node}/{epoch}"
            if not await self.leases.replace(name, pending, value, self.settings.lease_seconds):
                return
        except BaseException:
            with contextlib.suppress(LeasesUnavailable):
                await self.leases.release(name, pending)
            raise
        self._held[table_id] = value
        replica = self._replicas.pop(table_id, None)
        if replica is not None:
            for _, future in replica.waiters:
                if not future.done():
                    future.set_result(None)
        self.counters.takeovers += 1
        metrics.TAKEOVERS.inc()
        log.info("cluster: %s took table %s over at epoch %d", self.node, table_id, epoch)
        try:
            await table.call_here(TakeOver(epoch), local=True)
        except TableError:
            log.warning("cluster: taking table %s over failed", table_id)
            return
        announce = wire.TableOwner(table_id=table_id, owner=self.node, epoch=epoch, seq=table.seq)
        self.bus.publish(self.events_channel, wire.encode(announce))

    async def _drop_gone_nodes(self) -> None:
        """Processes whose lease lapsed: the commands waiting for their answer are refused at
        once (`table_moved`: the next owner will have them), and their sockets on the tables
        this process owns leave.

        A process heard from while the read was under way is not gone, whatever the read
        found: it may have taken its lapsed lease back and had its sockets counted here again
        (`_follow_owners_again`) in that time, and dropping them after that would leave them
        uncounted for good. The next scan reads its lease again."""
        owners = {replica.owner for replica in self._replicas.values() if replica.owner is not None}
        nodes = sorted(({node for _, node, _ in self._stubs} | owners | self.watched()) - {self.node})
        if not nodes:
            return
        heard_before = self._calls_served
        values = await self.leases.read([self._node_lease(node) for node in nodes])
        gone = {
            node
            for node, value in zip(nodes, values, strict=True)
            if value is None and self._heard.get(node, 0) <= heard_before
        }
        self._gone = gone
        for node in gone:
            self._heard.pop(node, None)  # (a process that comes back is heard from anew)
            self.on_node_gone(node)
        for call_id, (owner, future) in self._calls.items():
            if owner in gone and not future.done():
                refused = refusal_text(TableError("table_moved"))
                future.set_result(wire.TableReply(call_id=call_id, refusal=refused))
        registry = self.registry
        for key in [key for key in self._stubs if key[1] in gone]:
            stub = self._stubs.pop(key)
            table = registry.tables.get(key[0]) if registry is not None else None
            if table is not None and table.owned:
                table.post(commands.Unsubscribe(stub))


def _node_of(value: str | None) -> str | None:
    """The owner named by a table lease's value ("node/epoch"); None while a node that has
    just acquired it is still claiming its epoch ("node/?")."""
    if value is None:
        return None
    node, _, epoch = value.rpartition("/")
    return node if node and epoch.isdigit() else None
