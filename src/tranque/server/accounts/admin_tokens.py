"""Admins' API tokens, for `tranque admin ...` against the running site (http/admin.py).

A token is ``tqa_`` and 32 random bytes (URL-safe base64), made by `tranque admin token NAME`
on the site's database for an account whose role is `admin`; it is printed once and the
database keeps only its SHA-256 (`AccountStore.set_admin_token`), as for bot tokens
(bot_tokens.py). Making a new one replaces the old. The CLI sends it as
``Authorization: Bearer tqa_…``; it is worth something only while the account is an admin.
"""

from __future__ import annotations

import secrets

from tranque.server.store import AccountStore, UserRow
from tranque.server.table.seats import token_hash

TOKEN_PREFIX = "tqa_"
TOKEN_MAX = 128


def new_admin_token() -> str:
    """A fresh token, to be shown once.

    >>> token = new_admin_token()
    >>> token.startswith("tqa_"), len(token)
    (True, 47)
    """
    return TOKEN_PREFIX + secrets.token_urlsafe(32)


def is_admin_token(token: str) -> bool:
    """Whether `token` looks like an admin token at all.

    >>> is_admin_token("tqa_abc"), is_admin_token("tqb_abc")
    (True, False)
    """
    return token.startswith(TOKEN_PREFIX) and len(token) <= TOKEN_MAX


async def user_of_admin_token(store: AccountStore, token: str) -> UserRow | None:
    """The account whose admin token is `token`; None for any other string."""
    if not is_admin_token(token):
        return None
    return await store.user_by_admin_token(token_hash(token))
