"""Moderation: roles, the moderators' queue, sanctions, the audit log, withheld standings.

`account_roles` gives an account the role `moderator` or `admin` (any other is a player's);
`review_items` is the moderators' queue: players' reports (one per reporter, account and game,
`game_key` "" for a report from a profile) and items other parts of the server raise, each
with the accounts it is about and its evidence as JSON; `sanctions` mutes, suspends or bans an
account (lifting one keeps its row); `moderation_log` is the audit log of every moderator's
action; `withheld_ratings` and `withheld_xp` keep a banned account's ratings and XP off the
rankings while the ban holds (moved back, as they were, when it is lifted). New tables only:
nothing existing changes.

Revision ID: 0010
Revises: 0009
Create Date: 2026-12-07
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None

NAME_ORDER = sa.String(64).with_variant(postgresql.VARCHAR(64, collation="C"), "postgresql")


def _user(column: str, *, primary_key: bool = False, nullable: bool = False) -> sa.Column[int]:
    return sa.Column(column, sa.Integer, primary_key=primary_key, nullable=nullable)


def _user_key(table: str, column: str = "user_id") -> sa.ForeignKeyConstraint:
    return sa.ForeignKeyConstraint(
        [column], ["users.id"], name=f"fk_{table}_{column}_users", ondelete="CASCADE"
    )


def upgrade() -> None:
    op.create_table(
        "account_roles",
        _user("user_id"),
        sa.Column("role", sa.String(16), nullable=False),
        sa.Column("granted_at", sa.Double, nullable=False),
        _user_key("account_roles"),
        sa.PrimaryKeyConstraint("user_id", name="pk_account_roles"),
    )
    op.create_table(
        "review_items",
        sa.Column("id", sa.Integer, autoincrement=True, nullable=False),
        sa.Column("kind", sa.String(32), nullable=False),
        sa.Column("subjects", sa.JSON, nullable=False),
        sa.Column("evidence", sa.JSON, nullable=False),
        sa.Column("game_key", sa.String(80), nullable=False, server_default=""),
        _user("reporter_id", nullable=True),
        sa.Column("subject_id", sa.Integer, nullable=True),
        sa.Column("reason", sa.String(16), nullable=True),
        sa.Column("note", sa.String(500), nullable=True),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("created_at", sa.Double, nullable=False),
        sa.Column("closed_at", sa.Double, nullable=True),
        sa.Column("closed_by", sa.Integer, nullable=True),
        sa.Column("resolution", sa.String(500), nullable=True),
        _user_key("review_items", "reporter_id"),
        sa.PrimaryKeyConstraint("id", name="pk_review_items"),
    )
    op.create_index("ix_review_items_status_created_at", "review_items", ["status", "created_at"])
    op.create_index("ix_review_items_reporter_id_created_at", "review_items", ["reporter_id", "created_at"])
    op.create_index(
        "ix_review_items_reporter_id_subject_id_game_key",
        "review_items",
        ["reporter_id", "subject_id", "game_key"],
        unique=True,
    )
    op.create_table(
        "sanctions",
        sa.Column("id", sa.Integer, autoincrement=True, nullable=False),
        _user("user_id"),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("until", sa.Double, nullable=True),
        sa.Column("created_at", sa.Double, nullable=False),
        sa.Column("created_by", sa.Integer, nullable=True),
        sa.Column("reason", sa.String(500), nullable=False),
        sa.Column("lifted_at", sa.Double, nullable=True),
        sa.Column("lifted_by", sa.Integer, nullable=True),
        _user_key("sanctions"),
        sa.PrimaryKeyConstraint("id", name="pk_sanctions"),
    )
    op.create_index("ix_sanctions_user_id", "sanctions", ["user_id"])
    op.create_table(
        "moderation_log",
        sa.Column("id", sa.Integer, autoincrement=True, nullable=False),
        sa.Column("at", sa.Double, nullable=False),
        sa.Column("moderator_id", sa.Integer, nullable=True),
        sa.Column("action", sa.String(16), nullable=False),
        sa.Column("subject_id", sa.Integer, nullable=True),
        sa.Column("item_id", sa.Integer, nullable=True),
        sa.Column("reason", sa.String(500), nullable=False),
        sa.Column("details", sa.JSON, nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_moderation_log"),
    )
    op.create_index("ix_moderation_log_at", "moderation_log", ["at"])
    op.create_table(
        "withheld_ratings",
        _user("user_id"),
        sa.Column("pool", sa.String(16), nullable=False),
        sa.Column("mu", sa.Double, nullable=False),
        sa.Column("sigma", sa.Double, nullable=False),
        sa.Column("shown", sa.Double, nullable=False),
        sa.Column("games", sa.Integer, nullable=False),
        sa.Column("updated_at", sa.Double, nullable=False),
        sa.Column("name_key", NAME_ORDER, nullable=False, server_default=""),
        _user_key("withheld_ratings"),
        sa.PrimaryKeyConstraint("user_id", "pool", name="pk_withheld_ratings"),
    )
    op.create_table(
        "withheld_xp",
        sa.Column("period", sa.String(16), nullable=False),
        _user("user_id"),
        sa.Column("xp", sa.Integer, nullable=False),
        sa.Column("name_key", NAME_ORDER, nullable=False, server_default=""),
        _user_key("withheld_xp"),
        sa.PrimaryKeyConstraint("period", "user_id", name="pk_withheld_xp"),
    )
    op.create_index("ix_withheld_xp_user_id", "withheld_xp", ["user_id"])


def downgrade() -> None:
    op.drop_index("ix_withheld_xp_user_id", table_name="withheld_xp")
    op.drop_table("withheld_xp")
    op.drop_table("withheld_ratings")
    op.drop_index("ix_moderation_log_at", table_name="moderation_log")
    op.drop_table("moderation_log")
    op.drop_index("ix_sanctions_user_id", table_name="sanctions")
    op.drop_table("sanctions")
    op.drop_index("ix_review_items_reporter_id_subject_id_game_key", table_name="review_items")
    op.drop_index("ix_review_items_reporter_id_created_at", table_name="review_items")
    op.drop_index("ix_review_items_status_created_at", table_name="review_items")
    op.drop_table("review_items")
    op.drop_table("account_roles")
