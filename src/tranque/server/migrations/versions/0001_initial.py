"""The initial schema: users, sessions, tables, their event logs and game records.

Revision ID: 0001
Revises:
Create Date: 2025-01-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "users",
        sa.Column("id", sa.Integer, autoincrement=True, nullable=False),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("name_key", sa.String(64), nullable=False),
        sa.Column("password_hash", sa.String(255), nullable=False),
        sa.Column("created_at", sa.Double, nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_users"),
        sa.UniqueConstraint("name_key", name="uq_users_name_key"),
    )
    op.create_table(
        "sessions",
        sa.Column("token_hash", sa.String(128), nullable=False),
        sa.Column("user_id", sa.Integer, nullable=False),
        sa.Column("expires_at", sa.Double, nullable=False),
        sa.PrimaryKeyConstraint("token_hash", name="pk_sessions"),
        sa.ForeignKeyConstraint(
            ["user_id"], ["users.id"], name="fk_sessions_user_id_users", ondelete="CASCADE"
        ),
    )
    op.create_index("ix_sessions_user_id", "sessions", ["user_id"])
    op.create_table(
        "tables",
        sa.Column("table_id", sa.String(64), nullable=False),
        sa.Column("config", sa.JSON, nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("created_at", sa.Double, nullable=False),
        sa.PrimaryKeyConstraint("table_id", name="pk_tables"),
    )
    op.create_index("ix_tables_status", "tables", ["status"])
    op.create_table(
        "table_events",
        sa.Column("table_id", sa.String(64), nullable=False),
        sa.Column("seq", sa.Integer, autoincrement=False, nullable=False),
        sa.Column("kind", sa.String(64), nullable=False),
        sa.Column("data", sa.JSON, nullable=False),
        sa.Column("at", sa.Double, nullable=False),
        sa.PrimaryKeyConstraint("table_id", "seq", name="pk_table_events"),
        sa.ForeignKeyConstraint(["table_id"], ["tables.table_id"], name="fk_table_events_table_id_tables"),
    )
    op.create_table(
        "records",
        sa.Column("table_id", sa.String(64), nullable=False),
        sa.Column("record", sa.JSON, nullable=False),
        sa.PrimaryKeyConstraint("table_id", name="pk_records"),
    )


def downgrade() -> None:
    op.drop_table("records")
    op.drop_table("table_events")
    op.drop_index("ix_tables_status", table_name="tables")
    op.drop_table("tables")
    op.drop_index("ix_sessions_user_id", table_name="sessions")
    op.drop_table("sessions")
    op.drop_table("users")
