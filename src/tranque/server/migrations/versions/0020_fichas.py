"""Fichas: the `ficha_movements` ledger and the `ficha_balances` of every holder.

New tables only: nothing of the release before is touched, and its processes never read them,
on SQLite or PostgreSQL alike.

Revision ID: 0020
Revises: 0019
Create Date: 2026-12-07
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0020"
down_revision = "0019"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "ficha_movements",
        sa.Column("id", sa.Integer, autoincrement=True, nullable=False),
        sa.Column("key", sa.String(160), nullable=False),
        sa.Column("source", sa.String(96), nullable=False),
        sa.Column("destination", sa.String(96), nullable=False),
        sa.Column("amount", sa.BigInteger, nullable=False),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("user_id", sa.Integer, nullable=True),
        sa.Column("ref", sa.String(96), nullable=False),
        sa.Column("at", sa.Double, nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_ficha_movements"),
        sa.UniqueConstraint("key", name="uq_ficha_movements_key"),
        sa.CheckConstraint("amount > 0", name="ck_ficha_movements_amount"),
    )
    op.create_index("ix_ficha_movements_user_id", "ficha_movements", ["user_id", "id"])
    op.create_index("ix_ficha_movements_ref", "ficha_movements", ["ref"])
    op.create_index("ix_ficha_movements_at", "ficha_movements", ["at"])  # the fair-play window's read
    op.create_table(
        "ficha_balances",
        sa.Column("holder", sa.String(96), nullable=False),
        sa.Column("balance", sa.BigInteger, nullable=False),
        sa.PrimaryKeyConstraint("holder", name="pk_ficha_balances"),
        sa.CheckConstraint("balance >= 0 OR holder = 'grants'", name="ck_ficha_balances_balance"),
    )


def downgrade() -> None:
    op.drop_table("ficha_balances")
    op.drop_table("ficha_movements")
