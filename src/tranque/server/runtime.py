"""Process settings for serving thousands of sockets (measured with benchmarks/server_load.py).

Every open socket keeps ~200 tracked objects alive (ASGI coroutines, closures, queues), so
with 4,000 sockets Python's own garbage collector stalls every table for 0.1–1 s at a time;
`collector.py` collects on the clock instead, in pauses of a few milliseconds.
WebSocket compression costs ~29% of the server's CPU per action and ~44 KiB per socket for
messages that are already small, so it is off. A socket's frames written in one turn of the
event loop leave in one system call (`ws_protocol.CoalescingWebSocketProtocol`): a move sends
a socket two or three frames, and a `send` per frame cost ~7% of the server's CPU per move.

`uvicorn_options` is how `tranque serve` and the tests' server both run uvicorn: its HTTP
protocol with the header limits of `limits.Limits`, and the WebSocket protocol and settings above.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tranque.server import collector

if TYPE_CHECKING:
    from tranque.server.lobby.limits import Limits

WS_PER_MESSAGE_DEFLATE = False
WS_MAX_SIZE = 1 << 20  # 1 MiB: a client message is at most 16 KiB (protocol.MAX_MESSAGE_CHARS)


def tune_garbage_collector() -> None:
    """Call once the app is built, before serving: the app's lifespan then runs a
    `collector.Collector` in place of Python's own collector."""
    collector.manage()


def uvicorn_options(limits: Limits, *, by_name: bool = False) -> dict[str, Any]:
    """The keyword arguments of `uvicorn.run` / `uvicorn.Config` that bound what a client sends.
    `by_name`: the protocol classes as import paths, for worker processes (uvicorn's `workers`
    pickles its config), with the default header time limit."""
    from tranque.server.http.header_timeout import HeaderTimeoutProtocol, header_timeout_protocol
    from tranque.server.ws.uvicorn_protocol import CoalescingWebSocketProtocol

    if by_name:
        assert limits.header_seconds == HeaderTimeoutProtocol.header_seconds
    return {
        "http": "tranque.server.http.header_timeout:HeaderTimeoutProtocol"
        if by_name
        else header_timeout_protocol(limits.header_seconds),
        "h11_max_incomplete_event_size": limits.header_bytes,
        "timeout_keep_alive": limits.keep_alive_seconds,
        "ws": "tranque.server.ws.uvicorn_protocol:CoalescingWebSocketProtocol"
        if by_name
        else CoalescingWebSocketProtocol,
        "ws_max_size": WS_MAX_SIZE,
        "ws_per_message_deflate": WS_PER_MESSAGE_DEFLATE,
    }
