"""Recorded game ends: the `recorded_game_ends` table, one row per `game_ended` event that the
recorder (players/recorder.py) has turned into history, ratings and XP, written with them in
one transaction; and a partial index of the game ends in `table_events`, by time, from which
it lists those not recorded yet. Every game end stored before this revision was recorded as
it was stored (by the table itself): each gets its row here, so none is recorded again.

Revision ID: 0009
Revises: 0008
Create Date: 2026-12-06
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None

GAME_ENDED = sa.text("kind = 'game_ended'")


def upgrade() -> None:
    op.create_table(
        "recorded_game_ends",
        sa.Column("table_id", sa.String(64), nullable=False),
        sa.Column("seq", sa.Integer, autoincrement=False, nullable=False),
        sa.Column("recorded_at", sa.Double, nullable=False),
        sa.PrimaryKeyConstraint("table_id", "seq", name="pk_recorded_game_ends"),
    )
    op.create_index(
        "ix_table_events_game_ends",
        "table_events",
        ["at"],
        sqlite_where=GAME_ENDED,
        postgresql_where=GAME_ENDED,
    )
    op.execute(
        "INSERT INTO recorded_game_ends (table_id, seq, recorded_at)"
        " SELECT table_id, seq, at FROM table_events WHERE kind = 'game_ended'"
    )


def downgrade() -> None:
    op.drop_index("ix_table_events_game_ends", table_name="table_events")
    op.drop_table("recorded_game_ends")
