"""Several processes of a cluster simulated in one event loop (cluster.py): each node its own
`Registry` and `Cluster` on one shared store, one `MemoryHub` (the bus) and one
`MemoryLeases` on a `FakeClock`, so leases lapse when the test says so.

What a real cluster of processes on PostgreSQL and Redis does is in test_cluster_processes.py;
here the same code runs fast and every step can be watched: fan-out to replicas, commands
forwarded to the owner, a takeover when the owner stops renewing, fencing of an owner that
missed its lease, and a process whose lease lapsed having its sockets counted again.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from typing import Any

import orjson
import pytest

from tests.server.support.inprocess import Socket, fixed_secret
from tests.server.support.scripted import _Seat
from tests.server.support.shared_links import Switch
from tranque.engine import Rules
from tranque.server.cluster import wire
from tranque.server.cluster.bus import MemoryBus, MemoryHub
from tranque.server.cluster.leases import Leases, MemoryLeases, Renewal
from tranque.server.cluster.node import Cluster
from tranque.server.cluster.settings import ClusterSettings
from tranque.server.lobby.registry import RETIRE_AFTER_SECONDS, Registry
from tranque.server.store import MemoryStore, Store
from tranque.server.table import commands
from tranque.server.table.actor import Table, TableError
from tranque.server.table.bots import InlineBots
from tranque.server.table.clock import FakeClock
from tranque.server.table.log import replay
from tranque.server.table.state import TableKind, TableState
from tranque.server.table.views import options_for

pytestmark = pytest.mark.anyio

LEASE = 2.5
FAST = ClusterSettings(
    lease_seconds=LEASE, renew_seconds=0.005, scan_seconds=0.005, call_seconds=5, catch_up_seconds=1
)
DEFAULTS = {"bot_min_seconds": 0.0, "auto_move_seconds": 0.0, "between_rounds_seconds": 3600.0}


class Node:
    """One simulated process: its registry and its part in the cluster."""

    def __init__(self, name: str, store: Store, hub: MemoryHub, leases: Leases, clock: FakeClock) -> None:
        self.name = name
        self.bus = MemoryBus(hub)
        self.cluster = Cluster(store, self.bus, leases, FAST, node=name)
        self.registry = Registry(store, clock, InlineBots(), dict(DEFAULTS), cluster=self.cluster)
        self.crashed = False

    async def start(self) -> None:
        await self.cluster.start(self.registry)
        await self.registry.recover()

    def stall(self) -> None:
        """The process stalls (a long pause, SIGSTOP): it renews nothing, reads nothing."""
        for task in self.cluster._loops:
            task.cancel()

    def resume(self) -> None:
        """The stalled process runs again: its loops, as `Cluster.start` starts them."""
        cluster, loop = self.cluster, asyncio.get_running_loop()
        cluster._loops = [
            loop.create_task(cluster._every(cluster.settings.renew_seconds, cluster._renew)),
            loop.create_task(cluster._every(cluster.settings.scan_seconds, cluster._scan)),
        ]

    async def crash(self) -> None:
        """The process dies: nothing renewed, nothing sent or heard, nothing given back."""
        self.crashed = True
        for task in self.cluster._loops:
            task.cancel()
        await self.bus.close()
        for table in list(self.registry.tables.values()):
            await table.stop()
        self.registry.tables.clear()

    async def close(self) -> None:
        if not self.crashed:
            await self.cluster.close()
            await self.registry.close()


@asynccontextmanager
async def cluster_of(count: int) -> AsyncIterator[tuple[list[Node], FakeClock, MemoryStore]]:
    store, hub, clock = MemoryStore(), MemoryHub(), FakeClock()
    leases = MemoryLeases(clock)
    await store.start()
    nodes = [Node(f"node{index}", store, hub, leases, clock) for index in range(count)]
    for node in nodes:
        await node.start()
    try:
        yield nodes, clock, store
    finally:
        for node in nodes:
            await node.close()
        await store.close()


async def until(condition: Callable[[], bool], what: str, turns: int = 20_000) -> None:
    """Let the loop run until `condition` holds (bounded by turns of the loop, not by time)."""
    for _ in range(turns):
        if condition():
            return
        await asyncio.sleep(0.001 if _ % 10 == 0 else 0)
    raise AssertionError(f"never: {what}")


async def holds_through_scans(condition: Callable[[], bool], node: Node, lease: str, scans: int = 20) -> None:
    """Check `condition` at every turn of the loop until `scans` scans of `node` have read the
    process lease `lease` and acted on what they read (one read of it each)."""
    answered = 0
    leases = node.cluster.leases
    read = leases.read

    async def counted(names: list[str]) -> list[str | None]:
        nonlocal answered
        values = await read(names)
        answered += lease in names
        return values

    leases.read = counted  # type: ignore[method-assign]
    try:
        await until(lambda: not condition() or answered > scans, f"{scans} scans read {lease}")
    finally:
        leases.read = read  # type: ignore[method-assign]
    assert condition(), f"no longer so after {answered - 1} scans that read {lease}"


async def new_table(owner: Node, humans: list[int], players: int = 4) -> tuple[Table, dict[int, str]]:
    rules = Rules.preset("clasico", players=players, mode="pairs" if players == 4 else "individual")
    table = await owner.registry.create(
        rules, owner.registry.options(kind=TableKind.PUBLIC, bot_level="greedy")
    )
    table.deal_secret = fixed_secret("cluster")
    tokens: dict[int, str] = await table.call(_Seat(humans, "greedy"))
    return table, tokens


async def on(node: Node, table_id: str) -> Table:
    """The table as `node` has it (a replica, unless it owns it), once it has heard of it."""
    return await node.registry.find(table_id)


def event_seqs(socket: Socket) -> list[int]:
    return [frame["seq"] for frame in socket.frames if frame["type"] in ("event", "sync")]


def assert_each_once_in_order(socket: Socket) -> None:
    seqs = event_seqs(socket)
    assert seqs == list(range(seqs[0], seqs[0] + len(seqs))), f"{socket}: {seqs}"


async def play_out(sockets: dict[int, tuple[Node, Socket]], table_id: str, stop: Callable[[], bool]) -> int:
    """Each human acts on its own node with its first legal action (and says «listo» after
    each round) until `stop()`; how many moves they made."""
    moves = 0
    answered: set[tuple[int, int]] = set()
    for _ in range(200_000):
        if stop():
            return moves
        acted = False
        for seat, (node, socket) in sockets.items():
            table = await on(node, table_id)
            options = options_for(table, seat) if table.follows(socket) else None
            if options is not None and (seat, options["turn_id"]) not in answered:
                answered.add((seat, options["turn_id"]))
                action = options["legal_actions"][0]
                try:
                    await table.call(
                        commands.FromSocket(socket, commands.Act(seat, action, options["turn_id"]))
                    )
                    moves += 1
                except TableError as error:
                    assert error.code in ("stale", "not_your_turn", "table_moved"), error
                acted = True
            elif table.state.phase.value == "between_rounds" and seat not in table.state.ready:
                try:
                    await table.call(commands.FromSocket(socket, commands.Ready(seat)))
                except TableError as error:
                    assert error.code in ("not_between_rounds", "table_moved"), error
                acted = True
        await asyncio.sleep(0 if acted else 0.001)
    raise AssertionError("the game never ended")


def state_of_log(table: Table, log: list[Any]) -> TableState:
    state = TableState(table.rules)
    replay(state, log)
    return state


async def test_replicas_follow_the_owner_and_forward_their_sockets_commands() -> None:
    async with cluster_of(3) as (nodes, _clock, store):
        a, b, c = nodes
        table, tokens = await new_table(a, humans=[0, 1])
        await table.start_game()
        replica_b, replica_c = await on(b, table.table_id), await on(c, table.table_id)
        assert table.owned and not replica_b.owned and not replica_c.owned

        # Seat 0 plays through node B, seat 1 through node C; a spectator watches on C.
        socket0, socket1, watcher = Socket("seat 0 on B"), Socket("seat 1 on C"), Socket("watcher on C")
        assert await replica_b.call(commands.Subscribe(socket0, tokens[0])) == 0
        assert await replica_c.call(commands.Subscribe(socket1, tokens[1])) == 1
        assert await replica_c.call(commands.Subscribe(watcher)) is None
        # The owner counts the other processes' sockets: both seats are here.
        await until(lambda: all(table.seats[i].state.value == "present" for i in (0, 1)), "both present")

        ended = lambda: table.state.phase.is_over  # noqa: E731
        moves = await play_out({0: (b, socket0), 1: (c, socket1)}, table.table_id, ended)
        assert moves > 0
        await until(lambda: replica_b.seq == table.seq and replica_c.seq == table.seq, "replicas caught up")

        log = await store.load_events(table.table_id)
        assert [event.seq for event in log] == list(range(1, len(log) + 1))
        for replica in (replica_b, replica_c):
            assert replica.state == state_of_log(table, log) == table.state
        for socket in (socket0, socket1, watcher):
            assert_each_once_in_order(socket)
            assert event_seqs(socket)[-1] == table.seq
        # R17 on a replica: seat 0's socket never saw seat 1's hand, nor the watcher any hand.
        hands = [frame["data"]["hand"] for frame in socket0.events if frame["kind"] == "round_started"]
        assert hands and all(hand is not None for hand in hands)
        watched = [frame["data"]["hand"] for frame in watcher.events if frame["kind"] == "round_started"]
        assert watched and all(hand is None for hand in watched)


async def test_a_refused_command_is_answered_with_its_code_and_changes_nothing() -> None:
    async with cluster_of(2) as (nodes, _clock, _store):
        a, b = nodes
        table, tokens = await new_table(a, humans=[0, 1])
        await table.start_game()
        replica = await on(b, table.table_id)
        socket = Socket("seat 0 on B")
        await replica.call(commands.Subscribe(socket, tokens[0]))
        before = table.seq
        with pytest.raises(TableError) as refused:
            await replica.call(commands.FromSocket(socket, commands.Act(0, {"type": "pass"}, 999)))
        assert refused.value.code in ("stale", "not_your_turn", "illegal")
        assert refused.value.message and refused.value.message_en
        with pytest.raises(TableError) as bad_token:
            await replica.call(commands.Subscribe(Socket("intruder"), "not-a-token"))
        assert bad_token.value.code == "bad_token"
        with pytest.raises(TableError) as not_yours:  # a socket that follows seat 0 acting for seat 1
            await replica.call(commands.FromSocket(socket, commands.Ready(1)))
        assert not_yours.value.code == "not_your_seat"
        assert table.seq == before


async def test_a_table_outlives_its_owner_and_play_goes_on_through_the_others() -> None:
    async with cluster_of(3) as (nodes, clock, store):
        a, b, c = nodes
        table, tokens = await new_table(a, humans=[0, 1])
        await table.start_game()
        socket0, socket1 = Socket("seat 0 on B"), Socket("seat 1 on C")
        await (await on(b, table.table_id)).call(commands.Subscribe(socket0, tokens[0]))
        await (await on(c, table.table_id)).call(commands.Subscribe(socket1, tokens[1]))
        sockets = {0: (b, socket0), 1: (c, socket1)}
        await play_out(sockets, table.table_id, lambda: table.seq >= 30)
        seq_at_crash = table.seq

        await a.crash()
        clock.advance(LEASE + 0.1)  # its leases lapse

        def owners() -> list[Node]:
            return [n for n in (b, c) if n.registry.tables[table.table_id].owned]

        await until(lambda: len(owners()) == 1, "a new owner")
        (new_owner,) = owners()
        assert new_owner.cluster.counters.takeovers == 1
        survivor = new_owner.registry.tables[table.table_id]
        assert survivor.epoch == 1
        # The other process's socket follows the new owner: both seats are here again.
        await until(lambda: all(survivor.seats[i].state.value == "present" for i in (0, 1)), "both back")

        await play_out(sockets, table.table_id, lambda: survivor.state.phase.is_over)
        log = await store.load_events(table.table_id)
        assert [event.seq for event in log] == list(range(1, len(log) + 1))
        assert log[-1].seq > seq_at_crash
        assert survivor.state == state_of_log(survivor, log)

        def last(socket: Socket) -> int:
            return event_seqs(socket)[-1]

        await until(lambda: last(socket0) == last(socket1) == survivor.seq, "every socket told the end")
        for socket in (socket0, socket1):
            assert_each_once_in_order(socket)


async def test_an_owner_that_missed_its_lease_cannot_write_and_gives_the_table_up() -> None:
    async with cluster_of(2) as (nodes, clock, store):
        a, b = nodes
        table, tokens = await new_table(a, humans=[0, 1])
        await table.start_game()
        local, remote = Socket("seat 0 on A"), Socket("seat 1 on B")
        await table.call(commands.Subscribe(local, tokens[0]))
        await (await on(b, table.table_id)).call(commands.Subscribe(remote, tokens[1]))
        a.stall()
        clock.advance(LEASE + 0.1)
        taken = b.registry.tables[table.table_id]
        await until(lambda: taken.owned, "B takes the table over")
        assert table.owned  # A does not know yet
        seq = taken.seq

        # A wakes up (its process lease taken again, as its next renewal does: else B, seeing
        # it lapsed, would drop A's socket again at every scan) and its socket's player acts:
        # the store refuses A's write.
        node_lease = a.cluster._node_lease(a.name)
        assert await a.cluster.leases.renew({node_lease: a.name}, LEASE) == {node_lease: Renewal.TAKEN_AGAIN}
        turn = table.state.turn
        assert turn is not None
        with pytest.raises(TableError) as refused:  # its turn clock runs out, say
            await table.call_here(commands.Timeout(turn.turn_id))
        assert refused.value.code == "table_moved"
        assert not table.owned
        assert a.cluster.counters.refused_writes == 1 and a.cluster.counters.given_up == 1
        log = await store.load_events(table.table_id)
        assert log[-1].seq == seq  # nothing of A's after B took over
        assert taken.state == state_of_log(taken, log)
        # A keeps a replica for its socket, which now follows B.
        await until(lambda: table.seq == taken.seq, "A's replica catches up")
        await until(lambda: taken.seats[0].state.value == "present", "A's socket counted by B")
        # A's socket stays counted through twenty of B's scans.
        await holds_through_scans(lambda: taken.seats[0].state.value == "present", b, node_lease)


async def followed_from(a: Node, b: Node) -> tuple[Table, Callable[[], bool]]:
    """A game on a table B owns, seat 0's socket on A and counted by B; and a test of that."""
    table, tokens = await new_table(b, humans=[0, 1])
    await table.start_game()
    await (await on(a, table.table_id)).call(commands.Subscribe(Socket("seat 0 on A"), tokens[0]))
    present = lambda: table.seats[0].state.value == "present"  # noqa: E731
    await until(present, "A's socket counted by B")
    return table, present


@pytest.mark.parametrize("lapse", ["stalled", "redis restarted"])
async def test_a_process_whose_lease_lapsed_has_its_sockets_counted_again_once_it_takes_it_back(
    lapse: str,
) -> None:
    """B owns the table, A's socket follows it there. A's process lease vanishes before A renews
    it (A stalled past it, or Redis restarted and forgot every lease): B, reading it missing,
    drops A's socket (its seat is «away»). A's next renewal takes its lease back, and its
    socket is counted by B again, for good."""
    async with cluster_of(2) as (nodes, clock, _store):
        a, b = nodes
        table, present = await followed_from(a, b)

        taken_again: list[str] = []  # what A tells presence (app.py)
        a.cluster.on_lease_taken_again = lambda: taken_again.append(a.name)
        a.stall()  # A renews nothing until B has seen its lease missing
        if lapse == "stalled":
            clock.advance(LEASE + 0.1)
        else:
            leases = a.cluster.leases
            assert isinstance(leases, MemoryLeases)
            leases._leases.clear()  # as a restarted Redis, which keeps nothing on disk
        await until(lambda: table.seats[0].state.value == "away", "B drops A's socket")

        a.resume()
        await until(present, "A's socket counted by B again")
        # B's scans read A's lease again and again: the socket stays counted.
        await holds_through_scans(present, b, a.cluster._node_lease(a.name))
        assert table.owned and b.cluster.counters.takeovers == 0
        assert taken_again == [a.name]


class HeldRead:
    """B's leases, as they are, but for one read of `name`: its answer is taken at once and
    handed over only when the test lets it go (a Redis reply slow to come back)."""

    def __init__(self, leases: MemoryLeases, name: str) -> None:
        self.leases, self.name = leases, name
        self.reading = False
        self.let_go = asyncio.Event()

    def __getattr__(self, attribute: str) -> Any:
        return getattr(self.leases, attribute)

    async def read(self, names: list[str]) -> list[str | None]:
        values = await self.leases.read(names)
        if self.name in names and not self.let_go.is_set():
            self.reading = True
            await self.let_go.wait()
        return values


async def test_a_process_heard_from_while_its_lease_was_being_read_missing_keeps_its_sockets() -> None:
    """B reads A's process lease while it has lapsed, and the answer is slow to come back.
    Meanwhile A takes its lease back and has its socket counted at B again. B, answered
    "missing" at last, must not drop the socket A has just had counted: nothing would count it
    again, and its seat would stay «away» while its player is connected."""
    async with cluster_of(2) as (nodes, clock, _store):
        a, b = nodes
        _, present = await followed_from(a, b)
        leases = b.cluster.leases
        assert isinstance(leases, MemoryLeases)
        held = HeldRead(leases, a.cluster._node_lease(a.name))
        b.cluster.leases = held

        a.stall()
        clock.advance(LEASE + 0.1)
        await until(lambda: held.reading, "B reads A's lapsed lease, and waits for the answer")
        subscribes = 0
        command_for = b.cluster._command_for

        def counting(table_id: str, node: str, request: wire.Request | None) -> Any:
            nonlocal subscribes
            subscribes += isinstance(request, wire.SubscribeRequest)
            return command_for(table_id, node, request)

        b.cluster._command_for = counting  # type: ignore[method-assign]
        a.resume()
        await until(lambda: subscribes == 1, "A, its lease taken back, has its socket counted again")
        await until(present, "A's socket present at B")
        held.let_go.set()
        # B's answer arrives, then its next scans: the socket stays counted.
        await holds_through_scans(present, b, held.name)


async def test_a_game_whose_owner_died_as_it_ended_is_shown_by_a_process_started_after_it() -> None:
    """The owner dies as the game ends, before its player's socket there is told the end; the
    player comes back on a process started after the end, which never had the table (only open
    games are rebuilt at a start). It loads the game from the log, takes it over once its lease
    stayed missing (nobody else would: the scan leaves ended games alone) and sends what the
    player missed; the other processes' sockets follow it there. Once the game would have been
    retired it is gone everywhere."""
    async with cluster_of(3) as (nodes, clock, store):
        a, b, c = nodes
        await c.crash()  # down while the game is played
        table, tokens = await new_table(a, humans=[0])
        await table.start_game()
        socket = Socket("seat 0 on A")
        await table.call(commands.Subscribe(socket, tokens[0]))
        await play_out({0: (a, socket)}, table.table_id, lambda: table.state.phase.is_over)
        ended_seq, seen = table.seq, table.seq - 3  # the last three never reached the player

        await a.crash()
        clock.advance(LEASE + 0.1)  # its leases lapse
        d = Node("node2-again", store, b.bus.hub, b.cluster.leases, clock)
        await d.start()
        try:
            assert table.table_id not in d.registry.tables
            back = Socket("seat 0 back on D")
            replica = await on(d, table.table_id)
            assert replica.state.phase.is_over
            assert await replica.call(commands.Subscribe(back, tokens[0], seen)) == 0
            assert replica.owned and d.cluster.counters.takeovers == 1
            assert event_seqs(back) == list(range(seen + 1, ended_seq + 1))
            assert back.events[-1]["kind"] == "game_ended"
            log = await store.load_events(table.table_id)
            assert log[-1].seq == ended_seq  # taking an ended game over writes no event
            assert replica.state == state_of_log(replica, log)
            # B kept its replica: a spectator there is shown the end by way of the new owner.
            watcher = Socket("watcher on B")
            assert await (await on(b, table.table_id)).call(commands.Subscribe(watcher)) is None
            assert event_seqs(watcher)[-1] == ended_seq

            clock.advance(RETIRE_AFTER_SECONDS)
            await until(lambda: all(table.table_id not in node.registry.tables for node in (b, d)), "retired")
            with pytest.raises(TableError) as gone:
                await on(b, table.table_id)
            assert gone.value.code == "no_such_table"
        finally:
            await d.close()


async def test_a_process_closes_even_when_a_lease_call_swallows_its_cancellation() -> None:
    store, clock = MemoryStore(), FakeClock()
    await store.start()
    leases = Switch(MemoryLeases(clock))
    cluster = Cluster(store, MemoryBus(MemoryHub()), leases, FAST, node="node0")
    registry = Registry(store, clock, InlineBots(), dict(DEFAULTS), cluster=cluster)
    await cluster.start(registry)
    try:
        leases.swallow = True  # the next renewal waits, then loses its cancellation
        await until(lambda: leases.waiting == 1, "a renewal under way")
        leases.swallow = False  # (giving the leases back goes through)
        lease = f"{FAST.prefix}:node:node0"
        assert await leases.read([lease]) == ["node0"]
        async with asyncio.timeout(10):  # a bound on a hang, not a measure: it hung for ever
            await cluster.close()
        assert leases.swallowed == 1
        assert await leases.read([lease]) == [None]  # given back
    finally:
        await registry.close()
        await store.close()


async def test_a_process_of_another_release_on_the_bus_is_read_by_the_upgrade_rule(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """During a rolling upgrade a process of another release shares the bus: its messages of
    kinds this release does not know are logged once and dropped, its unknown fields ignored,
    a command it forwards of a kind unknown here is refused (`internal`), and nothing stops."""
    caplog.set_level(logging.WARNING, logger=wire.__name__)
    async with cluster_of(2) as (nodes, _clock, _store):
        a, b = nodes
        table, _ = await new_table(a, humans=[0])
        other = MemoryBus(a.bus.hub)
        replies: dict[int, dict[str, Any]] = {}

        def heard(data: bytes) -> None:
            reply = orjson.loads(data)
            replies[reply["call_id"]] = reply

        await other.subscribe(a.cluster._channel_of("other"), heard)
        unknown = {"version": wire.VERSION + 1, "kind": "table.hover", "table_id": table.table_id}
        for channel in (a.cluster.events_channel, a.cluster.node_channel, a.cluster.node_channel):
            other.publish(channel, orjson.dumps(unknown))
        call = {"kind": "table.call", "sender": "other", "table_id": table.table_id, "priority": "high"}
        future_command = {"kind": "deal_again", "seat": 0}
        other.publish(
            a.cluster.node_channel,
            orjson.dumps({**call, "call_id": 1, "request": {"kind": "run", "command": future_command}}),
        )
        known = {"kind": "account_seat", "user_id": 77, "device": "phone"}
        other.publish(
            a.cluster.node_channel,
            orjson.dumps({**call, "call_id": 2, "request": {"kind": "run", "command": known}}),
        )
        await until(lambda: len(replies) == 2, "both calls answered")

        assert replies[1]["refusal"]["key"] == "internal"
        assert replies[2]["refusal"] is None and replies[2]["answer"] is None
        assert replies[2]["seq"] == table.sent_seq
        noted = [record.getMessage() for record in caplog.records]
        assert len([text for text in noted if "'table.hover'" in text]) == 1
        assert len([text for text in noted if "'deal_again'" in text]) == 1
        # Both processes still serve each other.
        replica = await on(b, table.table_id)
        assert await replica.call(commands.AccountSeat(77)) is None
        await other.close()
