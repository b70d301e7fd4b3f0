"""`tranque serve`: the site on http://127.0.0.1:8000 (uvicorn, SQLite by default).

The database is reached once before the site is announced, so a bad `--db` is one line and
exit code 2, not a traceback after "Tranque está en marcha".
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import re
import tempfile
from pathlib import Path
from typing import Any

from tranque.bots import bot_names
from tranque.terminal.catalogue import t
from tranque.terminal.command import CliError, Command, Context
from tranque.terminal.options import whole_number

DEFAULT_DATABASE = "sqlite+aiosqlite:///./tranque.db"
DATABASE_SECONDS = 10  # how long to wait for the database before giving up
MOST_WORKERS = 64
LOG_FORMATS = ("text", "json", "logfmt")  # logs.FORMATS, without importing the server for --help
METRICS_DIR = "PROMETHEUS_MULTIPROC_DIR"  # where worker processes keep their metrics (metrics.py)


def configure(parser: argparse.ArgumentParser, lang: str) -> None:
    parser.add_argument("--host", default="127.0.0.1", help=t("opt_host", lang))
    parser.add_argument(
        "--port", type=whole_number(lang), default=8000, metavar="P", help=t("opt_port", lang)
    )
    parser.add_argument("--db", metavar="URL", help=t("opt_db", lang, default=DEFAULT_DATABASE))
    parser.add_argument("--redis", metavar="URL", help=t("opt_redis", lang))
    parser.add_argument(
        "--workers", type=whole_number(lang), default=1, metavar="N", help=t("opt_workers", lang)
    )
    parser.add_argument(
        "--analysis-workers", type=whole_number(lang), metavar="N", help=t("opt_analysis_workers", lang)
    )
    parser.add_argument("--secure-cookies", action="store_true", help=t("opt_secure_cookies", lang))
    parser.add_argument("--forwarded-allow-ips", metavar="IPS", help=t("opt_forwarded_allow_ips", lang))
    parser.add_argument("--log-format", choices=LOG_FORMATS, help=t("opt_log_format", lang))
    parser.add_argument("--access-log", action="store_true", help=t("opt_access_log", lang))
    parser.add_argument(
        "--bot-level",
        default="heuristic",
        metavar="BOT",
        help=t("opt_bot", lang, bots=", ".join(bot_names())),
    )


def secure_cookies(args: argparse.Namespace) -> bool:
    """--secure-cookies, or $TRANQUE_SECURE_COOKIES=1."""
    return bool(args.secure_cookies) or os.environ.get("TRANQUE_SECURE_COOKIES") == "1"


def proxy_options(args: argparse.Namespace) -> dict[str, Any]:
    """uvicorn's proxy headers: the address and scheme of a trusted proxy's client (for the
    login limit, every per-address quota and `Secure` cookies); None: $FORWARDED_ALLOW_IPS, or
    uvicorn's own default, 127.0.0.1. No `server` header naming the software."""
    return {"proxy_headers": True, "forwarded_allow_ips": args.forwarded_allow_ips, "server_header": False}


def analysis_workers(args: argparse.Namespace) -> int:
    """--analysis-workers, else $TRANQUE_ANALYSIS_WORKERS, else 1."""
    if args.analysis_workers is not None:
        return int(args.analysis_workers)
    return int(os.environ.get("TRANQUE_ANALYSIS_WORKERS") or 1)


def log_format(args: argparse.Namespace) -> str:
    """--log-format, else $TRANQUE_LOG_FORMAT, else text."""
    chosen: str = args.log_format or os.environ.get("TRANQUE_LOG_FORMAT") or "text"
    return chosen


def access_log(args: argparse.Namespace) -> bool:
    """--access-log, or $TRANQUE_ACCESS_LOG=1."""
    return bool(args.access_log) or os.environ.get("TRANQUE_ACCESS_LOG") == "1"


def shown_url(url: str) -> str:
    """`url` as printed: its password masked (a database's or Redis's).

    >>> shown_url("postgresql://tranque:s3cret@db:5432/tranque")
    'postgresql://tranque:***@db:5432/tranque'
    >>> shown_url("redis://:s3cret@127.0.0.1:6379/0"), shown_url("sqlite+aiosqlite:///./tranque.db")
    ('redis://:***@127.0.0.1:6379/0', 'sqlite+aiosqlite:///./tranque.db')
    """
    import sqlalchemy as sa

    try:
        return sa.make_url(url).render_as_string(hide_password=True)
    except sa.exc.ArgumentError:  # not a URL SQLAlchemy reads: mask what looks like a password
        return re.sub(r"//([^:@/]*):[^@/]*@", r"//\1:***@", url)


def database_url(args: argparse.Namespace) -> str:
    """--db, else $TRANQUE_DATABASE_URL, else a SQLite file in the current directory."""
    url: str = args.db or os.environ.get("TRANQUE_DATABASE_URL") or DEFAULT_DATABASE
    return url


def redis_url(args: argparse.Namespace) -> str | None:
    """--redis, else $TRANQUE_REDIS_URL, else None (one process, no Redis)."""
    url: str | None = args.redis or os.environ.get("TRANQUE_REDIS_URL") or None
    return url


def check_cluster(database: str, redis: str | None, workers: int, lang: str) -> None:
    """Several processes need Redis to coordinate and PostgreSQL to share (docs/deploy.md)."""
    if not 1 <= workers <= MOST_WORKERS:
        raise CliError(t("bad_workers", lang, workers=workers, most=MOST_WORKERS))
    if workers > 1 and redis is None:
        raise CliError(t("workers_need_redis", lang, workers=workers))
    if redis is not None and not database.startswith(("postgresql", "postgres")):
        raise CliError(t("cluster_needs_postgres", lang))


def check_database(url: str, lang: str) -> None:
    """Refuse a database URL the site could not open: an unknown scheme, a SQLite file in a
    directory that does not exist, a server that does not answer."""
    import sqlalchemy as sa

    from tranque.server.store.factory import MEMORY_URL
    from tranque.server.store.sql import create_engine

    if url == MEMORY_URL:
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


def site_url(host: str, port: int) -> str:
    shown = "127.0.0.1" if host in ("0.0.0.0", "") else host  # listening everywhere: show loopback
    if ":" in shown:  # an IPv6 address
        shown = f"[{shown}]" if shown != "::" else "[::1]"
    return f"http://{shown}:{port}"


def run(args: argparse.Namespace, ctx: Context) -> int:
    lang = ctx.lang
    if args.bot_level not in bot_names():
        raise CliError(t("bad_bot_level", lang, bot=args.bot_level, bots=", ".join(bot_names())))
    if not 0 < args.port < 65536:
        raise CliError(t("bad_port", lang, port=args.port))
    import uvicorn

    from tranque.server import logs, runtime
    from tranque.server.app import create_app, environment_of
    from tranque.server.settings import Settings

    url = database_url(args)
    redis = redis_url(args)
    check_cluster(url, redis, args.workers, lang)
    if log_format(args) not in LOG_FORMATS:
        raise CliError(t("bad_log_format", lang, chosen=log_format(args), formats=", ".join(LOG_FORMATS)))
    check_database(url, lang)
    settings = Settings(
        database_url=url,
        default_bot_level=args.bot_level,
        secure_cookies=secure_cookies(args),
        redis_url=redis,
        analysis_workers=analysis_workers(args),
        metrics_token=os.environ.get("TRANQUE_METRICS_TOKEN") or None,
        log_format=log_format(args),
        access_log=access_log(args),
    )
    ctx.out.print(t("serve_open", lang, url=site_url(args.host, args.port)), soft_wrap=True)
    ctx.out.print(t("serve_database", lang, url=shown_url(url)), soft_wrap=True)  # never a password
    if redis is not None:
        ctx.out.print(t("serve_cluster", lang, workers=args.workers, url=shown_url(redis)), soft_wrap=True)
    options: dict[str, Any] = {
        "host": args.host,
        "port": args.port,
        # headers, bodies, frames: docs/protocol.md
        **runtime.uvicorn_options(settings.limits, by_name=args.workers > 1),
        "ws_ping_interval": settings.socket_limits.ping_seconds,  # a dead link is dropped (docs/protocol.md)
        "ws_ping_timeout": settings.socket_limits.pong_seconds,
        **proxy_options(args),
        # Tranque's and uvicorn's lines in one format, secrets masked, floods folded (logs.py)
        "log_config": logs.log_config(settings.log_format, settings.access_log),
        "access_log": settings.access_log,
    }
    # uvicorn shuts down gracefully on Ctrl+C, then re-raises SIGINT; whether that reaches us
    # as KeyboardInterrupt depends on timing inside asyncio.run. Either way it has stopped.
    with contextlib.suppress(KeyboardInterrupt):
        if args.workers > 1:
            # Each worker process builds its own app from the same settings, passed on in the
            # environment (app.app_from_environment); they share the one listening socket.
            os.environ.update(environment_of(settings))
            # Each process writes its metrics to files in a private directory; a scrape of
            # any of them adds them all up (metrics.py). A new one each run: none left over.
            with tempfile.TemporaryDirectory(prefix="tranque-metrics-") as metrics_dir:
                os.environ[METRICS_DIR] = metrics_dir
                uvicorn.run(
                    "tranque.server.app:app_from_environment", factory=True, workers=args.workers, **options
                )
        else:
            app = create_app(settings)
            runtime.tune_garbage_collector()
            uvicorn.run(app, **options)
    ctx.out.print(t("serve_stopped", lang))
    return 0


COMMAND = Command("help_serve", configure, run)
