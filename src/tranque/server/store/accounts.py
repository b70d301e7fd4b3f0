"""The accounts' area of the store: users, their sessions, and bot accounts with their tokens."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol


class NameTaken(Exception):
    """A user with this name already exists."""


class TooManyBots(Exception):
    """The owner has as many bot accounts as it may (`AccountStore.create_bot`'s `most`)."""


@dataclass(frozen=True)
class UserRow:
    user_id: int
    name: str
    password_hash: str
    created_at: float = 0.0
    avatar: str | None = None  # one of the site's drawings; None: the default
    bot_owner: int | None = None  # a bot account's owner (revision 0007); None: a person's account

    @property
    def is_bot(self) -> bool:
        return self.bot_owner is not None


@dataclass(frozen=True)
class BotRow:
    """One of a person's bot accounts, as their list shows it (never its token)."""

    user_id: int
    name: str
    created_at: float
    has_token: bool  # a token is live (it was never revoked, or a new one was made since)
    used_at: float | None  # when a token last opened a socket; None: never


class AccountStore(Protocol):
    """Accounts (people's and bots'), sessions and bot tokens."""

    async def create_user(self, name: str, password_hash: str, created_at: float) -> UserRow:
        """`NameTaken` if the name (case-insensitive) exists, or one that looks like it
        (the same `names.skeleton`)."""
        ...

    async def find_user(self, name: str) -> UserRow | None: ...

    async def find_similar_user(self, name: str) -> UserRow | None:
        """The account whose name looks like `name` (the same `names.skeleton`)."""
        ...

    async def user_by_id(self, user_id: int) -> UserRow | None: ...

    async def set_avatar(self, user_id: int, avatar: str | None) -> None: ...

    async def create_session(self, token_hash: str, user_id: int, expires_at: float) -> None: ...

    async def session_user(self, token_hash: str, now: float) -> UserRow | None: ...

    async def delete_session(self, token_hash: str) -> None: ...

    # Bot accounts (accounts/bot_tokens.py, http/bot_accounts.py) -----------------------------

    async def create_bot(self, name: str, owner_id: int, created_at: float, most: int) -> UserRow:
        """A bot account owned by `owner_id`, with no password and no token yet; `NameTaken`
        as `create_user`, and `TooManyBots` if the owner has `most` already. The count and
        the creation are one step: creations for one owner at the same time wait for each
        other, so none goes past `most`."""
        ...

    async def bots_of(self, owner_id: int) -> list[BotRow]:
        """The bot accounts `owner_id` owns, oldest first."""
        ...

    async def set_bot_token(self, bot_id: int, token_hash: str | None) -> None:
        """The bot's token is now the one of `token_hash` (its old one no longer works);
        None revokes it."""
        ...

    async def bot_by_token(self, token_hash: str, now: float) -> UserRow | None:
        """The bot account whose live token has this hash (and mark it used at `now`)."""
        ...

    # Admin API tokens (accounts/admin_tokens.py) -----------------------------------------------

    async def set_admin_token(self, user_id: int, token_hash: str | None) -> None:
        """The account's admin token is now the one of `token_hash` (the old one no longer
        works); None revokes it."""
        ...

    async def user_by_admin_token(self, token_hash: str) -> UserRow | None:
        """The account whose admin token has this hash (its role is checked by the caller)."""
        ...

    async def users_by_prefix(self, prefix: str, most: int) -> list[UserRow]:
        """At most `most` accounts whose name starts with `prefix` (casefolded), by name."""
        ...
