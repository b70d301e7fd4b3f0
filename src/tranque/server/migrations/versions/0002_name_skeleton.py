"""Look-alike names: users.name_skeleton, unique (tranque.server.accounts.names.skeleton).

Existing accounts get the skeleton of their name, oldest first; an account whose name looks
like an older one's keeps NULL there (it can still log in; the unique index allows many NULLs
in SQLite and PostgreSQL alike). The column is added and indexed rather than declared with a
constraint, so that SQLite needs no rebuild of the users table.

Revision ID: 0002
Revises: 0001
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from tranque.server.accounts.names import skeleton

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("users", sa.Column("name_skeleton", sa.String(128), nullable=True))
    users = sa.table(
        "users", sa.column("id", sa.Integer), sa.column("name", sa.String), sa.column("name_skeleton")
    )
    connection = op.get_bind()
    seen: set[str] = set()
    for user_id, name in connection.execute(sa.select(users.c.id, users.c.name).order_by(users.c.id)).all():
        key = skeleton(name)
        if key not in seen:
            seen.add(key)
            connection.execute(users.update().where(users.c.id == user_id).values(name_skeleton=key))
    op.create_index("ix_users_name_skeleton", "users", ["name_skeleton"], unique=True)


def downgrade() -> None:
    op.drop_index("ix_users_name_skeleton", table_name="users")
    op.drop_column("users", "name_skeleton")
