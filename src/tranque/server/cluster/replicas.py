"""The replicas' side of a cluster: each table this process does not own follows its owner.

The owner publishes the events of each command (`published`); every other process folds
them into its replica (`FollowOwner`), reading a gap, or what the bus lost, from the log
(`CatchUp`). A process hears of a new table in its events, and of a new owner in them or
in its lease; its sockets on that table then follow the new owner. A call answered by the
owner returns once the replica has sent its sockets the owner's events up to the answer
(`reached`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import TYPE_CHECKING

from tranque.server.cluster import wire
from tranque.server.cluster.base import ClusterBase, LocalSocket, ReplicaState
from tranque.server.cluster.steps import CatchUp, FollowOwner
from tranque.server.table.actor import Subscriber, Table
from tranque.server.table.log import Broadcast, to_stored
from tranque.server.table.state import TableError

if TYPE_CHECKING:
    from tranque.server.cluster.local_tables import LocalTables

log = logging.getLogger(__name__)


class Replicas(ClusterBase):
    """The cluster's part that keeps this process's replicas in step with their owners."""

    def published(self, table: Table, sent: list[Broadcast]) -> None:
        # Stored forms as the table stored them (`Table._store`): not worked out twice.
        events = [item.stored or to_stored(item.event, item.seq, item.at) for item in sent]
        message = wire.TableEvents.of(table.table_id, self.node, table.epoch, events)
        self.bus.publish(self.events_channel, wire.encode(message))

    def lost(self, table: Table, refused: bool) -> None:
        """The store refused `table`'s write (`refused`), or its lease is another's: this
        process keeps a replica of it now."""
        log.warning("cluster: %s gave up table %s", self.node, table.table_id)
        self.counters.given_up += 1
        self.counters.refused_writes += refused
        self._held.pop(table.table_id, None)
        self._replicas[table.table_id] = ReplicaState(None)
        for key in [key for key in self._stubs if key[0] == table.table_id]:
            del self._stubs[key]
        table.post(CatchUp(self), local=True)
        self._spawn(self._find_owner(table))

    async def _find_owner(self, table: Table) -> None:
        """Who owns a table this process has just given up: its sockets follow them."""
        with contextlib.suppress(TableError):
            self._set_owner(table, await self._owner_of(table))

    def _on_event_message(self, data: bytes) -> None:
        message = wire.decode(data)
        if not isinstance(message, wire.TableEvents | wire.TableOwner):
            return
        registry = self.registry
        if registry is None:
            return
        table = registry.tables.get(message.table_id)
        if table is None:
            self._spawn(self.load(message.table_id, message.owner))
            return
        if table.owned:
            return  # its own events (or a new owner's, which its next write will find out)
        self._set_owner(table, message.owner)
        if isinstance(message, wire.TableEvents):
            table.post(FollowOwner(message.stored(), self), local=True)
        elif message.seq > table.seq:
            table.post(CatchUp(self), local=True)

    def _set_owner(self, table: Table, owner: str | None) -> None:
        replica = self._replicas.get(table.table_id)
        if replica is None or owner is None or owner == replica.owner:
            return
        log.debug("cluster: table %s is %s's now (was %s's)", table.table_id, owner, replica.owner)
        replica.owner, replica.misses = owner, 0
        if owner != self.node:
            sockets = [(sub, local) for (tid, sub), local in self._locals.items() if tid == table.table_id]
            if sockets:
                self._spawn(self._follow_new_owner(table, sockets))

    async def _follow_new_owner(self, table: Table, sockets: list[tuple[Subscriber, LocalSocket]]) -> None:
        """This process's sockets on a replica whose owner changed (or that may have dropped
        them, `_follow_owners_again`): the owner counts them. Subscribing a socket the owner
        counts already changes nothing there."""
        for subscriber, local in sockets:
            if self._locals.get((table.table_id, subscriber)) is not local:
                continue  # it left meanwhile
            deadline = asyncio.get_running_loop().time() + 2 * self.settings.call_seconds
            while not table.owned:  # taken over here: its sockets are counted already
                try:
                    await self._call(
                        table,
                        wire.SubscribeRequest(
                            ref=local.ref, token=local.token, address=local.address, admitted=local.admitted
                        ),
                    )
                    break
                except TableError as error:
                    if error.code != "table_moved" or asyncio.get_running_loop().time() > deadline:
                        log.info("cluster: a socket could not follow table %s (%s)", table.table_id, error)
                        break
                await asyncio.sleep(self.settings.scan_seconds)

    async def load(self, table_id: str, owner: str | None = None) -> Table | None:
        """A table another process created: a replica of it, from the store (None if the
        store has no such table, or its game ended long enough ago to be retired)."""
        registry = self.registry
        if registry is None:
            return None
        table = registry.tables.get(table_id)
        if table is not None:
            return table
        loading = self._loading.get(table_id)
        if loading is None:
            loading = self._loading[table_id] = asyncio.get_running_loop().create_task(
                self._load(registry, table_id, owner)
            )
            loading.add_done_callback(lambda _: self._loading.pop(table_id, None))
        return await asyncio.shield(loading)

    async def _load(self, registry: LocalTables, table_id: str, owner: str | None) -> Table | None:
        row = await self.store.table(table_id)
        if row is None or table_id in registry.tables:
            return registry.tables.get(table_id)
        table = await registry.open_replica(row)
        if table is not None:
            self._set_owner(table, owner)
        return table

    def _on_bus_reset(self) -> None:
        """The bus lost Redis for a while: every replica reads what it missed from the log."""
        if self.registry is None:
            return
        for table in self.registry.tables.values():
            if not table.owned:
                table.post(CatchUp(self), local=True)
        self._spawn(self._load_missing())

    async def _load_missing(self) -> None:
        registry = self.registry
        if registry is None:
            return
        for row in await self.store.tables(("waiting", "playing")):
            if row.table_id not in registry.tables:
                await self.load(row.table_id)

    def _follow_owners_again(self) -> None:
        """This process's lease had vanished (it stalled past it, or Redis forgot it) and is
        taken again: the owners that saw it missing meanwhile dropped its sockets from their
        tables (`_drop_gone_nodes`), and nothing else would have them counted again until
        they reconnect. Each follows its table's owner again. (The tables this process owns
        count their sockets here; one it has lost is followed as `lost` says.)"""
        sockets: dict[str, list[tuple[Subscriber, LocalSocket]]] = {}
        for (table_id, subscriber), local in self._locals.items():
            sockets.setdefault(table_id, []).append((subscriber, local))
        registry = self.registry
        for table_id, followers in sockets.items():
            table = registry.tables.get(table_id) if registry is not None else None
            if table is not None and not table.owned:
                self._spawn(self._follow_new_owner(table, followers))

    async def _until_reached(self, table: Table, seq: int) -> None:
        """Return once the replica has sent its sockets the owner's events up to `seq`."""
        if table.owned or table.seq >= seq:
            return
        replica = self._replicas.get(table.table_id)
        if replica is None:
            return
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        replica.waiters.append((seq, future))
        try:
            await asyncio.wait_for(asyncio.shield(future), self.settings.catch_up_seconds)
        except TimeoutError:
            table.post(CatchUp(self), local=True)  # the bus lost it: the log has it
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(future, self.settings.catch_up_seconds)

    def reached(self, table: Table) -> None:
        replica = self._replicas.get(table.table_id)
        if replica is None or not replica.waiters:
            return
        waiting = []
        for seq, future in replica.waiters:
            if table.seq >= seq:
                if not future.done():
                    future.set_result(None)
            else:
                waiting.append((seq, future))
        replica.waiters = waiting
