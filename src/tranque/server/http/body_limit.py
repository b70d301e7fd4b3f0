"""Request bodies read whole, up to a size and within a time, before any endpoint sees them
(a pure ASGI middleware; docs/protocol.md, «Limits»).

Starlette reads a body for as long and as far as the client sends it. Here a body declared
larger than its limit (`Content-Length`) is refused before a byte of it is read, one that
grows past its limit while it streams is refused as soon as it does, and one that takes
longer than `body_seconds` to arrive is refused then: `413 body_too_big` and
`408 body_timeout`, each closing the connection, so nothing more of that body is read. The
endpoint then gets the body already read, in one piece.

Every body has the same limit except where a route needs more: a record to check
(`POST /api/verify`) is a whole game.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from tranque.server.lobby.limits import Limits
from tranque.server.refusals import Refusal


class BodyTooBig(Exception):
    pass


class ClientGone(Exception):
    pass


def size_text(size: int) -> str:
    """A byte count as people write it: 64 KiB, 4 MiB.

    >>> size_text(65536), size_text(4 << 20), size_text(1000)
    ('64 KiB', '4 MiB', '1000 bytes')
    """
    for unit, shift in (("MiB", 20), ("KiB", 10)):
        if size >= 1 << shift and size % (1 << shift) == 0:
            return f"{size >> shift} {unit}"
    return f"{size} bytes"


def too_big(limit: int) -> dict[str, Any]:
    return Refusal("body_too_big", size=size_text(limit)).body()


def too_slow(seconds: float) -> dict[str, Any]:
    return Refusal("body_timeout", seconds=f"{seconds:g}").body()


class BodyLimit:
    def __init__(self, app: ASGIApp, limits: Limits) -> None:
        self.app = app
        self.limits = limits
        self.larger = {"/api/verify": limits.verify_body_bytes}

    def limit_for(self, path: str) -> int:
        return self.larger.get(path, self.limits.body_bytes)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        limit = self.limit_for(scope["path"])
        declared = _content_length(scope)
        if declared is not None and declared > limit:
            await _refuse(send, 413, too_big(limit))
            return
        try:
            async with asyncio.timeout(self.limits.body_seconds):
                body = await _read_body(receive, limit)
        except BodyTooBig:
            await _refuse(send, 413, too_big(limit))
            return
        except TimeoutError:
            await _refuse(send, 408, too_slow(self.limits.body_seconds))
            return
        except ClientGone:
            return
        await self.app(scope, _replaying(body, receive), send)


def _content_length(scope: Scope) -> int | None:
    for name, value in scope["headers"]:
        if name == b"content-length":
            # The HTTP parser has already refused a length that is not a number.
            return int(value)
    return None


async def _read_body(receive: Receive, limit: int) -> bytes:
    chunks: list[bytes] = []
    size = 0
    while True:
        message = await receive()
        if message["type"] == "http.disconnect":
            raise ClientGone
        chunk = message.get("body", b"")
        size += len(chunk)
        if size > limit:
            raise BodyTooBig
        chunks.append(chunk)
        if not message.get("more_body", False):
            return b"".join(chunks)


def _replaying(body: bytes, receive: Receive) -> Receive:
    """The body in one message, then whatever the client does next (a disconnect)."""
    pending = [{"type": "http.request", "body": body, "more_body": False}]

    async def replay() -> Message:
        if pending:
            return pending.pop()
        return await receive()

    return replay


async def _refuse(send: Send, status: int, body: dict[str, Any]) -> None:
    payload = json.dumps(body, ensure_ascii=False).encode()
    headers = [
        (b"content-type", b"application/json"),
        (b"content-length", str(len(payload)).encode()),
        (b"connection", b"close"),  # what is left of the body is never read
    ]
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": payload})
