"""Per-client limits, counted on the app's clock: failed logins and registrations.

Each limit is a sliding window of event times per key. In memory: a restart forgets, which
is acceptable for limits measured in minutes and hours. Keys are client places as
`addresses.client_place` gives them (an IPv4 address, an IPv6 /64), so behind a trusted proxy
they are the real clients'.

With several processes the windows are in Redis (`RedisSlidingWindow`, `RedisLoginLimiter`),
so that a client counts the same whichever process it reaches: a sorted set per key, its
members the events, scored by their times on the app's clock (every process's clock is the
wall clock), trimmed by each check and expiring once idle; checking and counting is one Lua
script, as atomic as the in-memory check with no await in it. While Redis cannot be reached,
each process counts alone, in memory, rather than refuse everybody or nobody.

The login limit follows OWASP's Authentication Cheat Sheet on lock-out: only failures count,
a success clears its own count, and nothing is ever limited per account alone, so nobody can
lock an owner out by failing on the owner's name from somewhere else.
"""

from __future__ import annotations

import logging
import math
import secrets
from collections import deque
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from typing import Protocol, TypeVar

import redis.asyncio
from redis.exceptions import RedisError

from tranque.server import metrics

log = logging.getLogger(__name__)

T = TypeVar("T")

SWEEP_ABOVE = 10_000  # keys are pruned when used; past this many, sweep the idle ones too
LOGIN_SECONDS = 60


class EventLimit(Protocol):
    """A limit on events per key (registrations per address): `SlidingWindow` in one process,
    `RedisSlidingWindow` in several."""

    async def take(self, key: str) -> bool:
        """Count one event for `key`, unless it would be over the limit; whether it counted."""
        ...


class LoginLimit(Protocol):
    """`LoginLimiter` in one process, `RedisLoginLimiter` in several."""

    async def attempt(self, address: str, name_key: str) -> bool: ...

    async def succeeded(self, address: str, name_key: str) -> None: ...


@dataclass
class SlidingWindow:
    """At most `limit` events per key within any `seconds`.

    >>> now = [0.0]
    >>> window = SlidingWindow(2, 60, lambda: now[0])
    >>> window.add("a"); window.add("a"); window.full("a"), window.full("b")
    (True, False)
    >>> now[0] = 60.0
    >>> window.full("a")
    False
    """

    limit: int
    seconds: float
    now: Callable[[], float]
    times: dict[str, deque[float]] = field(default_factory=dict)

    def full(self, key: str) -> bool:
        """Whether one more event for `key` would be over the limit."""
        times = self._current(key)
        return times is not None and len(times) >= self.limit

    def add(self, key: str) -> None:
        if len(self.times) > SWEEP_ABOVE:
            for idle in [k for k in self.times if self._current(k) is None]:
                del self.times[idle]
        self.times.setdefault(key, deque()).append(self.now())

    async def take(self, key: str) -> bool:
        """`EventLimit.take`: checked and counted with no await between."""
        if self.full(key):
            return False
        self.add(key)
        return True

    def clear(self, key: str) -> None:
        self.times.pop(key, None)

    def take_back(self, key: str) -> None:
        """Forget the key's latest event."""
        times = self.times.get(key)
        if times:
            times.pop()

    def events(self, key: str) -> Sequence[float]:
        """The key's event times still in the window, oldest first."""
        return self._current(key) or ()

    def _current(self, key: str) -> deque[float] | None:
        """The key's times still in the window, forgetting the key when none are."""
        times = self.times.get(key)
        if times is None:
            return None
        start = self.now() - self.seconds
        while times and times[0] <= start:
            times.popleft()
        if not times:
            del self.times[key]
            return None
        return times


@dataclass
class LoginLimiter:
    """Failed logins within any minute: at most `per_account` from one address on one name,
    and `per_address` from one address on all names together.

    An attempt counts as failed from its start, so that many at once cannot all slip under
    the limit while their passwords are being checked; a success takes its count back.

    With 2 per account and 3 per address, from 10.0.0.1: "ana" may be tried twice, and the
    third try on "ana" is refused; "luis" once more, and then any name is refused there,
    while 10.0.0.2 may still try "ana" (tests/server/ws/test_rate_limit.py and test_throttle_redis.py).
    """

    per_account: int
    per_address: int
    now: Callable[[], float]
    pairs: SlidingWindow = field(init=False)
    addresses: SlidingWindow = field(init=False)

    def __post_init__(self) -> None:
        self.pairs = SlidingWindow(self.per_account, LOGIN_SECONDS, self.now)
        self.addresses = SlidingWindow(self.per_address, LOGIN_SECONDS, self.now)

    async def attempt(self, address: str, name_key: str) -> bool:
        """Whether a login may be tried now; if so it is counted as failed until `succeeded`
        (checked and counted with no await between)."""
        pair = _pair(address, name_key)
        if self.pairs.full(pair) or self.addresses.full(address):
            return False
        self.pairs.add(pair)
        self.addresses.add(address)
        return True

    async def succeeded(self, address: str, name_key: str) -> None:
        self.pairs.clear(_pair(address, name_key))
        self.addresses.take_back(address)


def _pair(address: str, name_key: str) -> str:
    return f"{address} {name_key}"  # a space is in neither an address nor a name


# In Redis ------------------------------------------------------------------------------------

# KEYS the windows; ARGV[1] now, ARGV[2] the new event's member, then for each window i its
# limit (ARGV[3i]), the time its events must be after (ARGV[3i + 1]) and its length in
# milliseconds (ARGV[3i + 2]). The event counts in every window or in none. (Times stay the
# strings Python wrote: a Lua number would be written back with 14 digits only.)
_TAKE = """
for i, key in ipairs(KEYS) do
    redis.call('ZREMRANGEBYSCORE', key, '-inf', ARGV[3 * i + 1])
    if redis.call('ZCARD', key) >= tonumber(ARGV[3 * i]) then
        return 0
    end
end
for i, key in ipairs(KEYS) do
    redis.call('ZADD', key, ARGV[1], ARGV[2])
    redis.call('PEXPIRE', key, ARGV[3 * i + 2])
end
return 1
"""


class _Redis:
    """What the Redis twins share: the client, the script, and knowing that Redis is away."""

    def __init__(self, client: redis.asyncio.Redis, now: Callable[[], float]) -> None:
        self.client = client
        self.now = now
        self._take = client.register_script(_TAKE)
        self._unreachable = False

    async def take(self, windows: Sequence[tuple[str, int, float]]) -> bool:
        """Count one event in every (key, limit, seconds) window, unless one of them is full."""
        now = self.now()
        args: list[str | int] = [repr(now), f"{now!r}:{secrets.token_hex(6)}"]
        for _, limit, seconds in windows:
            args += [limit, repr(now - seconds), math.ceil(seconds * 1000)]
        answer = await self._take(keys=[key for key, _, _ in windows], args=args)
        return bool(answer)

    async def run(self, operation: Callable[[], Awaitable[T]]) -> T | None:
        """What `operation` answers from Redis; None while Redis cannot be reached."""
        try:
            answer = await operation()
        except (RedisError, OSError) as error:
            metrics.REDIS_ERRORS.inc()
            if not self._unreachable:
                log.warning("throttle: Redis unreachable (%s); counting in this process alone", error)
            self._unreachable = True
            return None
        if self._unreachable:
            log.info("throttle: Redis reachable again")
            self._unreachable = False
        return answer


class RedisSlidingWindow:
    """`SlidingWindow` in Redis, for every process at once: the same methods, awaited. Each
    key is a sorted set under `prefix + key`; `alone` counts while Redis cannot be reached."""

    def __init__(
        self, client: redis.asyncio.Redis, limit: int, seconds: float, now: Callable[[], float], prefix: str
    ) -> None:
        self.limit = limit
        self.seconds = seconds
        self.prefix = prefix
        self._redis = _Redis(client, now)
        self.alone = SlidingWindow(limit, seconds, now)

    async def take(self, key: str) -> bool:
        """`EventLimit.take`: checked and counted at once, in Redis."""
        window = [(self.prefix + key, self.limit, self.seconds)]
        taken = await self._redis.run(lambda: self._redis.take(window))
        return await self.alone.take(key) if taken is None else taken

    async def full(self, key: str) -> bool:
        """Whether one more event for `key` would be over the limit."""
        start = self._redis.now() - self.seconds
        count = await self._redis.run(
            lambda: self._redis.client.zcount(self.prefix + key, f"({start!r}", "+inf")
        )
        return self.alone.full(key) if count is None else int(count) >= self.limit

    async def add(self, key: str) -> None:
        now = self._redis.now()
        name = self.prefix + key

        async def add() -> bool:
            async with self._redis.client.pipeline(transaction=True) as pipe:
                pipe.zremrangebyscore(name, "-inf", repr(now - self.seconds))
                pipe.zadd(name, {f"{now!r}:{secrets.token_hex(6)}": now})
                pipe.pexpire(name, math.ceil(self.seconds * 1000))
                await pipe.execute()
            return True

        if await self._redis.run(add) is None:
            self.alone.add(key)

    async def clear(self, key: str) -> None:
        if await self._redis.run(lambda: self._redis.client.delete(self.prefix + key)) is None:
            self.alone.clear(key)

    async def take_back(self, key: str) -> None:
        """Forget the key's latest event."""
        if await self._redis.run(lambda: self._redis.client.zpopmax(self.prefix + key)) is None:
            self.alone.take_back(key)


class RedisLoginLimiter:
    """`LoginLimiter` in Redis, for every process at once (keys under `prefix`); `alone`
    counts while Redis cannot be reached."""

    def __init__(
        self,
        client: redis.asyncio.Redis,
        per_account: int,
        per_address: int,
        now: Callable[[], float],
        prefix: str,
    ) -> None:
        self.per_account = per_account
        self.per_address = per_address
        self.prefix = prefix
        self._redis = _Redis(client, now)
        self.alone = LoginLimiter(per_account, per_address, now)

    def _keys(self, address: str, name_key: str) -> tuple[str, str]:
        return f"{self.prefix}pair:{_pair(address, name_key)}", f"{self.prefix}address:{address}"

    async def attempt(self, address: str, name_key: str) -> bool:
        """Whether a login may be tried now; if so it is counted as failed until `succeeded`."""
        pair, by_address = self._keys(address, name_key)
        windows = [(pair, self.per_account, LOGIN_SECONDS), (by_address, self.per_address, LOGIN_SECONDS)]
        taken = await self._redis.run(lambda: self._redis.take(windows))
        return await self.alone.attempt(address, name_key) if taken is None else taken

    async def succeeded(self, address: str, name_key: str) -> None:
        pair, by_address = self._keys(address, name_key)

        async def forget() -> bool:
            async with self._redis.client.pipeline(transaction=True) as pipe:
                pipe.delete(pair)
                pipe.zpopmax(by_address)
                await pipe.execute()
            return True

        if await self._redis.run(forget) is None:
            await self.alone.succeeded(address, name_key)
