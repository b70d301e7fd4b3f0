"""Table talk: the `chat_mutes` and `chat_settings` tables (store/talk.py).

Two new tables: nothing of the release before is touched, and its processes never read them,
on SQLite or PostgreSQL alike.

Revision ID: 0017
Revises: 0015
Create Date: 2026-12-07
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0017"
down_revision = "0016"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "chat_mutes",
        sa.Column("user_id", sa.Integer, nullable=False),
        sa.Column("muted_id", sa.Integer, nullable=False),
        sa.Column("created_at", sa.Double, nullable=False),
        sa.PrimaryKeyConstraint("user_id", "muted_id", name="pk_chat_mutes"),
        sa.ForeignKeyConstraint(
            ["user_id"], ["users.id"], name="fk_chat_mutes_user_id_users", ondelete="CASCADE"
        ),
        sa.ForeignKeyConstraint(
            ["muted_id"], ["users.id"], name="fk_chat_mutes_muted_id_users", ondelete="CASCADE"
        ),
    )
    op.create_table(
        "chat_settings",
        sa.Column("user_id", sa.Integer, nullable=False),
        sa.Column("chat_off", sa.Boolean, nullable=False),
        sa.Column("updated_at", sa.Double, nullable=False),
        sa.PrimaryKeyConstraint("user_id", name="pk_chat_settings"),
        sa.ForeignKeyConstraint(
            ["user_id"], ["users.id"], name="fk_chat_settings_user_id_users", ondelete="CASCADE"
        ),
    )


def downgrade() -> None:
    op.drop_table("chat_settings")
    op.drop_table("chat_mutes")
