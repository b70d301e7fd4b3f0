"""`tranque migrate [--check] [--db URL]`: bring a site's database to this version's schema.

`tranque serve` migrates at start by default; an operator who upgrades several processes one
at a time turns that off (`--no-migrate`, $TRANQUE_MIGRATE_AT_START=0) and runs this first
(docs/deploy.md, «Upgrades»). The database is `tranque serve`'s (`--db`, else
$TRANQUE_DATABASE_URL, else ./tranque.db). `--check` changes nothing (not even a missing
SQLite file is created) and exits 0 when the database is at head, 1 when it is behind, ahead
(a newer release migrated it) or empty. Without `--check`, a database ahead is left as it is
(exit 1). A URL's password is never shown. A bad URL or a database that cannot be opened is
one line and exit code 2.
"""

from __future__ import annotations

import argparse
import asyncio
from pathlib import Path
from typing import TYPE_CHECKING

from tranque.terminal.catalogue import t
from tranque.terminal.command import CliError, Command, Context
from tranque.terminal.serve import DEFAULT_DATABASE, check_database, database_url, shown_url

if TYPE_CHECKING:
    from tranque.server.store.sql.revisions import SchemaState


def configure(parser: argparse.ArgumentParser, lang: str) -> None:
    parser.add_argument("--check", action="store_true", help=t("opt_migrate_check", lang))
    parser.add_argument("--db", metavar="URL", help=t("opt_db", lang, default=DEFAULT_DATABASE))


def missing_sqlite_file(url: str) -> Path | None:
    """The path of a SQLite database file that does not exist (yet); None otherwise."""
    from tranque.server.store.sql import sqlite_file

    path = sqlite_file(url)
    return Path(path) if path is not None and not Path(path).exists() else None


def state_line(state: SchemaState, url: str, lang: str) -> str:
    """What `--check` says of a database's state."""
    shown = shown_url(url)
    current = ", ".join(state.current)
    if state.status == "head":
        return t("migrate_at_head", lang, url=shown, head=state.head)
    if state.status == "ahead":
        return t("migrate_ahead", lang, url=shown, current=current, head=state.head)
    if state.status == "empty":
        return t("migrate_empty", lang, url=shown, head=state.head)
    return t(
        "migrate_behind", lang, url=shown, current=current, head=state.head, pending=", ".join(state.pending)
    )


def run(args: argparse.Namespace, ctx: Context) -> int:
    from tranque.server.store.factory import MEMORY_URL
    from tranque.server.store.sql import upgrade_to_head
    from tranque.server.store.sql.revisions import database_schema_state, script_directory

    lang = ctx.lang
    url = database_url(args)
    if url == MEMORY_URL:
        raise CliError(t("migrate_memory_db", lang))
    missing = missing_sqlite_file(url)
    if args.check and missing is not None:
        head = script_directory().get_current_head()
        ctx.err.print(t("migrate_no_file", lang, path=missing, head=head), soft_wrap=True)
        return 1
    check_database(url, lang)
    before = asyncio.run(database_schema_state(url))
    if args.check:
        line = state_line(before, url, lang)
        if before.status == "head":
            ctx.out.print(line, soft_wrap=True)
            return 0
        ctx.err.print(line, soft_wrap=True)
        return 1
    if before.status == "ahead":
        ctx.err.print(state_line(before, url, lang), soft_wrap=True)
        return 1
    if before.status == "head":
        ctx.out.print(t("migrate_nothing", lang, url=shown_url(url), head=before.head), soft_wrap=True)
        return 0
    asyncio.run(upgrade_to_head(url))
    after = asyncio.run(database_schema_state(url))
    ctx.out.print(
        t(
            "migrate_done",
            lang,
            url=shown_url(url),
            before=", ".join(before.current) or t("migrate_none", lang),
            head=", ".join(after.current),
            revisions=", ".join(before.pending),
        ),
        soft_wrap=True,
    )
    return 0 if after.status == "head" else 1


COMMAND = Command("help_migrate", configure, run)
