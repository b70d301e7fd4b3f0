"""Who is logged in: the session cookie names a session row (only its hash is stored).

A socket reads the session once, when it opens (ws/endpoint.py), and acts for that account from then
on; so that logging out also ends what the session opened, `SessionSockets` keeps each open
socket under its session, and `close_all` closes them (code `LOGGED_OUT_CLOSE`) when the
session ends. The registry is per process, like the sockets it holds.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable

from starlette.websockets import WebSocket

from tranque.server import logs
from tranque.server.store import AccountStore, UserRow
from tranque.server.table.seats import token_hash

SESSION_COOKIE = "tranque_session"
TOKEN_MAX = 128  # a session token is 43 characters; anything much longer is not one
LOGGED_OUT_CLOSE = 4001  # the session this socket was opened with has ended
CLOSE_SECONDS = 2  # how long a logout waits for each socket's closing handshake


async def user_from_session(store: AccountStore, token: str | None, now: float) -> UserRow | None:
    if not token or len(token) > TOKEN_MAX:
        return None
    user = await store.session_user(token_hash(token), now)
    if user is not None:
        logs.ACCOUNT.set(user.user_id)  # the request's log lines name the account
    return user


class SessionSockets:
    """The open sockets of each session."""

    def __init__(self) -> None:
        self._open: dict[str, set[WebSocket]] = {}

    def add(self, token: str | None, websocket: WebSocket) -> Callable[[], None]:
        """Keep `websocket` until the session of `token` ends; returns what forgets it (call
        it when the socket goes). A socket without a session token is not kept."""
        if not token or len(token) > TOKEN_MAX:
            return lambda: None
        key = token_hash(token)
        self._open.setdefault(key, set()).add(websocket)

        def forget() -> None:
            sockets = self._open.get(key)
            if sockets is not None:
                sockets.discard(websocket)
                if not sockets:
                    del self._open[key]

        return forget

    async def close_all(self, token: str) -> None:
        """Close every socket opened with the session of `token`."""
        sockets = self._open.pop(token_hash(token), set())
        await asyncio.gather(*(_close(websocket) for websocket in sockets))


async def _close(websocket: WebSocket) -> None:
    # A socket already closing, or a client that never answers the close: nothing more to do.
    with contextlib.suppress(Exception):
        async with asyncio.timeout(CLOSE_SECONDS):
            await websocket.close(code=LOGGED_OUT_CLOSE)
