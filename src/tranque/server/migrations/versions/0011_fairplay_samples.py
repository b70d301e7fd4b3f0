"""Fair-play figures: the `fairplay_samples` table, one row per account and per rated game the
fair-play sampler (moderation/sampler.py) analysed: its judged decisions, how many were
accurate, inaccuracies or errors, their total loss, the analysis's deals, and the account's
rating (μ, σ) as it sat down, which the fair-play signals compare with its accuracy.

Revision ID: 0011
Revises: 0010
Create Date: 2026-12-07
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "fairplay_samples",
        sa.Column("game_id", sa.String(80), nullable=False),
        sa.Column("user_id", sa.Integer, nullable=False),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("finished_at", sa.Double, nullable=False),
        sa.Column("format", sa.String(16), nullable=False),
        sa.Column("mu_before", sa.Double, nullable=False),
        sa.Column("sigma_before", sa.Double, nullable=False),
        sa.Column("decisions", sa.Integer, nullable=False),
        sa.Column("accurate", sa.Integer, nullable=False),
        sa.Column("inaccuracies", sa.Integer, nullable=False),
        sa.Column("errors", sa.Integer, nullable=False),
        sa.Column("total_loss", sa.Double, nullable=False),
        sa.Column("deals", sa.Integer, nullable=False),
        sa.Column("sampled_at", sa.Double, nullable=False),
        sa.ForeignKeyConstraint(["game_id"], ["games.game_id"], name="fk_fairplay_samples_game_id_games"),
        sa.ForeignKeyConstraint(
            ["user_id"], ["users.id"], name="fk_fairplay_samples_user_id_users", ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("game_id", "user_id", name="pk_fairplay_samples"),
    )
    op.create_index("ix_fairplay_samples_finished_at", "fairplay_samples", ["finished_at"])


def downgrade() -> None:
    op.drop_index("ix_fairplay_samples_finished_at", table_name="fairplay_samples")
    op.drop_table("fairplay_samples")
