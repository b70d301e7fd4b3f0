"""Bot accounts: users.bot_owner, users.bot_token_hash, users.bot_used_at.

An account may be a bot, owned by a person's account (`bot_owner`); it plays over the
WebSocket protocol with an API token of which only the SHA-256 is kept (`bot_token_hash`,
unique; NULL: no token, or revoked), and `bot_used_at` says when a token last opened a
socket. Every existing account is a person's (NULL owner). Nullable columns and an index:
no rebuild of the users table, on SQLite or PostgreSQL. The owner's foreign key is checked
by the server (an owner is never deleted); SQLite cannot add one without a rebuild.

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-03
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("users", sa.Column("bot_owner", sa.Integer, nullable=True))
    op.add_column("users", sa.Column("bot_token_hash", sa.String(128), nullable=True))
    op.add_column("users", sa.Column("bot_used_at", sa.Double, nullable=True))
    op.create_index("ix_users_bot_owner", "users", ["bot_owner"])
    op.create_index("ix_users_bot_token_hash", "users", ["bot_token_hash"], unique=True)


def downgrade() -> None:
    op.drop_index("ix_users_bot_token_hash", table_name="users")
    op.drop_index("ix_users_bot_owner", table_name="users")
    with op.batch_alter_table("users") as batch:
        batch.drop_column("bot_used_at")
        batch.drop_column("bot_token_hash")
        batch.drop_column("bot_owner")
