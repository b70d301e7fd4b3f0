"""Each person's open sockets, by account, so that a suspension or a ban ends them all.

Logging out closes the sockets of one session (sessions.py); a moderator's suspension or ban
(moderation/enforce.py) ends every session of the account, and `AccountSockets.close` closes
every socket it opened, with `sessions.LOGGED_OUT_CLOSE` (the session is over) and the reason
``account_suspended`` or ``account_banned``. With several processes it tells the others over
the bus to close theirs, as bot tokens' revocations do (bot_tokens.py), and to give the
account's seats at the tables they own to those tables (`on_barred`).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from tranque.server.accounts.owned_sockets import OwnedSockets
from tranque.server.accounts.sessions import LOGGED_OUT_CLOSE
from tranque.server.cluster import wire

# The reasons that bar the account (moderation/enforce.py): its seats go to the tables too. Any
# other reason (an admin closing the sockets, http/admin.py) closes the sockets and no more.
BARRING_REASONS = frozenset({"account_suspended", "account_banned"})


class AccountSockets(OwnedSockets):
    """The open sockets of each person's account on this process; with several processes
    (`share`), closing an account's on any of them closes them on every one."""

    def __init__(self) -> None:
        super().__init__()
        # What else a process does when another tells it an account was barred (the seats at
        # the tables it owns: moderation/enforce.py's `set_aside`).
        self.on_barred: Callable[[int], Awaitable[object]] | None = None

    async def close(self, user_id: int, reason: str) -> None:
        """Close the account's sockets here, and on the other processes."""
        if self.bus is not None:
            self.bus.publish(self.channel, wire.encode(wire.AccountBarred(user_id=user_id, reason=reason)))
        await self.close_here(user_id, reason)

    async def close_here(self, user_id: int, reason: str) -> None:
        await self.close_owned(user_id, LOGGED_OUT_CLOSE, reason)

    async def _barred_here(self, user_id: int, reason: str) -> None:
        await self.close_here(user_id, reason)
        if self.on_barred is not None and reason in BARRING_REASONS:
            await self.on_barred(user_id)

    def _on_message(self, data: bytes) -> None:
        message = wire.decode(data)
        if isinstance(message, wire.AccountBarred):
            self._in_background(self._barred_here(message.user_id, message.reason))
