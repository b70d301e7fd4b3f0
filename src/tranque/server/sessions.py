"""Who is logged in: the session cookie names a session row (only its hash is stored)."""

from __future__ import annotations

from tranque.server.seats import token_hash
from tranque.server.store import Store, UserRow

SESSION_COOKIE = "tranque_session"


async def user_from_session(store: Store, token: str | None, now: float) -> UserRow | None:
    if not token or len(token) > 128:
        return None
    return await store.session_user(token_hash(token), now)
