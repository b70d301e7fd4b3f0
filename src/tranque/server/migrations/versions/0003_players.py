"""Players: finished games and their players, ratings, XP per period, friends, blocks, avatars.

Every table is new, and the users table only gains a nullable column, so existing servers
upgrade in place on SQLite and PostgreSQL alike (no table rebuild).

Revision ID: 0003
Revises: 0002
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def _user_fk(table: str, column: str) -> sa.ForeignKeyConstraint:
    return sa.ForeignKeyConstraint(
        [column], ["users.id"], name=f"fk_{table}_{column}_users", ondelete="CASCADE"
    )


def upgrade() -> None:
    op.add_column("users", sa.Column("avatar", sa.String(32), nullable=True))
    op.create_table(
        "games",
        sa.Column("game_id", sa.String(80), nullable=False),
        sa.Column("table_id", sa.String(64), nullable=False),
        sa.Column("number", sa.Integer, nullable=False),
        sa.Column("finished_at", sa.Double, nullable=False),
        sa.Column("preset", sa.String(32), nullable=False),
        sa.Column("format", sa.String(16), nullable=False),
        sa.Column("players", sa.Integer, nullable=False),
        sa.Column("table_kind", sa.String(16), nullable=False),
        sa.Column("private", sa.Boolean, nullable=False),
        sa.Column("competitive", sa.Boolean, nullable=False),
        sa.Column("rated", sa.Boolean, nullable=False),
        sa.Column("unrated_reason", sa.String(32), nullable=True),
        sa.Column("summary", sa.JSON, nullable=False),
        sa.Column("record", sa.JSON, nullable=False),
        sa.PrimaryKeyConstraint("game_id", name="pk_games"),
    )
    op.create_index("ix_games_table_id", "games", ["table_id"])
    op.create_index("ix_games_finished_at", "games", ["finished_at"])
    op.create_table(
        "game_players",
        sa.Column("game_id", sa.String(80), nullable=False),
        sa.Column("user_id", sa.Integer, nullable=False),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("finished_at", sa.Double, nullable=False),
        sa.Column("preset", sa.String(32), nullable=False),
        sa.Column("format", sa.String(16), nullable=False),
        sa.Column("private", sa.Boolean, nullable=False),
        sa.Column("won", sa.Boolean, nullable=False),
        sa.Column("abandoned", sa.Boolean, nullable=False),
        sa.Column("xp", sa.Integer, nullable=False),
        sa.Column("mu_before", sa.Double, nullable=True),
        sa.Column("sigma_before", sa.Double, nullable=True),
        sa.Column("mu_after", sa.Double, nullable=True),
        sa.Column("sigma_after", sa.Double, nullable=True),
        sa.PrimaryKeyConstraint("game_id", "user_id", name="pk_game_players"),
        sa.ForeignKeyConstraint(["game_id"], ["games.game_id"], name="fk_game_players_game_id_games"),
        _user_fk("game_players", "user_id"),
    )
    op.create_index("ix_game_players_user_id_finished_at", "game_players", ["user_id", "finished_at"])
    op.create_table(
        "ratings",
        sa.Column("user_id", sa.Integer, nullable=False),
        sa.Column("pool", sa.String(16), nullable=False),
        sa.Column("mu", sa.Double, nullable=False),
        sa.Column("sigma", sa.Double, nullable=False),
        sa.Column("shown", sa.Double, nullable=False),
        sa.Column("games", sa.Integer, nullable=False),
        sa.Column("updated_at", sa.Double, nullable=False),
        sa.PrimaryKeyConstraint("user_id", "pool", name="pk_ratings"),
        _user_fk("ratings", "user_id"),
    )
    op.create_index("ix_ratings_pool_shown", "ratings", ["pool", "shown"])
    op.create_table(
        "xp",
        sa.Column("period", sa.String(16), nullable=False),
        sa.Column("user_id", sa.Integer, nullable=False),
        sa.Column("xp", sa.Integer, nullable=False),
        sa.PrimaryKeyConstraint("period", "user_id", name="pk_xp"),
        _user_fk("xp", "user_id"),
    )
    op.create_index("ix_xp_period_xp", "xp", ["period", "xp"])
    op.create_table(
        "friends",
        sa.Column("user_id", sa.Integer, nullable=False),
        sa.Column("friend_id", sa.Integer, nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("created_at", sa.Double, nullable=False),
        sa.PrimaryKeyConstraint("user_id", "friend_id", name="pk_friends"),
        _user_fk("friends", "user_id"),
        _user_fk("friends", "friend_id"),
    )
    op.create_index("ix_friends_friend_id", "friends", ["friend_id"])
    op.create_table(
        "blocks",
        sa.Column("user_id", sa.Integer, nullable=False),
        sa.Column("blocked_id", sa.Integer, nullable=False),
        sa.Column("created_at", sa.Double, nullable=False),
        sa.PrimaryKeyConstraint("user_id", "blocked_id", name="pk_blocks"),
        _user_fk("blocks", "user_id"),
        _user_fk("blocks", "blocked_id"),
    )
    op.create_index("ix_blocks_blocked_id", "blocks", ["blocked_id"])


def downgrade() -> None:
    for index, table in [
        ("ix_blocks_blocked_id", "blocks"),
        ("ix_friends_friend_id", "friends"),
        ("ix_xp_period_xp", "xp"),
        ("ix_ratings_pool_shown", "ratings"),
        ("ix_game_players_user_id_finished_at", "game_players"),
    ]:
        op.drop_index(index, table_name=table)
        op.drop_table(table)
    op.drop_index("ix_games_finished_at", table_name="games")
    op.drop_index("ix_games_table_id", table_name="games")
    op.drop_table("games")
    op.drop_column("users", "avatar")
