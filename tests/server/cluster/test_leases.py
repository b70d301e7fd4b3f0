"""Table ownership leases: the same tests on `MemoryLeases` (one object shared by the simulated
processes, time moved by a `FakeClock`) and on `RedisLeases` (one object per process on one
real Redis, time passing for real with short ttls).
"""

from __future__ import annotations

import asyncio
import socket
import time
from collections.abc import AsyncIterator

import pytest
import redis.asyncio

from tests import services
from tests.services import unique_name
from tranque.server.cluster.leases import Leases, LeasesUnavailable, MemoryLeases, RedisLeases, Renewal
from tranque.server.table.clock import FakeClock

pytestmark = pytest.mark.anyio

LONG = 60.0  # a ttl no test outlives
SHORT = 0.2  # a ttl a test waits out
WAIT = 15.0  # seconds to wait for a short lease to expire, before failing


class World:
    """Leases as several processes see them, and time passing for them."""

    def __init__(self, backend: str) -> None:
        self.backend = backend
        self.clock = FakeClock()
        self.memory = MemoryLeases(self.clock)
        self.url = services.redis_url() if backend == "redis" else ""
        self.prefix = f"{unique_name('lease')}:"
        self.made: list[RedisLeases] = []

    async def process(self) -> Leases:
        """The leases as one more process sees them."""
        if self.backend == "memory":
            return self.memory
        leases = RedisLeases(self.url, prefix=self.prefix)
        self.made.append(leases)
        await leases.start()
        return leases

    async def pass_time(self, seconds: float) -> None:
        if self.backend == "memory":
            self.clock.advance(seconds)
        else:
            await asyncio.sleep(seconds)

    async def let_expire(self, leases: Leases, name: str) -> None:
        """Let time pass until lease `name`, taken for SHORT, has expired."""
        if self.backend == "memory":
            self.clock.advance(SHORT)
        deadline = time.monotonic() + WAIT
        while await leases.read([name]) != [None]:
            if time.monotonic() > deadline:
                raise AssertionError(f"lease {name} did not expire within {WAIT} s")
            await asyncio.sleep(0.02)

    async def close(self) -> None:
        for leases in self.made:
            await leases.close()
        if self.backend == "redis":
            client = redis.asyncio.Redis.from_url(self.url)
            try:
                keys = [key async for key in client.scan_iter(match=f"{self.prefix}*")]
                if keys:
                    await client.delete(*keys)
            finally:
                await client.aclose()


@pytest.fixture(params=["memory", "redis"])
async def world(request: pytest.FixtureRequest) -> AsyncIterator[World]:
    made = World(request.param)
    try:
        yield made
    finally:
        await made.close()


async def test_acquire_takes_a_free_lease_and_only_a_free_one(world: World) -> None:
    first, second = await world.process(), await world.process()
    assert await first.acquire("table-1", "p1/1", LONG)
    assert not await second.acquire("table-1", "p2/1", LONG)
    assert await first.acquire("table-1", "p1/1", LONG)  # held already by this value: a retry
    assert await second.acquire("table-2", "p2/1", LONG)
    assert await first.read(["table-1", "table-2"]) == ["p1/1", "p2/1"]


async def test_of_many_contenders_exactly_one_wins(world: World) -> None:
    processes = [await world.process() for _ in range(8)]
    won = await asyncio.gather(
        *(process.acquire("table", f"p{n}/1", LONG) for n, process in enumerate(processes))
    )
    assert won.count(True) == 1
    assert await processes[0].read(["table"]) == [f"p{won.index(True)}/1"]


async def test_a_lease_nobody_renews_expires_and_another_may_take_it(world: World) -> None:
    first, second = await world.process(), await world.process()
    assert await first.acquire("table", "p1/1", SHORT)
    await world.let_expire(second, "table")
    assert await second.acquire("table", "p2/1", LONG)
    assert await first.read(["table"]) == ["p2/1"]


async def test_replace_sets_a_new_value_only_over_the_old_one(world: World) -> None:
    first, second = await world.process(), await world.process()
    assert not await first.replace("table", "p1/?", "p1/1", LONG)  # nobody holds it
    assert await first.read(["table"]) == [None]
    assert await first.acquire("table", "p1/?", LONG)

    assert not await second.replace("table", "p2/?", "p2/1", LONG)
    assert await first.read(["table"]) == ["p1/?"]
    assert await first.replace("table", "p1/?", "p1/1", LONG)
    assert await second.read(["table"]) == ["p1/1"]
    assert await first.replace("table", "p1/?", "p1/1", LONG)  # done already: a retry
    assert not await first.replace("table", "p1/?", "p1/2", LONG)


async def test_replace_gives_a_fresh_ttl(world: World) -> None:
    leases = await world.process()
    assert await leases.acquire("table", "p1/?", SHORT)
    assert await leases.replace("table", "p1/?", "p1/1", LONG)
    await world.pass_time(SHORT * 2)
    assert await leases.read(["table"]) == ["p1/1"]


async def test_renew_extends_what_is_held_takes_back_what_vanished_and_reports_what_is_taken(
    world: World,
) -> None:
    mine, other = await world.process(), await world.process()
    assert await mine.acquire("held", "p1/1", SHORT)
    assert await other.acquire("taken", "p2/1", LONG)

    renewed = await mine.renew({"held": "p1/1", "vanished": "p1/1", "taken": "p1/1"}, LONG)
    assert renewed == {"held": Renewal.HELD, "vanished": Renewal.TAKEN_AGAIN, "taken": Renewal.LOST}
    await world.pass_time(SHORT * 2)  # past the first ttl: "held" lives on by the renewal
    assert await other.read(["held", "vanished", "taken"]) == ["p1/1", "p1/1", "p2/1"]
    assert await mine.renew({}, LONG) == {}


async def test_renew_takes_back_a_lease_that_expired(world: World) -> None:
    leases = await world.process()
    assert await leases.acquire("table", "p1/1", SHORT)
    await world.let_expire(leases, "table")
    assert await leases.renew({"table": "p1/1"}, LONG) == {"table": Renewal.TAKEN_AGAIN}
    assert await leases.read(["table"]) == ["p1/1"]
    assert await leases.renew({"table": "p1/1"}, LONG) == {"table": Renewal.HELD}  # it is back


async def test_only_the_holder_releases_a_lease(world: World) -> None:
    first, second = await world.process(), await world.process()
    assert await first.acquire("table", "p1/1", LONG)
    await second.release("table", "p2/1")
    assert await second.read(["table"]) == ["p1/1"]
    await first.release("table", "p1/1")
    assert await second.read(["table"]) == [None]
    await first.release("table", "p1/1")  # released already: nothing to do
    assert await second.acquire("table", "p2/1", LONG)


async def test_read_gives_each_name_its_value_in_order(world: World) -> None:
    leases = await world.process()
    assert await leases.read([]) == []
    for n in (3, 1, 4):
        assert await leases.acquire(f"table-{n}", f"p{n}/{n}", LONG)
    names = [f"table-{n}" for n in range(6)]
    assert await leases.read(names) == [None, "p1/1", None, "p3/3", "p4/4", None]


async def test_a_ttl_must_be_positive(world: World) -> None:
    leases = await world.process()
    for ttl in (0.0, -1.0, float("nan")):
        with pytest.raises(ValueError):
            await leases.acquire("table", "p1/1", ttl)
        with pytest.raises(ValueError):
            await leases.renew({"table": "p1/1"}, ttl)
    assert await leases.read(["table"]) == [None]


def closed_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port  # closed again when this returns: nothing listens there


async def test_redis_leases_are_unavailable_while_redis_cannot_be_reached() -> None:
    leases = RedisLeases(f"redis://127.0.0.1:{closed_port()}/0")
    await leases.start()
    try:
        with pytest.raises(LeasesUnavailable):
            await leases.acquire("table", "p1/1", LONG)
        with pytest.raises(LeasesUnavailable):
            await leases.replace("table", "p1/1", "p1/2", LONG)
        with pytest.raises(LeasesUnavailable):
            await leases.renew({"table": "p1/1"}, LONG)
        with pytest.raises(LeasesUnavailable):
            await leases.release("table", "p1/1")
        with pytest.raises(LeasesUnavailable):
            await leases.read(["table"])
    finally:
        await leases.close()


async def test_redis_leases_must_be_started() -> None:
    leases = RedisLeases("redis://127.0.0.1:6379/15")
    with pytest.raises(RuntimeError):
        await leases.read(["table"])
    await leases.close()
