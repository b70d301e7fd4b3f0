"""A replica's own steps, and the owner's of another process's socket: run in the table's
actor between its other commands (the cluster's, node.py)."""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from tranque.server.store import StoredEvent
from tranque.server.table import commands
from tranque.server.table.actor import Subscriber, Table
from tranque.server.table.state import Viewer

if TYPE_CHECKING:
    from tranque.server.cluster.base import ClusterBase

log = logging.getLogger(__name__)


@dataclass
class FollowOwner:
    """The owner's events of one command: folded in after what the log says came before."""

    events: list[StoredEvent]
    cluster: ClusterBase

    async def run(self, table: Table) -> None:
        if table.owned:
            return
        if self.events and self.events[0].seq > table.seq + 1:
            log.debug(
                "cluster: table %s at %d fills a gap to %d", table.table_id, table.seq, self.events[0].seq
            )
            self.cluster.counters.gaps_filled += 1
            table.follow_owner(await table.store.load_events(table.table_id, table.seq))
        table.follow_owner(self.events)
        self.cluster.reached(table)


@dataclass
class CatchUp:
    """Whatever the log has beyond the replica (after the bus may have lost messages)."""

    cluster: ClusterBase

    async def run(self, table: Table) -> None:
        if not table.owned:
            table.follow_owner(await table.store.load_events(table.table_id, table.seq))
            self.cluster.reached(table)


@dataclass
class Follow:
    """A socket of this process follows a replica as `viewer` (the owner has said so)."""

    subscriber: Subscriber
    viewer: Viewer
    last_seq: int | None

    async def run(self, table: Table) -> None:
        await table.follow(self.subscriber, self.viewer, self.last_seq)


@dataclass
class Unfollow:
    subscriber: Subscriber

    async def run(self, table: Table) -> Viewer:
        return table.unfollow(self.subscriber) if table.follows(self.subscriber) else None


@dataclass
class FollowThen:
    """An owner's step: another process's socket follows the table, then its command runs."""

    subscribe: commands.Subscribe
    command: commands.FromSocket

    async def run(self, table: Table) -> Any:
        await self.subscribe.run(table)
        return await self.command.run(table)


@dataclass
class TakeOver:
    epoch: int

    async def run(self, table: Table) -> None:
        await table.take_over(self.epoch)
