"""Spreading the open tables over the processes: rebalancing, and draining one process.

Every `status_seconds` each process says on the bus what it has (`wire.NodeStatus`: the
open tables it owns and keeps as replicas, its sockets, whether it drains). A table stays
where it was created or taken over, so after a restart, or when a process joins, one
process may own them all. Each process compares itself with the live ones it heard from:
one that owns more than the fair share (open tables / processes that take tables) and more
than `rebalance_tolerance` tables more than the process that owns fewest hands one table
over to that process, at most one every `rebalance_seconds`. Moving one table then narrows
the gap by two, so with a tolerance of at least one nothing moves back and forth.

A hand-over runs in the table's actor, between two commands (`HandOverStep`), and only
when nothing waits in its queue: the owner stops its clocks and bots as a process that
gave a table up does (`Table.hand_over`), keeps a replica, gives the lease back and tells
the chosen process (`wire.HandOver`), which takes the table over by the normal path
(takeover.py): a new epoch, its replica brought up to the log, `commands.Resume`. So the
player to act gets a full new turn and no event is lost; while the table changes hands
(one round trip to Redis and the database) a command on it waits for the new owner or is
refused with `table_moved`, as after a crash. The tables chosen first are those where
nobody is to act (waiting for players, between rounds), then a bot's turn, then the turn
that started most recently. If the chosen process does not take it, the others' scans find
the lease missing and take it over as after a crash; the process that handed it over
leaves it to them for a while.

A **draining** process (`drain`, from `POST /api/admin/processes/{node}/drain` on any
process) says so in its status, takes over nothing while another process can, and hands
over all it owns, `drain_tables_per_step` tables every `status_seconds`; its readiness
turns false so that the proxy stops sending it new clients. SIGTERM remains the way to
stop a process (it gives its leases back at once).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from tranque.server.cluster import wire
from tranque.server.cluster.base import ClusterBase, ReplicaState
from tranque.server.cluster.leases import LeasesUnavailable
from tranque.server.table.actor import Table
from tranque.server.table.state import Phase, TableError

if TYPE_CHECKING:
    pass

log = logging.getLogger(__name__)


def open_tables(tables: Any) -> list[Table]:
    """The tables whose game is not over (an ended game is kept a while, then retired)."""
    return [table for table in tables if not table.retired and not table.state.phase.is_over]


def hand_over_rank(table: Table, now: float) -> tuple[int, float]:
    """Which owned table to hand over first (lowest first): one where nobody is to act, then a
    bot's turn, then a person's turn by how recently it started (the new owner gives a full
    new turn anyway, and a turn just started has cost its player least)."""
    state = table.state
    turn = state.turn if state.phase is Phase.PLAYING else None
    if turn is None:
        return (0, 0.0)
    if state.seats[turn.seat].played_by_bot:
        return (1, 0.0)
    return (2, -(turn.deadline - now))  # most time left first


def gives(own: int, others: list[int], tolerance: int) -> bool:
    """Whether a process that owns `own` open tables hands one over, the live processes that
    take tables owning `others`: when it owns more than the fair share and more than
    `tolerance` (at least 1) more than the process that owns fewest. The move narrows that
    gap by two, so the receiver never has a reason to give it back."""
    if not others:
        return False
    fair = (own + sum(others)) / (len(others) + 1)
    return own > fair and own - min(others) > max(1, tolerance)


@dataclass
class HandOverStep:
    """The owner's step, between two commands: let the table go if nothing waits behind it."""

    async def run(self, table: Table) -> bool:
        if not table.owned or table.retired or table.state.phase.is_over or table.queued:
            return False
        table.hand_over()
        return True


class Balance(ClusterBase):
    """The cluster's part that spreads the open tables and drains a process."""

    # Status ------------------------------------------------------------------------------

    def own_status(self) -> wire.NodeStatus:
        tables = self.registry.tables.values() if self.registry is not None else []
        live = open_tables(tables)
        owned = sum(1 for table in live if table.owned)
        return wire.NodeStatus(
            node=self.node,
            owned=owned,
            replicas=len(live) - owned,
            sockets=self.sockets(),
            draining=self.draining,
        )

    def live_peers(self) -> dict[str, wire.NodeStatus]:
        """The other processes heard from lately and not known to be gone, as they last said."""
        horizon = asyncio.get_running_loop().time() - max(
            self.settings.lease_seconds, 3 * self.settings.status_seconds
        )
        return {
            node: status
            for node, (status, at) in self._statuses.items()
            if at >= horizon and node not in self._gone and node != self.node
        }

    def processes(self) -> list[dict[str, Any]]:
        """This process and every live other as it last said, by name."""
        statuses = sorted([self.own_status(), *self.live_peers().values()], key=lambda status: status.node)
        return [
            {
                "node": status.node,
                "tables_owned": status.owned,
                "replicas": status.replicas,
                "sockets": status.sockets,
                "draining": status.draining,
            }
            for status in statuses
        ]

    def _on_status_message(self, data: bytes) -> None:
        message = wire.decode(data)
        if isinstance(message, wire.NodeStatus) and message.node != self.node:
            self._statuses[message.node] = (message, asyncio.get_running_loop().time())

    def _on_balance_message(self, message: object) -> None:
        """A hand-over or a drain sent to this process (forwarding.py's `_on_node_message`)."""
        if isinstance(message, wire.Drain) and message.node == self.node:
            self.drain()
        elif isinstance(message, wire.HandOver):
            self._spawn(self._receive(message))

    async def _receive(self, message: wire.HandOver) -> None:
        table = self.registry.tables.get(message.table_id) if self.registry is not None else None
        if table is None:
            table = await self.load(message.table_id)
        if table is None or table.owned or self.draining:
            return  # the scans of the others take it over
        await self._take_over(table)

    # Draining ----------------------------------------------------------------------------

    def drain(self) -> None:
        """Stop taking tables, hand over all this process owns, and say so."""
        if not self.draining:
            log.info("cluster: %s drains", self.node)
        self.draining = True
        self.on_drain()
        self._publish_status()

    def ask_drain(self, node: str) -> bool:
        """Have process `node` drain (this one, or another over the bus); False if no live
        process has that name."""
        if node == self.node:
            self.drain()
            return True
        if node not in self.live_peers():
            return False
        self.bus.publish(self._channel_of(node), wire.encode(wire.Drain(node=node)))
        return True

    def may_take_over(self) -> bool:
        """Whether this process takes orphaned tables: not while it drains, unless no other
        process could."""
        if not self.draining:
            return True
        return not any(not status.draining for status in self.live_peers().values())

    def leaves_to_others(self, table_id: str) -> bool:
        """Whether this process handed `table_id` over lately, and leaves it to the others."""
        until = self._handed.get(table_id)
        if until is None:
            return False
        if asyncio.get_running_loop().time() >= until:
            del self._handed[table_id]
            return False
        return True

    # Moving tables -------------------------------------------------------------------------

    def _publish_status(self) -> None:
        if self._started and not self._closed:
            status = self.own_status()
            self.bus.publish(self.status_channel, wire.encode(status))

    async def _balance(self) -> None:
        """Every `status_seconds`: say what this process has, and hand tables over if it owns
        more than its share (or drains)."""
        self._publish_status()
        forgotten = asyncio.get_running_loop().time() - 60.0  # processes gone for a minute
        for node in [node for node, (_, at) in self._statuses.items() if at < forgotten]:
            del self._statuses[node]
        registry = self.registry
        if registry is None:
            return
        peers = {node: status for node, status in self.live_peers().items() if not status.draining}
        if not peers:
            return
        loop = asyncio.get_running_loop()
        owned = [table for table in open_tables(registry.tables.values()) if table.owned]
        counts = {node: status.owned for node, status in peers.items()}
        if self.draining:
            moves = min(len(owned), self.settings.drain_tables_per_step)
        else:
            if loop.time() < self._next_move:
                return
            if not gives(len(owned), list(counts.values()), self.settings.rebalance_tolerance):
                return
            moves = 1
        moved = 0
        for table in sorted(owned, key=lambda table: hand_over_rank(table, table.clock.now())):
            if moved >= moves:
                break
            target = min(counts, key=lambda node: (counts[node], node))
            if await self.hand_over(table, target):
                counts[target] += 1
                moved += 1
        if moved and not self.draining:
            self._next_move = loop.time() + self.settings.rebalance_seconds

    async def hand_over(self, table: Table, target: str) -> bool:
        """Hand `table` over to process `target` between two of its commands; False if it
        was busy (a command waiting) or is no longer this process's."""
        table_id = table.table_id
        if not table.owned or table.queued:
            return False
        try:
            handed = await table.call_here(HandOverStep(), local=True)
        except TableError:
            return False
        if not handed:
            return False
        value = self._held.pop(table_id, None)
        self._replicas[table_id] = ReplicaState(None)
        for key in [key for key in self._stubs if key[0] == table_id]:
            del self._stubs[key]
        loop = asyncio.get_running_loop()
        self._handed[table_id] = loop.time() + 2 * self.settings.lease_seconds
        self.counters.handed_over += 1
        if value is not None:
            with contextlib.suppress(LeasesUnavailable):
                await self.leases.release(self._lease(table_id), value)
        message = wire.HandOver(table_id=table_id, sender=self.node, seq=table.seq)
        self.bus.publish(self._channel_of(target), wire.encode(message))
        log.info("cluster: %s hands table %s over to %s", self.node, table_id, target)
        return True
