"""`SqlStore`: the `Store` on SQLAlchemy 2 (async), SQLite by default and PostgreSQL by URL.

Each area's implementation is a module of its own (`tables`, `accounts`, `players`, `social`,
`analyses`, `fairplay`, `tournaments`), all over one `SqlDatabase` (`database`): one engine,
migrated to head by `start()`.
"""

from tranque.server.store.sql.accounts import SqlAccounts
from tranque.server.store.sql.analyses import SqlAnalyses
from tranque.server.store.sql.engine import (
    alembic_config,
    async_url,
    create_engine,
    run_in_transaction,
    sqlite_file,
    sqlite_pragmas,
    upgrade_connection,
    upgrade_to_head,
)
from tranque.server.store.sql.fairplay import SqlFairPlay
from tranque.server.store.sql.fichas import SqlFichas
from tranque.server.store.sql.game_results import SqlGameResults
from tranque.server.store.sql.learning import SqlLearning
from tranque.server.store.sql.moderation import SqlModeration
from tranque.server.store.sql.outbox import SqlOutbox
from tranque.server.store.sql.penas import SqlPenas
from tranque.server.store.sql.reparto import SqlReparto
from tranque.server.store.sql.seasons import SqlSeasons
from tranque.server.store.sql.social import SqlSocial
from tranque.server.store.sql.tables import SqlTableLog
from tranque.server.store.sql.talk import SqlTalk
from tranque.server.store.sql.tournaments import SqlTournaments


class SqlStore(
    SqlTableLog,
    SqlAccounts,
    SqlOutbox,
    SqlSocial,
    SqlAnalyses,
    SqlModeration,
    SqlFairPlay,
    SqlTournaments,
    SqlLearning,
    SqlGameResults,
    SqlPenas,
    SqlReparto,
    SqlTalk,
    SqlSeasons,
    SqlFichas,
):
    """The persistent `Store`. `SqlStore("sqlite+aiosqlite:///./tranque.db")`, or a PostgreSQL URL."""


__all__ = [
    "SqlStore",
    "alembic_config",
    "async_url",
    "create_engine",
    "run_in_transaction",
    "sqlite_file",
    "sqlite_pragmas",
    "upgrade_connection",
    "upgrade_to_head",
]
