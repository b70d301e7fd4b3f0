"""Who is online: the open sockets of each account, and the notices sent to all of them.

An account is online while it has a socket open. One that closes its last socket stays
online for `grace_seconds` (a reload, a dropped link that comes back): only if no socket
opens meanwhile does it go offline. `on_change(user_id, online)` is called on each real
change, so a page reload never makes a friend flicker off and on.

Each socket also carries the accounts whose phrases it does not receive (`muted`, the ones
its account blocks): `set_muted` updates every socket of the account at once.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from tranque.server.clock import Clock, Timer
from tranque.server.connection import Connection, encode

GRACE_SECONDS = 8.0


class Presence:
    def __init__(
        self,
        clock: Clock,
        on_change: Callable[[int, bool], None] | None = None,
        grace_seconds: float = GRACE_SECONDS,
    ) -> None:
        self.clock = clock
        self.on_change = on_change
        self.grace_seconds = grace_seconds
        self._sockets: dict[int, set[Connection]] = {}
        self._leaving: dict[int, Timer] = {}  # accounts whose last socket closed, not yet offline

    def add(self, user_id: int, connection: Connection) -> None:
        arriving = not self.online(user_id)
        leaving = self._leaving.pop(user_id, None)
        if leaving is not None:
            leaving.cancel()
        self._sockets.setdefault(user_id, set()).add(connection)
        if arriving and self.on_change is not None:
            self.on_change(user_id, True)

    def remove(self, user_id: int, connection: Connection) -> None:
        sockets = self._sockets.get(user_id)
        if sockets is None:
            return
        sockets.discard(connection)
        if sockets:
            return
        del self._sockets[user_id]
        when = self.clock.now() + self.grace_seconds
        self._leaving[user_id] = self.clock.call_at(when, lambda: self._gone(user_id))

    def _gone(self, user_id: int) -> None:
        if self._leaving.pop(user_id, None) is None or user_id in self._sockets:
            return
        if self.on_change is not None:
            self.on_change(user_id, False)

    def online(self, user_id: int) -> bool:
        return user_id in self._sockets or user_id in self._leaving

    def send(self, user_id: int, message: dict[str, Any]) -> int:
        """Queue `message` on every open socket of the account; how many."""
        sockets = list(self._sockets.get(user_id, ()))
        if sockets:
            text = encode(message)
            for connection in sockets:
                connection.send_text(text)
        return len(sockets)

    def set_muted(self, user_id: int, muted: frozenset[int]) -> None:
        for connection in self._sockets.get(user_id, ()):
            connection.muted = muted

    def close(self) -> None:
        for timer in self._leaving.values():
            timer.cancel()
        self._leaving.clear()
