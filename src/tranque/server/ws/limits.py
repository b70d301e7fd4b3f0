"""What one socket is allowed: how often it hears from the server, how fast it may talk.

Heartbeats (docs/protocol.md, Heartbeats): uvicorn pings every socket at the WebSocket level
and drops one that does not answer, which the server needs; a browser cannot see those
pings, so the server also sends a small `heartbeat` frame to a socket that has heard nothing
for `heartbeat_seconds`, and a client that hears nothing at all for 2.5 times that knows the
link is dead. Clients assume 10 s until they hear the interval, so it is never longer.

The rate limit (docs/protocol.md, Limits and slow clients) is a token bucket per socket:
`burst` messages at once, then `per_second`. A person sends a message every few seconds at
most (a move per turn, a phrase, a vote), and a program playing a seat is held to the turns
anyway, so 20 at once and 5 a second never touch honest play; a flood of votes or `hello`s
(each of them an event stored and sent to everybody at the table) is cut to that. A bot
account's socket (accounts/bot_tokens.py) may send more, 60 at once and then 10 a second: a program
plays game after game, each start a few messages in a row.
"""

from __future__ import annotations

from dataclasses import dataclass

MAX_HEARTBEAT_SECONDS = 10.0  # what a client assumes before its first heartbeat (docs/protocol.md)


@dataclass(frozen=True)
class SocketLimits:
    """A server's `Settings.socket_limits`, read for each socket as it opens. The pings are
    uvicorn's own settings: whoever runs uvicorn passes `ping_seconds` and `pong_seconds`."""

    ping_seconds: float | None = 20.0  # WebSocket pings this often (uvicorn's ws_ping_interval); none: off
    pong_seconds: float | None = 20.0  # how long a ping may go unanswered (ws_ping_timeout)
    heartbeat_seconds: float | None = MAX_HEARTBEAT_SECONDS  # a `heartbeat` after this long in silence
    burst: int = 20  # messages a socket may send at once
    per_second: float = 5.0  # messages a second after those, steadily
    flood_refusals: int = 100  # messages refused in a row before the socket is closed
    bot_burst: int = 60  # messages a bot account's socket (accounts/bot_tokens.py) may send at once
    bot_per_second: float = 10.0  # a bot account's socket: messages a second after those

    def bucket(self, is_bot: bool, now: float) -> TokenBucket:
        """A new socket's message rate: a bot account's, or anybody else's."""
        if is_bot:
            return TokenBucket(self.bot_burst, self.bot_per_second, now)
        return TokenBucket(self.burst, self.per_second, now)

    def __post_init__(self) -> None:
        if self.heartbeat_seconds is not None and not 0 < self.heartbeat_seconds <= MAX_HEARTBEAT_SECONDS:
            raise ValueError(
                f"heartbeat_seconds must be in (0, {MAX_HEARTBEAT_SECONDS}], not {self.heartbeat_seconds}"
            )


DEFAULT_LIMITS = SocketLimits()


class TokenBucket:
    """`capacity` tokens, refilled at `per_second` up to the capacity; a message takes one.

    Time is whatever clock the caller reads (the server's `Clock`), so a test can move it.

    >>> bucket = TokenBucket(2, 1.0, now=0.0)
    >>> [bucket.take(0.0), bucket.take(0.0), bucket.take(0.0), bucket.take(1.0)]
    [True, True, False, True]
    """

    def __init__(self, capacity: int, per_second: float, now: float) -> None:
        self.capacity = capacity
        self.per_second = per_second
        self.tokens = float(capacity)
        self.updated = now

    def take(self, now: float) -> bool:
        elapsed = max(0.0, now - self.updated)  # a wall clock set back refills nothing
        self.tokens = min(float(self.capacity), self.tokens + elapsed * self.per_second)
        self.updated = max(self.updated, now)
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True
