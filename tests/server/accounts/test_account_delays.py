"""Per-name login delays and known devices (accounts/account_delays.py): in one process, and in
Redis, where two instances (as in two processes) count together on the real Redis, on the
app's clock (a `FakeClock` here); while Redis cannot be reached, each counts alone."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest
import redis.asyncio
from redis.asyncio.retry import Retry
from redis.backoff import NoBackoff

from tests import services
from tranque.server.accounts.account_delays import (
    DEVICES_KEPT,
    AccountDelays,
    DelayPolicy,
    KnownDevices,
    RedisAccountDelays,
    RedisKnownDevices,
)
from tranque.server.table.clock import FakeClock

pytestmark = pytest.mark.anyio

POLICY = DelayPolicy(free=3, seconds=3600.0, delay=2.0, most=10.0)


@pytest.fixture
async def clients() -> AsyncIterator[list[redis.asyncio.Redis]]:
    url = services.redis_url()
    opened = [redis.asyncio.Redis.from_url(url) for _ in range(2)]
    try:
        yield opened
    finally:
        for client in opened:
            await client.aclose()


async def test_failures_past_the_free_ones_wait_doubling_delays() -> None:
    clock = FakeClock()
    delays = AccountDelays(POLICY, clock.now)
    assert [await delays.attempt("ana") for _ in range(3)] == [0.0, 0.0, 0.0]
    assert await delays.attempt("ana") == 2.0  # refused: nothing counted
    assert await delays.attempt("luis") == 0.0  # another name counts alone
    clock.advance(2)
    assert await delays.attempt("ana") == 0.0  # the fourth failure, after its wait
    assert await delays.attempt("ana") == 4.0
    clock.advance(4)
    assert await delays.attempt("ana") == 0.0
    assert await delays.attempt("ana") == 8.0
    clock.advance(8)
    assert await delays.attempt("ana") == 0.0
    assert await delays.attempt("ana") == 10.0  # at most `most`
    await delays.succeeded("ana")
    assert await delays.attempt("ana") == 0.0
    clock.advance(3600)
    assert [await delays.attempt("luis") for _ in range(3)] == [0.0, 0.0, 0.0]  # the hour passed


async def test_a_device_is_known_for_its_name_and_the_oldest_are_forgotten() -> None:
    devices = KnownDevices(FakeClock().now)
    await devices.remember("ana", "d0")
    assert await devices.known("ana", "d0") and not await devices.known("luis", "d0")
    for number in range(1, DEVICES_KEPT + 1):
        await devices.remember("ana", f"d{number}")
    assert not await devices.known("ana", "d0") and await devices.known("ana", f"d{DEVICES_KEPT}")


async def test_two_processes_count_one_names_failures_and_devices_together(
    clients: list[redis.asyncio.Redis],
) -> None:
    clock = FakeClock()
    prefix = services.unique_name() + ":throttle:"
    one, other = (RedisAccountDelays(client, POLICY, clock.now, prefix + "account:") for client in clients)
    seen, told = (RedisKnownDevices(client, clock.now, prefix + "devices:") for client in clients)
    try:
        assert [await one.attempt("ana"), await other.attempt("ana"), await one.attempt("ana")] == [0, 0, 0]
        assert await other.attempt("ana") == pytest.approx(2.0)
        clock.advance(2)
        assert await other.attempt("ana") == 0.0
        assert await one.attempt("ana") == pytest.approx(4.0)
        await one.succeeded("ana")
        assert await other.attempt("ana") == 0.0

        assert not await told.known("ana", "d1")
        await seen.remember("ana", "d1")
        assert await told.known("ana", "d1") and not await told.known("luis", "d1")
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
        delays = RedisAccountDelays(nowhere, POLICY, clock.now, "x:")
        assert [await delays.attempt("ana") for _ in range(3)] == [0.0, 0.0, 0.0]
        assert await delays.attempt("ana") == 2.0
        devices = RedisKnownDevices(nowhere, clock.now, "x:")
        await devices.remember("ana", "d1")
        assert await devices.known("ana", "d1")
    finally:
        await nowhere.aclose()
