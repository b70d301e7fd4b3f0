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
  once, in order. After the bus lost Redis, every replica reads what it missed from the log.
- **Commands** of a replica's sockets reach the owner over the bus (`forward`), with an
  acknowledgement that names the owner's last event: the answer is given once the replica
  has sent that event, so a socket sees what its move did before its `ack`, as with one
  process. The owner counts another process's sockets as `RemoteSocket`s (who is here,
  which seat each may act for) and drops them when that process's own lease lapses; a
  process that finds its lease had lapsed as it renews it has its sockets counted again.
- **Takeover.** Every `scan_seconds` each process reads the leases of the tables it does
  not own; a table whose lease stayed missing over two reads is taken over by the first
  process to acquire it: its state rebuilt from the log (the same fold as a restart), whoever
  was to act given a full new turn (`commands.Resume`), its clocks and bots run there. The
  other processes see the new owner in its events and follow it with their sockets.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import itertools
import logging
import os
import secrets
import socket
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from tranque.server.cluster import wire
from tranque.server.cluster.bus import Bus
from tranque.server.cluster.leases import Leases, LeasesUnavailable, Renewal
from tranque.server.cluster.settings import ClusterSettings
from tranque.server.refusals import REFUSALS, Refusal, code_of
from tranque.server.stopping import stop_tasks
from tranque.server.store import Store, StoredEvent
from tranque.server.table import commands
from tranque.server.table.actor import Command, RemoteSocket, Subscriber, Table
from tranque.server.table.log import Broadcast, to_stored
from tranque.server.table.state import TableError, Viewer

if TYPE_CHECKING:
    from tranque.server.lobby.registry import Registry

log = logging.getLogger(__name__)


def new_node_id() -> str:
    """A process's name in the cluster: where it runs, and a part no other process has."""
    return f"{socket.gethostname()}-{os.getpid()}-{secrets.token_hex(3)}"


TAKEOVERS_AT_ONCE = 32  # orphaned tables a process takes over concurrently


@dataclass
class Counters:
    """What a process has done as part of a cluster (GET /api/cluster)."""

    takeovers: int = 0
    given_up: int = 0
    refused_writes: int = 0
    forwarded: int = 0
    gaps_filled: int = 0


# A replica's own steps, run in the table's actor between the owner's events ------------------


@dataclass
class FollowOwner:
    """The owner's events of one command: folded in after what the log says came before."""

    events: list[StoredEvent]
    cluster: Cluster

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

    cluster: Cluster

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


# Refusals and answers across processes ----------------------------------------------------------


class RelayedRefusal(TableError):
    """An owner's refusal as another process received it: its code and both texts."""

    def __init__(self, refusal: wire.RefusalText) -> None:
        Exception.__init__(self, refusal.message)
        self.key = refusal.key if refusal.key in REFUSALS else "internal"
        self.code = code_of(refusal.key)
        self.params = {}
        self._texts = {"es": refusal.message, "en": refusal.message_en}

    def text(self, lang: str = "es") -> str:
        return self._texts["en" if lang == "en" else "es"]


def refusal_text(error: Refusal) -> wire.RefusalText:
    return wire.RefusalText(key=error.key, message=error.message, message_en=error.message_en)


def _command_of(wired: wire.WireCommand | None) -> Any:
    if wired is None:
        raise TableError("internal")  # of a kind this release does not know
    return wired.command()


@dataclass
class _Local:
    """A socket of this process following a table: its name for the owner, and its token."""

    ref: str
    token: str | None


@dataclass
class _Replica:
    owner: str | None = None  # the node that owns it, as last read or heard
    misses: int = 0  # scans in a row that found no lease
    waiters: list[tuple[int, asyncio.Future[None]]] = field(default_factory=list)


class Cluster:
    """This process's part in a cluster: the `Peers` of its tables (table.py)."""

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
        self.registry: Registry | None = None
        self.counters = Counters()
        prefix = self.settings.prefix
        self.events_channel = f"{prefix}:events"
        self.node_channel = self._channel_of(self.node)
        self._held: dict[str, str] = {}  # table id → the value of its lease this process holds
        self._replicas: dict[str, _Replica] = {}
        self._locals: dict[tuple[str, Subscriber], _Local] = {}  # (table id, socket) → its name
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

    def _channel_of(self, node: str) -> str:
        return f"{self.settings.prefix}:node:{node}"

    def _lease(self, table_id: str) -> str:
        return f"{self.settings.prefix}:table:{table_id}"

    def _node_lease(self, node: str) -> str:
        return f"{self.settings.prefix}:node:{node}"

    # Life ------------------------------------------------------------------------------------

    async def start(self, registry: Registry) -> None:
        self.registry = registry
        await self.bus.start()
        await self.leases.start()
        await self.bus.subscribe(self.events_channel, self._on_event_message)
        await self.bus.subscribe(self.node_channel, self._on_node_message)
        self.bus.on_reset(self._on_bus_reset)
        await self._renew()
        self._started = True
        self._loops = [
            asyncio.get_running_loop().create_task(self._every(self.settings.renew_seconds, self._renew)),
            asyncio.get_running_loop().create_task(self._every(self.settings.scan_seconds, self._scan)),
        ]

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
            except Exception:
                log.exception("cluster: %s failed", getattr(step, "__name__", step))

    def _spawn(self, coroutine: Any) -> None:
        task = asyncio.get_running_loop().create_task(coroutine)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    # Tables this process creates, recovers and keeps -------------------------------------------

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
        self._replicas.setdefault(table.table_id, _Replica(owner))

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

    # Peers: what tables ask of the cluster -----------------------------------------------------

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
        self._replicas[table.table_id] = _Replica(None)
        for key in [key for key in self._stubs if key[0] == table.table_id]:
            del self._stubs[key]
        table.post(CatchUp(self), local=True)
        self._spawn(self._find_owner(table))

    async def _find_owner(self, table: Table) -> None:
        """Who owns a table this process has just given up: its sockets follow them."""
        with contextlib.suppress(TableError):
            self._set_owner(table, await self._owner_of(table))

    async def forward(self, table: Table, command: Command) -> Any:
        """Run a command for this process: here if it owns the table, else at the owner's.
        Either way this process keeps a name for each of its sockets that follows the table
        (and its token), so they can follow whichever process owns it next."""
        table_id = table.table_id
        if isinstance(command, commands.Subscribe):
            key = (table_id, command.subscriber)
            local = self._locals.get(key)
            ref = local.ref if local is not None else secrets.token_hex(8)
            viewer = await self._subscribe(table, command, ref)
            self._locals[key] = _Local(ref, command.token)
            return viewer
        if isinstance(command, commands.Unsubscribe):
            local = self._locals.pop((table_id, command.subscriber), None)
            if table.owned:
                return await table.call_here(command)
            await table.call_here(Unfollow(command.subscriber), local=True)
            if local is not None:
                with contextlib.suppress(TableError):
                    await self._call(table, wire.UnsubscribeRequest(ref=local.ref))
            return None
        if table.owned:
            return await table.call_here(command)
        self.counters.forwarded += 1
        if isinstance(command, commands.FromSocket):
            local = self._locals.get((table_id, command.subscriber))
            seat = command.command.seat
            if local is None or (seat is not None and table.subscribers.get(command.subscriber) != seat):
                raise TableError("not_your_seat")
            inner = wire.wire_command(command.command)
            request = wire.SocketRequest(ref=local.ref, token=local.token, command=inner)
            return await self._call(table, request)
        if not wire.is_forwarded(command):
            raise TableError("table_moved")  # a timer's or bot's command, for the owner alone
        return await self._call(table, wire.RunRequest(command=wire.wire_command(command)))

    async def _subscribe(self, table: Table, command: commands.Subscribe, ref: str) -> Viewer:
        """A socket of this process follows `table`: at its owner, wherever that is. Following
        twice changes nothing, so while the table changes hands it is asked again (this
        process may be the one taking it over)."""
        deadline = asyncio.get_running_loop().time() + 2 * self.settings.call_seconds
        while True:
            if table.owned:
                viewer: Viewer = await table.call_here(command)
                return viewer
            try:
                self.counters.forwarded += 1
                viewer = await self._call(table, wire.SubscribeRequest(ref=ref, token=command.token))
                await table.call_here(Follow(command.subscriber, viewer, command.last_seq), local=True)
                return viewer
            except TableError as error:
                if error.code != "table_moved" or asyncio.get_running_loop().time() > deadline:
                    raise
            await asyncio.sleep(self.settings.scan_seconds)

    async def _call(self, table: Table, request: wire.Request) -> Any:
        owner = await self._owner_of(table)
        call_id = next(self._call_ids)
        future: asyncio.Future[wire.TableReply] = asyncio.get_running_loop().create_future()
        self._calls[call_id] = (owner, future)
        call = wire.TableCall(call_id=call_id, sender=self.node, table_id=table.table_id, request=request)
        self.bus.publish(self._channel_of(owner), wire.encode(call))
        try:
            reply = await asyncio.wait_for(future, self.settings.call_seconds)
        except TimeoutError:
            raise TableError("table_moved") from None
        finally:
            self._calls.pop(call_id, None)
        if reply.refusal is not None:
            log.debug(
                "cluster: %s's call %s on table %s refused: %s",
                owner,
                request.kind,
                table.table_id,
                reply.refusal.key,
            )
            raise RelayedRefusal(reply.refusal)
        await self._until_reached(table, reply.seq)
        return reply.answer

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

    # The owner's side of a forwarded command --------------------------------------------------

    def _on_node_message(self, data: bytes) -> None:
        message = wire.decode(data)
        if isinstance(message, wire.TableCall):
            self._calls_served += 1
            self._heard[message.sender] = self._calls_served
            self._spawn(self._serve(message))
        elif isinstance(message, wire.TableReply):
            call = self._calls.get(message.call_id)
            if call is not None and not call[1].done():
                call[1].set_result(message)

    async def _serve(self, call: wire.TableCall) -> None:
        table_id, sender = call.table_id, call.sender
        try:
            table = self.registry.tables.get(table_id) if self.registry is not None else None
            if table is not None and not table.owned and table_id in self._held:
                await self._until_owned(table)  # a takeover under way here
            if table is None or not table.owned:
                raise TableError("table_moved")
            answer = await table.call_here(self._command_for(table_id, sender, call.request))
            reply = wire.TableReply(call_id=call.call_id, answer=answer, seq=table.sent_seq)
        except Refusal as error:
            reply = wire.TableReply(call_id=call.call_id, refusal=refusal_text(error))
        except Exception:
            log.exception("cluster: a call from %s to table %s failed", sender, table_id)
            reply = wire.TableReply(call_id=call.call_id, refusal=refusal_text(TableError("internal")))
        self.bus.publish(self._channel_of(sender), wire.encode(reply))

    async def _until_owned(self, table: Table) -> None:
        deadline = asyncio.get_running_loop().time() + self.settings.call_seconds
        while not table.owned and table.table_id in self._held:
            if asyncio.get_running_loop().time() > deadline:
                return
            await asyncio.sleep(self.settings.scan_seconds / 4)

    def _command_for(self, table_id: str, node: str, request: wire.Request | None) -> Command:
        if request is None:
            raise TableError("internal")  # of a kind this release does not know
        if isinstance(request, wire.RunRequest):
            command: Command = _command_of(request.command)
            return command
        key = (table_id, node, request.ref)
        stub = self._stubs.get(key)
        if isinstance(request, wire.UnsubscribeRequest):
            self._stubs.pop(key, None)
            return commands.Unsubscribe(stub if stub is not None else RemoteSocket(node, request.ref))
        if stub is None:
            stub = self._stubs[key] = RemoteSocket(node, request.ref)
        if isinstance(request, wire.SubscribeRequest):
            return commands.Subscribe(stub, request.token, None)
        from_socket = commands.FromSocket(stub, _command_of(request.command))
        table = self.registry.tables.get(table_id) if self.registry is not None else None
        if table is not None and not table.follows(stub):
            # A new owner that has not heard from this socket yet (its process is telling
            # it right now): it follows first, as its process would have it.
            return FollowThen(commands.Subscribe(stub, request.token, None), from_socket)
        return from_socket

    # The owners' events, as every process hears them ----------------------------------------

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

    async def _follow_new_owner(self, table: Table, sockets: list[tuple[Subscriber, _Local]]) -> None:
        """This process's sockets on a replica whose owner changed (or that may have dropped
        them, `_follow_owners_again`): the owner counts them. Subscribing a socket the owner
        counts already changes nothing there."""
        for subscriber, local in sockets:
            if self._locals.get((table.table_id, subscriber)) is not local:
                continue  # it left meanwhile
            deadline = asyncio.get_running_loop().time() + 2 * self.settings.call_seconds
            while not table.owned:  # taken over here: its sockets are counted already
                try:
                    await self._call(table, wire.SubscribeRequest(ref=local.ref, token=local.token))
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

    async def _load(self, registry: Registry, table_id: str, owner: str | None) -> Table | None:
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

    # Leases: renewing ours, taking over the orphans ---------------------------------------------

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

    def _follow_owners_again(self) -> None:
        """This process's lease had vanished (it stalled past it, or Redis forgot it) and is
        taken again: the owners that saw it missing meanwhile dropped its sockets from their
        tables (`_drop_gone_nodes`), and nothing else would have them counted again until
        they reconnect. Each follows its table's owner again. (The tables this process owns
        count their sockets here; one it has lost is followed as `lost` says.)"""
        sockets: dict[str, list[tuple[Subscriber, _Local]]] = {}
        for (table_id, subscriber), local in self._locals.items():
            sockets.setdefault(table_id, []).append((subscriber, local))
        registry = self.registry
        for table_id, followers in sockets.items():
            table = registry.tables.get(table_id) if registry is not None else None
            if table is not None and not table.owned:
                self._spawn(self._follow_new_owner(table, followers))

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
                replica = self._replicas.setdefault(table.table_id, _Replica())
                owner = _node_of(value)
                if owner is not None:
                    replica.misses = 0
                    self._set_owner(table, owner)
                    continue
                replica.misses += 1
                if replica.misses >= 2:
                    orphans.append(table)
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
