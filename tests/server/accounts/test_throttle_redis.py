"""The limiters in Redis (throttle.py): two instances, as in two processes, count together on
the real Redis, on the app's clock (a `FakeClock` here); while Redis cannot be reached, each
counts alone."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest
import redis.asyncio
from redis.asyncio.retry import Retry
from redis.backoff import NoBackoff

from tests import services
from tranque.server.accounts.throttle import RedisLoginLimiter, RedisSlidingWindow
from tranque.server.table.clock import FakeClock

pytestmark = pytest.mark.anyio


@pytest.fixture
async def clients() -> AsyncIterator[list[redis.asyncio.Redis]]:
    """Two clients of the test Redis, one per "process"."""
    url = services.redis_url()
    opened = [redis.asyncio.Redis.from_url(url) for _ in range(2)]
    try:
        yield opened
    finally:
        for client in opened:
            await client.aclose()


async def test_two_windows_on_one_prefix_count_together(clients: list[redis.asyncio.Redis]) -> None:
    clock = FakeClock()
    prefix = services.unique_name() + ":registrations:"
    one, other = (RedisSlidingWindow(client, 3, 3600, clock.now, prefix) for client in clients)
    try:
        assert await one.take("10.0.0.1") and await other.take("10.0.0.1")
        clock.advance(1800)
        assert await one.take("10.0.0.1")
        assert not await other.take("10.0.0.1") and not await one.take("10.0.0.1")
        assert await other.full("10.0.0.1") and not await other.full("10.0.0.2")
        assert await other.take("10.0.0.2")  # another address counts on its own

        clock.advance(1800)  # the first two are an hour old: out of the window
        assert not await one.full("10.0.0.1")
        assert await other.take("10.0.0.1") and await one.take("10.0.0.1")
        assert not await other.take("10.0.0.1")

        await one.take_back("10.0.0.1")  # the latest event forgotten
        assert await other.take("10.0.0.1")
        await other.clear("10.0.0.1")
        await one.add("10.0.0.1")
        await one.add("10.0.0.1")
        assert not await other.full("10.0.0.1")
        await other.add("10.0.0.1")
        assert await one.full("10.0.0.1")
        ttl = await clients[0].pttl(prefix + "10.0.0.1")
        assert 0 < ttl <= 3600 * 1000  # an idle key goes away by itself
    finally:
        await clients[0].delete(prefix + "10.0.0.1", prefix + "10.0.0.2")


async def test_two_login_limiters_count_failures_together(clients: list[redis.asyncio.Redis]) -> None:
    clock = FakeClock()
    prefix = services.unique_name() + ":login:"
    one, other = (RedisLoginLimiter(client, 2, 3, clock.now, prefix) for client in clients)
    try:
        # At most 2 failures per address and name, 3 per address on all names, a minute.
        assert await one.attempt("10.0.0.1", "ana") and await other.attempt("10.0.0.1", "ana")
        assert not await one.attempt("10.0.0.1", "ana")
        assert await other.attempt("10.0.0.2", "ana")  # another address
        assert await one.attempt("10.0.0.1", "luis")
        assert not await other.attempt("10.0.0.1", "pedro")  # the address's third failure counted

        await other.succeeded("10.0.0.1", "luis")  # luis was right: his attempt is taken back
        assert await one.attempt("10.0.0.1", "pedro")
        assert not await other.attempt("10.0.0.1", "pedro")

        clock.advance(60)
        assert await one.attempt("10.0.0.1", "ana") and await other.attempt("10.0.0.1", "pedro")
    finally:
        keys = [key async for key in clients[0].scan_iter(match=prefix + "*")]
        if keys:
            await clients[0].delete(*keys)


async def test_while_redis_is_unreachable_each_process_counts_alone() -> None:
    clock = FakeClock()
    nowhere = redis.asyncio.Redis.from_url(
        "redis://127.0.0.1:1/0", socket_connect_timeout=0.5, retry=Retry(NoBackoff(), 0)
    )
    try:
        window = RedisSlidingWindow(nowhere, 2, 60, clock.now, "x:")
        assert await window.take("a") and await window.take("a")
        assert not await window.take("a") and await window.full("a")
        await window.take_back("a")
        assert not await window.full("a")
        await window.clear("a")
        await window.add("a")
        assert not await window.full("a")

        limiter = RedisLoginLimiter(nowhere, 1, 5, clock.now, "x:")
        assert await limiter.attempt("10.0.0.1", "ana")
        assert not await limiter.attempt("10.0.0.1", "ana")
        await limiter.succeeded("10.0.0.1", "ana")
        assert await limiter.attempt("10.0.0.1", "ana")
    finally:
        await nowhere.aclose()
