"""The open sockets of each account on this process, to close them all at once.

A bot token's revocation (bot_tokens.py) and a moderator's suspension or ban
(account_sockets.py) each end every socket an account opened; with several processes the one
that acts tells the others over the bus, and each closes its own. `OwnedSockets` is what they
share: keeping the sockets by account, closing them, and running what a message from another
process asks for without holding up the bus.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable, Coroutine
from typing import TYPE_CHECKING, Any

from starlette.websockets import WebSocket

from tranque.server.accounts.sessions import CLOSE_SECONDS

if TYPE_CHECKING:
    from tranque.server.cluster.bus import Bus


class OwnedSockets:
    """Sockets by account id; with several processes (`share`), a subclass's `_on_message`
    hears the others on `channel`."""

    def __init__(self) -> None:
        self._open: dict[int, set[WebSocket]] = {}
        self.bus: Bus | None = None
        self.channel = ""
        self._closing: set[asyncio.Task[None]] = set()

    def share(self, bus: Bus, channel: str) -> None:
        """Hear and tell the other processes on `channel` (before `start`)."""
        self.bus, self.channel = bus, channel

    async def start(self) -> None:
        if self.bus is not None:
            await self.bus.subscribe(self.channel, self._on_message)

    def add(self, owner: int, websocket: WebSocket) -> Callable[[], None]:
        """Keep `websocket` until it goes or is closed; returns what forgets it."""
        self._open.setdefault(owner, set()).add(websocket)

        def forget() -> None:
            sockets = self._open.get(owner)
            if sockets is not None:
                sockets.discard(websocket)
                if not sockets:
                    del self._open[owner]

        return forget

    def count(self, owner: int) -> int:
        """How many sockets the account has open on this process."""
        return len(self._open.get(owner, ()))

    async def close_owned(self, owner: int, code: int, reason: str) -> None:
        """Close every socket the account opened on this process."""
        sockets = self._open.pop(owner, set())
        await asyncio.gather(*(_close(websocket, code, reason) for websocket in sockets))

    def _on_message(self, data: bytes) -> None:
        raise NotImplementedError

    def _in_background(self, work: Coroutine[Any, Any, None]) -> None:
        """Run what another process asked for, kept until it is done."""
        task = asyncio.get_running_loop().create_task(work)
        self._closing.add(task)
        task.add_done_callback(self._closing.discard)


async def _close(websocket: WebSocket, code: int, reason: str) -> None:
    with contextlib.suppress(Exception):
        async with asyncio.timeout(CLOSE_SECONDS):
            await websocket.close(code=code, reason=reason)
