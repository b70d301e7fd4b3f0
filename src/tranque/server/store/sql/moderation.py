"""`SqlModeration`: roles, the moderators' queue, sanctions and the audit log, on SQLAlchemy."""

from __future__ import annotations

import dataclasses
import time
from typing import Any

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncConnection

from tranque.server.store.moderation import (
    REPORT,
    AlreadyReported,
    LogEntry,
    NewReport,
    ReviewItem,
    SanctionRow,
)
from tranque.server.store.schema import (
    account_roles,
    moderation_log,
    ratings,
    review_items,
    sanctions,
    sessions,
    withheld_ratings,
    withheld_xp,
    xp,
)
from tranque.server.store.sql.database import SqlDatabase


def _item(row: Any) -> ReviewItem:
    return ReviewItem(
        row.id,
        row.kind,
        list(row.subjects),
        dict(row.evidence),
        row.game_key or None,
        row.created_at,
        row.reporter_id,
        row.reason,
        row.note,
        row.status,
        row.closed_at,
        row.closed_by,
        row.resolution,
    )


def _sanction(row: Any) -> SanctionRow:
    return SanctionRow(
        row.id,
        row.user_id,
        row.kind,
        row.until,
        row.created_at,
        row.created_by,
        row.reason,
        row.lifted_at,
        row.lifted_by,
    )


def _entry(row: Any) -> LogEntry:
    return LogEntry(
        row.at,
        row.moderator_id,
        row.action,
        row.subject_id,
        row.item_id,
        row.reason,
        dict(row.details),
        row.id,
    )


async def _write(connection: AsyncConnection, entry: LogEntry) -> None:
    await connection.execute(
        moderation_log.insert().values(
            at=entry.at,
            moderator_id=entry.moderator_id,
            action=entry.action,
            subject_id=entry.subject_id,
            item_id=entry.item_id,
            reason=entry.reason,
            details=entry.details,
        )
    )


async def _move(connection: AsyncConnection, source: sa.Table, target: sa.Table, user_id: int) -> None:
    """Move the account's rows from `source` to `target` (tables of the same columns); a row
    of `target` with the key of one moved (its pool, or its period) gives way to it."""
    names = [column.name for column in source.c]
    (key,) = [column.name for column in source.primary_key if column.name != "user_id"]
    moving = sa.select(source.c[key]).where(source.c.user_id == user_id)
    rows = sa.select(*(source.c[name] for name in names)).where(source.c.user_id == user_id)
    await connection.execute(target.delete().where(target.c.user_id == user_id, target.c[key].in_(moving)))
    await connection.execute(target.insert().from_select(names, rows))
    await connection.execute(source.delete().where(source.c.user_id == user_id))


class SqlModeration(SqlDatabase):
    """`ModerationStore` on SQLAlchemy."""

    async def role_of(self, user_id: int) -> str:
        query = sa.select(account_roles.c.role).where(account_roles.c.user_id == user_id)
        async with self.engine.connect() as connection:
            role = await connection.scalar(query)
        return str(role) if role is not None else "player"

    async def set_role(self, user_id: int, role: str, entry: LogEntry) -> None:
        async with self.engine.begin() as connection:
            if role == "player":
                await connection.execute(account_roles.delete().where(account_roles.c.user_id == user_id))
            else:
                values = {"user_id": user_id, "role": role, "granted_at": entry.at}
                await connection.execute(self._upsert(account_roles, values))
            await _write(connection, entry)

    async def add_report(self, report: NewReport) -> int:
        values = {
            "kind": REPORT,
            "subjects": [report.subject_id],
            "evidence": {},
            "game_key": report.game_id or "",
            "reporter_id": report.reporter_id,
            "subject_id": report.subject_id,
            "reason": report.reason,
            "note": report.note,
            "status": "open",
            "created_at": report.at,
        }
        try:
            async with self.engine.begin() as connection:
                item_id = await connection.scalar(
                    review_items.insert().values(values).returning(review_items.c.id)
                )
        except sa.exc.IntegrityError as error:
            raise AlreadyReported() from error
        return int(item_id)

    async def reports_since(self, reporter_id: int, since: float) -> int:
        query = (
            sa.select(sa.func.count())
            .select_from(review_items)
            .where(review_items.c.reporter_id == reporter_id, review_items.c.created_at > since)
        )
        async with self.engine.connect() as connection:
            return int(await connection.scalar(query) or 0)

    async def add_review(
        self,
        kind: str,
        subjects: list[int],
        evidence: dict[str, Any],
        game_id: str | None = None,
        *,
        at: float | None = None,
    ) -> int:
        values = {
            "kind": kind,
            "subjects": list(subjects),
            "evidence": evidence,
            "game_key": game_id or "",
            "status": "open",
            "created_at": time.time() if at is None else at,
        }
        async with self.engine.begin() as connection:
            item_id = await connection.scalar(
                review_items.insert().values(values).returning(review_items.c.id)
            )
        return int(item_id)

    async def review_items(self, status: str, limit: int) -> list[ReviewItem]:
        order = (
            (review_items.c.created_at, review_items.c.id)
            if status == "open"
            else (review_items.c.closed_at.desc(), review_items.c.id.desc())
        )
        query = sa.select(review_items).where(review_items.c.status == status).order_by(*order).limit(limit)
        async with self.engine.connect() as connection:
            rows = (await connection.execute(query)).all()
        return [_item(row) for row in rows]

    async def review_item(self, item_id: int) -> ReviewItem | None:
        async with self.engine.connect() as connection:
            row = (
                await connection.execute(sa.select(review_items).where(review_items.c.id == item_id))
            ).first()
        return None if row is None else _item(row)

    async def close_item(self, item_id: int, resolution: str, entry: LogEntry) -> bool:
        async with self.engine.begin() as connection:
            result = await connection.execute(
                review_items.update()
                .where(review_items.c.id == item_id, review_items.c.status == "open")
                .values(
                    status="closed", closed_at=entry.at, closed_by=entry.moderator_id, resolution=resolution
                )
            )
            if result.rowcount != 1:
                return False
            await _write(connection, entry)
        return True

    async def add_sanction(
        self, user_id: int, kind: str, until: float | None, entry: LogEntry
    ) -> SanctionRow:
        values = {
            "user_id": user_id,
            "kind": kind,
            "until": until,
            "created_at": entry.at,
            "created_by": entry.moderator_id,
            "reason": entry.reason,
        }
        async with self.engine.begin() as connection:
            sanction_id = int(
                await connection.scalar(sanctions.insert().values(values).returning(sanctions.c.id))
            )
            await _write(
                connection, dataclasses.replace(entry, details={**entry.details, "sanction": sanction_id})
            )
        return SanctionRow(sanction_id, user_id, kind, until, entry.at, entry.moderator_id, entry.reason)

    async def lift_sanction(self, sanction_id: int, entry: LogEntry) -> SanctionRow | None:
        async with self.engine.begin() as connection:
            result = await connection.execute(
                sanctions.update()
                .where(sanctions.c.id == sanction_id, sanctions.c.lifted_at.is_(None))
                .values(lifted_at=entry.at, lifted_by=entry.moderator_id)
            )
            if result.rowcount != 1:
                return None
            await _write(connection, entry)
            row = (await connection.execute(sa.select(sanctions).where(sanctions.c.id == sanction_id))).one()
        return _sanction(row)

    async def sanction_by_id(self, sanction_id: int) -> SanctionRow | None:
        async with self.engine.connect() as connection:
            row = (
                await connection.execute(sa.select(sanctions).where(sanctions.c.id == sanction_id))
            ).first()
        return None if row is None else _sanction(row)

    async def sanctions_of(self, user_ids: list[int]) -> list[SanctionRow]:
        if not user_ids:
            return []
        query = (
            sa.select(sanctions)
            .where(sanctions.c.user_id.in_(user_ids))
            .order_by(sanctions.c.created_at.desc(), sanctions.c.id.desc())
        )
        async with self.engine.connect() as connection:
            rows = (await connection.execute(query)).all()
        return [_sanction(row) for row in rows]

    async def write_log(self, entry: LogEntry) -> None:
        async with self.engine.begin() as connection:
            await _write(connection, entry)

    async def moderation_log(self, limit: int) -> list[LogEntry]:
        query = (
            sa.select(moderation_log)
            .order_by(moderation_log.c.at.desc(), moderation_log.c.id.desc())
            .limit(limit)
        )
        async with self.engine.connect() as connection:
            rows = (await connection.execute(query)).all()
        return [_entry(row) for row in rows]

    async def end_sessions(self, user_id: int) -> None:
        async with self.engine.begin() as connection:
            await connection.execute(sessions.delete().where(sessions.c.user_id == user_id))

    async def withhold_standings(self, user_id: int) -> None:
        async with self.engine.begin() as connection:
            await _move(connection, ratings, withheld_ratings, user_id)
            await _move(connection, xp, withheld_xp, user_id)

    async def restore_standings(self, user_id: int) -> None:
        async with self.engine.begin() as connection:
            await _move(connection, withheld_ratings, ratings, user_id)
            await _move(connection, withheld_xp, xp, user_id)
