"""The database schema, as SQLAlchemy Core tables.

`sql.SqlStore` queries these tables; the Alembic revisions in `tranque.server.migrations` create
them (explicitly, never with `create_all`), and a test checks that the two agree.
Times are seconds since the epoch as double-precision floats, like the rest of the server.
"""

from __future__ import annotations

import sqlalchemy as sa

metadata = sa.MetaData(
    naming_convention={
        "pk": "pk_%(table_name)s",
        "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
        "uq": "uq_%(table_name)s_%(column_0_name)s",
        "ix": "ix_%(table_name)s_%(column_0_name)s",
    }
)

users = sa.Table(
    "users",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("name", sa.String(64), nullable=False),
    # The name casefolded: the unique key, so "Pedro" and "pedro" are one account.
    sa.Column("name_key", sa.String(64), nullable=False, unique=True),
    sa.Column("password_hash", sa.String(255), nullable=False),
    sa.Column("created_at", sa.Double, nullable=False),
    # names.skeleton(name): unique, so no name looks like another. NULL only for an account
    # made before revision 0002 whose name looked like an older account's.
    sa.Column("name_skeleton", sa.String(128), nullable=True),
    sa.Index("ix_users_name_skeleton", "name_skeleton", unique=True),
)

sessions = sa.Table(
    "sessions",
    metadata,
    sa.Column("token_hash", sa.String(128), primary_key=True),
    sa.Column(
        "user_id", sa.Integer, sa.ForeignKey("users.id", ondelete="CASCADE"), nullable=False, index=True
    ),
    sa.Column("expires_at", sa.Double, nullable=False),
)

tables = sa.Table(
    "tables",
    metadata,
    sa.Column("table_id", sa.String(64), primary_key=True),
    sa.Column("config", sa.JSON, nullable=False),
    sa.Column("status", sa.String(16), nullable=False, index=True),
    sa.Column("created_at", sa.Double, nullable=False),
)

# The primary key (table_id, seq) is the UNIQUE(table_id, seq) that stops two owners of one
# table from both writing event n.
table_events = sa.Table(
    "table_events",
    metadata,
    sa.Column("table_id", sa.String(64), sa.ForeignKey("tables.table_id"), primary_key=True),
    sa.Column("seq", sa.Integer, primary_key=True, autoincrement=False),
    sa.Column("kind", sa.String(64), nullable=False),
    sa.Column("data", sa.JSON, nullable=False),
    sa.Column("at", sa.Double, nullable=False),
)

records = sa.Table(
    "records",
    metadata,
    sa.Column("table_id", sa.String(64), primary_key=True),
    sa.Column("record", sa.JSON, nullable=False),
)
