"""The message bus between server processes: bytes published on a channel reach its subscribers.

`MemoryBus` delivers within one process (the default). Buses that share a `MemoryHub` see one
another's messages, so a test can run several "processes" in one event loop. `RedisBus`
(redis_bus.py) uses Redis pub/sub, for several server processes on one Redis. What travels
on it is cluster/wire.py's messages.

`publish` never waits and never fails: the message is queued and sent in the background, and
one bus's messages reach each subscriber in the order they were published. What is published
while a subscriber's connection to Redis is down is lost to it; once the connection is back,
with every subscription in effect again, the bus calls its `on_reset` callbacks so that their
owners re-read what they need. A batch whose sending failed midway is sent again whole, so a
message may, rarely, arrive twice.
"""

from __future__ import annotations

import asyncio
import logging
from collections import deque
from collections.abc import Callable
from typing import Protocol

log = logging.getLogger(__name__)

Handler = Callable[[bytes], None]


class Bus(Protocol):
    @property
    def connected(self) -> bool:
        """Whether the bus is connected now (for `RedisBus`: to Redis, as far as it knows)."""
        ...

    @property
    def dropped(self) -> int:
        """How many messages were dropped unsent because too many were waiting."""
        ...

    async def start(self) -> None:
        """Start (`RedisBus` connects in the background); subscribe after this."""
        ...

    async def close(self) -> None:
        """Stop; messages not sent yet are dropped (`flush()` first to send them)."""
        ...

    def publish(self, channel: str, message: bytes) -> None:
        """Queue `message` for every subscriber of `channel`; returns at once, never raises."""
        ...

    async def flush(self) -> None:
        """Return once every message published so far has been sent (or dropped)."""
        ...

    async def subscribe(self, channel: str, handler: Handler) -> None:
        """Call `handler(message)` on the loop for each message on `channel`, in order.

        Returns once the subscription is in effect: a message published after it returns is
        delivered. One handler per channel: subscribing again replaces it.
        """
        ...

    async def unsubscribe(self, channel: str) -> None:
        """Stop delivering `channel`'s messages (at once, even those already received)."""
        ...

    def on_reset(self, callback: Callable[[], None]) -> None:
        """Call `callback()` on the loop whenever messages may have been lost: after the
        connection was lost and re-established, with every subscription in effect again."""
        ...


def call_handler(handler: Handler, channel: str, message: bytes) -> None:
    try:
        handler(message)
    except Exception:
        log.exception("bus: the handler of channel %r failed", channel)


def call_resets(callbacks: list[Callable[[], None]]) -> None:
    for callback in list(callbacks):
        try:
            callback()
        except Exception:
            log.exception("bus: a reset callback failed")


class MemoryHub:
    """Where `MemoryBus` objects meet, as server processes meet on one Redis."""

    def __init__(self) -> None:
        self._buses: list[MemoryBus] = []

    def reset(self) -> None:
        """Call the reset callbacks of every open bus, as after a lost connection (for tests)."""
        for bus in list(self._buses):
            call_resets(bus._reset_callbacks)

    def _deliver(self, channel: str, message: bytes) -> None:
        for bus in list(self._buses):
            bus._receive(channel, message)


class MemoryBus:
    """A bus within one process; several on one `hub` stand for several processes."""

    def __init__(self, hub: MemoryHub | None = None) -> None:
        self.hub = hub if hub is not None else MemoryHub()
        self.hub._buses.append(self)
        self._handlers: dict[str, Handler] = {}
        self._reset_callbacks: list[Callable[[], None]] = []
        self._outbox: deque[tuple[str, bytes]] = deque()
        self._flushes: list[asyncio.Future[None]] = []
        self._scheduled = False
        self._closed = False

    @property
    def connected(self) -> bool:
        return not self._closed

    @property
    def dropped(self) -> int:
        return 0

    async def start(self) -> None:
        pass

    async def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        if self in self.hub._buses:
            self.hub._buses.remove(self)
        self._handlers.clear()
        self._outbox.clear()
        self._finish_flushes()

    def publish(self, channel: str, message: bytes) -> None:
        if self._closed:
            return
        self._outbox.append((channel, message))
        if not self._scheduled:
            self._scheduled = True
            asyncio.get_running_loop().call_soon(self._send)

    async def flush(self) -> None:
        if not self._outbox:
            return
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._flushes.append(done)
        await done

    async def subscribe(self, channel: str, handler: Handler) -> None:
        if self._closed:
            raise RuntimeError("the bus is closed")
        self._handlers[channel] = handler

    async def unsubscribe(self, channel: str) -> None:
        self._handlers.pop(channel, None)

    def on_reset(self, callback: Callable[[], None]) -> None:
        self._reset_callbacks.append(callback)

    def _send(self) -> None:
        self._scheduled = False
        while self._outbox:  # a handler may publish more meanwhile: those go out in turn
            channel, message = self._outbox.popleft()
            self.hub._deliver(channel, message)
        self._finish_flushes()

    def _finish_flushes(self) -> None:
        flushes, self._flushes = self._flushes, []
        for done in flushes:
            if not done.done():
                done.set_result(None)

    def _receive(self, channel: str, message: bytes) -> None:
        handler = self._handlers.get(channel)
        if handler is not None:
            call_handler(handler, channel, message)
