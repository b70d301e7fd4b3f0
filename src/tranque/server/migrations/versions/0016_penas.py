"""Peñas: the `penas`, `pena_members`, `pena_requests` and `pena_invitations` tables.

New tables only: nothing of the release before is touched, and its processes never read them,
on SQLite or PostgreSQL alike.

Revision ID: 0016
Revises: 0015
Create Date: 2026-12-07
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0016"
down_revision = "0015"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "penas",
        sa.Column("id", sa.Integer, autoincrement=True, nullable=False),
        sa.Column("slug", sa.String(64), nullable=False),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("name_key", sa.String(64), nullable=False),
        sa.Column("name_skeleton", sa.String(128), nullable=False),
        sa.Column("crest", sa.String(32), nullable=False),
        sa.Column("description", sa.String(400), nullable=False),
        sa.Column("access", sa.String(16), nullable=False),
        sa.Column("created_by", sa.Integer, nullable=True),
        sa.Column("created_at", sa.Double, nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_penas"),
        sa.UniqueConstraint("slug", name="uq_penas_slug"),
        sa.UniqueConstraint("name_key", name="uq_penas_name_key"),
        sa.UniqueConstraint("name_skeleton", name="uq_penas_name_skeleton"),
        sa.ForeignKeyConstraint(
            ["created_by"], ["users.id"], name="fk_penas_created_by_users", ondelete="SET NULL"
        ),
    )
    op.create_table(
        "pena_members",
        sa.Column("pena_id", sa.Integer, nullable=False),
        sa.Column("user_id", sa.Integer, nullable=False),
        sa.Column("role", sa.String(16), nullable=False),
        sa.Column("joined_at", sa.Double, nullable=False),
        sa.PrimaryKeyConstraint("pena_id", "user_id", name="pk_pena_members"),
        sa.ForeignKeyConstraint(
            ["pena_id"], ["penas.id"], name="fk_pena_members_pena_id_penas", ondelete="CASCADE"
        ),
        sa.ForeignKeyConstraint(
            ["user_id"], ["users.id"], name="fk_pena_members_user_id_users", ondelete="CASCADE"
        ),
    )
    op.create_index("ix_pena_members_user_id", "pena_members", ["user_id"])
    op.create_table(
        "pena_requests",
        sa.Column("pena_id", sa.Integer, nullable=False),
        sa.Column("user_id", sa.Integer, nullable=False),
        sa.Column("at", sa.Double, nullable=False),
        sa.PrimaryKeyConstraint("pena_id", "user_id", name="pk_pena_requests"),
        sa.ForeignKeyConstraint(
            ["pena_id"], ["penas.id"], name="fk_pena_requests_pena_id_penas", ondelete="CASCADE"
        ),
        sa.ForeignKeyConstraint(
            ["user_id"], ["users.id"], name="fk_pena_requests_user_id_users", ondelete="CASCADE"
        ),
    )
    op.create_index("ix_pena_requests_user_id", "pena_requests", ["user_id"])
    op.create_table(
        "pena_invitations",
        sa.Column("token_hash", sa.String(128), nullable=False),
        sa.Column("pena_id", sa.Integer, nullable=False),
        sa.Column("created_by", sa.Integer, nullable=False),
        sa.Column("created_at", sa.Double, nullable=False),
        sa.Column("expires_at", sa.Double, nullable=False),
        sa.PrimaryKeyConstraint("token_hash", name="pk_pena_invitations"),
        sa.ForeignKeyConstraint(
            ["pena_id"], ["penas.id"], name="fk_pena_invitations_pena_id_penas", ondelete="CASCADE"
        ),
    )
    op.create_index("ix_pena_invitations_pena_id", "pena_invitations", ["pena_id"])


def downgrade() -> None:
    op.drop_table("pena_invitations")
    op.drop_table("pena_requests")
    op.drop_table("pena_members")
    op.drop_table("penas")
