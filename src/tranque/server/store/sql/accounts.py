"""`SqlAccounts`: accounts, sessions and bot tokens, on SQLAlchemy."""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncConnection

from tranque.server.accounts.names import skeleton
from tranque.server.store.accounts import BotRow, NameTaken, TooManyBots, UserRow
from tranque.server.store.schema import sessions, users
from tranque.server.store.sql.database import SqlDatabase

USER_COLUMNS = (
    users.c.id,
    users.c.name,
    users.c.password_hash,
    users.c.created_at,
    users.c.avatar,
    users.c.bot_owner,
)


def user_row(row: Any) -> UserRow:
    return UserRow(row.id, row.name, row.password_hash, row.created_at, row.avatar, row.bot_owner)


class SqlAccounts(SqlDatabase):
    """`AccountStore` on SQLAlchemy."""

    async def create_user(self, name: str, password_hash: str, created_at: float) -> UserRow:
        return await self._create_user(name, password_hash, created_at, None)

    async def _create_user(
        self, name: str, password_hash: str, created_at: float, bot_owner: int | None, most: int = 0
    ) -> UserRow:
        """A new account; a bot account (`bot_owner`) only while its owner has fewer than `most`."""
        values = {
            "name": name,
            "name_key": name.casefold(),
            "name_skeleton": skeleton(name),
            "password_hash": password_hash,
            "created_at": created_at,
            "bot_owner": bot_owner,
        }
        try:
            async with self.engine.begin() as connection:
                if bot_owner is not None:
                    await self._count_bots(connection, bot_owner, most)
                user_id = await connection.scalar(users.insert().values(values).returning(users.c.id))
        except sa.exc.IntegrityError as error:
            raise NameTaken(name) from error
        return UserRow(int(user_id), name, password_hash, created_at, bot_owner=bot_owner)

    @staticmethod
    async def _count_bots(connection: AsyncConnection, owner_id: int, most: int) -> None:
        """`TooManyBots` if the owner has `most` bots. It first writes the owner's own row (to
        what it holds), which another creation for the same owner must then wait for: a row
        lock on PostgreSQL, the database's write lock on SQLite. So the count stays true until
        this transaction ends."""
        await connection.execute(
            users.update().where(users.c.id == owner_id).values(bot_owner=users.c.bot_owner)
        )
        owned: int = (
            await connection.scalar(
                sa.select(sa.func.count()).select_from(users).where(users.c.bot_owner == owner_id)
            )
            or 0
        )
        if owned >= most:
            raise TooManyBots(owner_id)

    async def _user(self, condition: sa.ColumnElement[bool]) -> UserRow | None:
        query = sa.select(*USER_COLUMNS).where(condition)
        async with self.engine.connect() as connection:
            row = (await connection.execute(query)).first()
        return user_row(row) if row is not None else None

    async def find_user(self, name: str) -> UserRow | None:
        return await self._user(users.c.name_key == name.casefold())

    async def find_similar_user(self, name: str) -> UserRow | None:
        return await self._user(users.c.name_skeleton == skeleton(name))

    async def user_by_id(self, user_id: int) -> UserRow | None:
        return await self._user(users.c.id == user_id)

    async def create_session(self, token_hash: str, user_id: int, expires_at: float) -> None:
        values = {"token_hash": token_hash, "user_id": user_id, "expires_at": expires_at}
        async with self.engine.begin() as connection:
            await connection.execute(self._upsert(sessions, values))

    async def session_user(self, token_hash: str, now: float) -> UserRow | None:
        live = sa.select(sessions.c.user_id).where(
            sessions.c.token_hash == token_hash, sessions.c.expires_at > now
        )
        return await self._user(users.c.id == live.scalar_subquery())

    async def delete_session(self, token_hash: str) -> None:
        async with self.engine.begin() as connection:
            await connection.execute(sessions.delete().where(sessions.c.token_hash == token_hash))

    # Bot accounts ---------------------------------------------------------------------------

    async def create_bot(self, name: str, owner_id: int, created_at: float, most: int) -> UserRow:
        return await self._create_user(name, "", created_at, owner_id, most)

    async def bots_of(self, owner_id: int) -> list[BotRow]:
        query = (
            sa.select(
                users.c.id, users.c.name, users.c.created_at, users.c.bot_token_hash, users.c.bot_used_at
            )
            .where(users.c.bot_owner == owner_id)
            .order_by(users.c.id)
        )
        async with self.engine.connect() as connection:
            rows = (await connection.execute(query)).all()
        return [
            BotRow(row.id, row.name, row.created_at, row.bot_token_hash is not None, row.bot_used_at)
            for row in rows
        ]

    async def set_bot_token(self, bot_id: int, token_hash: str | None) -> None:
        async with self.engine.begin() as connection:
            await connection.execute(
                users.update()
                .where(users.c.id == bot_id, users.c.bot_owner.is_not(None))
                .values(bot_token_hash=token_hash)
            )

    async def bot_by_token(self, token_hash: str, now: float) -> UserRow | None:
        async with self.engine.begin() as connection:
            row = (
                await connection.execute(
                    users.update()
                    .where(users.c.bot_token_hash == token_hash, users.c.bot_owner.is_not(None))
                    .values(bot_used_at=now)
                    .returning(*USER_COLUMNS)
                )
            ).first()
        return user_row(row) if row is not None else None

    async def set_admin_token(self, user_id: int, token_hash: str | None) -> None:
        async with self.engine.begin() as connection:
            await connection.execute(
                users.update().where(users.c.id == user_id).values(admin_token_hash=token_hash)
            )

    async def user_by_admin_token(self, token_hash: str) -> UserRow | None:
        return await self._user(users.c.admin_token_hash == token_hash)

    async def users_by_prefix(self, prefix: str, most: int) -> list[UserRow]:
        pattern = prefix.casefold().replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"
        query = (
            sa.select(*USER_COLUMNS)
            .where(users.c.name_key.like(pattern, escape="\\"))
            .order_by(users.c.name_key)
            .limit(most)
        )
        async with self.engine.connect() as connection:
            rows = (await connection.execute(query)).all()
        return [user_row(row) for row in rows]

    async def set_avatar(self, user_id: int, avatar: str | None) -> None:
        async with self.engine.begin() as connection:
            await connection.execute(users.update().where(users.c.id == user_id).values(avatar=avatar))
