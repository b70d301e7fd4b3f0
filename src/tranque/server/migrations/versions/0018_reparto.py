"""El reparto del día: the `reparto_days`, `reparto_pars` and `reparto_entries` tables.

Three new tables: nothing of the release before is touched, and its processes never read them,
on SQLite or PostgreSQL alike. A day's key is the day itself, so two processes opening the same
day agree on one seed (the second insert finds the first).

Revision ID: 0018
Revises: 0015
Create Date: 2026-12-07
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0018"
down_revision = "0017"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "reparto_days",
        sa.Column("day", sa.String(10), nullable=False),
        sa.Column("seed", sa.String(64), nullable=False),
        sa.Column("commitment", sa.String(64), nullable=False),
        sa.Column("created_at", sa.Double, nullable=False),
        sa.PrimaryKeyConstraint("day", name="pk_reparto_days"),
    )
    op.create_table(
        "reparto_pars",
        sa.Column("day", sa.String(10), nullable=False),
        sa.Column("mode", sa.String(16), nullable=False),
        sa.Column("par", sa.Text, nullable=False),
        sa.PrimaryKeyConstraint("day", "mode", name="pk_reparto_pars"),
    )
    op.create_table(
        "reparto_entries",
        sa.Column("day", sa.String(10), nullable=False),
        sa.Column("mode", sa.String(16), nullable=False),
        sa.Column("user_id", sa.Integer, nullable=False),
        sa.Column("table_id", sa.String(64), nullable=False),
        sa.Column("started_at", sa.Double, nullable=False),
        sa.Column("diff", sa.Integer, nullable=True),
        sa.Column("points", sa.Text, nullable=True),
        sa.Column("finished_at", sa.Double, nullable=True),
        sa.PrimaryKeyConstraint("day", "mode", "user_id", name="pk_reparto_entries"),
        sa.ForeignKeyConstraint(
            ["user_id"], ["users.id"], name="fk_reparto_entries_user_id_users", ondelete="CASCADE"
        ),
    )


def downgrade() -> None:
    op.drop_table("reparto_entries")
    op.drop_table("reparto_pars")
    op.drop_table("reparto_days")
