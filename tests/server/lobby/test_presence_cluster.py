"""Who is online across several processes (presence.py): simulated processes in one event
loop, on a `MemoryBus` hub and on the real Redis (shared_links.py), with fake sockets.

An account online on one process is online on all; a notice sent on one reaches its sockets
on another; moving a socket between processes never makes it flicker; a process that is
gone takes its accounts with it (after the grace), and a new one learns who is online.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import pytest

from tests.server.support.shared_links import KINDS, Links, settle, until
from tranque.server.lobby.presence import Presence
from tranque.server.table.clock import FakeClock

pytestmark = pytest.mark.anyio

GRACE = 8.0
ANA, BETO = 1, 2


class FakeSocket:
    """What presence uses of a `Connection`: `send_text` (kept, parsed) and `muted`."""

    def __init__(self) -> None:
        self.frames: list[dict[str, Any]] = []
        self.muted: frozenset[int] = frozenset()

    def send_text(self, text: str) -> None:
        self.frames.append(json.loads(text))


class Node:
    def __init__(self, presence: Presence) -> None:
        self.presence = presence
        self.changes: list[tuple[int, bool]] = []
        presence.on_change = lambda user_id, online: self.changes.append((user_id, online))


@pytest.fixture(params=KINDS)
def kind(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@asynccontextmanager
async def cluster(kind: str, count: int) -> AsyncIterator[tuple[list[Node], Links]]:
    clock = FakeClock()
    async with Links.of(kind, clock) as links:
        nodes: list[Node] = []
        try:
            for index in range(count):
                nodes.append(await start(links, f"node{index}"))
            await settle(links)
            yield nodes, links
        finally:
            for node in nodes:
                node.presence.close()


def known_sockets(presence: Presence, user_id: int) -> int:
    """The account's sockets on the other processes, as `presence` heard of them."""
    return sum(accounts.get(user_id, 0) for accounts in presence._remote.values())


async def start(links: Links, name: str) -> Node:
    bus, _ = await links.node()
    presence = Presence(
        links.clock, grace_seconds=GRACE, bus=bus, node=name, channel=f"{links.prefix}:presence"
    )
    node = Node(presence)
    await presence.start()
    return node


async def test_an_account_online_on_one_process_is_online_on_every_one(kind: str) -> None:
    async with cluster(kind, 3) as ([a, b, c], links):
        socket = FakeSocket()
        a.presence.add(ANA, socket)
        await until(lambda: b.presence.online(ANA) and c.presence.online(ANA), "ana online everywhere")
        assert a.changes == b.changes == c.changes == [(ANA, True)]
        assert not b.presence.online(BETO)

        a.presence.remove(ANA, socket)
        await settle(links)
        assert b.presence.online(ANA)  # in her grace on A
        links.clock.advance(GRACE)
        await until(lambda: not b.presence.online(ANA) and not c.presence.online(ANA), "ana offline")
        assert a.changes == b.changes == c.changes == [(ANA, True), (ANA, False)]


async def test_a_notice_sent_on_one_process_reaches_the_sockets_on_the_others(kind: str) -> None:
    async with cluster(kind, 3) as ([a, b, c], _):
        on_a, on_c, also_on_c = FakeSocket(), FakeSocket(), FakeSocket()
        a.presence.add(ANA, on_a)
        c.presence.add(ANA, on_c)
        c.presence.add(ANA, also_on_c)
        await until(lambda: known_sockets(b.presence, ANA) == 3, "B has heard of her three sockets")

        notice = {"type": "notice", "kind": "invite", "from": "beto"}
        assert b.presence.send(ANA, notice) == 3  # what B knows: one socket on A, two on C
        await until(lambda: on_a.frames and on_c.frames and also_on_c.frames, "the notice everywhere")
        assert on_a.frames == on_c.frames == also_on_c.frames == [notice]

        assert b.presence.send_local(ANA, notice) == 0  # B has none of her sockets itself
        b.presence.set_muted(ANA, frozenset({BETO}))
        await until(lambda: on_a.muted == on_c.muted == also_on_c.muted == frozenset({BETO}), "muted")


async def test_moving_a_socket_to_another_process_never_flickers(kind: str) -> None:
    async with cluster(kind, 3) as ([a, b, c], links):
        first = FakeSocket()
        a.presence.add(ANA, first)
        await until(lambda: c.presence.online(ANA), "ana online")

        # A reload lands on another process: closed on A, opened on B within the grace.
        a.presence.remove(ANA, first)
        links.clock.advance(GRACE / 2)
        second = FakeSocket()
        b.presence.add(ANA, second)
        await settle(links)
        links.clock.advance(GRACE)  # her grace on A ends: she is still on B
        await settle(links)
        for node in (a, b, c):
            assert node.presence.online(ANA)
            assert node.changes == [(ANA, True)]

        # And back, in the other order: opened on C before B's socket closes.
        third = FakeSocket()
        c.presence.add(ANA, third)
        b.presence.remove(ANA, second)
        await settle(links)  # (the grace is seconds, the bus milliseconds)
        links.clock.advance(GRACE)
        await settle(links)
        assert [node.changes for node in (a, b, c)] == [[(ANA, True)]] * 3
        assert b.presence.send(ANA, {"type": "hola"}) == 1
        await until(lambda: third.frames == [{"type": "hola"}], "reached her on C")


async def test_a_process_that_is_gone_takes_its_accounts_with_it(kind: str) -> None:
    async with cluster(kind, 3) as ([a, b, c], links):
        a.presence.add(ANA, FakeSocket())
        a.presence.add(BETO, FakeSocket())
        c.presence.add(BETO, FakeSocket())
        # Every socket heard of everywhere, so that none is heard of after A is gone.
        await until(
            lambda: (
                known_sockets(b.presence, ANA) == 1
                and known_sockets(b.presence, BETO) == 2
                and known_sockets(c.presence, ANA) == 1
                and known_sockets(c.presence, BETO) == 1
            ),
            "every socket heard of on B and C",
        )
        assert b.presence.nodes() == {"node0", "node2"}

        # A dies: the cluster says so (its lease lapsed) to each process left.
        for node in (b, c):
            node.presence.drop_node("node0")
        assert b.presence.online(ANA)  # for the grace: her socket may be opening elsewhere
        links.clock.advance(GRACE)
        await settle(links)
        for node in (b, c):
            assert not node.presence.online(ANA)
            assert node.presence.online(BETO)  # still on C
            assert sorted(node.changes) == [(ANA, False), (ANA, True), (BETO, True)]
            assert node.changes[-1] == (ANA, False)
        assert b.presence.nodes() == {"node2"}


async def test_a_process_that_stops_says_goodbye(kind: str) -> None:
    async with cluster(kind, 2) as ([a, b], links):
        a.presence.add(ANA, FakeSocket())
        await until(lambda: b.presence.online(ANA), "ana online")
        a.presence.close()
        await until(lambda: "node0" not in b.presence.nodes(), "a gone")
        links.clock.advance(GRACE)
        assert not b.presence.online(ANA)
        assert b.changes == [(ANA, True), (ANA, False)]


async def test_a_new_process_learns_who_is_online_without_announcing_it(kind: str) -> None:
    async with cluster(kind, 2) as ([a, b], links):
        socket = FakeSocket()
        a.presence.add(ANA, socket)
        b.presence.add(BETO, FakeSocket())
        b.presence.remove(BETO, b.presence._sockets[BETO].copy().pop())
        await settle(links)
        late = await start(links, "node9")
        try:
            await until(lambda: late.presence.online(ANA) and late.presence.online(BETO), "learnt")
            assert late.changes == []  # nothing changed for ana and beto
            a.presence.remove(ANA, socket)
            links.clock.advance(GRACE)
            await until(lambda: not late.presence.online(ANA) and not late.presence.online(BETO), "gone")
            assert sorted(late.changes) == [(ANA, False), (BETO, False)]
        finally:
            late.presence.close()


async def test_after_the_bus_lost_messages_every_process_asks_again() -> None:
    async with cluster("memory", 2) as ([a, b], links):
        a.presence.add(ANA, FakeSocket())
        await settle(links)
        b.presence._remote.clear()  # what the lost messages would have said
        assert not b.presence.online(ANA)
        links.hub.reset()
        await settle(links)
        assert b.presence.online(ANA)
