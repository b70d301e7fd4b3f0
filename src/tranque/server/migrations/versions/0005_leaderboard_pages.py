"""Leaderboard pages from one index range: each row of `ratings` and `xp` keeps its player's
name key, and an index orders each board as its pages do (most first, ties by name).

Ties are ordered by name, and with the name only in `users` every tied player was joined to
it and sorted before a page inside a large tie could be cut (thousands of players share the
rating of a single game). Names never change, so the key is copied into the row when the row
is made (`SqlStore.save_game`) and here for the rows there are; on PostgreSQL with the "C"
collation, so the order is by code point whatever the database's collation.

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-02
"""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None

NAME_ORDER = sa.String(64).with_variant(postgresql.VARCHAR(64, collation="C"), "postgresql")
BOARDS = (("ratings", "pool", "shown"), ("xp", "period", "xp"))


def upgrade() -> None:
    for table, board, value in BOARDS:
        op.add_column(table, sa.Column("name_key", NAME_ORDER, nullable=False, server_default=""))
        key = f"(SELECT users.name_key FROM users WHERE users.id = {table}.user_id)"
        op.execute(f"UPDATE {table} SET name_key = {key}")
        columns: list[str | sa.ColumnElement[Any]] = [
            sa.column(board),
            sa.column(value).desc(),
            "name_key",
            "user_id",
        ]
        op.create_index(f"ix_{table}_{board}_page", table, columns)


def downgrade() -> None:
    for table, board, _value in BOARDS:
        op.drop_index(f"ix_{table}_{board}_page", table_name=table)
        op.drop_column(table, "name_key")
