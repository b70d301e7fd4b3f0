"""`ServerState` of one of several processes (state.py, `Shared`): two states on one store,
linked by a `MemoryBus` hub (or the real Redis) and with their limiters in Redis, as two
processes' lifespans would build them.

A friend coming online on one process is announced once to each socket of each friend,
whichever process it is on; registrations are counted across the processes; a process that
is gone takes its accounts and its waiting players with it.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import pytest

from tests import services
from tests.server.support.shared_links import KINDS, Links, settle, until
from tranque.server.analysis.queue import AnalysisQueue
from tranque.server.analysis.verify_pool import Verifier
from tranque.server.app_state import ServerState, Shared
from tranque.server.cluster.settings import ClusterSettings
from tranque.server.lobby.presence import GRACE_SECONDS
from tranque.server.lobby.quickmatch import QuickMatch
from tranque.server.lobby.registry import Registry
from tranque.server.settings import Settings
from tranque.server.store import MemoryStore
from tranque.server.table.bots import InlineBots
from tranque.server.table.clock import FakeClock

pytestmark = pytest.mark.anyio


class FakeSocket:
    def __init__(self) -> None:
        self.frames: list[dict[str, Any]] = []
        self.muted: frozenset[int] = frozenset()

    def send_text(self, text: str) -> None:
        self.frames.append(json.loads(text))

    def notices(self) -> list[tuple[str, str]]:
        return [(frame["kind"], frame["from"]) for frame in self.frames if frame["type"] == "notice"]


@pytest.fixture(params=KINDS)
def kind(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@asynccontextmanager
async def processes(kind: str, count: int) -> AsyncIterator[tuple[list[ServerState], MemoryStore, Links]]:
    store = MemoryStore()
    await store.start()
    clock = FakeClock()
    redis_url = services.redis_url()
    async with Links.of(kind, clock) as links:
        cluster = ClusterSettings(lease_seconds=1.0, renew_seconds=0.1, prefix=links.prefix)
        settings = Settings(database_url="memory://", clock=clock, cluster=cluster, redis_url=redis_url)
        states: list[ServerState] = []
        try:
            for index in range(count):
                bus, leases = await links.node()
                registry = Registry(store, clock, InlineBots())
                quick = QuickMatch(registry, clock, 10.0, "greedy")
                shared = Shared(bus, leases, f"node{index}", cluster, redis_url)
                verifier = Verifier(settings.limits, False)
                analyses = AnalysisQueue(store, clock, workers=0)
                state = ServerState(
                    settings, store, registry, quick, InlineBots(), verifier, analyses, shared=shared
                )
                states.append(state)
                await state.start_shared()
            await settle(links)
            yield states, store, links
        finally:
            for state in states:
                await state.close_shared()
                state.presence.close()
                await state.registry.close()
                await state.verifier.close()
            await store.close()


async def test_a_friend_online_on_one_process_is_announced_once_to_each_socket(kind: str) -> None:
    async with processes(kind, 3) as ([a, b, c], store, links):
        ana = await store.create_user("ana", "x", 0.0)
        beto = await store.create_user("beto", "x", 0.0)
        await store.request_friend(beto.user_id, ana.user_id, 0.0)
        assert await store.accept_friend(ana.user_id, beto.user_id, 0.0)
        on_b, on_c, also_on_b = FakeSocket(), FakeSocket(), FakeSocket()
        b.presence.add(beto.user_id, on_b)
        c.presence.add(beto.user_id, on_c)
        b.presence.add(beto.user_id, also_on_b)
        await until(lambda: a.presence.online(beto.user_id), "beto online on a")

        a.presence.add(ana.user_id, FakeSocket())
        await until(lambda: on_b.notices() and on_c.notices() and also_on_b.notices(), "told")
        await settle(links)
        for socket in (on_b, on_c, also_on_b):
            assert socket.notices() == [("friend_online", "ana")]  # once, not once per process
        listing = await c.friends.listing(beto)
        assert [(friend["name"], friend["online"]) for friend in listing["friends"]] == [("ana", True)]

        sent = b.presence.send(beto.user_id, {"type": "notice", "kind": "invite", "from": "ana"})
        assert sent == 3  # two sockets here, one on c
        await until(lambda: ("invite", "ana") in on_c.notices(), "the invitation on c")

        # a is gone (its lease lapsed): the cluster tells the others.
        assert "node0" in b.nodes() and "node0" in c.nodes()
        for state in (b, c):
            state.node_gone("node0")
        links.clock.advance(GRACE_SECONDS)
        await until(lambda: ("friend_offline", "ana") in on_c.notices(), "ana offline")
        await settle(links)
        for socket in (on_b, on_c, also_on_b):
            assert socket.notices()[-1] == ("friend_offline", "ana")
            assert socket.notices().count(("friend_offline", "ana")) == 1


async def test_a_process_whose_lease_lapsed_has_its_accounts_online_again_once_it_takes_it_back(
    kind: str,
) -> None:
    """A stalled past its lease: the others called it gone and, after the grace, its account
    went offline there. A's renewal takes its lease back (the cluster's
    `on_lease_taken_again`): A tells its list again and its account is online everywhere."""
    async with processes(kind, 3) as ([a, b, c], _, links):
        a.presence.add(7, FakeSocket())
        await until(lambda: b.presence.online(7) and c.presence.online(7), "7 online on b and c")
        for state in (b, c):
            state.node_gone("node0")
        links.clock.advance(GRACE_SECONDS)
        assert not b.presence.online(7) and not c.presence.online(7)

        a.lease_taken_again()
        await until(lambda: b.presence.online(7) and c.presence.online(7), "7 online again on b and c")
        assert "node0" in b.nodes() and "node0" in c.nodes()  # watched again


async def test_registrations_are_counted_across_processes(kind: str) -> None:
    async with processes(kind, 2) as ([a, b], _, _):
        limit = a.settings.registrations_per_address_per_hour
        address = services.unique_name()
        for index in range(limit):
            assert await (a if index % 2 else b).registrations.take(address)
        assert not await a.registrations.take(address)
        assert not await b.registrations.take(address)
        assert await b.login_limiter.attempt(address, "ana")


async def test_a_process_gone_takes_its_waiting_players_with_it(kind: str) -> None:
    async with processes(kind, 3) as ([a, b, c], _, links):
        told_7: list[dict[str, Any]] = []  # what each player is told: not read here
        told_8: list[dict[str, Any]] = []
        await b.quick.join(7, "siete", told_7.append, False)
        await c.quick.join(8, "ocho", told_8.append, False)
        await until(lambda: sorted(w.user_id for w in a.quick.waiting) == [7, 8], "in a's queue")
        assert a.quick.nodes() == {"node1", "node2"}  # its players' processes
        assert b.quick.nodes() == {"node0"}  # the matchmaker
        dying, _ = links._opened[2]
        await dying.flush()  # (a RedisBus closed while it publishes may hang in `close`)
        await dying.close()  # c dies
        a.node_gone("node2")
        assert [w.user_id for w in a.quick.waiting] == [7]
        await until(lambda: not b.quick.is_waiting(8), "8 is not waiting any more")

        # b was taken for gone, wrongly: it sends its player again.
        a.node_gone("node1")
        assert not a.quick.waiting
        await until(lambda: [w.user_id for w in a.quick.waiting] == [7], "7 back in the queue")
