"""Post-game analyses: the `analyses` table, one row per finished game whose analysis was
asked for on the site (analysis/queue.py): who asked, its status (pending, running, done,
failed), its progress (decisions done of total), the result as JSON and its times, and
the queue worker that claimed it with its last heartbeat (the store is the queue of every
process of the site: a running row whose heartbeat is stale is claimed again).

Revision ID: 0008
Revises: 0007
Create Date: 2026-12-03
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "analyses",
        sa.Column("game_id", sa.String(80), nullable=False),
        sa.Column("user_id", sa.Integer, nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("done", sa.Integer, nullable=False),
        sa.Column("total", sa.Integer, nullable=False),
        sa.Column("result", sa.JSON, nullable=True),
        sa.Column("created_at", sa.Double, nullable=False),
        sa.Column("finished_at", sa.Double, nullable=True),
        sa.Column("claimed_by", sa.String(120), nullable=True),
        sa.Column("heartbeat_at", sa.Double, nullable=True),
        sa.ForeignKeyConstraint(["game_id"], ["games.game_id"], name="fk_analyses_game_id_games"),
        sa.ForeignKeyConstraint(
            ["user_id"], ["users.id"], name="fk_analyses_user_id_users", ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("game_id", name="pk_analyses"),
    )
    op.create_index("ix_analyses_status_created_at", "analyses", ["status", "created_at"])
    op.create_index("ix_analyses_user_id_created_at", "analyses", ["user_id", "created_at"])


def downgrade() -> None:
    op.drop_index("ix_analyses_user_id_created_at", table_name="analyses")
    op.drop_index("ix_analyses_status_created_at", table_name="analyses")
    op.drop_table("analyses")
