"""Table ownership leases: which process runs a table, for as long as it keeps renewing.

A lease is a name (say a table's id) holding a value its holder chose (say "process-id/epoch")
for a time to live; a lease nobody renews expires, and another process may take it. Leases say
who should run a table, not who may write it: safety comes from the epoch fencing in the
database. So `renew` takes back a lease that vanished (it expired, or Redis restarted and forgot
everything) instead of giving the table up, and says so (`Renewal.TAKEN_AGAIN`): others may
have seen it missing meanwhile, and its holder may have to tell them it is back.

`MemoryLeases` keeps leases in memory on a `Clock`; one object shared by several simulated
processes is their common Redis. `RedisLeases` keeps each lease under `prefix + name` in Redis,
with the time to live as the key's expiry.
"""

from __future__ import annotations

import enum
import math
from collections.abc import Awaitable
from typing import Any, Protocol, TypeVar, cast

import redis.asyncio
from redis.asyncio.retry import Retry
from redis.backoff import NoBackoff
from redis.exceptions import ConnectionError, ReadOnlyError, TimeoutError

from tranque.server import metrics
from tranque.server.table.clock import Clock, RealClock

T = TypeVar("T")

SOCKET_TIMEOUT = 1.0  # seconds: an unreachable Redis fails an operation about this fast


class LeasesUnavailable(Exception):
    """Redis cannot be reached now: try again later."""


class Renewal(enum.Enum):
    """What `Leases.renew` found of one lease (the numbers are the Redis script's answers)."""

    LOST = 0  # another value holds it: left alone
    HELD = 1  # it held the value: extended
    TAKEN_AGAIN = 2  # it had vanished (expired, or Redis forgot it): taken again for the value


class Leases(Protocol):
    async def start(self) -> None: ...

    async def close(self) -> None: ...

    async def acquire(self, name: str, value: str, ttl: float) -> bool:
        """Take lease `name` for `value` for `ttl` seconds, unless another value holds it.

        True also when `value` holds it already (its time to live starts again), so that a
        retried call is not refused by its own first attempt.
        """
        ...

    async def replace(self, name: str, old: str, new: str, ttl: float) -> bool:
        """Set `name` to `new` for `ttl` seconds if it holds `old` (or `new` already)."""
        ...

    async def renew(self, held: dict[str, str], ttl: float) -> dict[str, Renewal]:
        """Extend each lease of `held` (name -> value) for `ttl` seconds, in one round trip.

        `HELD` for a lease that holds its value; `TAKEN_AGAIN` for one that vanished, set to
        the value again (for as long as it was missing, others saw no holder); `LOST` for one
        another value holds, which is left alone.
        """
        ...

    async def release(self, name: str, value: str) -> None:
        """Give lease `name` up, if `value` holds it."""
        ...

    async def read(self, names: list[str]) -> list[str | None]:
        """The values holding `names` (None for no holder), in one round trip."""
        ...


def _milliseconds(ttl: float) -> int:
    if not ttl > 0:
        raise ValueError(f"a lease's ttl must be positive, not {ttl!r}")
    return max(1, math.ceil(ttl * 1000))


class MemoryLeases:
    """Leases in memory: share one object among simulated processes."""

    def __init__(self, clock: Clock | None = None) -> None:
        self.clock: Clock = clock if clock is not None else RealClock()
        self._leases: dict[str, tuple[str, float]] = {}  # name -> (value, expires at)

    async def start(self) -> None:
        pass

    async def close(self) -> None:
        pass

    async def acquire(self, name: str, value: str, ttl: float) -> bool:
        _milliseconds(ttl)
        current = self._current(name)
        if current is not None and current != value:
            return False
        self._set(name, value, ttl)
        return True

    async def replace(self, name: str, old: str, new: str, ttl: float) -> bool:
        _milliseconds(ttl)
        current = self._current(name)
        if current is None or current not in (old, new):
            return False
        self._set(name, new, ttl)
        return True

    async def renew(self, held: dict[str, str], ttl: float) -> dict[str, Renewal]:
        _milliseconds(ttl)
        renewed: dict[str, Renewal] = {}
        for name, value in held.items():
            current = self._current(name)
            if current is not None and current != value:
                renewed[name] = Renewal.LOST
                continue
            renewed[name] = Renewal.HELD if current == value else Renewal.TAKEN_AGAIN
            self._set(name, value, ttl)
        return renewed

    async def release(self, name: str, value: str) -> None:
        if self._current(name) == value:
            del self._leases[name]

    async def read(self, names: list[str]) -> list[str | None]:
        return [self._current(name) for name in names]

    def _current(self, name: str) -> str | None:
        lease = self._leases.get(name)
        if lease is None:
            return None
        value, expires_at = lease
        if self.clock.now() >= expires_at:
            del self._leases[name]
            return None
        return value

    def _set(self, name: str, value: str, ttl: float) -> None:
        self._leases[name] = (value, self.clock.now() + ttl)


# KEYS[1] the lease; ARGV[1] the value, ARGV[2] the ttl in milliseconds.
_ACQUIRE = """
local current = redis.call('GET', KEYS[1])
if current == ARGV[1] then
    redis.call('PEXPIRE', KEYS[1], ARGV[2])
    return 1
end
if current then
    return 0
end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
return 1
"""

# KEYS[1] the lease; ARGV[1] the old value, ARGV[2] the new one, ARGV[3] the ttl in milliseconds.
_REPLACE = """
local current = redis.call('GET', KEYS[1])
if current ~= ARGV[1] and current ~= ARGV[2] then
    return 0
end
redis.call('SET', KEYS[1], ARGV[2], 'PX', ARGV[3])
return 1
"""

# KEYS the leases; ARGV[1] the ttl in milliseconds, ARGV[1 + i] the value held in KEYS[i].
# Answers a `Renewal` for each: 1 held, 2 taken again, 0 lost.
_RENEW = """
local renewed = {}
for i, key in ipairs(KEYS) do
    local value = ARGV[i + 1]
    local current = redis.call('GET', key)
    if current == value then
        redis.call('PEXPIRE', key, ARGV[1])
        renewed[i] = 1
    elseif not current then
        redis.call('SET', key, value, 'PX', ARGV[1])
        renewed[i] = 2
    else
        renewed[i] = 0
    end
end
return renewed
"""

# KEYS[1] the lease; ARGV[1] the value.
_RELEASE = """
if redis.call('GET', KEYS[1]) == ARGV[1] then
    return redis.call('DEL', KEYS[1])
end
return 0
"""


class RedisLeases:
    """Leases in Redis, each under `prefix + name`; operations raise `LeasesUnavailable` while
    Redis cannot be reached, and work again once it can."""

    def __init__(self, url: str, prefix: str = "tranque:lease:") -> None:
        self.url = url
        self.prefix = prefix
        self._client: redis.asyncio.Redis | None = None
        self._scripts: dict[str, Any] = {}

    async def start(self) -> None:
        if self._client is not None:
            return
        client = redis.asyncio.Redis.from_url(
            self.url,
            decode_responses=True,
            socket_timeout=SOCKET_TIMEOUT,
            socket_connect_timeout=SOCKET_TIMEOUT,
            retry=Retry(NoBackoff(), 0),  # the caller retries, later
        )
        self._scripts = {
            "acquire": client.register_script(_ACQUIRE),
            "replace": client.register_script(_REPLACE),
            "renew": client.register_script(_RENEW),
            "release": client.register_script(_RELEASE),
        }
        self._client = client

    async def close(self) -> None:
        client, self._client = self._client, None
        if client is not None:
            await client.aclose()

    async def acquire(self, name: str, value: str, ttl: float) -> bool:
        answer = await self._script("acquire", [self.prefix + name], [value, _milliseconds(ttl)])
        return bool(answer)

    async def replace(self, name: str, old: str, new: str, ttl: float) -> bool:
        answer = await self._script("replace", [self.prefix + name], [old, new, _milliseconds(ttl)])
        return bool(answer)

    async def renew(self, held: dict[str, str], ttl: float) -> dict[str, Renewal]:
        milliseconds = _milliseconds(ttl)
        if not held:
            return {}
        names = list(held)
        keys = [self.prefix + name for name in names]
        answer = await self._script("renew", keys, [milliseconds, *(held[name] for name in names)])
        return {name: Renewal(int(renewed)) for name, renewed in zip(names, answer, strict=True)}

    async def release(self, name: str, value: str) -> None:
        await self._script("release", [self.prefix + name], [value])

    async def read(self, names: list[str]) -> list[str | None]:
        if not names:
            return []
        client = self._started()
        values = await self._call(client.mget([self.prefix + name for name in names]))
        return cast("list[str | None]", values)

    def _started(self) -> redis.asyncio.Redis:
        if self._client is None:
            raise RuntimeError("RedisLeases is not started")
        return self._client

    async def _script(self, which: str, keys: list[str], args: list[str | int]) -> Any:
        self._started()
        return await self._call(self._scripts[which](keys=keys, args=args))

    @staticmethod
    async def _call(operation: Awaitable[T]) -> T:
        try:
            return await operation
        except (ConnectionError, TimeoutError, ReadOnlyError, OSError) as error:
            metrics.REDIS_ERRORS.inc()
            raise LeasesUnavailable(f"Redis is unreachable: {error}") from error
