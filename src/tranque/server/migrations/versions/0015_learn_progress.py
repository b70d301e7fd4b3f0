"""Aprender: the `learn_progress` table (each account's best stars in each lesson).

One new table: nothing of the release before is touched, and its processes never read it,
on SQLite or PostgreSQL alike.

Revision ID: 0015
Revises: 0014
Create Date: 2026-12-07
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0015"
down_revision = "0014"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "learn_progress",
        sa.Column("user_id", sa.Integer, nullable=False),
        sa.Column("lesson", sa.String(32), nullable=False),
        sa.Column("stars", sa.Integer, nullable=False),
        sa.Column("updated_at", sa.Double, nullable=False),
        sa.PrimaryKeyConstraint("user_id", "lesson", name="pk_learn_progress"),
        sa.ForeignKeyConstraint(
            ["user_id"], ["users.id"], name="fk_learn_progress_user_id_users", ondelete="CASCADE"
        ),
    )


def downgrade() -> None:
    op.drop_table("learn_progress")
