"""Tournaments: the `tournaments` table (each event's JSON document, written by compare-and-set
on its version), `tournament_players` (who entered, and their places: the profiles' lists) and
`attendance` (the bar on accounts withdrawn for missing their games).

Three new tables and their indexes: nothing of the release before is touched, and its
processes never read them, on SQLite or PostgreSQL alike.

Revision ID: 0014
Revises: 0013
Create Date: 2026-12-07
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0014"
down_revision = "0013"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "tournaments",
        sa.Column("id", sa.String(64), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("format", sa.String(16), nullable=False),
        sa.Column("name", sa.String(120), nullable=False),
        sa.Column("private", sa.Boolean, nullable=False),
        sa.Column("creator_id", sa.Integer, nullable=False),
        sa.Column("created_at", sa.Double, nullable=False),
        sa.Column("starts_at", sa.Double, nullable=True),
        sa.Column("finished_at", sa.Double, nullable=True),
        sa.Column("schedule_key", sa.String(120), nullable=True),
        sa.Column("version", sa.Integer, nullable=False),
        sa.Column("doc", sa.JSON, nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_tournaments"),
        sa.UniqueConstraint("schedule_key", name="uq_tournaments_schedule_key"),
    )
    op.create_index("ix_tournaments_status_starts_at", "tournaments", ["status", "starts_at"])
    op.create_index("ix_tournaments_status_finished_at", "tournaments", ["status", "finished_at"])
    op.create_table(
        "tournament_players",
        sa.Column("tournament_id", sa.String(64), nullable=False),
        sa.Column("user_id", sa.Integer, nullable=False),
        sa.Column("place", sa.Integer, nullable=True),
        sa.PrimaryKeyConstraint("tournament_id", "user_id", name="pk_tournament_players"),
        sa.ForeignKeyConstraint(
            ["tournament_id"], ["tournaments.id"], name="fk_tournament_players_tournament_id_tournaments"
        ),
        sa.ForeignKeyConstraint(
            ["user_id"], ["users.id"], name="fk_tournament_players_user_id_users", ondelete="CASCADE"
        ),
    )
    op.create_index("ix_tournament_players_user_id", "tournament_players", ["user_id"])
    op.create_table(
        "attendance",
        sa.Column("user_id", sa.Integer, nullable=False),
        sa.Column("barred_until", sa.Double, nullable=False),
        sa.PrimaryKeyConstraint("user_id", name="pk_attendance"),
        sa.ForeignKeyConstraint(
            ["user_id"], ["users.id"], name="fk_attendance_user_id_users", ondelete="CASCADE"
        ),
    )


def downgrade() -> None:
    op.drop_table("attendance")
    op.drop_index("ix_tournament_players_user_id", table_name="tournament_players")
    op.drop_table("tournament_players")
    op.drop_index("ix_tournaments_status_finished_at", table_name="tournaments")
    op.drop_index("ix_tournaments_status_starts_at", table_name="tournaments")
    op.drop_table("tournaments")
