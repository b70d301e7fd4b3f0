"""One client's socket: a bounded outbound queue drained by its own writer task (docs/design.md).

The table never awaits a socket: `send` only queues. A client too slow to drain its queue
is disconnected; it reconnects and resumes from the last event number it saw.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from typing import Any

from starlette.websockets import WebSocket

OUTBOUND_LIMIT = 512
SLOW_CLIENT_CLOSE = 4008


def encode(message: dict[str, Any]) -> str:
    """A message as the text of one frame."""
    text = json.dumps(message, ensure_ascii=False, separators=(",", ":"))
    if not text.isascii():
        try:
            text.encode()
        except UnicodeEncodeError:  # a lone surrogate echoed from a client: send it escaped
            text = json.dumps(message, separators=(",", ":"))
    return text


class Connection:
    def __init__(self, websocket: WebSocket, limit: int = OUTBOUND_LIMIT) -> None:
        self.websocket = websocket
        self._queue: asyncio.Queue[str | None] = asyncio.Queue(maxsize=limit)
        self._writer: asyncio.Task[None] | None = None
        self.closed = False
        self.table_id: str | None = None
        self.seat: int | None = None

    def start(self) -> None:
        self._writer = asyncio.get_running_loop().create_task(self._write())

    def send(self, message: dict[str, Any]) -> None:
        if not self.closed:
            self.send_text(encode(message))

    def send_text(self, text: str) -> None:
        """Queue a message already serialised with `encode` (a table's broadcasts are, once)."""
        if self.closed:
            return
        try:
            self._queue.put_nowait(text)
        except asyncio.QueueFull:
            self.closed = True
            asyncio.get_running_loop().create_task(self._close(SLOW_CLIENT_CLOSE))

    async def _write(self) -> None:
        while True:
            text = await self._queue.get()
            if text is None:
                return
            try:
                await self.websocket.send_text(text)
            except Exception:
                self.closed = True
                return

    async def _close(self, code: int) -> None:
        with contextlib.suppress(Exception):
            await self.websocket.close(code=code)

    async def stop(self) -> None:
        """Flush what is queued, then end the writer."""
        self.closed = True
        if self._writer is not None:
            with contextlib.suppress(asyncio.QueueFull):
                self._queue.put_nowait(None)
            with contextlib.suppress(Exception, asyncio.CancelledError):
                await asyncio.wait_for(self._writer, timeout=2)
