"""Each person's open sockets, by account, so that a suspension or a ban ends them all.

Logging out closes the sockets of one session (sessions.py); a moderator's suspension or ban
(moderation/enforce.py) ends every session of the account, and `AccountSockets.close` closes
every socket it opened, with `sessions.LOGGED_OUT_CLOSE` (the session is over) and the reason
``account_suspended`` or ``account_banned``. With several processes it tells the others over
the bus to close theirs, as bot tokens' revocations do (bot_tokens.py), and to give the
account's seats at the tables they own to those tables (`on_barred`).
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING

from starlette.websockets import WebSocket

from tranque.server.accounts.sessions import CLOSE_SECONDS, LOGGED_OUT_CLOSE
from tranque.server.cluster import wire

if TYPE_CHECKING:
    from tranque.server.cluster.bus import Bus


class AccountSockets:
    """The open sockets of each person's account on this process; with several processes
    (`share`), closing an account's on any of them closes them on every one."""

    def __init__(self) -> None:
        self._open: dict[int, set[WebSocket]] = {}
        self.bus: Bus | None = None
        self.channel = ""
        self._closing: set[asyncio.Task[None]] = set()
        # What else a process does when another tells it an account was barred (the seats at
        # the tables it owns: moderation/enforce.py's `set_aside`).
        self.on_barred: Callable[[int], Awaitable[object]] | None = None

    def share(self, bus: Bus, channel: str) -> None:
        """Hear and tell the other processes' closings on `channel` (before `start`)."""
        self.bus, self.channel = bus, channel

    async def start(self) -> None:
        if self.bus is not None:
            await self.bus.subscribe(self.channel, self._on_message)

    def add(self, user_id: int, websocket: WebSocket) -> Callable[[], None]:
        """Keep `websocket` until it goes; returns what forgets it."""
        self._open.setdefault(user_id, set()).add(websocket)

        def forget() -> None:
            sockets = self._open.get(user_id)
            if sockets is not None:
                sockets.discard(websocket)
                if not sockets:
                    del self._open[user_id]

        return forget

    def count(self, user_id: int) -> int:
        """How many sockets the account has open on this process."""
        return len(self._open.get(user_id, ()))

    async def close(self, user_id: int, reason: str) -> None:
        """Close the account's sockets here, and on the other processes."""
        if self.bus is not None:
            self.bus.publish(self.channel, wire.encode(wire.AccountBarred(user_id=user_id, reason=reason)))
        await self.close_here(user_id, reason)

    async def close_here(self, user_id: int, reason: str) -> None:
        sockets = self._open.pop(user_id, set())
        await asyncio.gather(*(_close(websocket, reason) for websocket in sockets))

    async def _barred_here(self, user_id: int, reason: str) -> None:
        await self.close_here(user_id, reason)
        if self.on_barred is not None:
            await self.on_barred(user_id)

    def _on_message(self, data: bytes) -> None:
        message = wire.decode(data)
        if not isinstance(message, wire.AccountBarred):
            return
        task = asyncio.get_running_loop().create_task(self._barred_here(message.user_id, message.reason))
        self._closing.add(task)
        task.add_done_callback(self._closing.discard)


async def _close(websocket: WebSocket, reason: str) -> None:
    with contextlib.suppress(Exception):
        async with asyncio.timeout(CLOSE_SECONDS):
            await websocket.close(code=LOGGED_OUT_CLOSE, reason=reason)
