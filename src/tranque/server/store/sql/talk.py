"""`SqlTalk`: the accounts' chat mutes and chat setting, on SQLAlchemy."""

from __future__ import annotations

import sqlalchemy as sa

from tranque.server.store.accounts import UserRow
from tranque.server.store.schema import chat_mutes, chat_settings, users
from tranque.server.store.sql.accounts import USER_COLUMNS, user_row
from tranque.server.store.sql.database import SqlDatabase


class SqlTalk(SqlDatabase):
    """`TalkStore` on SQLAlchemy."""

    async def mute_in_chat(self, user_id: int, muted_id: int, at: float) -> None:
        statement = (
            self._insert(chat_mutes)
            .values(user_id=user_id, muted_id=muted_id, created_at=at)
            .on_conflict_do_nothing(index_elements=["user_id", "muted_id"])
        )
        async with self.engine.begin() as connection:
            await connection.execute(statement)

    async def unmute_in_chat(self, user_id: int, muted_id: int) -> bool:
        statement = chat_mutes.delete().where(
            chat_mutes.c.user_id == user_id, chat_mutes.c.muted_id == muted_id
        )
        async with self.engine.begin() as connection:
            result = await connection.execute(statement)
        return bool(result.rowcount)

    async def chat_muted_users(self, user_id: int) -> list[UserRow]:
        query = (
            sa.select(*USER_COLUMNS)
            .join(chat_mutes, chat_mutes.c.muted_id == users.c.id)
            .where(chat_mutes.c.user_id == user_id)
            .order_by(users.c.name_key)
        )
        async with self.engine.connect() as connection:
            rows = (await connection.execute(query)).all()
        return [user_row(row) for row in rows]

    async def chat_off(self, user_id: int) -> bool:
        query = sa.select(chat_settings.c.chat_off).where(chat_settings.c.user_id == user_id)
        async with self.engine.connect() as connection:
            found = (await connection.execute(query)).scalar_one_or_none()
        return bool(found)

    async def set_chat_off(self, user_id: int, off: bool, at: float) -> None:
        statement = self._insert(chat_settings).values(user_id=user_id, chat_off=off, updated_at=at)
        statement = statement.on_conflict_do_update(
            index_elements=["user_id"],
            set_={"chat_off": statement.excluded.chat_off, "updated_at": statement.excluded.updated_at},
        )
        async with self.engine.begin() as connection:
            await connection.execute(statement)
