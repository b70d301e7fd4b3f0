"""Spreading the open tables over the processes (cluster/balance.py), simulated in one event
loop as test_cluster_inprocess.py does: one shared store, one `MemoryHub`, one `MemoryLeases`
on a `FakeClock`.

A process that owns every table when others join hands them over, one at a time per
process and step, until no process owns more than `rebalance_tolerance` tables more than
another; a game played through the moves loses nothing; a draining process hands over all
it owns and takes nothing back.
"""

from __future__ import annotations

import asyncio
import itertools
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager

import pytest

from tests.server.cluster import test_cluster_inprocess
from tests.server.cluster.test_cluster_inprocess import (
    DEFAULTS,
    assert_each_once_in_order,
    event_seqs,
    on,
    play_out,
    state_of_log,
    until,
)
from tests.server.support.inprocess import Socket, fixed_secret
from tests.server.support.scripted import _Seat
from tranque.engine import Rules
from tranque.server.cluster.balance import gives
from tranque.server.cluster.bus import MemoryBus, MemoryHub
from tranque.server.cluster.leases import Leases, MemoryLeases
from tranque.server.cluster.node import Cluster
from tranque.server.cluster.settings import ClusterSettings
from tranque.server.lobby.registry import Registry
from tranque.server.store import MemoryStore, Store
from tranque.server.table import commands
from tranque.server.table.actor import Table
from tranque.server.table.bots import InlineBots
from tranque.server.table.clock import FakeClock
from tranque.server.table.state import TableKind

pytestmark = pytest.mark.anyio

LEASE = 2.5
STEP = 0.005  # renewals, scans and statuses
MOVE_EVERY = 0.03  # at most one table a process every MOVE_EVERY seconds (of the event loop)
SETTINGS = ClusterSettings(
    lease_seconds=LEASE,
    renew_seconds=STEP,
    scan_seconds=STEP,
    call_seconds=5,
    catch_up_seconds=1,
    status_seconds=STEP,
    rebalance_seconds=MOVE_EVERY,
    rebalance_tolerance=1,
    drain_tables_per_step=2,
)


class Node(test_cluster_inprocess.Node):
    """One simulated process, with the hand-overs it made (when, which table, to whom)."""

    def __init__(self, name: str, store: Store, hub: MemoryHub, leases: Leases, clock: FakeClock) -> None:
        self.name = name
        self.crashed = False
        self.bus = MemoryBus(hub)
        self.cluster = Cluster(store, self.bus, leases, SETTINGS, node=name)
        self.registry = Registry(store, clock, InlineBots(), dict(DEFAULTS), cluster=self.cluster)
        self.moves: list[tuple[float, str, str]] = []
        self.busy_at_move: list[str] = []  # tables handed over with a command waiting (never)
        hand_over = self.cluster.hand_over

        async def recorded(table: Table, target: str) -> bool:
            queued_before = table.queued
            handed = await hand_over(table, target)
            if handed:
                self.moves.append((asyncio.get_running_loop().time(), table.table_id, target))
                if queued_before:
                    self.busy_at_move.append(table.table_id)
            return handed

        self.cluster.hand_over = recorded  # type: ignore[method-assign]

    def owned(self) -> list[str]:
        return sorted(
            table_id
            for table_id, table in self.registry.tables.items()
            if table.owned and not table.state.phase.is_over
        )


@asynccontextmanager
async def simulated() -> AsyncIterator[tuple[MemoryStore, MemoryHub, MemoryLeases, FakeClock, list[Node]]]:
    store, hub, clock = MemoryStore(), MemoryHub(), FakeClock()
    leases = MemoryLeases(clock)
    await store.start()
    nodes: list[Node] = []
    try:
        yield store, hub, leases, clock, nodes
    finally:
        for node in nodes:
            await node.close()
        await store.close()


async def joined(
    name: str, store: Store, hub: MemoryHub, leases: Leases, clock: FakeClock, nodes: list[Node]
) -> Node:
    node = Node(name, store, hub, leases, clock)
    await node.start()
    nodes.append(node)
    return node


async def new_table(owner: Node, humans: list[int], start: bool) -> tuple[Table, dict[int, str]]:
    rules = Rules.preset("clasico", players=4, mode="pairs")
    table = await owner.registry.create(
        rules, owner.registry.options(kind=TableKind.PUBLIC, bot_level="greedy")
    )
    table.deal_secret = fixed_secret("rebalance")
    tokens: dict[int, str] = await table.call(_Seat(humans, "greedy"))
    if start:
        await table.start_game()
    return table, tokens


def six_more(table: Table, over: Callable[[], bool]) -> Callable[[], bool]:
    """Whether the game is over or `table` has six more events than now."""
    until_seq = table.seq + 6
    return lambda: over() or table.seq >= until_seq


def counts(nodes: list[Node]) -> dict[str, int]:
    return {node.name: len(node.owned()) for node in nodes}


def even(nodes: list[Node], tables: int, tolerance: int = 1) -> bool:
    """Every table owned (none in the middle of a move), and within the tolerance."""
    found = counts(nodes).values()
    return sum(found) == tables and max(found) - min(found) <= tolerance


async def assert_whole(store: Store, nodes: list[Node], table_ids: list[str]) -> None:
    """Every table owned by exactly one process, its log without a gap, and every process's
    copy the log's fold."""
    for table_id in table_ids:
        owners = [node.name for node in nodes if table_id in node.owned()]
        assert len(owners) == 1, (table_id, owners)
        log = await store.load_events(table_id)
        assert [event.seq for event in log] == list(range(1, len(log) + 1))
        for node in nodes:
            table = node.registry.tables[table_id]
            await until(lambda table=table, log=log: table.seq == log[-1].seq, f"{node.name} caught up")  # type: ignore[misc]
            assert table.state == state_of_log(table, log)


async def test_a_process_that_joins_gets_its_share_of_the_tables_one_at_a_time() -> None:
    async with simulated() as (store, hub, leases, clock, nodes):
        a = await joined("node-a", store, hub, leases, clock, nodes)
        tables = []
        for index in range(9):  # some waiting for players, some in play (a person's or a bot's turn)
            table, _ = await new_table(a, humans=[0, 1], start=index % 3 != 0)
            tables.append(table.table_id)
        assert counts(nodes) == {"node-a": 9}

        b = await joined("node-b", store, hub, leases, clock, nodes)
        c = await joined("node-c", store, hub, leases, clock, nodes)
        await until(lambda: even(nodes, 9), "the tables spread", turns=200_000)
        spread = counts(nodes)
        assert sorted(spread.values()) == [3, 3, 3], spread

        # Nothing moves any more: the spread is within the tolerance.
        moved = sum(len(node.moves) for node in nodes)
        await asyncio.sleep(5 * MOVE_EVERY)
        assert sum(len(node.moves) for node in nodes) == moved == 6
        assert counts(nodes) == spread

        # One table at a time per process, at most one every `rebalance_seconds`.
        times = [at for at, _, _ in a.moves]
        assert all(later - earlier >= MOVE_EVERY for earlier, later in itertools.pairwise(times))
        assert not b.moves and not c.moves  # only the process above its share gives
        assert sorted(target for _, _, target in a.moves) == ["node-b"] * 3 + ["node-c"] * 3
        # Every hand-over was taken by the process it was handed to, at a new epoch.
        assert a.cluster.counters.handed_over == 6
        assert b.cluster.counters.takeovers == c.cluster.counters.takeovers == 3
        assert a.cluster.counters.given_up == 0  # a clean hand-over, not a lost lease
        for _, table_id, target in a.moves:
            owner = next(node for node in nodes if node.name == target)
            assert owner.registry.tables[table_id].epoch == 1
        assert not a.busy_at_move
        await assert_whole(store, nodes, tables)
        # No table moved that waited with nobody to act while one in play was still there
        # to choose over it: the waiting ones (ranked first) went first.
        waiting = {tables[index] for index in range(0, 9, 3)}
        assert {table_id for _, table_id, _ in a.moves[:3]} == waiting

        # Each process says what it has; every open table is owned once and kept by all.
        listed = a.cluster.processes()
        assert [row["node"] for row in listed] == ["node-a", "node-b", "node-c"]
        assert [row["tables_owned"] for row in listed] == [3, 3, 3]
        assert all(row["tables_owned"] + row["replicas"] == 9 for row in listed)
        del clock


async def test_a_game_played_while_its_table_moves_again_and_again_loses_nothing() -> None:
    async with simulated() as (store, hub, leases, clock, nodes):
        a = await joined("node-a", store, hub, leases, clock, nodes)
        b = await joined("node-b", store, hub, leases, clock, nodes)
        c = await joined("node-c", store, hub, leases, clock, nodes)
        table, tokens = await new_table(a, humans=[0, 1], start=True)
        table_id = table.table_id
        socket0, socket1 = Socket("seat 0 on B"), Socket("seat 1 on C")
        await (await on(b, table_id)).call(commands.Subscribe(socket0, tokens[0]))
        await (await on(c, table_id)).call(commands.Subscribe(socket1, tokens[1]))
        sockets: dict[int, tuple[test_cluster_inprocess.Node, Socket]] = {0: (b, socket0), 1: (c, socket1)}

        def over() -> bool:
            return all(node.registry.tables[table_id].state.phase.is_over for node in nodes)

        async def keep_moving() -> None:
            """Whoever owns the table hands it to the next process, over and over."""
            while not over():
                owner = next((node for node in nodes if table_id in node.owned()), None)
                if owner is not None:
                    following = nodes[(nodes.index(owner) + 1) % len(nodes)]
                    await owner.cluster.hand_over(owner.registry.tables[table_id], following.name)
                await asyncio.sleep(0.001)

        def owner() -> Node:
            return next(node for node in nodes if table_id in node.owned())

        # First in turns: the table moves, then the people make a few moves, five times...
        moves = 0
        for _ in range(5):
            giver = owner()
            following = nodes[(nodes.index(giver) + 1) % len(nodes)]
            for _ in range(1000):  # not while a command waits in its queue: then, a moment later
                if await giver.cluster.hand_over(giver.registry.tables[table_id], following.name):
                    break
                await asyncio.sleep(0.001)
            await until(lambda: table_id in following.owned(), "taken over")  # noqa: B023
            moves += await play_out(sockets, table_id, six_more(following.registry.tables[table_id], over))
        # ...then while they play, as fast as it can.
        mover = asyncio.get_running_loop().create_task(keep_moving())
        moves += await play_out(sockets, table_id, over)
        await mover
        handed = sum(len(node.moves) for node in nodes)
        print(f"{moves} moves by people, the table handed over {handed} times")
        assert moves > 0 and handed >= 5, (moves, handed)
        assert not any(node.busy_at_move for node in nodes)  # never with a command waiting
        assert sum(node.cluster.counters.given_up for node in nodes) == 0

        log = await store.load_events(table_id)
        assert [event.seq for event in log] == list(range(1, len(log) + 1))
        # Every move a person made and was told of is in the log, once.
        people = [event for event in log if event.kind == "action" and event.data["by"] == "human"]
        assert len(people) == moves
        for node in nodes:
            copy = node.registry.tables[table_id]
            await until(lambda copy=copy: copy.seq == log[-1].seq, "caught up")  # type: ignore[misc]
            assert copy.state == state_of_log(copy, log)
        await until(lambda: event_seqs(socket0)[-1] == event_seqs(socket1)[-1] == log[-1].seq, "told the end")
        for socket in (socket0, socket1):
            assert_each_once_in_order(socket)
        del clock


async def test_a_draining_process_hands_over_all_it_owns_and_takes_nothing() -> None:
    async with simulated() as (store, hub, leases, clock, nodes):
        a = await joined("node-a", store, hub, leases, clock, nodes)
        b = await joined("node-b", store, hub, leases, clock, nodes)
        tables = [(await new_table(a, humans=[0, 1], start=index % 2 == 0))[0].table_id for index in range(5)]
        await until(lambda: b.name in {row["node"] for row in a.cluster.processes()}, "A hears of B")

        # The drain is asked of B (which owns nothing) and is sent to A over the bus.
        assert b.cluster.ask_drain("node-a")
        assert not b.cluster.ask_drain("node-nobody")
        await until(lambda: a.cluster.draining, "A drains")
        await until(lambda: counts(nodes) == {"node-a": 0, "node-b": 5}, "A handed all over", turns=200_000)
        assert a.cluster.counters.handed_over == 5 and b.cluster.counters.takeovers == 5
        await until(
            lambda: [row["draining"] for row in b.cluster.processes()] == [True, False], "B hears A drains"
        )
        # A table created on the draining process is handed over too; A takes none back.
        late, _ = await new_table(a, humans=[0], start=False)
        await until(lambda: late.table_id in b.owned(), "the new table handed over")
        await asyncio.sleep(5 * MOVE_EVERY)
        assert a.owned() == []
        await assert_whole(store, nodes, [*tables, late.table_id])
        del clock


def test_moving_one_table_narrows_the_gap_by_two_so_nothing_moves_back() -> None:
    # A process gives only when it is above the fair share and more than the tolerance
    # above the process with fewest.
    assert gives(9, [0, 0], 1) and gives(3, [1], 1) and not gives(2, [1], 1) and not gives(3, [3, 2], 1)
    assert not gives(4, [2], 2) and gives(5, [2], 2)
    for own, other in [(10, 0), (5, 3), (4, 2), (7, 0)]:
        while gives(own, [other], 1):
            own, other = own - 1, other + 1
        assert not gives(other, [own], 1)  # the receiver never gives back
        assert abs(own - other) <= 1
