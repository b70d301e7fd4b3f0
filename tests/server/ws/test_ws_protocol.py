"""The WebSocket protocol `tranque serve` runs (ws_protocol.py): what a socket is sent in one turn
of the event loop leaves in one write, unchanged and in order; closing sends what is kept first."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator

import pytest
from websockets.sync.client import connect

from tests.server.support.harness import LiveServer, fast_settings
from tranque.server import runtime
from tranque.server.lobby.limits import Limits
from tranque.server.ws.uvicorn_protocol import CoalescingTransport, CoalescingWebSocketProtocol


class Recording(asyncio.Transport):
    """A transport that keeps what is written to it and how."""

    def __init__(self) -> None:
        super().__init__()
        self.writes: list[bytes] = []
        self.closed = False
        self.aborted = False

    def write(self, data: bytes | bytearray | memoryview) -> None:
        self.writes.append(bytes(data))

    def close(self) -> None:
        self.closed = True

    def abort(self) -> None:
        self.aborted = True

    def is_closing(self) -> bool:
        return self.closed or self.aborted

    def get_write_buffer_size(self) -> int:
        return 0


@pytest.mark.anyio
async def test_what_is_written_in_one_turn_leaves_in_one_write_in_order() -> None:
    inner = Recording()
    transport = CoalescingTransport(inner, asyncio.get_running_loop())
    for part in (b"one", b"two", b"", b"three"):
        transport.write(part)
    assert inner.writes == [] and transport.get_write_buffer_size() == len(b"onetwothree")
    await asyncio.sleep(0)  # the loop's next turn
    assert inner.writes == [b"onetwothree"]
    transport.write(b"four")
    await asyncio.sleep(0)
    assert inner.writes == [b"onetwothree", b"four"]


@pytest.mark.anyio
async def test_closing_sends_what_is_kept_first_and_aborting_drops_it() -> None:
    inner = Recording()
    transport = CoalescingTransport(inner, asyncio.get_running_loop())
    transport.write(b"goodbye")
    transport.close()
    assert inner.writes == [b"goodbye"] and inner.closed
    await asyncio.sleep(0)
    assert inner.writes == [b"goodbye"]  # the flush already scheduled finds nothing more

    other = Recording()
    transport = CoalescingTransport(other, asyncio.get_running_loop())
    transport.write(b"lost")
    transport.abort()
    await asyncio.sleep(0)
    assert other.writes == [] and other.aborted


@pytest.fixture(scope="module")
def server() -> Iterator[LiveServer]:
    with LiveServer(fast_settings()) as live:
        yield live


def test_serve_runs_the_coalescing_protocol() -> None:
    assert runtime.uvicorn_options(Limits())["ws"] is CoalescingWebSocketProtocol


def test_a_served_socket_gets_every_frame_whole_and_in_order(server: LiveServer) -> None:
    """Many answers at once over the real server: each one a frame of its own, in order."""
    with connect(server.ws) as socket:
        for number in range(1, 41):
            socket.send(json.dumps({"type": "ping", "id": number}))
        answers = [json.loads(socket.recv(timeout=10)) for _ in range(40)]
    assert answers == [{"type": "ack", "id": number, "pong": True} for number in range(1, 41)]
