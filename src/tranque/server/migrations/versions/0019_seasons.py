"""Seasons of peñas: the `seasons` and `season_games` tables.

New tables only: nothing of the release before is touched, and its processes never read them,
on SQLite or PostgreSQL alike.

Revision ID: 0019
Revises: 0016
Create Date: 2026-12-07
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0019"
down_revision = "0018"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "seasons",
        sa.Column("id", sa.Integer, autoincrement=True, nullable=False),
        sa.Column("pena_id", sa.Integer, nullable=False),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("scope", sa.String(16), nullable=False),
        sa.Column("points", sa.String(32), nullable=False),
        sa.Column("starts_at", sa.Double, nullable=False),
        sa.Column("ends_at", sa.Double, nullable=False),
        sa.Column("created_by", sa.Integer, nullable=True),
        sa.Column("created_at", sa.Double, nullable=False),
        sa.Column("scanned_until", sa.Double, nullable=False),
        sa.Column("final", sa.JSON, nullable=True),
        sa.Column("frozen_at", sa.Double, nullable=True),
        sa.PrimaryKeyConstraint("id", name="pk_seasons"),
        sa.ForeignKeyConstraint(
            ["pena_id"], ["penas.id"], name="fk_seasons_pena_id_penas", ondelete="CASCADE"
        ),
        sa.ForeignKeyConstraint(
            ["created_by"], ["users.id"], name="fk_seasons_created_by_users", ondelete="SET NULL"
        ),
    )
    op.create_index("ix_seasons_pena_id", "seasons", ["pena_id"])
    op.create_table(
        "season_games",
        sa.Column("season_id", sa.Integer, nullable=False),
        sa.Column("game_id", sa.String(64), nullable=False),
        sa.Column("finished_at", sa.Double, nullable=False),
        sa.Column("record", sa.JSON, nullable=False),
        sa.PrimaryKeyConstraint("season_id", "game_id", name="pk_season_games"),
        sa.ForeignKeyConstraint(
            ["season_id"], ["seasons.id"], name="fk_season_games_season_id_seasons", ondelete="CASCADE"
        ),
    )


def downgrade() -> None:
    op.drop_table("season_games")
    op.drop_table("seasons")
