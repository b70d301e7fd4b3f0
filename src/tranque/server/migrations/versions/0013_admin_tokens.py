"""Admin API tokens: users.admin_token_hash.

An admin's `tranque admin ...` commands reach the running site with an API token made by
`tranque admin token NAME` (accounts/admin_tokens.py); the database keeps only its SHA-256,
unique (NULL: no token). A nullable column and an index: no rebuild of the users table, on
SQLite or PostgreSQL; processes of the release before never read it.

Revision ID: 0013
Revises: 0012
Create Date: 2026-12-07
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0013"
down_revision = "0012"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("users", sa.Column("admin_token_hash", sa.String(128), nullable=True))
    op.create_index("ix_users_admin_token_hash", "users", ["admin_token_hash"], unique=True)


def downgrade() -> None:
    op.drop_index("ix_users_admin_token_hash", table_name="users")
    with op.batch_alter_table("users") as batch:
        batch.drop_column("admin_token_hash")
