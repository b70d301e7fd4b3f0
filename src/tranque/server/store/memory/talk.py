"""`MemoryTalk`: the accounts' chat mutes and chat setting, in memory."""

from __future__ import annotations

from tranque.server.store.accounts import UserRow
from tranque.server.store.memory.data import MemoryData


class MemoryTalk(MemoryData):
    """`TalkStore` in memory."""

    async def mute_in_chat(self, user_id: int, muted_id: int, at: float) -> None:
        if user_id not in self._users or muted_id not in self._users:
            raise KeyError((user_id, muted_id))
        self._chat_mutes.setdefault((user_id, muted_id), at)

    async def unmute_in_chat(self, user_id: int, muted_id: int) -> bool:
        return self._chat_mutes.pop((user_id, muted_id), None) is not None

    async def chat_muted_users(self, user_id: int) -> list[UserRow]:
        found = [self._users[muted] for muter, muted in self._chat_mutes if muter == user_id]
        return sorted(found, key=lambda user: user.name.casefold())

    async def chat_off(self, user_id: int) -> bool:
        return self._chat_off.get(user_id, False)

    async def set_chat_off(self, user_id: int, off: bool, at: float) -> None:
        if user_id not in self._users:
            raise KeyError(user_id)
        self._chat_off[user_id] = off
