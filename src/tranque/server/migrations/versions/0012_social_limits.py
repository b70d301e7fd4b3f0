"""Social limits and fair turns for analyses: the `social_sends` table, the friend requests and
invitations each account sent, kept a day for the limits on them (players/social_limits.py);
and `analyses.place_key`, where an analysis was asked from, so the queue takes turns between
places (analysis/queue.py). Both only add: servers upgrade in place on SQLite and PostgreSQL
alike; analyses asked for before have no place (each counts as a place of its own).

Revision ID: 0012
Revises: 0011
Create Date: 2026-12-07
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0012"
down_revision = "0011"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "social_sends",
        sa.Column("id", sa.Integer, autoincrement=True, nullable=False),
        sa.Column("user_id", sa.Integer, nullable=False),
        sa.Column("target_id", sa.Integer, nullable=False),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("at", sa.Double, nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_social_sends"),
        sa.ForeignKeyConstraint(
            ["user_id"], ["users.id"], name="fk_social_sends_user_id_users", ondelete="CASCADE"
        ),
        sa.ForeignKeyConstraint(
            ["target_id"], ["users.id"], name="fk_social_sends_target_id_users", ondelete="CASCADE"
        ),
    )
    op.create_index("ix_social_sends_user_id_kind_at", "social_sends", ["user_id", "kind", "at"])
    op.create_index("ix_social_sends_target_id", "social_sends", ["target_id"])
    op.add_column("analyses", sa.Column("place_key", sa.String(64), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("analyses") as batch:
        batch.drop_column("place_key")
    op.drop_index("ix_social_sends_target_id", table_name="social_sends")
    op.drop_index("ix_social_sends_user_id_kind_at", table_name="social_sends")
    op.drop_table("social_sends")
