"""Failed logins on one account's name from anywhere: growing delays, never the owner's lock-out.

The per-address limits (throttle.py) stop one place from guessing; a guess spread over many
places (a botnet, or the 2^64 addresses of one IPv6 /64 counted as one place since
addresses.py, but many /64s) is slowed here, per name (its `login_key`), the way OWASP's
Authentication Cheat Sheet suggests: `free` failures within `seconds` cost nothing; after them,
each further attempt must wait `delay` seconds after the latest failure, doubling with each
failure up to `most` (2, 4, 8 … 900 s), or is refused with how long is left
(`429 too_many_attempts`, `retry_after`). A success clears the name's failures.

So that an outsider failing on a name cannot keep its owner out, the delay is not applied to a
login from a device the account logged in from before (`KnownDevices`: the random
`tranque_device` cookie a successful login sets, remembered per name as its SHA-256, the
latest `DEVICES_KEPT` of them for `DEVICE_SECONDS`), nor to a request that carries a live
session of that very account; the per-address limits still apply to those.

Like throttle.py's windows, each has a variant in memory (one process) and in Redis (every
process at once), and the Redis ones count in memory alone while Redis cannot be reached.
"""

from __future__ import annotations

import math
import secrets
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Protocol

import redis.asyncio

from tranque.server.accounts.throttle import SlidingWindow, _Redis

DEVICES_KEPT = 20  # per account name: the latest ones it logged in from
DEVICE_SECONDS = 365 * 24 * 3600.0  # a device not seen for a year is forgotten (the cookie's life)
DOUBLINGS_MAX = 30  # 2**30 × any delay is past any sensible `most`


class AccountDelay(Protocol):
    """`AccountDelays` in one process, `RedisAccountDelays` in several."""

    async def attempt(self, name_key: str) -> float:
        """0 when a login on the name may be tried now (counted as failed until `succeeded`),
        else the seconds left to wait."""
        ...

    async def succeeded(self, name_key: str) -> None: ...


class KnownDevice(Protocol):
    """`KnownDevices` in one process, `RedisKnownDevices` in several."""

    async def known(self, name_key: str, device_hash: str) -> bool: ...

    async def remember(self, name_key: str, device_hash: str) -> None: ...


@dataclass(frozen=True)
class DelayPolicy:
    free: int  # failures within `seconds` before any delay
    seconds: float
    delay: float  # after the `free`-th failure; doubling with each further one...
    most: float  # ...up to this

    def wait(self, failures: int, last: float, now: float) -> float:
        """How long is left before one more attempt, after `failures` (the latest at `last`).

        >>> policy = DelayPolicy(free=2, seconds=3600.0, delay=2.0, most=60.0)
        >>> policy.wait(1, 100, 100), policy.wait(2, 100, 100), policy.wait(3, 100, 101), policy.wait(9, 0, 1)
        (0.0, 2.0, 3.0, 59.0)
        """
        if failures < self.free:
            return 0.0
        doublings = min(failures - self.free, DOUBLINGS_MAX)
        return max(0.0, last + min(self.delay * 2.0**doublings, self.most) - now)


@dataclass
class AccountDelays:
    policy: DelayPolicy
    now: Callable[[], float]
    failures: SlidingWindow = field(init=False)  # by name, within `policy.seconds`

    def __post_init__(self) -> None:
        # Its `limit` is not asked: the policy's delays, not a count, decide.
        self.failures = SlidingWindow(self.policy.free, self.policy.seconds, self.now)

    async def attempt(self, name_key: str) -> float:
        now = self.now()
        times = self.failures.events(name_key)
        wait = self.policy.wait(len(times), times[-1] if times else now, now)
        if wait > 0:
            return wait
        self.failures.add(name_key)
        return 0.0

    async def succeeded(self, name_key: str) -> None:
        self.failures.clear(name_key)


@dataclass
class KnownDevices:
    now: Callable[[], float]
    devices: dict[str, dict[str, float]] = field(default_factory=dict)  # name → device → last seen

    async def known(self, name_key: str, device_hash: str) -> bool:
        seen = self.devices.get(name_key, {}).get(device_hash)
        return seen is not None and seen > self.now() - DEVICE_SECONDS

    async def remember(self, name_key: str, device_hash: str) -> None:
        devices = self.devices.setdefault(name_key, {})
        devices.pop(device_hash, None)
        devices[device_hash] = self.now()  # the latest last: the oldest go first
        while len(devices) > DEVICES_KEPT:
            del devices[next(iter(devices))]


# In Redis ------------------------------------------------------------------------------------

# KEYS[1] the name's failures (a sorted set scored by time); ARGV: now, the time failures must be
# after, free, delay, most, the new failure's member, the key's life in ms. Returns the seconds
# left to wait ('0': counted). The check and the count are one step for every process.
_ATTEMPT = """
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[2])
local n = redis.call('ZCARD', KEYS[1])
local free = tonumber(ARGV[3])
if n >= free then
    local last = redis.call('ZRANGE', KEYS[1], -1, -1, 'WITHSCORES')
    local delay = math.min(tonumber(ARGV[4]) * 2 ^ math.min(n - free, 30), tonumber(ARGV[5]))
    local wait = tonumber(last[2]) + delay - tonumber(ARGV[1])
    if wait > 0 then
        return tostring(wait)
    end
end
redis.call('ZADD', KEYS[1], ARGV[1], ARGV[6])
redis.call('PEXPIRE', KEYS[1], ARGV[7])
return '0'
"""


class RedisAccountDelays:
    def __init__(
        self, client: redis.asyncio.Redis, policy: DelayPolicy, now: Callable[[], float], prefix: str
    ) -> None:
        self.policy = policy
        self.prefix = prefix
        self._redis = _Redis(client, now)
        self._attempt = client.register_script(_ATTEMPT)
        self.alone = AccountDelays(policy, now)

    async def attempt(self, name_key: str) -> float:
        now = self._redis.now()
        policy = self.policy
        args: list[str | int | float] = [
            repr(now),
            repr(now - policy.seconds),
            policy.free,
            repr(policy.delay),
            repr(policy.most),
            f"{now!r}:{secrets.token_hex(6)}",
            math.ceil((policy.seconds + policy.most) * 1000),
        ]
        answer = await self._redis.run(lambda: self._attempt(keys=[self.prefix + name_key], args=args))
        if answer is None:
            return await self.alone.attempt(name_key)
        return float(answer.decode() if isinstance(answer, bytes) else answer)

    async def succeeded(self, name_key: str) -> None:
        if await self._redis.run(lambda: self._redis.client.delete(self.prefix + name_key)) is None:
            await self.alone.succeeded(name_key)


class RedisKnownDevices:
    def __init__(self, client: redis.asyncio.Redis, now: Callable[[], float], prefix: str) -> None:
        self.prefix = prefix
        self._redis = _Redis(client, now)
        self.alone = KnownDevices(now)

    async def known(self, name_key: str, device_hash: str) -> bool:
        async def look() -> tuple[float | None]:
            return (await self._redis.client.zscore(self.prefix + name_key, device_hash),)

        found = await self._redis.run(look)
        if found is None:  # Redis away: what this process saw
            return await self.alone.known(name_key, device_hash)
        seen = found[0]
        return seen is not None and float(seen) > self._redis.now() - DEVICE_SECONDS

    async def remember(self, name_key: str, device_hash: str) -> None:
        name = self.prefix + name_key
        now = self._redis.now()

        async def remember() -> bool:
            async with self._redis.client.pipeline(transaction=True) as pipe:
                pipe.zadd(name, {device_hash: now})
                pipe.zremrangebyrank(name, 0, -DEVICES_KEPT - 1)
                pipe.pexpire(name, math.ceil(DEVICE_SECONDS * 1000))
                await pipe.execute()
            return True

        await self.alone.remember(name_key, device_hash)  # kept here too: Redis may be away later
        await self._redis.run(remember)
