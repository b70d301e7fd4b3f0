"""The Alembic environment: runs the revisions on a given connection, or on a URL's database.

`tranque.server.store.sql.upgrade_connection` passes its open connection in
`config.attributes["connection"]`; otherwise (the `alembic` command line with `alembic_config(url)`)
an async engine is made from the `sqlalchemy.url` option.
"""

from __future__ import annotations

import asyncio

import sqlalchemy as sa
from alembic import context

from tranque.server.store.schema import metadata

# Any constant: the key of the PostgreSQL advisory lock that serialises concurrent upgrades.
MIGRATION_LOCK = 0x7472616E717565


def run_on(connection: sa.Connection) -> None:
    if connection.dialect.name == "postgresql":
        # Waiting for another process's upgrade and rewriting a big table may take longer than
        # the site's statement timeout (store/sql/engine.py): lifted for this transaction only.
        connection.execute(sa.text("SET LOCAL statement_timeout = 0"))
        # Several server processes may start at once; the second waits, then finds the schema at head.
        connection.execute(sa.text("SELECT pg_advisory_xact_lock(:key)"), {"key": MIGRATION_LOCK})
    context.configure(connection=connection, target_metadata=metadata, compare_type=True)
    with context.begin_transaction():
        context.run_migrations()


async def run_on_url(url: str) -> None:
    from tranque.server.store.sql import run_in_transaction

    await run_in_transaction(url, run_on)


def main() -> None:
    config = context.config
    connection = config.attributes.get("connection")
    if connection is not None:
        run_on(connection)
        return
    url = config.get_main_option("sqlalchemy.url")
    if not url:
        raise RuntimeError("no database: build the Alembic config with alembic_config(url)")
    if context.is_offline_mode():
        context.configure(url=url, target_metadata=metadata, literal_binds=True)
        with context.begin_transaction():
            context.run_migrations()
    else:
        asyncio.run(run_on_url(url))


# Alembic executes this file with its context established; anything else (pytest's doctest
# collection, a stray import) only imports it.
if hasattr(context, "config"):
    main()
