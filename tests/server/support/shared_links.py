"""The links between simulated processes for tests of what spans a cluster (presence, quick
match): each "process" gets its own bus and leases, either a `MemoryBus` on one `MemoryHub`
with one `MemoryLeases` on the real clock, or a `RedisBus` and `RedisLeases` on the
test Redis, under a name of the test's own (`unique_name()`), so that runs never meet.

    async with Links.of("redis", clock) as links:
        bus, leases = await links.node()
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from typing import Any

from tests import services
from tranque.server.cluster.bus import Bus, MemoryBus, MemoryHub
from tranque.server.cluster.leases import Leases, LeasesUnavailable, MemoryLeases, RedisLeases, Renewal
from tranque.server.cluster.redis_bus import RedisBus
from tranque.server.table.clock import FakeClock, RealClock

KINDS = ["memory", "redis"]


class Links:
    def __init__(self, kind: str, clock: FakeClock) -> None:
        self.kind = kind
        self.clock = clock
        self.prefix = services.unique_name()  # of the channels and the leases
        self.hub = MemoryHub()
        self.memory_leases = MemoryLeases(RealClock())  # they lapse as Redis's do, in real time
        self.url = services.redis_url() if kind == "redis" else ""
        self._opened: list[tuple[Bus, Leases]] = []

    @classmethod
    @asynccontextmanager
    async def of(cls, kind: str, clock: FakeClock) -> AsyncIterator[Links]:
        links = cls(kind, clock)
        try:
            yield links
        finally:
            await links.close()

    async def node(self) -> tuple[Bus, Switch]:
        """A started bus and the leases of one more process (which a test may cut off)."""
        bus: Bus
        leases: Leases
        if self.kind == "memory":
            bus, leases = MemoryBus(self.hub), self.memory_leases
        else:
            bus, leases = RedisBus(self.url), RedisLeases(self.url, prefix=f"{self.prefix}:lease:")
        await bus.start()
        await leases.start()
        self._opened.append((bus, leases))
        return bus, Switch(leases)

    async def close(self) -> None:
        for bus, _ in self._opened:
            await bus.flush()  # as `Cluster.close` does: what is sent, then the bus closed
        for bus, leases in self._opened:
            await bus.close()
            await leases.close()


class Switch:
    """Leases a test can cut off, as for a process that died or lost Redis, or make swallow
    a cancellation: with `swallow` set, a call waits until it is cancelled and then fails as
    if Redis had, the cancellation lost (as a redis-py call does on Python 3.11, whose
    `asyncio.wait_for` returns a result that came with a cancellation)."""

    def __init__(self, leases: Leases) -> None:
        self.leases = leases
        self.dead = False
        self.swallow = False
        self.waiting = 0  # calls waiting to be cancelled
        self.swallowed = 0  # cancellations lost so far

    async def _check(self) -> None:
        if self.dead:
            raise LeasesUnavailable("cut off by the test")
        if self.swallow:
            self.waiting += 1
            try:
                await asyncio.Event().wait()
            except asyncio.CancelledError:
                self.swallowed += 1
                raise LeasesUnavailable("cancelled, and the cancellation swallowed") from None
            finally:
                self.waiting -= 1

    async def start(self) -> None:
        pass

    async def close(self) -> None:
        pass

    async def acquire(self, name: str, value: str, ttl: float) -> bool:
        await self._check()
        return await self.leases.acquire(name, value, ttl)

    async def replace(self, name: str, old: str, new: str, ttl: float) -> bool:
        await self._check()
        return await self.leases.replace(name, old, new, ttl)

    async def renew(self, held: dict[str, str], ttl: float) -> dict[str, Renewal]:
        await self._check()
        return await self.leases.renew(held, ttl)

    async def release(self, name: str, value: str) -> None:
        await self._check()
        await self.leases.release(name, value)

    async def read(self, names: list[str]) -> list[str | None]:
        await self._check()
        return await self.leases.read(names)


async def until(condition: Callable[[], Any], what: str, seconds: float = 5.0) -> None:
    """Let the loop run (and the bus deliver) until `condition()` holds."""
    deadline = asyncio.get_running_loop().time() + seconds
    while not condition():
        if asyncio.get_running_loop().time() > deadline:
            raise AssertionError(f"never: {what}")
        await asyncio.sleep(0.002)


async def settle(links: Links) -> None:
    """Let every message published so far arrive (and what its handlers published, in turn)."""
    for _ in range(3):
        for bus, _ in links._opened:
            await bus.flush()
        await asyncio.sleep(0.05 if links.kind == "redis" else 0)
        for _ in range(5):
            await asyncio.sleep(0)
