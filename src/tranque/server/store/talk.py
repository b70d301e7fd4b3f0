"""The talk area of the store: whom each account mutes in the table chat, and whether it has
the chat off (server/talk/, http/talk.py; revision 0017)."""

from __future__ import annotations

from typing import Protocol

from tranque.server.store.accounts import UserRow


class TalkStore(Protocol):
    """Each account's chat mutes (for itself: the muted account knows nothing) and its chat
    setting."""

    async def mute_in_chat(self, user_id: int, muted_id: int, at: float) -> None:
        """`user_id` no longer sees `muted_id`'s chat lines and phrases (again: no change)."""
        ...

    async def unmute_in_chat(self, user_id: int, muted_id: int) -> bool:
        """Undo a mute; whether there was one."""
        ...

    async def chat_muted_users(self, user_id: int) -> list[UserRow]:
        """The accounts `user_id` mutes in the chat, by name."""
        ...

    async def chat_off(self, user_id: int) -> bool:
        """Whether the account turned the table chat off (it sees no typed lines)."""
        ...

    async def set_chat_off(self, user_id: int, off: bool, at: float) -> None: ...
