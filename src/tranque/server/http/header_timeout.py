"""uvicorn's h11 HTTP protocol with the bound it lacks: a time limit on reading headers.

uvicorn bounds the size of a request's headers (`h11_max_incomplete_event_size`, h11 only:
its httptools protocol has no such limit; and only while they are incomplete, so whole ones
that arrive in one read pass: here they are measured too) and closes a connection left idle
after an answer (`timeout_keep_alive`). It has no time limit on receiving the headers themselves: a new
connection that sends nothing, or drips a header line every few seconds, is kept open for
ever (slowloris). Here every request's request line and headers must arrive in full within
`header_seconds` of the connection opening, or of the previous answer on a kept-alive one;
otherwise the connection is closed (with `408 headers_timeout` when part of a request had
arrived). Bodies have their own limits (`http/body_limit.py`); a WebSocket, once upgraded, is the
WebSocket protocol's.

Headers over the size limit are answered `431 headers_too_big` (uvicorn's own answer is a
plain-text 400).
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

from tranque.server.http.body_limit import size_text
from tranque.server.refusals import Refusal


def headers_too_big(limit: int) -> dict[str, Any]:
    return Refusal("headers_too_big", size=size_text(limit)).body()


def headers_timeout(seconds: float) -> dict[str, Any]:
    return Refusal("headers_timeout", seconds=f"{seconds:g}").body()


class HeaderTimeoutProtocol(H11Protocol):
    """`H11Protocol` that closes a connection whose request headers are late."""

    header_seconds: float = 10.0

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        self.header_timer: asyncio.TimerHandle | None = None
        super().connection_made(transport)
        self._watch_headers()

    def data_received(self, data: bytes) -> None:
        if self.conn.their_state is h11.IDLE and self._headers_too_big(data):
            limit = self.config.h11_max_incomplete_event_size or 0
            self._answer_and_close(431, b"Request Header Fields Too Large", headers_too_big(limit))
            return
        super().data_received(data)
        self._watch_headers()

    def _headers_too_big(self, data: bytes) -> bool:
        """Whether the request being read has more header bytes than the limit. h11 checks only
        headers still incomplete: whole ones that arrive in one read would pass."""
        limit = self.config.h11_max_incomplete_event_size
        if limit is None:
            return False
        received = self.conn.trailing_data[0] + data
        end = received.find(b"\r\n\r\n")
        return (len(received) if end < 0 else end + 4) > limit

    def on_response_complete(self) -> None:
        super().on_response_complete()
        self._watch_headers()

    def connection_lost(self, exc: Exception | None) -> None:
        self._stop_header_timer()
        super().connection_lost(exc)

    def _watch_headers(self) -> None:
        """Time the headers while h11 waits for a request; stop once one has arrived (an
        endpoint or a WebSocket has it) or the connection is closing."""
        waiting = self.conn.their_state is h11.IDLE and not self.transport.is_closing()
        if not waiting:
            self._stop_header_timer()
        elif self.header_timer is None:
            self.header_timer = self.loop.call_later(self.header_seconds, self._headers_late)

    def _stop_header_timer(self) -> None:
        if self.header_timer is not None:
            self.header_timer.cancel()
            self.header_timer = None

    def _headers_late(self) -> None:
        self.header_timer = None
        if self.transport.is_closing():
            return
        started, _ = self.conn.trailing_data
        if started:
            self._answer_and_close(408, b"Request Timeout", headers_timeout(self.header_seconds))
        else:
            self.transport.close()

    def send_400_response(self, msg: str) -> None:
        limit = self.config.h11_max_incomplete_event_size
        if limit is not None and len(self.conn.trailing_data[0]) > limit:
            # h11 refuses a request whose headers outgrow its buffer with this same error.
            self._answer_and_close(431, b"Request Header Fields Too Large", headers_too_big(limit))
        else:
            super().send_400_response(msg)

    def _answer_and_close(self, status: int, reason: bytes, body: dict[str, Any]) -> None:
        """Answer outside h11's state machine: no request was read, and nothing more will be."""
        payload = json.dumps(body, ensure_ascii=False).encode()
        head = (
            b"HTTP/1.1 %d %s\r\ncontent-type: application/json\r\ncontent-length: %d\r\n"
            b"connection: close\r\n\r\n" % (status, reason, len(payload))
        )
        self.transport.write(head + payload)
        self.transport.close()


def header_timeout_protocol(seconds: float) -> type[HeaderTimeoutProtocol]:
    """The protocol class to give uvicorn (`http=`), with its header time limit."""
    return type("HeaderTimeoutProtocol", (HeaderTimeoutProtocol,), {"header_seconds": seconds})
