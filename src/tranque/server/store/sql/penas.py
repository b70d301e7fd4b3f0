"""`SqlPenas`: peñas, their members, requests and invitations, on SQLAlchemy."""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncConnection

from tranque.server.accounts.names import skeleton
from tranque.server.store.penas import (
    LeaveOutcome,
    PenaMember,
    PenaMembership,
    PenaNameTaken,
    PenaRequest,
    PenaRow,
)
from tranque.server.store.schema import pena_invitations, pena_members, pena_requests, penas, users
from tranque.server.store.sql.database import SqlDatabase

SLUG_TRIES = 3  # a slug taken meanwhile by another creation: look for a free one again

_COUNTED = pena_members.alias("counted")  # apart from a query's own join of pena_members
_COUNT = (
    sa.select(sa.func.count())
    .select_from(_COUNTED)
    .where(_COUNTED.c.pena_id == penas.c.id)
    .correlate(penas)
    .scalar_subquery()
    .label("members")
)
_PENA_COLUMNS = (
    penas.c.id,
    penas.c.slug,
    penas.c.name,
    penas.c.crest,
    penas.c.description,
    penas.c.access,
    penas.c.created_by,
    penas.c.created_at,
    _COUNT,
)


def _pena(row: Any) -> PenaRow:
    return PenaRow(
        row.id,
        row.slug,
        row.name,
        row.crest,
        row.description,
        row.access,
        row.created_by,
        row.created_at,
        int(row.members),
    )


class SqlPenas(SqlDatabase):
    """`PenaStore` on SQLAlchemy."""

    async def create_pena(
        self,
        name: str,
        slug: str,
        crest: str,
        description: str,
        access: str,
        creator_id: int,
        at: float,
    ) -> PenaRow:
        values = {
            "name": name,
            "name_key": name.casefold(),
            "name_skeleton": skeleton(name),
            "crest": crest,
            "description": description,
            "access": access,
            "created_by": creator_id,
            "created_at": at,
        }
        for _ in range(SLUG_TRIES):
            try:
                async with self.engine.begin() as connection:
                    chosen = await self._free_slug(connection, slug)
                    pena_id = await connection.scalar(
                        penas.insert().values({**values, "slug": chosen}).returning(penas.c.id)
                    )
                    await connection.execute(
                        pena_members.insert().values(
                            pena_id=pena_id, user_id=creator_id, role="leader", joined_at=at
                        )
                    )
            except sa.exc.IntegrityError as error:
                if await self.find_pena(name) or await self.find_similar_pena(name):
                    raise PenaNameTaken(name) from error
                continue
            return PenaRow(int(pena_id), chosen, name, crest, description, access, creator_id, at, 1)
        raise PenaNameTaken(name)

    @staticmethod
    async def _free_slug(connection: AsyncConnection, slug: str) -> str:
        query = sa.select(penas.c.slug).where(
            sa.or_(penas.c.slug == slug, penas.c.slug.startswith(f"{slug}-", autoescape=True))
        )
        taken = set((await connection.scalars(query)).all())
        chosen, number = slug, 1
        while chosen in taken:
            number += 1
            chosen = f"{slug}-{number}"
        return chosen

    async def _one(self, condition: sa.ColumnElement[bool]) -> PenaRow | None:
        async with self.engine.connect() as connection:
            row = (await connection.execute(sa.select(*_PENA_COLUMNS).where(condition))).first()
        return _pena(row) if row is not None else None

    async def find_pena(self, name: str) -> PenaRow | None:
        return await self._one(penas.c.name_key == name.casefold())

    async def find_similar_pena(self, name: str) -> PenaRow | None:
        return await self._one(penas.c.name_skeleton == skeleton(name))

    async def pena_by_slug(self, slug: str) -> PenaRow | None:
        return await self._one(penas.c.slug == slug)

    async def pena_by_id(self, pena_id: int) -> PenaRow | None:
        return await self._one(penas.c.id == pena_id)

    async def update_pena(self, pena_id: int, crest: str, description: str, access: str) -> PenaRow | None:
        async with self.engine.begin() as connection:
            await connection.execute(
                penas.update()
                .where(penas.c.id == pena_id)
                .values(crest=crest, description=description, access=access)
            )
        return await self.pena_by_id(pena_id)

    async def list_penas(self, query: str, most: int) -> list[PenaRow]:
        statement = sa.select(*_PENA_COLUMNS)
        if query:
            statement = statement.where(penas.c.name_key.contains(query.casefold(), autoescape=True))
        statement = statement.order_by(sa.desc("members"), penas.c.name_key, penas.c.id).limit(most)
        async with self.engine.connect() as connection:
            rows = (await connection.execute(statement)).all()
        return [_pena(row) for row in rows]

    # Members --------------------------------------------------------------------------------

    async def pena_role(self, pena_id: int, user_id: int) -> str | None:
        query = sa.select(pena_members.c.role).where(
            pena_members.c.pena_id == pena_id, pena_members.c.user_id == user_id
        )
        async with self.engine.connect() as connection:
            role = await connection.scalar(query)
        return str(role) if role is not None else None

    async def pena_members(self, pena_id: int) -> list[PenaMember]:
        query = (
            sa.select(users.c.id, users.c.name, users.c.avatar, pena_members.c.role, pena_members.c.joined_at)
            .join(users, users.c.id == pena_members.c.user_id)
            .where(pena_members.c.pena_id == pena_id)
        )
        async with self.engine.connect() as connection:
            rows = (await connection.execute(query)).all()
        found = [PenaMember(row.id, row.name, row.avatar, row.role, row.joined_at) for row in rows]
        found.sort(key=lambda member: (member.role != "leader", member.joined_at, member.user_id))
        return found

    async def penas_of(self, user_id: int) -> list[PenaMembership]:
        query = (
            sa.select(*_PENA_COLUMNS, pena_members.c.role, pena_members.c.joined_at)
            .join(pena_members, pena_members.c.pena_id == penas.c.id)
            .where(pena_members.c.user_id == user_id)
        )
        async with self.engine.connect() as connection:
            rows = (await connection.execute(query)).all()
        found = [PenaMembership(_pena(row), row.role, row.joined_at) for row in rows]
        found.sort(key=lambda membership: (membership.pena.name.casefold(), membership.pena.id))
        return found

    async def add_pena_member(self, pena_id: int, user_id: int, at: float) -> bool:
        async with self.engine.begin() as connection:
            if not await self._lock_pena(connection, pena_id):
                return False
            return await self._add(connection, pena_id, user_id, at)

    async def _add(self, connection: AsyncConnection, pena_id: int, user_id: int, at: float) -> bool:
        await connection.execute(
            pena_requests.delete().where(
                pena_requests.c.pena_id == pena_id, pena_requests.c.user_id == user_id
            )
        )
        statement = (
            self._insert(pena_members)
            .values(pena_id=pena_id, user_id=user_id, role="member", joined_at=at)
            .on_conflict_do_nothing(index_elements=["pena_id", "user_id"])
        )
        return (await connection.execute(statement)).rowcount == 1

    @staticmethod
    async def _lock_pena(connection: AsyncConnection, pena_id: int) -> bool:
        """Write the peña's row (to what it holds): the changes of one peña's members wait for
        each other (a row lock on PostgreSQL, the write lock on SQLite). False if it is gone."""
        done = await connection.execute(penas.update().where(penas.c.id == pena_id).values(slug=penas.c.slug))
        return done.rowcount == 1

    async def set_pena_role(self, pena_id: int, user_id: int, role: str) -> bool:
        async with self.engine.begin() as connection:
            done = await connection.execute(
                pena_members.update()
                .where(pena_members.c.pena_id == pena_id, pena_members.c.user_id == user_id)
                .values(role=role)
            )
        return done.rowcount == 1

    async def remove_pena_member(self, pena_id: int, user_id: int) -> bool:
        async with self.engine.begin() as connection:
            done = await connection.execute(
                pena_members.delete().where(
                    pena_members.c.pena_id == pena_id,
                    pena_members.c.user_id == user_id,
                    pena_members.c.role != "leader",
                )
            )
        return done.rowcount == 1

    async def leave_pena(self, pena_id: int, user_id: int) -> LeaveOutcome:
        async with self.engine.begin() as connection:
            if not await self._lock_pena(connection, pena_id):
                return "not_member"
            query = sa.select(pena_members.c.user_id, pena_members.c.role).where(
                pena_members.c.pena_id == pena_id
            )
            roles = {row.user_id: row.role for row in (await connection.execute(query)).all()}
            if user_id not in roles:
                return "not_member"
            if len(roles) == 1:
                await self._dissolve(connection, pena_id)
                return "dissolved"
            if roles[user_id] == "leader" and list(roles.values()).count("leader") == 1:
                return "last_leader"
            await connection.execute(
                pena_members.delete().where(
                    pena_members.c.pena_id == pena_id, pena_members.c.user_id == user_id
                )
            )
        return "left"

    @staticmethod
    async def _dissolve(connection: AsyncConnection, pena_id: int) -> None:
        # Each table by hand too: SQLite keeps foreign keys (and their cascades) only when asked.
        for table in (pena_invitations, pena_requests, pena_members):
            await connection.execute(table.delete().where(table.c.pena_id == pena_id))
        await connection.execute(penas.delete().where(penas.c.id == pena_id))

    # Join requests --------------------------------------------------------------------------

    async def request_pena(self, pena_id: int, user_id: int, at: float) -> bool:
        async with self.engine.begin() as connection:
            if not await self._lock_pena(connection, pena_id):
                return False
            statement = (
                self._insert(pena_requests)
                .values(pena_id=pena_id, user_id=user_id, at=at)
                .on_conflict_do_nothing(index_elements=["pena_id", "user_id"])
            )
            return (await connection.execute(statement)).rowcount == 1

    async def pena_requests(self, pena_id: int) -> list[PenaRequest]:
        query = (
            sa.select(users.c.id, users.c.name, users.c.avatar, pena_requests.c.at)
            .join(users, users.c.id == pena_requests.c.user_id)
            .where(pena_requests.c.pena_id == pena_id)
            .order_by(pena_requests.c.at, users.c.id)
        )
        async with self.engine.connect() as connection:
            rows = (await connection.execute(query)).all()
        return [PenaRequest(row.id, row.name, row.avatar, row.at) for row in rows]

    async def approve_pena_request(self, pena_id: int, user_id: int, at: float) -> bool:
        async with self.engine.begin() as connection:
            if not await self._lock_pena(connection, pena_id):
                return False
            done = await connection.execute(
                pena_requests.delete().where(
                    pena_requests.c.pena_id == pena_id, pena_requests.c.user_id == user_id
                )
            )
            if done.rowcount != 1:
                return False
            await self._add(connection, pena_id, user_id, at)
        return True

    async def drop_pena_request(self, pena_id: int, user_id: int) -> bool:
        async with self.engine.begin() as connection:
            done = await connection.execute(
                pena_requests.delete().where(
                    pena_requests.c.pena_id == pena_id, pena_requests.c.user_id == user_id
                )
            )
        return done.rowcount == 1

    # Invitation links -----------------------------------------------------------------------

    async def create_pena_invitation(
        self, pena_id: int, token_hash: str, created_by: int, at: float, expires_at: float
    ) -> None:
        async with self.engine.begin() as connection:
            await connection.execute(
                pena_invitations.delete().where(
                    pena_invitations.c.pena_id == pena_id, pena_invitations.c.expires_at <= at
                )
            )
            await connection.execute(
                pena_invitations.insert().values(
                    token_hash=token_hash,
                    pena_id=pena_id,
                    created_by=created_by,
                    created_at=at,
                    expires_at=expires_at,
                )
            )

    async def pena_by_invitation(self, token_hash: str, now: float) -> PenaRow | None:
        query = sa.select(pena_invitations.c.pena_id).where(
            pena_invitations.c.token_hash == token_hash, pena_invitations.c.expires_at > now
        )
        async with self.engine.connect() as connection:
            pena_id = await connection.scalar(query)
        return await self.pena_by_id(int(pena_id)) if pena_id is not None else None
