"""`SqlSocial`: friendships, friend requests and blocks, on SQLAlchemy."""

from __future__ import annotations

import contextlib

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncConnection

from tranque.server.store.accounts import UserRow
from tranque.server.store.schema import blocks, friends, social_sends, users
from tranque.server.store.social import FriendLink, SocialSend, friendship
from tranque.server.store.sql.accounts import USER_COLUMNS, user_row
from tranque.server.store.sql.database import SqlDatabase


async def relation_on(connection: AsyncConnection, user_id: int, other_id: int) -> tuple[str, bool]:
    """`SocialStore.relation`, read on an open connection."""
    pair = sa.or_(
        sa.and_(friends.c.user_id == user_id, friends.c.friend_id == other_id),
        sa.and_(friends.c.user_id == other_id, friends.c.friend_id == user_id),
    )
    blocking = sa.select(blocks.c.user_id).where(blocks.c.user_id == user_id, blocks.c.blocked_id == other_id)
    rows = (await connection.execute(sa.select(friends.c.user_id, friends.c.status).where(pair))).all()
    blocked = await connection.scalar(blocking.exists().select())
    return friendship({(row.user_id == user_id, row.status) for row in rows}), bool(blocked)


class SqlSocial(SqlDatabase):
    """`SocialStore` on SQLAlchemy."""

    async def relation(self, user_id: int, other_id: int) -> tuple[str, bool]:
        async with self.engine.connect() as connection:
            return await relation_on(connection, user_id, other_id)

    async def request_friend(self, user_id: int, friend_id: int, at: float) -> None:
        linked = sa.select(friends.c.user_id).where(_between(user_id, friend_id)).exists()
        row = sa.select(
            sa.literal(user_id, sa.Integer),
            sa.literal(friend_id, sa.Integer),
            sa.literal("pending", sa.String),
            sa.literal(at, sa.Double),
        ).where(~linked)
        columns = ["user_id", "friend_id", "status", "created_at"]
        with contextlib.suppress(sa.exc.IntegrityError):  # the same request twice at once
            async with self.engine.begin() as connection:
                await connection.execute(friends.insert().from_select(columns, row))

    async def accept_friend(self, user_id: int, requester_id: int, at: float) -> bool:
        async with self.engine.begin() as connection:
            result = await connection.execute(
                friends.update()
                .where(
                    friends.c.user_id == requester_id,
                    friends.c.friend_id == user_id,
                    friends.c.status == "pending",
                )
                .values(status="accepted", created_at=at)
            )
            if result.rowcount != 1:
                return False
            values = {"user_id": user_id, "friend_id": requester_id, "status": "accepted", "created_at": at}
            await connection.execute(self._upsert(friends, values))
        return True

    async def remove_friend(self, user_id: int, other_id: int) -> bool:
        async with self.engine.begin() as connection:
            result = await connection.execute(friends.delete().where(_between(user_id, other_id)))
        return bool(result.rowcount)

    async def friend_links(self, user_id: int) -> list[FriendLink]:
        mine = sa.select(
            friends.c.friend_id.label("other"),
            friends.c.status,
            friends.c.created_at,
            sa.literal(True).label("ours"),
        ).where(friends.c.user_id == user_id)
        theirs = sa.select(
            friends.c.user_id.label("other"),
            friends.c.status,
            friends.c.created_at,
            sa.literal(False).label("ours"),
        ).where(friends.c.friend_id == user_id, friends.c.status == "pending")
        links = sa.union_all(mine, theirs).subquery()
        query = (
            sa.select(*USER_COLUMNS, links.c.status, links.c.created_at.label("at"), links.c.ours)
            .join(links, links.c.other == users.c.id)
            .order_by(users.c.name_key)
        )
        async with self.engine.connect() as connection:
            rows = (await connection.execute(query)).all()
        return [FriendLink(user_row(row), _link_status(row.status, row.ours), row.at) for row in rows]

    async def block(self, user_id: int, blocked_id: int, at: float) -> None:
        async with self.engine.begin() as connection:
            await connection.execute(friends.delete().where(_between(user_id, blocked_id)))
            await connection.execute(
                self._insert(blocks)
                .values(user_id=user_id, blocked_id=blocked_id, created_at=at)
                .on_conflict_do_nothing(index_elements=["user_id", "blocked_id"])
            )

    async def unblock(self, user_id: int, blocked_id: int) -> bool:
        async with self.engine.begin() as connection:
            result = await connection.execute(
                blocks.delete().where(blocks.c.user_id == user_id, blocks.c.blocked_id == blocked_id)
            )
        return bool(result.rowcount)

    async def blocked_users(self, user_id: int) -> list[UserRow]:
        query = (
            sa.select(*USER_COLUMNS)
            .join(blocks, blocks.c.blocked_id == users.c.id)
            .where(blocks.c.user_id == user_id)
            .order_by(users.c.name_key)
        )
        async with self.engine.connect() as connection:
            rows = (await connection.execute(query)).all()
        return [user_row(row) for row in rows]

    async def blocks_among(self, user_ids: list[int]) -> set[tuple[int, int]]:
        if not user_ids:
            return set()
        query = sa.select(blocks.c.user_id, blocks.c.blocked_id).where(
            blocks.c.user_id.in_(user_ids), blocks.c.blocked_id.in_(user_ids)
        )
        async with self.engine.connect() as connection:
            rows = (await connection.execute(query)).all()
        return {(row.user_id, row.blocked_id) for row in rows}

    async def pending_requests(self, user_id: int) -> tuple[int, int]:
        pending = friends.c.status == "pending"
        query = sa.select(
            sa.select(sa.func.count()).where(pending, friends.c.user_id == user_id).scalar_subquery(),
            sa.select(sa.func.count()).where(pending, friends.c.friend_id == user_id).scalar_subquery(),
        )
        async with self.engine.connect() as connection:
            sent, received = (await connection.execute(query)).one()
        return int(sent), int(received)

    async def social_sends(self, user_id: int, kind: str, since: float) -> list[SocialSend]:
        query = (
            sa.select(social_sends.c.target_id, social_sends.c.at)
            .where(social_sends.c.user_id == user_id, social_sends.c.kind == kind, social_sends.c.at >= since)
            .order_by(social_sends.c.at, social_sends.c.id)
        )
        async with self.engine.connect() as connection:
            rows = (await connection.execute(query)).all()
        return [SocialSend(row.target_id, kind, row.at) for row in rows]

    async def keep_social_send(
        self, user_id: int, target_id: int, kind: str, at: float, forget_before: float
    ) -> None:
        async with self.engine.begin() as connection:
            await connection.execute(
                social_sends.delete().where(
                    social_sends.c.user_id == user_id, social_sends.c.at < forget_before
                )
            )
            await connection.execute(
                social_sends.insert().values(user_id=user_id, target_id=target_id, kind=kind, at=at)
            )


def _between(one: int, other: int) -> sa.ColumnElement[bool]:
    """The `friends` rows linking two accounts, either way."""
    return sa.or_(
        sa.and_(friends.c.user_id == one, friends.c.friend_id == other),
        sa.and_(friends.c.user_id == other, friends.c.friend_id == one),
    )


def _link_status(status: str, ours: bool) -> str:
    if status == "accepted":
        return "friends"
    return "outgoing" if ours else "incoming"
