"""`MemoryAccounts`: accounts, sessions and bot tokens, in memory."""

from __future__ import annotations

import dataclasses

from tranque.server.accounts.names import skeleton
from tranque.server.store.accounts import BotRow, NameTaken, TooManyBots, UserRow
from tranque.server.store.memory.data import MemoryData


class MemoryAccounts(MemoryData):
    """`AccountStore` in memory."""

    async def create_user(self, name: str, password_hash: str, created_at: float) -> UserRow:
        if await self.find_user(name) is not None or await self.find_similar_user(name) is not None:
            raise NameTaken(name)
        user = UserRow(len(self._users) + 1, name, password_hash, created_at)
        self._users[user.user_id] = user
        return user

    async def find_user(self, name: str) -> UserRow | None:
        return next((u for u in self._users.values() if u.name.casefold() == name.casefold()), None)

    async def find_similar_user(self, name: str) -> UserRow | None:
        key = skeleton(name)
        return next((u for u in self._users.values() if skeleton(u.name) == key), None)

    async def user_by_id(self, user_id: int) -> UserRow | None:
        return self._users.get(user_id)

    async def create_session(self, token_hash: str, user_id: int, expires_at: float) -> None:
        self._sessions[token_hash] = (user_id, expires_at)

    async def session_user(self, token_hash: str, now: float) -> UserRow | None:
        found = self._sessions.get(token_hash)
        if found is None or found[1] <= now:
            return None
        return self._users.get(found[0])

    async def delete_session(self, token_hash: str) -> None:
        self._sessions.pop(token_hash, None)

    async def create_bot(self, name: str, owner_id: int, created_at: float, most: int) -> UserRow:
        # Nothing below waits: the count and the creation are one step of the loop.
        if sum(user.bot_owner == owner_id for user in self._users.values()) >= most:
            raise TooManyBots(owner_id)
        user = await self.create_user(name, "", created_at)
        bot = dataclasses.replace(user, bot_owner=owner_id)
        self._users[bot.user_id] = bot
        return bot

    async def bots_of(self, owner_id: int) -> list[BotRow]:
        return [
            BotRow(
                user.user_id,
                user.name,
                user.created_at,
                user.user_id in self._bot_tokens,
                self._bot_used.get(user.user_id),
            )
            for user in sorted(self._users.values(), key=lambda user: user.user_id)
            if user.bot_owner == owner_id
        ]

    async def set_bot_token(self, bot_id: int, token_hash: str | None) -> None:
        if token_hash is None:
            self._bot_tokens.pop(bot_id, None)
        else:
            self._bot_tokens[bot_id] = token_hash

    async def bot_by_token(self, token_hash: str, now: float) -> UserRow | None:
        bot_id = next((bot for bot, stored in self._bot_tokens.items() if stored == token_hash), None)
        if bot_id is None:
            return None
        self._bot_used[bot_id] = now
        return self._users[bot_id]

    async def set_admin_token(self, user_id: int, token_hash: str | None) -> None:
        if token_hash is None:
            self._admin_tokens.pop(user_id, None)
        else:
            self._admin_tokens[user_id] = token_hash

    async def user_by_admin_token(self, token_hash: str) -> UserRow | None:
        user_id = next((user for user, stored in self._admin_tokens.items() if stored == token_hash), None)
        return None if user_id is None else self._users.get(user_id)

    async def users_by_prefix(self, prefix: str, most: int) -> list[UserRow]:
        key = prefix.casefold()
        found = [user for user in self._users.values() if user.name.casefold().startswith(key)]
        return sorted(found, key=lambda user: user.name.casefold())[:most]

    async def set_avatar(self, user_id: int, avatar: str | None) -> None:
        self._users[user_id] = dataclasses.replace(self._users[user_id], avatar=avatar)
