"""Players' pages at scale: each leaderboard's size kept by triggers, leaderboard indexes that
end with the player, and a profile's stats and rating chart read from indexes alone.

* `board_sizes` holds how many rows of `ratings` each pool has ("rating:<pool>") and of `xp`
  each period ("xp:<period>"), filled here from the rows and then kept by triggers on insert
  and delete (an upsert that updates a row changes no size), so a leaderboard's total is one
  row rather than a count of the whole board.
* `ratings (pool, shown, user_id)` and `xp (period, xp, user_id)` replace `(pool, shown)` and
  `(period, xp)`: ordered by value then player, a page's first row is found from whichever end
  of the board is nearer, and its ties counted, in the index alone.
* `game_players (user_id, format, finished_at, mu_after, sigma_after)` and `(user_id, preset,
  format, won)`: a profile's rating chart and its games and wins per preset and format.

Same statements on SQLite and PostgreSQL, but for the triggers (PostgreSQL runs a function).

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-02
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None

# (table, its board column, the board's prefix)
COUNTED = (("ratings", "pool", "rating:"), ("xp", "period", "xp:"))


def _sqlite_triggers(table: str, column: str, prefix: str) -> list[str]:
    return [
        f"CREATE TRIGGER tr_{table}_board_insert AFTER INSERT ON {table} BEGIN "
        f"INSERT INTO board_sizes (board, players) VALUES ('{prefix}' || NEW.{column}, 1) "
        "ON CONFLICT (board) DO UPDATE SET players = players + 1; END",
        f"CREATE TRIGGER tr_{table}_board_delete AFTER DELETE ON {table} BEGIN "
        f"UPDATE board_sizes SET players = players - 1 WHERE board = '{prefix}' || OLD.{column}; END",
    ]


def _postgresql_triggers(table: str, column: str, prefix: str) -> list[str]:
    return [
        f"CREATE FUNCTION {table}_board_size() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN "
        "IF TG_OP = 'INSERT' THEN "
        f"INSERT INTO board_sizes (board, players) VALUES ('{prefix}' || NEW.{column}, 1) "
        "ON CONFLICT (board) DO UPDATE SET players = board_sizes.players + 1; "
        "ELSE "
        f"UPDATE board_sizes SET players = players - 1 WHERE board = '{prefix}' || OLD.{column}; "
        "END IF; RETURN NULL; END $$",
        f"CREATE TRIGGER tr_{table}_board_size AFTER INSERT OR DELETE ON {table} "
        f"FOR EACH ROW EXECUTE FUNCTION {table}_board_size()",
    ]


def upgrade() -> None:
    op.create_table(
        "board_sizes",
        sa.Column("board", sa.String(32), nullable=False),
        sa.Column("players", sa.Integer, nullable=False),
        sa.PrimaryKeyConstraint("board", name="pk_board_sizes"),
    )
    postgresql = op.get_bind().dialect.name == "postgresql"
    for table, column, prefix in COUNTED:
        op.execute(
            f"INSERT INTO board_sizes (board, players) "
            f"SELECT '{prefix}' || {column}, count(*) FROM {table} GROUP BY {column}"
        )
        triggers = _postgresql_triggers if postgresql else _sqlite_triggers
        for statement in triggers(table, column, prefix):
            op.execute(statement)
    op.create_index("ix_ratings_pool_shown_user_id", "ratings", ["pool", "shown", "user_id"])
    op.drop_index("ix_ratings_pool_shown", table_name="ratings")
    op.create_index("ix_xp_period_xp_user_id", "xp", ["period", "xp", "user_id"])
    op.drop_index("ix_xp_period_xp", table_name="xp")
    op.create_index(
        "ix_game_players_user_id_format_finished_at",
        "game_players",
        ["user_id", "format", "finished_at", "mu_after", "sigma_after"],
    )
    op.create_index(
        "ix_game_players_user_id_preset_format_won", "game_players", ["user_id", "preset", "format", "won"]
    )


def downgrade() -> None:
    op.drop_index("ix_game_players_user_id_preset_format_won", table_name="game_players")
    op.drop_index("ix_game_players_user_id_format_finished_at", table_name="game_players")
    op.create_index("ix_xp_period_xp", "xp", ["period", "xp"])
    op.drop_index("ix_xp_period_xp_user_id", table_name="xp")
    op.create_index("ix_ratings_pool_shown", "ratings", ["pool", "shown"])
    op.drop_index("ix_ratings_pool_shown_user_id", table_name="ratings")
    postgresql = op.get_bind().dialect.name == "postgresql"
    for table, _column, _prefix in COUNTED:
        if postgresql:
            op.execute(f"DROP TRIGGER tr_{table}_board_size ON {table}")
            op.execute(f"DROP FUNCTION {table}_board_size()")
        else:
            op.execute(f"DROP TRIGGER tr_{table}_board_insert")
            op.execute(f"DROP TRIGGER tr_{table}_board_delete")
    op.drop_table("board_sizes")
