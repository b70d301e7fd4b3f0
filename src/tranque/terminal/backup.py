"""`tranque backup FILE [--db URL]` and `tranque restore FILE [--db URL] [--force]`: a copy of
a site's SQLite database, and putting one back (docs/deploy.md, «Backups»).

The copy is made with SQLite's online backup API, so the site may go on running: with WAL its
writes are not held up, and the copy is one consistent moment of the database. It is one
file (no -wal beside it) readable by its owner only (it holds password hashes and the hands
of rounds in play), checked with `PRAGMA integrity_check`, and its schema revision is
printed. A restore refuses a file that is not a Tranque database, a database in use (a server
running on it) and, without --force, any database already there; the database put back is
owner-only too. With PostgreSQL both commands print the pg_dump / pg_restore commands to run
instead, and exit with code 2. The database is `tranque serve`'s (`--db`, else
$TRANQUE_DATABASE_URL, else ./tranque.db).
"""

from __future__ import annotations

import argparse
import contextlib
import os
import shlex
import sqlite3
from collections.abc import Iterator
from pathlib import Path

import sqlalchemy as sa

from tranque.terminal.catalogue import t
from tranque.terminal.command import CliError, Command, Context
from tranque.terminal.serve import DEFAULT_DATABASE, database_url

BUSY_MS = 10_000  # how long the copy waits for a lock the server holds
OWNER_ONLY = 0o600


def configure_backup(parser: argparse.ArgumentParser, lang: str) -> None:
    parser.add_argument("file", metavar="FILE", help=t("opt_backup_file", lang))
    parser.add_argument("--db", metavar="URL", help=t("opt_db", lang, default=DEFAULT_DATABASE))


def configure_restore(parser: argparse.ArgumentParser, lang: str) -> None:
    configure_backup(parser, lang)
    parser.add_argument("--force", action="store_true", help=t("opt_restore_force", lang))


def postgres_commands(url: sa.URL, file: str, restore: bool) -> list[str]:
    """The commands that copy a PostgreSQL database to `file`, or put it back (no password:
    libpq reads it from $PGPASSWORD or ~/.pgpass).

    >>> url = sa.make_url("postgresql+asyncpg://tranque:s3cret@db.internal/tranque")
    >>> postgres_commands(url, "site.dump", restore=False)
    ['pg_dump -Fc -f site.dump postgresql://tranque@db.internal/tranque', 'pg_restore -l site.dump']
    """
    bare = sa.URL.create("postgresql", url.username, None, url.host, url.port, url.database, url.query)
    plain = bare.render_as_string(hide_password=False)
    if restore:
        return [
            f"pg_restore -l {shlex.quote(file)}",
            f"pg_restore --clean --if-exists --no-owner -d {shlex.quote(plain)} {shlex.quote(file)}",
            f"tranque migrate --check --db {shlex.quote(plain)}",
        ]
    return [f"pg_dump -Fc -f {shlex.quote(file)} {shlex.quote(plain)}", f"pg_restore -l {shlex.quote(file)}"]


def sqlite_database(args: argparse.Namespace, ctx: Context, restore: bool) -> Path | None:
    """The SQLite file of the site's database; None when the PostgreSQL commands were printed."""
    from tranque.server.store.factory import MEMORY_URL
    from tranque.server.store.sql import sqlite_file

    url = database_url(args)
    if url == MEMORY_URL:
        raise CliError(t("migrate_memory_db", ctx.lang))
    try:
        parsed = sa.make_url(url)
    except sa.exc.ArgumentError:
        raise CliError(t("bad_db_url", ctx.lang, url="…")) from None
    if parsed.get_backend_name() in ("postgresql", "postgres"):
        ctx.err.print(t("backup_postgres", ctx.lang))
        for line in postgres_commands(parsed, args.file, restore):
            ctx.err.print(f"    {line}", soft_wrap=True)
        return None
    path = sqlite_file(url)
    if parsed.get_backend_name() != "sqlite" or path is None:
        raise CliError(t("bad_db_scheme", ctx.lang, scheme=parsed.drivername))
    return Path(path)


@contextlib.contextmanager
def connection(path: Path, busy_ms: int = BUSY_MS) -> Iterator[sqlite3.Connection]:
    database = sqlite3.connect(path, timeout=busy_ms / 1000, isolation_level=None)
    try:
        yield database
    finally:
        database.close()


def integrity(database: sqlite3.Connection) -> str:
    rows = database.execute("PRAGMA integrity_check").fetchall()
    return "; ".join(str(row[0]) for row in rows)


def revision(database: sqlite3.Connection) -> str | None:
    """The schema revision of a Tranque database; None when it has no `alembic_version`."""
    found = database.execute(
        "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'alembic_version'"
    ).fetchone()
    if found is None:
        return None
    rows = database.execute("SELECT version_num FROM alembic_version").fetchall()
    return ", ".join(str(row[0]) for row in rows) or None


def owner_only_file(path: Path) -> None:
    """Create `path` empty with mode 0600, replacing a leftover of an interrupted run."""
    path.unlink(missing_ok=True)
    os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, OWNER_ONLY))


def copy_into(source: sqlite3.Connection, target: Path) -> None:
    """Copy the database on `source` into a new owner-only file `target`, as one file."""
    owner_only_file(target)
    with connection(target) as copy:
        source.backup(copy)  # one step: one consistent moment, with WAL the writers go on
        copy.execute("PRAGMA journal_mode=DELETE")
    os.chmod(target, OWNER_ONLY)


def run_backup(args: argparse.Namespace, ctx: Context) -> int:
    lang = ctx.lang
    database = sqlite_database(args, ctx, restore=False)
    if database is None:
        return 2
    target = Path(args.file)
    if not database.is_file():
        raise CliError(t("backup_no_database", lang, path=database))
    if target.exists():
        if target.resolve() == database.resolve():
            raise CliError(t("backup_same_file", lang, path=target))
        raise CliError(t("backup_exists", lang, path=target))
    if not target.parent.is_dir():
        raise CliError(t("backup_no_directory", lang, directory=target.parent))
    partial = target.with_name(target.name + ".partial")
    try:
        with connection(database) as source:
            copy_into(source, partial)
        with connection(partial) as copy:
            checked, kept = integrity(copy), revision(copy)
        if checked != "ok":
            raise CliError(t("backup_damaged", lang, path=database, result=checked))
        if kept is None:
            raise CliError(t("restore_not_tranque", lang, path=database, reason="alembic_version"))
        os.link(partial, target)  # never over a file that appeared meanwhile
    except sqlite3.Error as error:
        raise CliError(t("db_unreachable", lang, url=database, reason=error)) from None
    finally:
        partial.unlink(missing_ok=True)
    size = target.stat().st_size
    ctx.out.print(t("backup_done", lang, path=target, size=size, revision=kept), soft_wrap=True)
    return 0


def run_restore(args: argparse.Namespace, ctx: Context) -> int:
    lang = ctx.lang
    database = sqlite_database(args, ctx, restore=True)
    if database is None:
        return 2
    copy_file = Path(args.file)
    if not copy_file.is_file():
        raise CliError(t("backup_no_database", lang, path=copy_file))
    if database.exists() and database.resolve() == copy_file.resolve():
        raise CliError(t("backup_same_file", lang, path=database))
    if not database.parent.is_dir():
        raise CliError(t("bad_db_directory", lang, directory=database.parent))
    incoming = database.with_name(database.name + ".restoring")
    try:
        with connection(copy_file) as copy:
            try:
                checked, kept = integrity(copy), revision(copy)
            except sqlite3.DatabaseError as error:
                raise CliError(t("restore_not_tranque", lang, path=copy_file, reason=error)) from None
            if checked != "ok":
                raise CliError(t("restore_not_tranque", lang, path=copy_file, reason=checked))
            if kept is None:
                reason = "no alembic_version"
                raise CliError(t("restore_not_tranque", lang, path=copy_file, reason=reason))
            if database.exists():
                if not args.force:
                    raise CliError(t("restore_exists", lang, path=database))
                refuse_in_use(database, lang)
            copy_into(copy, incoming)
        # A -wal left beside the new file would be read as its own: none may stay.
        for suffix in ("-wal", "-shm", "-journal"):
            database.with_name(database.name + suffix).unlink(missing_ok=True)
        os.replace(incoming, database)
        os.chmod(database, OWNER_ONLY)
    except sqlite3.Error as error:
        raise CliError(t("db_unreachable", lang, url=database, reason=error)) from None
    finally:
        incoming.unlink(missing_ok=True)
    ctx.out.print(t("restore_done", lang, path=database, copy=copy_file, revision=kept), soft_wrap=True)
    return 0


def refuse_in_use(database: Path, lang: str) -> None:
    """Refuse a database another connection has open: leaving WAL for a rollback journal needs
    it alone, and a running server keeps its connections open."""
    with connection(database, busy_ms=0) as probe:
        try:
            probe.execute("PRAGMA journal_mode=DELETE").fetchall()
        except sqlite3.OperationalError:
            raise CliError(t("restore_in_use", lang, path=database)) from None


BACKUP = Command("help_backup", configure_backup, run_backup)
RESTORE = Command("help_restore", configure_restore, run_restore)
