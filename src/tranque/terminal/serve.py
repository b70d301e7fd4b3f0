"""`tranque serve`: the site on http://127.0.0.1:8000 (uvicorn, SQLite by default).

The database is reached once before the site is announced, so a bad `--db` is one line and
exit code 2, not a traceback after "Tranque está en marcha".
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from tranque.bots import bot_names
from tranque.terminal.catalogue import t
from tranque.terminal.command import CliError, Command, Context
from tranque.terminal.options import whole_number

if TYPE_CHECKING:
    from tranque.server.config import Problem
    from tranque.server.settings import Settings

DEFAULT_DATABASE = "sqlite+aiosqlite:///./tranque.db"
DATABASE_SECONDS = 10  # how long to wait for the database before giving up
MOST_WORKERS = 64
LOG_FORMATS = ("text", "json", "logfmt")  # logs.FORMATS, without importing the server for --help
METRICS_DIR = "PROMETHEUS_MULTIPROC_DIR"  # where worker processes keep their metrics (metrics.py)


def configure(parser: argparse.ArgumentParser, lang: str) -> None:
    parser.add_argument("--host", help=t("opt_host", lang))
    parser.add_argument("--port", type=whole_number(lang), metavar="P", help=t("opt_port", lang))
    parser.add_argument("--db", metavar="URL", help=t("opt_db", lang, default=DEFAULT_DATABASE))
    parser.add_argument("--redis", metavar="URL", help=t("opt_redis", lang))
    parser.add_argument("--workers", type=whole_number(lang), metavar="N", help=t("opt_workers", lang))
    parser.add_argument(
        "--analysis-workers", type=whole_number(lang), metavar="N", help=t("opt_analysis_workers", lang)
    )
    parser.add_argument("--secure-cookies", action="store_true", help=t("opt_secure_cookies", lang))
    parser.add_argument("--no-migrate", action="store_true", help=t("opt_no_migrate", lang))
    parser.add_argument("--forwarded-allow-ips", metavar="IPS", help=t("opt_forwarded_allow_ips", lang))
    parser.add_argument("--log-format", choices=LOG_FORMATS, help=t("opt_log_format", lang))
    parser.add_argument("--access-log", action="store_true", help=t("opt_access_log", lang))
    parser.add_argument(
        "--bot-level",
        metavar="BOT",
        help=t("opt_serve_bot_level", lang, bots=", ".join(bot_names())),
    )
    parser.add_argument("--config", metavar="FILE", type=Path, help=t("opt_config", lang))
    parser.add_argument("--print-config", action="store_true", help=t("opt_print_config", lang))


# The options that are settings too: option -> (its attribute, the TOML key, the key's value
# for the option's; a flag that turns a key off maps True to False). docs/configuration.md.
OPTION_KEYS: dict[str, tuple[str, str, Callable[[Any], Any]]] = {
    "--db": ("db", "database_url", str),
    "--redis": ("redis", "redis_url", str),
    "--analysis-workers": ("analysis_workers", "analysis_workers", int),
    "--bot-level": ("bot_level", "default_bot_level", str),
    "--secure-cookies": ("secure_cookies", "secure_cookies", bool),
    "--host": ("host", "host", str),
    "--port": ("port", "port", int),
    "--workers": ("workers", "workers", int),
    "--forwarded-allow-ips": ("forwarded_allow_ips", "forwarded_allow_ips", str),
    "--no-migrate": ("no_migrate", "migrate_at_start", lambda given: not given),
    "--log-format": ("log_format", "log_format", str),
    "--access-log": ("access_log", "access_log", bool),
}


def option_values(args: argparse.Namespace) -> dict[str, tuple[str, Any]]:
    """The settings given as options (an option not given, None or a flag left off, is absent:
    the file's or the environment's value stands), by TOML key."""
    found = {}
    for option, (attribute, key, value_of) in OPTION_KEYS.items():
        value = getattr(args, attribute, None)
        if value is not None and value is not False:
            found[key] = (option, value_of(value))
    return found


def problem_line(problem: Problem, lang: str) -> str:
    values = dict(problem.values)
    if "expected" in values:
        values["expected"] = t(values["expected"], lang)
    return t(problem.code, lang, where=problem.where, **values)


def settings_of(args: argparse.Namespace, lang: str) -> Settings:
    """Defaults < the file (--config, else $TRANQUE_CONFIG) < the environment < the options;
    every bad key one line, exit code 2, before anything starts."""
    return resolved(args.config, option_values(args), lang)


def resolved(file: Path | None, options: dict[str, tuple[str, Any]], lang: str) -> Settings:
    from tranque.server.config import ConfigError, resolve

    try:
        return resolve(file, os.environ, options)
    except ConfigError as error:
        raise CliError("\n".join(problem_line(problem, lang) for problem in error.problems)) from None


def proxy_options(args: argparse.Namespace | Settings) -> dict[str, Any]:
    """uvicorn's proxy headers: the address and scheme of a trusted proxy's client (for the
    login limit, every per-address quota and `Secure` cookies); None: $FORWARDED_ALLOW_IPS, or
    uvicorn's own default, 127.0.0.1. No `server` header naming the software."""
    return {"proxy_headers": True, "forwarded_allow_ips": args.forwarded_allow_ips, "server_header": False}


def database_url(args: argparse.Namespace, lang: str = "es") -> str:
    """The database `tranque serve` would use (for `tranque admin`): --db, else the settings'
    (the file of $TRANQUE_CONFIG, $TRANQUE_DATABASE_URL), else SQLite in this directory."""
    options = {"database_url": ("--db", args.db)} if args.db else {}
    from tranque.server.store.factory import MEMORY_URL

    return resolved(getattr(args, "config", None), options, lang).database_url or MEMORY_URL


def check_schema(url: str, lang: str) -> None:
    """With migrating at start off, refuse a database behind this version's schema (one line
    that names `tranque migrate`); a database ahead of it is used as it is (docs/deploy.md)."""
    from tranque.server.store.factory import MEMORY_URL
    from tranque.server.store.sql.revisions import database_schema_state

    if url == MEMORY_URL:
        return
    state = asyncio.run(database_schema_state(url))
    if state.status in ("behind", "empty"):
        current = ", ".join(state.current) or "-"
        raise CliError(
            t("serve_schema_behind", lang, current=current, head=state.head, pending=", ".join(state.pending))
        )


def shown_url(url: str) -> str:
    """`url` as printed: its password masked (a database's or Redis's).

    >>> shown_url("postgresql://tranque:s3cret@db:5432/tranque")
    'postgresql://tranque:***@db:5432/tranque'
    >>> shown_url("redis://:s3cret@127.0.0.1:6379/0"), shown_url("sqlite+aiosqlite:///./tranque.db")
    ('redis://:***@127.0.0.1:6379/0', 'sqlite+aiosqlite:///./tranque.db')
    """
    import sqlalchemy as sa

    from tranque.server.config import URL_PASSWORD

    try:
        return sa.make_url(url).render_as_string(hide_password=True)
    except sa.exc.ArgumentError:  # not a URL SQLAlchemy reads: mask what looks like a password
        return URL_PASSWORD.sub(r"\1:***@", url)


def check_cluster(database: str | None, redis: str | None, workers: int, lang: str) -> None:
    """Several processes need Redis to coordinate and PostgreSQL to share (docs/deploy.md)."""
    if not 1 <= workers <= MOST_WORKERS:
        raise CliError(t("bad_workers", lang, workers=workers, most=MOST_WORKERS))
    if workers > 1 and redis is None:
        raise CliError(t("workers_need_redis", lang, workers=workers))
    if redis is not None and not (database or "").startswith(("postgresql", "postgres")):
        raise CliError(t("cluster_needs_postgres", lang))


def check_database(url: str | None, lang: str) -> None:
    """Refuse a database URL the site could not open: an unknown scheme, a SQLite file in a
    directory that does not exist, a server that does not answer."""
    import sqlalchemy as sa

    from tranque.server.store.factory import MEMORY_URL
    from tranque.server.store.sql import create_engine

    if url is None or url == MEMORY_URL:
        return
    try:
        parsed = sa.make_url(url)
    except sa.exc.ArgumentError:
        raise CliError(t("bad_db_url", lang, url=url)) from None
    backend = parsed.get_backend_name()
    if backend not in ("sqlite", "postgresql", "postgres"):
        raise CliError(t("bad_db_scheme", lang, scheme=parsed.drivername))
    database = parsed.database or ""
    is_file = backend == "sqlite" and database not in ("", ":memory:") and not database.startswith("file:")
    if is_file and not Path(database).parent.is_dir():
        raise CliError(t("bad_db_directory", lang, directory=Path(database).parent))

    async def connect() -> None:
        engine = create_engine(url)
        try:
            async with asyncio.timeout(DATABASE_SECONDS), engine.connect():
                pass
        finally:
            await engine.dispose()

    shown = shown_url(url)
    try:
        asyncio.run(connect())
    except TimeoutError:
        raise CliError(t("db_timeout", lang, url=shown, seconds=DATABASE_SECONDS)) from None
    except Exception as error:  # the driver's own errors: refused, unknown host, bad password…
        cause = error.orig if isinstance(error, sa.exc.DBAPIError) and error.orig else error
        lines = str(cause).strip().splitlines()
        reason = lines[0] if lines else type(cause).__name__
        raise CliError(t("db_unreachable", lang, url=shown, reason=reason)) from None


def check_redis(url: str | None, lang: str) -> None:
    """Refuse a Redis the processes could not use (refused, a wrong password, no answer) in
    one line, before the site starts: once started, a process waits for Redis to come back."""
    if url is None:
        return
    import redis.asyncio
    import redis.exceptions

    async def ping() -> None:
        client = redis.asyncio.Redis.from_url(url, socket_connect_timeout=DATABASE_SECONDS)
        try:
            async with asyncio.timeout(DATABASE_SECONDS):
                await client.ping()
        finally:
            await client.aclose()

    try:
        asyncio.run(ping())
    except TimeoutError:
        raise CliError(t("redis_timeout", lang, url=shown_url(url), seconds=DATABASE_SECONDS)) from None
    except (redis.exceptions.RedisError, OSError, ValueError) as error:
        lines = str(error).strip().splitlines()
        reason = lines[0] if lines else type(error).__name__
        raise CliError(t("redis_unreachable", lang, url=shown_url(url), reason=reason)) from None


def site_url(host: str, port: int) -> str:
    shown = "127.0.0.1" if host in ("0.0.0.0", "") else host  # listening everywhere: show loopback
    if ":" in shown:  # an IPv6 address
        shown = f"[{shown}]" if shown != "::" else "[::1]"
    return f"http://{shown}:{port}"


def run(args: argparse.Namespace, ctx: Context) -> int:
    lang = ctx.lang
    if args.bot_level is not None and args.bot_level not in bot_names():
        raise CliError(t("bad_bot_level", lang, bot=args.bot_level, bots=", ".join(bot_names())))
    if args.port is not None and not 0 < args.port < 65536:
        raise CliError(t("bad_port", lang, port=args.port))
    if args.workers is not None and not 1 <= args.workers <= MOST_WORKERS:
        raise CliError(t("bad_workers", lang, workers=args.workers, most=MOST_WORKERS))
    import uvicorn

    from tranque.server import logs, runtime
    from tranque.server.app import create_app, environment_of
    from tranque.server.config import to_toml
    from tranque.server.store.factory import MEMORY_URL

    settings = settings_of(args, lang)
    if args.print_config:
        ctx.out.print(to_toml(settings), end="", soft_wrap=True)
        return 0
    url, redis = settings.database_url, settings.redis_url
    host, port, workers = settings.host, settings.port, settings.workers
    check_cluster(url, redis, workers, lang)
    check_database(url, lang)
    check_redis(redis, lang)
    if not settings.migrate_at_start:
        check_schema(url or MEMORY_URL, lang)
    ctx.out.print(t("serve_open", lang, url=site_url(host, port)), soft_wrap=True)
    ctx.out.print(t("serve_database", lang, url=shown_url(url or MEMORY_URL)), soft_wrap=True)
    if redis is not None:
        shown = shown_url(redis)  # never its password
        ctx.out.print(t("serve_cluster", lang, workers=workers, url=shown), soft_wrap=True)
    options: dict[str, Any] = {
        "host": host,
        "port": port,
        # headers, bodies, frames: docs/protocol.md
        **runtime.uvicorn_options(settings.limits, by_name=workers > 1),
        "ws_ping_interval": settings.socket_limits.ping_seconds,  # a dead link is dropped (docs/protocol.md)
        "ws_ping_timeout": settings.socket_limits.pong_seconds,
        **proxy_options(settings),
        # Tranque's and uvicorn's lines in one format, secrets masked, floods folded (logs.py)
        "log_config": logs.log_config(settings.log_format, settings.access_log),
        "access_log": settings.access_log,
    }
    # uvicorn shuts down gracefully on Ctrl+C, then re-raises SIGINT; whether that reaches us
    # as KeyboardInterrupt depends on timing inside asyncio.run. Either way it has stopped.
    with contextlib.suppress(KeyboardInterrupt):
        if workers > 1:
            # Each worker process builds its own app from the same settings, passed on in the
            # environment (app.app_from_environment); they share the one listening socket.
            os.environ.update(environment_of(settings))
            # Each process writes its metrics to files in a private directory; a scrape of
            # any of them adds them all up (metrics.py). A new one each run: none left over.
            with tempfile.TemporaryDirectory(prefix="tranque-metrics-") as metrics_dir:
                os.environ[METRICS_DIR] = metrics_dir
                uvicorn.run(
                    "tranque.server.app:app_from_environment", factory=True, workers=workers, **options
                )
        else:
            app = create_app(settings)
            runtime.tune_garbage_collector()
            uvicorn.run(app, **options)
    ctx.out.print(t("serve_stopped", lang))
    return 0


COMMAND = Command("help_serve", configure, run)
