"""One client's socket: an outbound queue drained by its own writer task (docs/design.md).

The table never awaits a socket: `send` only queues. A client too slow to drain its queue
is disconnected; it reconnects and resumes from the last event number it saw.

"Too slow" counts only what the client did not ask for (other people's moves, clocks): the
answer to its own request may be long (a `hello` with `last_seq` 0 replays the table's whole
history), so while the socket is `answering` its messages do not count, and the socket reads
its next request only once the client has read its queue down to half the limit. A client
that sends requests faster than it reads them is slowed down, never cut off for it.

A socket that has heard nothing for `heartbeat_seconds` is sent a `heartbeat` frame, so that
a client can tell a quiet table from a dead link. That silence is measured on the event loop's
own clock, not the server's `Clock`: it is about the network, which runs in real time.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections import deque
from collections.abc import Iterator
from typing import Any

from starlette.websockets import WebSocket

from tranque.server import json_text

OUTBOUND_LIMIT = 512
SLOW_CLIENT_CLOSE = 4008
CLOSE_SECONDS = 2  # how long a closing socket may take to send what it still has queued


def encode(message: dict[str, Any]) -> str:
    """A message as the text of one frame."""
    return json_text.dumps(message)


class Connection:
    def __init__(self, websocket: WebSocket, limit: int = OUTBOUND_LIMIT) -> None:
        self.websocket = websocket
        self.limit = limit
        self._queue: deque[str | None] = deque()  # None: the writer ends there
        self._wakeup: asyncio.Future[None] | None = None  # the idle writer waits on it
        self._writer: asyncio.Task[None] | None = None
        self._answering = 0  # nesting of `answering()` blocks
        self._owed = 0  # queued while answering: not counted against the limit
        self._room = asyncio.Event()
        self._room.set()
        self._heartbeat_seconds: float | None = None
        self._heartbeat: asyncio.TimerHandle | None = None
        self._last_queued = 0.0
        self.closed = False
        self.table_id: str | None = None
        self.seat: int | None = None
        self.muted: frozenset[int] = frozenset()  # accounts whose phrases it hides (table/muting.py)

    def start(self, heartbeat_seconds: float | None = None) -> None:
        loop = asyncio.get_running_loop()
        self._writer = loop.create_task(self._write())
        if heartbeat_seconds:
            self._heartbeat_seconds = heartbeat_seconds
            self._last_queued = loop.time()
            self._heartbeat = loop.call_later(heartbeat_seconds, self._beat)

    def send(self, message: dict[str, Any]) -> None:
        if not self.closed:
            self.send_text(encode(message))

    def send_text(self, text: str) -> None:
        """Queue a message already serialised with `encode` (a table's broadcasts are, once)."""
        if self.closed:
            return
        if self._answering:
            self._owed += 1
        elif len(self._queue) - self._owed >= self.limit:
            self.closed = True
            asyncio.get_running_loop().create_task(self._close(SLOW_CLIENT_CLOSE))
            return
        self._put(text)
        if self._heartbeat is not None:
            self._last_queued = asyncio.get_running_loop().time()
        if len(self._queue) > self.limit // 2:
            self._room.clear()

    def _put(self, text: str | None) -> None:
        self._queue.append(text)
        wakeup, self._wakeup = self._wakeup, None
        if wakeup is not None and not wakeup.done():
            wakeup.set_result(None)

    @contextlib.contextmanager
    def answering(self) -> Iterator[None]:
        """While the client's own request is handled: what is queued is its answer."""
        self._answering += 1
        try:
            yield
        finally:
            self._answering -= 1

    async def wait_for_room(self) -> None:
        """Until the client has read its queue down to half the limit (or the socket closed)."""
        await self._room.wait()

    def _beat(self) -> None:
        assert self._heartbeat_seconds is not None
        if self.closed:
            return
        loop = asyncio.get_running_loop()
        due = self._last_queued + self._heartbeat_seconds
        if loop.time() >= due:
            self.send({"type": "heartbeat", "interval": self._heartbeat_seconds})
            due = loop.time() + self._heartbeat_seconds
        self._heartbeat = loop.call_at(due, self._beat)

    async def _write(self) -> None:
        queue, loop = self._queue, asyncio.get_running_loop()
        try:
            while True:
                if not queue:
                    self._wakeup = loop.create_future()
                    await self._wakeup
                    continue
                text = queue.popleft()
                if self._owed:
                    self._owed -= 1
                if not self._room.is_set() and len(queue) <= self.limit // 2:
                    self._room.set()
                if text is None:
                    return
                try:
                    await self.websocket.send_text(text)
                except Exception:
                    self.closed = True
                    return
        finally:
            self._room.set()  # nobody waits for room on a socket that will not drain

    async def _close(self, code: int) -> None:
        with contextlib.suppress(Exception):
            await self.websocket.close(code=code)

    async def close(self, code: int) -> None:
        """Send what is queued, then close the socket with `code`."""
        await self.stop()
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(CLOSE_SECONDS):  # a client that does not read gets no goodbye
                await self._close(code)

    async def stop(self) -> None:
        """Flush what is queued, then end the writer."""
        self.closed = True
        if self._heartbeat is not None:
            self._heartbeat.cancel()
        if self._writer is not None:
            self._put(None)
            with contextlib.suppress(Exception, asyncio.CancelledError):
                await asyncio.wait_for(self._writer, timeout=CLOSE_SECONDS)
