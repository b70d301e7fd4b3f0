"""Where a database's schema stands against this code's migrations: at head, behind (revisions
to run), ahead (a revision this code does not know: a newer release migrated it) or empty.

`tranque migrate --check` reports it, and a server started with `Settings.migrate_at_start`
off refuses a database that is behind (docs/deploy.md, «Upgrades»).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

import sqlalchemy as sa
from alembic.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy.ext.asyncio import create_async_engine
from sqlalchemy.pool import NullPool

from tranque.server.store.sql.engine import alembic_config, async_url, upgrade_connection

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class SchemaState:
    head: str  # this code's newest revision
    current: tuple[str, ...]  # the database's revisions; () when it has no schema yet
    pending: tuple[str, ...]  # the revisions `tranque migrate` would run, oldest first
    unknown: tuple[str, ...]  # the database's revisions this code does not know

    @property
    def status(self) -> str:
        """ "head", "behind", "ahead" or "empty".

        >>> SchemaState("0012", ("0011",), ("0012",), ()).status
        'behind'
        >>> SchemaState("0012", ("0013",), (), ("0013",)).status
        'ahead'
        """
        if self.unknown:
            return "ahead"
        if not self.current:
            return "empty"
        return "behind" if self.pending else "head"


class SchemaNotAtHead(RuntimeError):
    """A server that does not migrate at start found its database behind this code."""

    def __init__(self, state: SchemaState) -> None:
        self.state = state
        at = ", ".join(state.current) or "none (empty)"
        super().__init__(
            f"the database's schema is at revision {at}, this code's is {state.head} "
            f"(pending: {', '.join(state.pending)}); migrate_at_start is off: run `tranque migrate` first"
        )


def script_directory() -> ScriptDirectory:
    return ScriptDirectory.from_config(alembic_config())


def schema_state(connection: sa.Connection) -> SchemaState:
    """Read the database's revision on `connection` (nothing is written)."""
    script = script_directory()
    head = script.get_current_head()
    if head is None:
        raise RuntimeError("the packaged migrations have no head")
    current = tuple(MigrationContext.configure(connection).get_current_heads())
    known = {revision.revision for revision in script.walk_revisions()}
    unknown = tuple(revision for revision in current if revision not in known)
    if unknown:
        return SchemaState(head, current, (), unknown)
    lower = current[0] if current else "base"
    pending = [revision.revision for revision in script.iterate_revisions(head, lower)]
    return SchemaState(head, current, tuple(reversed(pending)), ())


def require_head(connection: sa.Connection) -> SchemaState:
    """The state of a database a server will use without migrating it: at head, or ahead (a
    newer release's schema only adds to this one's, docs/deploy.md «Upgrades»); otherwise
    `SchemaNotAtHead`."""
    state = schema_state(connection)
    if state.status in ("behind", "empty"):
        raise SchemaNotAtHead(state)
    return state


def prepare_schema(connection: sa.Connection, migrate: bool) -> SchemaState:
    """What a store does at start: migrate to head (`migrate`), or check that it is there. A
    database ahead of this code is used as it is, neither migrated nor refused: during a rolling
    upgrade a process of the previous release may start again on the new schema."""
    state = schema_state(connection)
    if state.status == "ahead":
        logger.warning(
            "the database's schema is at revision %s, newer than this code's %s: using it as it is",
            ", ".join(state.current),
            state.head,
        )
        return state
    if not migrate:
        return require_head(connection)
    if state.status != "head":
        upgrade_connection(connection)
    return schema_state(connection)


async def database_schema_state(url: str | sa.URL) -> SchemaState:
    """The state of the database at `url`, read on a plain connection: nothing is written,
    no pragma set (a SQLite file that does not exist would be created: check that first)."""
    engine = create_async_engine(async_url(url), poolclass=NullPool)
    try:
        async with engine.connect() as connection:
            return await connection.run_sync(schema_state)
    finally:
        await engine.dispose()
