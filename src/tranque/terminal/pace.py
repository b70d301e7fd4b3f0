"""How fast `tranque bot run` talks: under the message rate the server allows a bot account's
socket (docs/bots.md, Limits: 60 messages at once, then 10 a second), so that a game played
at full speed against a bot that answers at once is never refused with `rate_limited`.

The client keeps its own copy of the server's token bucket (the server's `TokenBucket`, on
the client's clock) with a margin: half the burst and 80 % of the rate, because the server
counts a message when it reads it, and messages delayed on the way arrive bunched together.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable

from tranque.server.ws.limits import DEFAULT_LIMITS, TokenBucket


class Pace:
    """Wait before each message until the bucket has a token for it."""

    def __init__(self, burst: int, per_second: float, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self.bucket = TokenBucket(burst, per_second, clock())

    @classmethod
    def for_bots(cls) -> Pace:
        """The pace of a bot account's socket, with the margin above."""
        limits = DEFAULT_LIMITS
        return cls(max(1, limits.bot_burst // 2), limits.bot_per_second * 0.8)

    async def wait(self) -> None:
        """Return once a message may be sent (and count it)."""
        while not self.bucket.take(self.clock()):
            await asyncio.sleep((1.0 - self.bucket.tokens) / self.bucket.per_second)

    def refused(self) -> float:
        """The server said `rate_limited`: start again from an empty bucket. How long until
        the next token."""
        self.bucket.tokens = 0.0
        self.bucket.updated = max(self.bucket.updated, self.clock())
        return 1.0 / self.bucket.per_second
