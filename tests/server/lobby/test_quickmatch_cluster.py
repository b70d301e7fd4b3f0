"""Quick match across several processes (quickmatch.py): simulated processes in one event
loop, each with its own `Registry` on one shared `MemoryStore` and `FakeClock`, linked by a
`MemoryBus` hub or by the real Redis (shared_links.py).

Players joining on different processes are matched by the one matchmaker, and each hears
`matched` on its own process; a cancel works from any process; when the matchmaker dies,
another takes the queue over and nobody waits forever; the account's limit is still refused
on the process it joined on.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import pytest

from tests.server.support.shared_links import KINDS, Links, Switch, settle, until
from tranque.server.cluster.bus import Bus
from tranque.server.cluster.settings import ClusterSettings
from tranque.server.lobby.limits import Limits
from tranque.server.lobby.quickmatch import QuickMatch
from tranque.server.lobby.registry import Registry
from tranque.server.store import MemoryStore
from tranque.server.table.actor import TableError
from tranque.server.table.bots import InlineBots
from tranque.server.table.clock import FakeClock
from tranque.server.table.state import Phase

pytestmark = pytest.mark.anyio

WAIT = 10.0  # quick_match_wait_seconds, on the fake clock
LEASE = 1.0  # the matchmaker's lease, in real time
DEFAULTS = {"bot_min_seconds": 0.0, "auto_move_seconds": 0.0, "between_rounds_seconds": 3600.0}


class Node:
    """One simulated process: its registry, its quick match, and what its players were told."""

    def __init__(self, name: str, store: MemoryStore, links: Links, bus: Bus, leases: Switch, limits: Limits):
        self.name = name
        self.bus, self.leases = bus, leases
        self.registry = Registry(store, links.clock, InlineBots(), dict(DEFAULTS))
        self.quick = QuickMatch(self.registry, links.clock, WAIT, "greedy", limits)
        settings = ClusterSettings(lease_seconds=LEASE, renew_seconds=LEASE / 10, prefix=links.prefix)
        self.quick.share(bus, name, leases, settings)
        # The bot accounts' own quick match, on the same bus and leases (state.py).
        self.bots = QuickMatch(self.registry, links.clock, WAIT, "greedy", limits, bots=True)
        self.bots.share(bus, name, leases, settings)
        self.told: dict[int, list[dict[str, Any]]] = {}
        self.crashed = False

    async def join(self, user_id: int, with_bots: bool = False) -> None:
        told = self.told.setdefault(user_id, [])
        await self.quick.join(user_id, f"jugador{user_id}", told.append, with_bots, "10.0.0.1")

    async def crash(self) -> None:
        """The process dies: nothing renewed, sent or heard, nothing given back. Its renewal
        loops stop too, as in a process frozen rather than gone: what still runs of it (a
        timer of its queue) must see for itself that its lease has lapsed."""
        self.crashed = True
        self.leases.dead = True
        for quick in (self.quick, self.bots):
            if quick._loop is not None:
                quick._loop.cancel()
        await self.bus.flush()  # (a RedisBus closed while it publishes may hang in `close`)
        await self.bus.close()

    async def join_bots(self, user_id: int) -> None:
        told = self.told.setdefault(user_id, [])
        await self.bots.join(user_id, f"bot{user_id}", told.append, True, "10.0.0.1")

    async def close(self) -> None:
        await self.quick.close()
        await self.bots.close()
        await self.registry.close()


@pytest.fixture(params=KINDS)
def kind(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@asynccontextmanager
async def cluster(
    kind: str, count: int, limits: Limits | None = None
) -> AsyncIterator[tuple[list[Node], Links]]:
    store = MemoryStore()
    await store.start()
    async with Links.of(kind, FakeClock()) as links:
        nodes: list[Node] = []
        try:
            for index in range(count):  # the first one started is the first matchmaker
                bus, leases = await links.node()
                node = Node(f"node{index}", store, links, bus, leases, limits or Limits())
                await node.quick.start()
                await node.bots.start()
                nodes.append(node)
            await settle(links)
            assert [node.quick.matchmaker for node in nodes] == ["node0"] * count
            assert [node.bots.matchmaker for node in nodes] == ["node0"] * count
            yield nodes, links
        finally:
            for node in nodes:
                await node.close()
    await store.close()


def matched(node: Node, user_id: int) -> dict[str, Any]:
    (frame,) = node.told[user_id]
    assert frame["type"] == "matched" and set(frame) == {"type", "table", "seat", "token"}
    return frame


def queue(node: Node) -> list[int]:
    return [waiting.user_id for waiting in node.quick.waiting]


async def test_bots_on_two_processes_are_matched_in_their_own_queue_apart_from_people(kind: str) -> None:
    async with cluster(kind, 3) as ([boss, one, other], links):
        await one.join(1)  # a person, in the people's queue
        await one.join_bots(11)  # asked for the server's bots too: a bot account is never given one
        links.clock.advance(1)
        await other.join_bots(12)
        await until(lambda: [w.user_id for w in boss.bots.waiting] == [11, 12], "both bots queued")
        assert queue(boss) == [1]
        links.clock.advance(WAIT - 1)
        await until(lambda: one.told.get(11) and other.told.get(12), "both bots told")

        first, second = matched(one, 11), matched(other, 12)
        assert first["table"] == second["table"]
        table = boss.registry.tables[first["table"]]
        assert table.options.bots and table.options.kind == "quick" and table.options.competitive
        assert [seat.user_id for seat in table.state.seats] == [11, 12]
        assert table.pool == "bots:duel"
        assert one.told[1] == [] and queue(boss) == [1]  # the person still waits for people


async def test_two_players_on_two_processes_are_matched_at_one_table(kind: str) -> None:
    async with cluster(kind, 3) as ([boss, one, other], links):
        await one.join(1)
        links.clock.advance(1)
        await other.join(2)
        await until(lambda: queue(boss) == [1, 2], "both in the matchmaker's queue")
        await until(lambda: other.quick.is_waiting(1) and one.quick.is_waiting(2), "everybody knows")
        links.clock.advance(WAIT - 1)  # 1 has waited long enough
        await until(lambda: one.told.get(1) and other.told.get(2), "both told")

        first, second = matched(one, 1), matched(other, 2)
        assert first["table"] == second["table"] and {first["seat"], second["seat"]} == {0, 1}
        table = boss.registry.tables[first["table"]]  # the matchmaker's own table
        assert table.options.kind == "quick" and len(table.seats) == 2
        assert table.state.phase is Phase.PLAYING
        assert [seat.user_id for seat in table.state.seats] == [1, 2]
        assert [seat.index for seat in table.state.seats] == [first["seat"], second["seat"]]
        await until(
            lambda: not any(node.quick.is_waiting(u) for node in (boss, one, other) for u in (1, 2)), ""
        )
        assert boss.told == {}


async def test_four_players_make_a_table_at_once_and_a_lone_one_with_bots_gets_a_bot(kind: str) -> None:
    async with cluster(kind, 3) as ([boss, one, other], links):
        for user_id, node in ((1, one), (2, other), (3, boss), (4, one)):
            await node.join(user_id)
        await until(
            lambda: all(node.told.get(u) for node, u in ((one, 1), (other, 2), (boss, 3), (one, 4))), ""
        )
        tables = {matched(node, u)["table"] for node, u in ((one, 1), (other, 2), (boss, 3), (one, 4))}
        assert len(tables) == 1 and len(boss.registry.tables[tables.pop()].seats) == 4

        await other.join(5, with_bots=True)
        await until(lambda: queue(boss) == [5], "in the queue")
        links.clock.advance(WAIT)
        await until(lambda: other.told.get(5), "told")
        table = boss.registry.tables[matched(other, 5)["table"]]
        assert len(table.seats) == 2 and table.state.seat_of_user(5) is not None


async def test_a_cancel_on_another_process_takes_the_player_out(kind: str) -> None:
    async with cluster(kind, 3) as ([boss, one, other], links):
        await one.join(1)
        await until(lambda: other.quick.is_waiting(1), "the queue as the matchmaker says")
        assert other.quick.cancel(1) is True  # (ws.py: the player's socket there closed)
        await until(lambda: queue(boss) == [] and not one.quick.is_waiting(1), "out everywhere")
        assert other.quick.cancel(1) is False

        await other.join(2)
        await until(lambda: queue(boss) == [2], "2 waits alone")
        links.clock.advance(WAIT)
        await settle(links)
        assert one.told == {1: []} and other.told == {2: []}
        assert not boss.registry.tables


async def test_the_limit_is_refused_on_the_process_joined_on(kind: str) -> None:
    async with cluster(kind, 2, Limits(live_games_per_account=0)) as ([boss, one], links):
        with pytest.raises(TableError) as refused:
            await one.join(1)
        assert refused.value.key == "too_many_games.quick"
        await settle(links)
        assert queue(boss) == [] and not one.quick.is_waiting(1)


async def test_when_the_matchmaker_dies_another_takes_its_queue_over(kind: str) -> None:
    async with cluster(kind, 3) as ([boss, one, other], links):
        await one.join(1)
        links.clock.advance(WAIT / 2)
        await other.join(2)
        await until(lambda: queue(boss) == [1, 2], "both in the queue")

        await boss.crash()
        await until(lambda: one.quick.matchmaker == other.quick.matchmaker != "node0", "a new matchmaker")
        heir = one if one.quick.matchmaker == "node1" else other
        await until(lambda: queue(heir) == [1, 2], "the queue on the new matchmaker")
        links.clock.advance(WAIT / 2)  # 1 has waited long enough since it joined, on any process
        await until(lambda: one.told.get(1) and other.told.get(2), "both told")
        first, second = matched(one, 1), matched(other, 2)
        assert first["table"] == second["table"] and first["table"] in heir.registry.tables
        assert not boss.registry.tables


async def test_a_matchmaker_that_stops_hands_the_queue_over_at_once(kind: str) -> None:
    async with cluster(kind, 3) as ([boss, one, other], _):
        await one.join(1)
        await until(lambda: queue(boss) == [1], "in the queue")
        await boss.quick.close()  # gives its lease back and says goodbye
        await until(lambda: one.quick.matchmaker == other.quick.matchmaker != "node0", "a new one", LEASE / 2)
        heir = one if one.quick.matchmaker == "node1" else other
        await until(lambda: queue(heir) == [1], "the queue on the new matchmaker")
        await other.join(2)
        await one.join(3)
        await other.join(4)
        await until(
            lambda: one.told.get(1) and other.told.get(2) and one.told.get(3) and other.told.get(4), ""
        )
        assert (
            len({matched(node, u)["table"] for node, u in ((one, 1), (other, 2), (one, 3), (other, 4))}) == 1
        )


async def test_a_matchmaker_closes_even_when_a_lease_call_swallows_its_cancellation() -> None:
    async with cluster("memory", 2) as ([boss, one], _links):
        boss.leases.swallow = True  # the next renewals wait, then lose their cancellation
        await until(lambda: boss.leases.waiting == 2, "both queues' renewals under way")
        boss.leases.swallow = False  # (giving the lease back goes through)
        async with asyncio.timeout(10):  # a bound on a hang, not a measure: it hung for ever
            await asyncio.gather(boss.quick.close(), boss.bots.close())
        assert boss.leases.swallowed == 2
        await until(lambda: one.quick.matchmaker == one.bots.matchmaker == "node1", "handed over")
