"""uvicorn's WebSocket protocol with one system call per socket per loop turn, not per frame.

uvicorn (its `websockets` sans-I/O protocol, the one it picks when `websockets` is installed)
writes every frame to the transport as it is sent, and the transport sends it at once: one
`send` system call per frame. A move sends several frames to each seat within the same turn
of the event loop (a socket's writer drains its whole queue without waiting), and those
system calls were the largest part of the server's CPU under load (benchmarks/server_load.py).

`CoalescingWebSocketProtocol` is that protocol with its transport wrapped: what is written
during a turn of the loop is kept, and leaves in one write when the loop comes back to it
(`call_soon`, so before the loop waits for anything else). The frames are the same frames, in
the same order, each one still a frame of its own on the wire; only the syscalls are fewer.
Closing or aborting the socket sends (or drops) what is kept first, so nothing is reordered.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterable
from typing import Any

from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol


class CoalescingTransport(asyncio.Transport):
    """A transport whose writes in one turn of the loop leave in one write of `transport`."""

    def __init__(self, transport: asyncio.Transport, loop: asyncio.AbstractEventLoop) -> None:
        super().__init__()
        self._transport = transport
        self._loop = loop
        self._pending: list[bytes] = []

    def write(self, data: bytes | bytearray | memoryview) -> None:
        if not data:
            return
        if not self._pending:
            self._loop.call_soon(self.flush)
        self._pending.append(bytes(data))

    def writelines(self, list_of_data: Iterable[bytes | bytearray | memoryview]) -> None:
        for data in list_of_data:
            self.write(data)

    def flush(self) -> None:
        """Send what is kept now."""
        pending, self._pending = self._pending, []
        if not pending or self._transport.is_closing():
            return
        self._transport.write(pending[0] if len(pending) == 1 else b"".join(pending))

    def close(self) -> None:
        self.flush()
        self._transport.close()

    def abort(self) -> None:
        self._pending = []
        self._transport.abort()

    def write_eof(self) -> None:
        self.flush()
        self._transport.write_eof()

    def can_write_eof(self) -> bool:
        return self._transport.can_write_eof()

    def is_closing(self) -> bool:
        return self._transport.is_closing()

    def get_extra_info(self, name: str, default: Any = None) -> Any:
        return self._transport.get_extra_info(name, default)

    def set_protocol(self, protocol: asyncio.BaseProtocol) -> None:
        self._transport.set_protocol(protocol)

    def get_protocol(self) -> asyncio.BaseProtocol:
        return self._transport.get_protocol()

    def is_reading(self) -> bool:
        return self._transport.is_reading()

    def pause_reading(self) -> None:
        self._transport.pause_reading()

    def resume_reading(self) -> None:
        self._transport.resume_reading()

    def set_write_buffer_limits(self, high: int | None = None, low: int | None = None) -> None:
        self._transport.set_write_buffer_limits(high, low)

    def get_write_buffer_size(self) -> int:
        return self._transport.get_write_buffer_size() + sum(map(len, self._pending))

    def get_write_buffer_limits(self) -> tuple[int, int]:
        return self._transport.get_write_buffer_limits()


class CoalescingWebSocketProtocol(WebSocketsSansIOProtocol):
    """uvicorn's `websockets` sans-I/O protocol, writing through a `CoalescingTransport`."""

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        super().connection_made(transport)
        self.transport = CoalescingTransport(self.transport, self.loop)
