"""Who may watch a table (docs/protocol.md, «Mirones»): the one place that decides.

Public and tournament tables take any spectator, as they always have; practice and quick
tables none. The host of a private table (or a peña's table) picks a policy when creating it
(`TableOptions.spectators`): "none" (the default), "friends" (the host's friends), "pena"
(members of the table's peña) or "link" (whoever holds the table's watching link, a secret
token the server made: `#/mesa/<id>?ver=<token>`). A spectator sees what R17 lets a spectator
see, the same view as at a public table, and neither reads nor writes the players' chat.

The peña's membership is asked of a callable handed in (`PenaRole`: the server's is the
peñas' store's `pena_role`); `no_pena`, the default, knows no peña.
"""

from __future__ import annotations

import secrets
from collections.abc import Awaitable, Callable

from tranque.server.table.state import TableError, TableKind, TableOptions

SPECTATOR_POLICIES = ("none", "friends", "pena", "link")
PenaRole = Callable[[int, int], Awaitable[str | None]]  # (peña id, account) → its role, or None
AreFriends = Callable[[int, int], Awaitable[bool]]  # (account, account) → friends


async def no_pena(pena_id: int, user_id: int) -> str | None:
    """No peña known: nobody is a member."""
    return None


def watch_token() -> str:
    """A new watching link's secret."""
    return secrets.token_urlsafe(12)


async def may_watch(
    options: TableOptions,
    user_id: int | None,
    watch: str | None,
    are_friends: AreFriends,
    pena_role: PenaRole = no_pena,
) -> TableError | None:
    """None if the account `user_id` (None: a guest) holding the token `watch` (from the
    link, or None) may watch a table of `options`; else the refusal that says why."""
    if options.kind.watchable:
        return None
    if options.kind is not TableKind.PRIVATE and options.pena_id is None:
        return TableError("private")  # practice, quick match: nobody watches
    policy = options.spectators or "none"
    if policy == "link":
        token = options.watch_token
        if watch is not None and token is not None and secrets.compare_digest(watch.encode(), token.encode()):
            return None
        return TableError("no_spectators.link")
    if policy == "friends":
        host = options.host_user_id
        if user_id is not None and host is not None and (user_id == host or await are_friends(host, user_id)):
            return None
        return TableError("no_spectators.friends")
    if policy == "pena":
        pena = options.pena_id
        if user_id is not None and pena is not None and await pena_role(pena, user_id) is not None:
            return None
        return TableError("no_spectators.pena")
    return TableError("no_spectators")
