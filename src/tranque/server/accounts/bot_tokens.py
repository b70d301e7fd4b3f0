"""Bot accounts' API tokens: made, recognised on the `/ws` upgrade, and revoked.

A token is ``tqb_`` and 32 random bytes (URL-safe base64); it is shown to the bot's owner
once, and the database keeps only its SHA-256 (`AccountStore.set_bot_token`), as for sessions. A
program opens `/ws` with ``Authorization: Bearer tqb_…``: the socket then acts for the bot
account. A token the server does not know (mistyped, or revoked before the socket opened)
gets the socket accepted and closed at once with close code `BAD_TOKEN_CLOSE` (reason
``bad_token``), so that the program can tell it from a network error. Revoking a token (or
making a new one, which revokes the old) closes the bot's open sockets with
`TOKEN_REVOKED_CLOSE` (reason ``token_revoked``): `BotSockets` keeps them, and with several
processes tells the others over the bus to close theirs.
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping

from tranque.server.accounts.owned_sockets import OwnedSockets
from tranque.server.cluster import wire
from tranque.server.store import AccountStore, UserRow
from tranque.server.table.seats import token_hash

TOKEN_PREFIX = "tqb_"
TOKEN_MAX = 128  # a token is 47 characters; anything much longer is not one
BAD_TOKEN_CLOSE = 4401
TOKEN_REVOKED_CLOSE = 4002


def new_bot_token() -> str:
    """A fresh token, to be shown once: ``tqb_`` + 43 URL-safe characters.

    >>> token = new_bot_token()
    >>> token.startswith("tqb_"), len(token)
    (True, 47)
    """
    return TOKEN_PREFIX + secrets.token_urlsafe(32)


def bearer_token(headers: Mapping[str, str]) -> str | None:
    """The token of an ``Authorization: Bearer …`` header; None without one.

    >>> bearer_token({"authorization": "Bearer tqb_abc"})
    'tqb_abc'
    >>> bearer_token({}) is None
    True
    """
    value = headers.get("authorization")
    if value is None:
        return None
    scheme, _, token = value.strip().partition(" ")
    return token.strip() if scheme.lower() == "bearer" else ""


async def bot_of_token(store: AccountStore, token: str, now: float) -> UserRow | None:
    """The bot account whose live token is `token`; None for any other string."""
    if not token.startswith(TOKEN_PREFIX) or len(token) > TOKEN_MAX:
        return None
    return await store.bot_by_token(token_hash(token), now)


class BotSockets(OwnedSockets):
    """The open sockets of each bot account on this process; with several processes (`share`),
    a revocation on any of them closes the bot's sockets on every one, over the bus."""

    async def revoke(self, bot_id: int) -> None:
        """The bot's token no longer holds: close its sockets here, and on the other processes."""
        if self.bus is not None:
            self.bus.publish(self.channel, wire.encode(wire.BotRevoked(bot_id=bot_id)))
        await self.close_all(bot_id)

    async def close_all(self, bot_id: int) -> None:
        """Close every socket the bot opened on this process."""
        await self.close_owned(bot_id, TOKEN_REVOKED_CLOSE, "token_revoked")

    def _on_message(self, data: bytes) -> None:
        message = wire.decode(data)
        if isinstance(message, wire.BotRevoked):
            self._in_background(self.close_all(message.bot_id))
