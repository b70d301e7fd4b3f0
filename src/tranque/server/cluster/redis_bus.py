"""`RedisBus`: the bus (bus.py) on Redis pub/sub, for several server processes on one Redis.

A hand-written client of the pub/sub protocol on redis-py's connections: one connection
subscribes (a reader task calls the handlers, and keeps the channels' subscriptions in step
with their handlers), another publishes (a writer task sends everything queued since its last
send in one round trip). Both reconnect by themselves when Redis goes away; once the
subscribing one is back, with every subscription in effect again, the bus calls its
`on_reset` callbacks (messages published meanwhile were lost to it).
"""

from __future__ import annotations

import asyncio
import itertools
import logging
from collections import deque
from collections.abc import Callable
from typing import Any, Protocol

import redis.asyncio
from redis.asyncio.connection import ConnectionPool
from redis.asyncio.retry import Retry
from redis.backoff import NoBackoff
from redis.exceptions import RedisError

from tranque.server import metrics
from tranque.server.cluster.bus import Handler, call_handler, call_resets
from tranque.server.stopping import stop_tasks

log = logging.getLogger(__name__)

MAX_QUEUE = 100_000  # messages waiting to be sent; beyond it the oldest are dropped
BATCH_MAX = 10_000  # messages sent in one round trip, at most (after a burst, or an outage)
BACKOFF_MIN = 0.1  # seconds between attempts to reach Redis, doubling up to BACKOFF_MAX
BACKOFF_MAX = 1.0
CONNECT_TIMEOUT = 1.0
SEND_TIMEOUT = 5.0  # for a batch of PUBLISH commands and their replies
PING_INTERVAL = 5.0  # a silent subscribing connection is pinged this often...
SILENCE_LIMIT = 3 * PING_INTERVAL  # ...and given up for dead after this long without a word
CLOSE_WAIT = 0.5  # seconds between two cancellations of a closing bus's tasks
YIELD_EVERY = 100  # the reader lets other tasks run after this many messages in a row


def _describe(error: BaseException) -> str:
    return str(error) or type(error).__name__


class _Connection(Protocol):
    """What the bus uses of redis-py's connection, typed."""

    @property
    def is_connected(self) -> bool: ...

    async def connect(self) -> None: ...

    async def disconnect(self, nowait: bool = False) -> None: ...

    async def send_command(self, *args: Any, **kwargs: Any) -> None: ...

    async def read_response(self) -> Any: ...


class _Desync(Exception):
    """A reply on the subscribing connection that answers no command sent: start over."""


class _Link:
    """One subscribing connection and the state of the channels on it."""

    def __init__(self, connection: _Connection, now: float, reset_due: bool) -> None:
        self.connection = connection
        self.lock = asyncio.Lock()  # one command at a time, so replies come in `expected` order
        self.expected: deque[tuple[bytes, str]] = deque()  # (reply kind, channel) to come
        self.pending: dict[str, int] = {}  # channel -> replies still to come for it
        self.latest: dict[str, bytes] = {}  # channel -> the last command sent for it
        self.live: set[str] = set()  # channels whose subscription is in effect
        self.heard_at = now
        self.resync_left = 0  # replies still to come to the SUBSCRIBE sent on connecting
        self.reset_due = reset_due  # call the reset callbacks once resynced

    def expect(self, kind: bytes, channel: str) -> None:
        self.expected.append((kind, channel))
        if kind != b"pong":
            self.pending[channel] = self.pending.get(channel, 0) + 1
            self.latest[channel] = kind
        if kind == b"unsubscribe":
            self.live.discard(channel)

    def subscribed(self, channel: str) -> bool:
        """Whether the last command sent for `channel` was SUBSCRIBE."""
        return self.latest.get(channel) == b"subscribe"


def _reply_kind(reply: object) -> bytes:
    if isinstance(reply, bytes):  # PONG outside subscribed mode
        return reply.lower()
    if isinstance(reply, list) and reply and isinstance(reply[0], bytes):
        return reply[0].lower()
    raise _Desync(f"unexpected reply {reply!r}")


class RedisBus:
    """A bus on Redis pub/sub: one connection subscribes (a reader task calls the handlers),
    another publishes (a writer task sends everything queued since its last send in one round
    trip). Both reconnect by themselves when Redis goes away.
    """

    def __init__(self, url: str, *, max_queue: int = MAX_QUEUE) -> None:
        self.url = url
        self.max_queue = max_queue
        self._client = redis.asyncio.Redis.from_url(
            url,
            socket_timeout=SEND_TIMEOUT,
            socket_connect_timeout=CONNECT_TIMEOUT,
            retry=Retry(NoBackoff(), 0),
        )
        # Reads on the subscribing connection wait as long as it takes (SILENCE_LIMIT guards them).
        self._pool = ConnectionPool.from_url(
            url, socket_timeout=None, socket_connect_timeout=CONNECT_TIMEOUT, protocol=2
        )
        self._handlers: dict[str, Handler] = {}
        self._waiters: dict[str, list[asyncio.Future[None]]] = {}
        self._reset_callbacks: list[Callable[[], None]] = []
        self._link: _Link | None = None
        self._queue: deque[tuple[int, str, bytes]] = deque()  # (number, channel, message)
        self._sending: list[tuple[int, str, bytes]] = []
        self._published = 0  # messages numbered so far
        self._dropped = 0
        self._wakeup = asyncio.Event()
        self._progress = asyncio.Event()  # set (and replaced) whenever messages leave the queue
        self._publishing = True  # the last attempt to send went through
        self._tasks: list[asyncio.Task[None]] = []
        self._started = False
        self._closed = False

    @property
    def connected(self) -> bool:
        link = self._link
        return link is not None and not link.resync_left and self._publishing and not self._closed

    @property
    def dropped(self) -> int:
        return self._dropped

    async def start(self) -> None:
        """Start the reader and writer tasks; they connect in the background."""
        if self._started or self._closed:
            return
        self._started = True
        self._tasks = [
            asyncio.create_task(self._read(), name="bus-reader"),
            asyncio.create_task(self._write(), name="bus-writer"),
        ]

    async def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        self._wakeup.set()
        await stop_tasks(self._tasks, CLOSE_WAIT)
        self._tasks = []
        await self._client.aclose()
        await self._pool.disconnect()
        self._queue.clear()
        self._sending = []
        self._note_progress()
        for channel in list(self._waiters):
            self._wake(channel)

    def publish(self, channel: str, message: bytes) -> None:
        if self._closed:
            return
        self._queue.append((self._published, channel, message))
        self._published += 1
        self._trim()
        self._wakeup.set()

    async def flush(self) -> None:
        """Return once every message published so far was handed to Redis (or dropped).

        While Redis is unreachable this waits for it to come back (or for `close()`).
        """
        target = self._published
        while not self._closed and self._oldest_unsent() < target:
            await self._progress.wait()

    async def subscribe(self, channel: str, handler: Handler) -> None:
        """Waits while Redis is unreachable, until it comes back (or `close()`)."""
        if self._closed or not self._started:
            raise RuntimeError("the bus is closed" if self._closed else "the bus is not started")
        self._handlers[channel] = handler
        link = self._link
        if link is not None and channel in link.live:
            return
        waiter: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._waiters.setdefault(channel, []).append(waiter)
        try:
            await self._reconcile(channel)
            await waiter
        finally:
            waiting = self._waiters.get(channel)
            if waiting is not None and waiter in waiting:
                waiting.remove(waiter)
                if not waiting:
                    del self._waiters[channel]

    async def unsubscribe(self, channel: str) -> None:
        self._handlers.pop(channel, None)
        self._wake(channel)
        await self._reconcile(channel)

    def on_reset(self, callback: Callable[[], None]) -> None:
        self._reset_callbacks.append(callback)

    # Publishing

    def _oldest_unsent(self) -> int:
        if self._sending:
            return self._sending[0][0]
        if self._queue:
            return self._queue[0][0]
        return self._published

    def _trim(self) -> None:
        excess = len(self._queue) - self.max_queue
        if excess <= 0:
            return
        for _ in range(excess):
            self._queue.popleft()
        if self._dropped == 0 or self._dropped // 10_000 != (self._dropped + excess) // 10_000:
            log.warning("bus: too many messages waiting for Redis, dropping the oldest")
        self._dropped += excess
        self._note_progress()

    def _note_progress(self) -> None:
        self._progress.set()
        self._progress = asyncio.Event()

    async def _write(self) -> None:
        delay = BACKOFF_MIN
        # Not `while True`: redis-py may swallow the cancellation of a pipeline it is executing,
        # and `close` then waits for this task to see `_closed` instead.
        while not self._closed:
            if not self._queue:
                self._wakeup.clear()
                await self._wakeup.wait()
                continue
            batch = [self._queue.popleft() for _ in range(min(len(self._queue), BATCH_MAX))]
            self._sending = batch
            try:
                async with self._client.pipeline(transaction=False) as pipe:
                    for _, channel, message in batch:
                        pipe.publish(channel, message)
                    await pipe.execute()
            except (RedisError, OSError) as error:
                metrics.REDIS_ERRORS.inc()
                self._sending = []
                self._queue.extendleft(reversed(batch))
                self._trim()
                if self._publishing:
                    log.warning("bus: cannot publish to Redis (%s); retrying", _describe(error))
                self._publishing = False
                await asyncio.sleep(delay)
                delay = min(delay * 2, BACKOFF_MAX)
                continue
            except Exception:
                log.exception("bus: failed to publish %d messages; dropped", len(batch))
                self._dropped += len(batch)
            else:
                if not self._publishing:
                    log.info("bus: publishing to Redis again")
                self._publishing = True
                delay = BACKOFF_MIN
            self._sending = []
            self._note_progress()

    # Subscribing

    def _wake(self, channel: str) -> None:
        for waiter in self._waiters.pop(channel, []):
            if not waiter.done():
                waiter.set_result(None)

    async def _send(self, link: _Link, kind: bytes, channels: list[str]) -> None:
        """Send SUBSCRIBE, UNSUBSCRIBE or PING on `link`; the caller holds `link.lock`."""
        if link is not self._link or not link.connection.is_connected:
            return  # the reader is starting over: the next link subscribes what is wanted then
        for channel in channels or [""]:
            link.expect(kind, channel)
        command = b"PING" if kind == b"pong" else kind.upper()
        try:
            await link.connection.send_command(command, *channels, check_health=False)
        except (RedisError, OSError) as error:
            log.debug("bus: cannot send %s: %s", command, error)  # the reader will see it fail

    async def _reconcile(self, channel: str) -> None:
        """Subscribe to `channel` or unsubscribe from it, as its handler says, if not done yet."""
        while (link := self._link) is not None:
            async with link.lock:
                if link is not self._link:
                    continue  # replaced while we waited: ask the new one
                wanted = channel in self._handlers
                if wanted != link.subscribed(channel):
                    await self._send(link, b"subscribe" if wanted else b"unsubscribe", [channel])
                return

    async def _read(self) -> None:
        loop = asyncio.get_running_loop()
        delay = BACKOFF_MIN
        was_connected = False
        make_connection: Callable[[], _Connection] = self._pool.make_connection
        # Not `while True`: a cancellation redis-py or a coinciding timeout swallowed must not
        # keep `close` waiting for this task (it sets `_closed` first).
        while not self._closed:
            connection = make_connection()
            try:
                async with asyncio.timeout(2 * CONNECT_TIMEOUT):
                    await connection.connect()
            except Exception as error:  # refused, timed out, refused to log us in: all the same
                await self._discard(connection)
                if delay == BACKOFF_MIN:  # the first failure since the last connection
                    log.warning("bus: cannot reach Redis (%s); retrying", _describe(error))
                await asyncio.sleep(delay)
                delay = min(delay * 2, BACKOFF_MAX)
                continue
            delay = BACKOFF_MIN
            if was_connected:
                log.info("bus: connected to Redis again")
            link = _Link(connection, loop.time(), reset_due=was_connected)
            was_connected = True
            keep_alive = asyncio.create_task(self._keep_alive(link), name="bus-keep-alive")
            failed = False
            try:
                await self._resubscribe(link)
                await self._listen(link)
            except (RedisError, OSError) as error:
                metrics.REDIS_ERRORS.inc()
                log.warning("bus: lost the connection to Redis (%s); reconnecting", _describe(error))
            except Exception:
                log.exception("bus: the reader failed; reconnecting")
                failed = True
            finally:
                self._link = None
                keep_alive.cancel()
                await asyncio.gather(keep_alive, return_exceptions=True)
                await self._discard(connection)
            if failed:
                await asyncio.sleep(BACKOFF_MAX)

    async def _resubscribe(self, link: _Link) -> None:
        self._link = link
        async with link.lock:  # free: nobody could see the link before this
            channels = list(self._handlers)
            link.resync_left = len(channels)
            if channels:
                await self._send(link, b"subscribe", channels)
        if not channels and link.reset_due:
            call_resets(self._reset_callbacks)

    async def _listen(self, link: _Link) -> None:
        loop = asyncio.get_running_loop()
        connection = link.connection
        for count in itertools.count(1):
            if count % YIELD_EVERY == 0:
                await asyncio.sleep(0)  # replies already received are read without waiting
            async with asyncio.timeout(SILENCE_LIMIT):
                reply = await connection.read_response()
            link.heard_at = loop.time()
            if isinstance(reply, list) and len(reply) == 3 and reply[0] == b"message":
                channel = reply[1].decode()
                handler = self._handlers.get(channel)
                if handler is not None and channel in link.live:
                    call_handler(handler, channel, reply[2])
            else:
                self._answered(link, reply)

    def _answered(self, link: _Link, reply: object) -> None:
        kind = _reply_kind(reply)
        if not link.expected or link.expected[0][0] != kind:
            raise _Desync(f"unexpected reply {reply!r}")
        _, channel = link.expected.popleft()
        if kind != b"pong":
            assert isinstance(reply, list)
            if reply[1] != channel.encode():
                raise _Desync(f"unexpected reply {reply!r}")
            left = link.pending[channel] - 1
            if left:
                link.pending[channel] = left
            else:
                del link.pending[channel]
                if link.subscribed(channel):
                    link.live.add(channel)
                    self._wake(channel)
                else:
                    del link.latest[channel]
        if link.resync_left:
            link.resync_left -= 1
            if not link.resync_left and link.reset_due:
                call_resets(self._reset_callbacks)

    async def _keep_alive(self, link: _Link) -> None:
        loop = asyncio.get_running_loop()
        while not self._closed:
            await asyncio.sleep(PING_INTERVAL)
            if loop.time() - link.heard_at >= PING_INTERVAL:
                async with link.lock:
                    await self._send(link, b"pong", [])

    @staticmethod
    async def _discard(connection: _Connection) -> None:
        try:
            await connection.disconnect()
        except Exception as error:
            log.debug("bus: error closing a connection: %s", error)
