"""`SqlFichas`: the ledger's movements and balances on SQLAlchemy.

Each movement is an INSERT of its row (ON CONFLICT on its key DO NOTHING: a key taken means
done already) and, only if it was written, a conditional debit of its source (``UPDATE ... SET
balance = balance - :n WHERE holder = :h AND balance >= :n``: no row changed means not enough,
and the transaction is rolled back) and a credit of its destination (an upsert), all in the
caller's transaction. Two tabs staking one balance at once: the database orders the two
UPDATEs of the one row, and the second finds the balance short.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Any

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncConnection

from tranque.server.store.fichas import (
    BANK,
    GRANTS,
    POT_PREFIX,
    TOURNAMENT_REF_PREFIX,
    Books,
    FichasShort,
    Kind,
    Movement,
    account,
    may_go_negative,
)
from tranque.server.store.schema import ficha_balances, ficha_movements
from tranque.server.store.sql.database import SqlDatabase


def _movement(row: Any) -> Movement:
    return Movement(
        row.key,
        row.source,
        row.destination,
        int(row.amount),
        Kind(row.kind),
        row.user_id,
        row.ref,
        row.at,
        int(row.id),
    )


_COLUMNS = (
    ficha_movements.c.id,
    ficha_movements.c.key,
    ficha_movements.c.source,
    ficha_movements.c.destination,
    ficha_movements.c.amount,
    ficha_movements.c.kind,
    ficha_movements.c.user_id,
    ficha_movements.c.ref,
    ficha_movements.c.at,
)


async def write_movements(
    db: SqlDatabase, connection: AsyncConnection, movements: Sequence[Movement]
) -> list[Movement]:
    """Write `movements` in `connection`'s transaction (a game end's, store/sql/outbox.py, or
    `move_fichas`'); the ones written. `FichasShort` if a source lacks the fichas: the
    caller's transaction must then be rolled back (raising out of `engine.begin()` does)."""
    written = []
    for movement in movements:
        row = {
            "key": movement.key,
            "source": movement.source,
            "destination": movement.destination,
            "amount": movement.amount,
            "kind": movement.kind.value,
            "user_id": movement.user_id,
            "ref": movement.ref,
            "at": movement.at,
        }
        insert = (
            db._insert(ficha_movements)
            .values(row)
            .on_conflict_do_nothing(index_elements=["key"])
            .returning(ficha_movements.c.id)
        )
        serial = await connection.scalar(insert)
        if serial is None:
            continue  # done already
        await _debit(db, connection, movement.source, movement.amount)
        await _credit(db, connection, movement.destination, movement.amount)
        written.append(dataclasses.replace(movement, serial=int(serial)))
    return written


async def _debit(db: SqlDatabase, connection: AsyncConnection, holder: str, amount: int) -> None:
    if may_go_negative(holder):
        await _credit(db, connection, holder, -amount)
        return
    update = (
        ficha_balances.update()
        .where(ficha_balances.c.holder == holder, ficha_balances.c.balance >= amount)
        .values(balance=ficha_balances.c.balance - amount)
    )
    if (await connection.execute(update)).rowcount != 1:
        have = await connection.scalar(
            sa.select(ficha_balances.c.balance).where(ficha_balances.c.holder == holder)
        )
        raise FichasShort(holder, amount, int(have or 0))


async def _credit(db: SqlDatabase, connection: AsyncConnection, holder: str, amount: int) -> None:
    statement = db._insert(ficha_balances).values(holder=holder, balance=amount)
    await connection.execute(
        statement.on_conflict_do_update(
            index_elements=["holder"], set_={"balance": ficha_balances.c.balance + statement.excluded.balance}
        )
    )


class SqlFichas(SqlDatabase):
    """`FichasStore` on SQLAlchemy."""

    async def move_fichas(self, movements: Sequence[Movement]) -> list[Movement]:
        async with self.engine.begin() as connection:
            return await write_movements(self, connection, movements)

    async def refill_fichas(self, user_id: int, floor: int, key: str, at: float) -> Movement | None:
        holder = account(user_id)
        async with self.engine.begin() as connection:
            # Take the account's row for writing first (SQLite: the database's write lock;
            # PostgreSQL: the row's), so no stake slips between the read and the refill.
            await connection.execute(
                ficha_balances.update()
                .where(ficha_balances.c.holder == holder)
                .values(balance=ficha_balances.c.balance)
            )
            have = await connection.scalar(
                sa.select(ficha_balances.c.balance).where(ficha_balances.c.holder == holder)
            )
            have = int(have or 0)
            if have >= floor:
                return None
            movement = Movement(key, GRANTS, holder, floor - have, Kind.REFILL, user_id, "", at)
            written = await write_movements(self, connection, [movement])
        return written[0] if written else None

    async def ficha_balance(self, holder: str) -> int:
        async with self.engine.connect() as connection:
            have = await connection.scalar(
                sa.select(ficha_balances.c.balance).where(ficha_balances.c.holder == holder)
            )
        return int(have or 0)

    async def ficha_history(self, user_id: int, limit: int, before: int | None) -> list[Movement]:
        query = sa.select(*_COLUMNS).where(ficha_movements.c.user_id == user_id)
        if before is not None:
            query = query.where(ficha_movements.c.id < before)
        query = query.order_by(ficha_movements.c.id.desc()).limit(limit)
        async with self.engine.connect() as connection:
            rows = (await connection.execute(query)).all()
        return [_movement(row) for row in rows]

    async def ficha_movements_of(self, ref: str) -> list[Movement]:
        query = sa.select(*_COLUMNS).where(ficha_movements.c.ref == ref).order_by(ficha_movements.c.id)
        async with self.engine.connect() as connection:
            rows = (await connection.execute(query)).all()
        return [_movement(row) for row in rows]

    async def ficha_movement(self, key: str) -> Movement | None:
        async with self.engine.connect() as connection:
            row = (await connection.execute(sa.select(*_COLUMNS).where(ficha_movements.c.key == key))).first()
        return None if row is None else _movement(row)

    async def ficha_books(self) -> Books:
        holder, balance = ficha_balances.c.holder, ficha_balances.c.balance

        def total(condition: sa.ColumnElement[bool]) -> Any:
            return sa.func.coalesce(sa.func.sum(sa.case((condition, balance), else_=0)), 0)

        is_pot = holder.startswith(POT_PREFIX, autoescape=True)
        is_account = sa.and_(holder != GRANTS, holder != BANK, ~is_pot)
        query = sa.select(
            total(holder == GRANTS),
            total(is_account),
            total(is_pot),
            total(holder == BANK),
            sa.func.count().filter(sa.and_(holder != GRANTS, balance < 0)),
        )
        async with self.engine.connect() as connection:
            grants, accounts, pots, bank, negative = (await connection.execute(query)).one()
        return Books(-int(grants), int(accounts), int(pots), int(bank), int(negative))

    async def ficha_game_movements_since(self, since: float) -> list[Movement]:
        ref = ficha_movements.c.ref
        query = (
            sa.select(*_COLUMNS)
            .where(ficha_movements.c.at >= since, ref != "", ~ref.startswith(TOURNAMENT_REF_PREFIX))
            .order_by(ficha_movements.c.id)
        )
        async with self.engine.connect() as connection:
            rows = (await connection.execute(query)).all()
        return [_movement(row) for row in rows]
