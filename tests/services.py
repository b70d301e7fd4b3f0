"""The policy for tests that need PostgreSQL or Redis.

`postgres_url()` gives this test session its own fresh database (created on first use, dropped by
`drop_databases()` at the end); `redis_url()` a Redis database number. When a service is not
running the test is skipped with a message saying what to start, unless TRANQUE_REQUIRE_SERVICES=1,
which turns the skip into a failure (CI sets it, so a missing service can never pass silently).

Environment:
    TRANQUE_TEST_POSTGRES_URL  the server to create test databases on
                               (default postgresql://postgres@127.0.0.1:5432/postgres)
    TRANQUE_TEST_REDIS_URL     the Redis database for tests (default redis://127.0.0.1:6379/15).
                               Redis pub/sub channels ignore the database number: tests namespace
                               their keys and channels with `unique_name()`.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import os
import secrets
import socket
import urllib.parse
from collections.abc import Coroutine
from typing import Any, NoReturn, TypeVar

import pytest
import sqlalchemy as sa
from sqlalchemy.ext.asyncio import create_async_engine
from sqlalchemy.pool import NullPool

T = TypeVar("T")

DEFAULT_POSTGRES = "postgresql://postgres@127.0.0.1:5432/postgres"
DEFAULT_REDIS = "redis://127.0.0.1:6379/15"
CONNECT_TIMEOUT = 3.0

_created: list[str] = []  # admin URL + database name of what this session created
_database_url: str | None = None
_unavailable: dict[str, str] = {}


def unique_name(prefix: str = "tranque_test") -> str:
    """A name no other test session uses: for databases, Redis keys and channels."""
    return f"{prefix}_{os.getpid()}_{secrets.token_hex(4)}"


def unavailable(message: str) -> NoReturn:
    """Skip the test, or fail it when TRANQUE_REQUIRE_SERVICES=1."""
    if os.environ.get("TRANQUE_REQUIRE_SERVICES") == "1":
        pytest.fail(f"{message} (TRANQUE_REQUIRE_SERVICES=1 requires it)", pytrace=False)
    pytest.skip(message)


def _run(coroutine: Coroutine[Any, Any, T]) -> T:
    # In a thread of its own, so that it works from sync fixtures and from inside async tests.
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coroutine).result()


def _admin_url() -> sa.URL:
    return sa.make_url(os.environ.get("TRANQUE_TEST_POSTGRES_URL", DEFAULT_POSTGRES))


async def _execute_on_server(admin: sa.URL, statement: str) -> None:
    engine = create_async_engine(
        admin.set(drivername="postgresql+asyncpg"),
        isolation_level="AUTOCOMMIT",  # CREATE/DROP DATABASE cannot run inside a transaction
        poolclass=NullPool,
        connect_args={"timeout": CONNECT_TIMEOUT},
    )
    try:
        async with engine.connect() as connection:
            await connection.execute(sa.text(statement))
    finally:
        await engine.dispose()


def postgres_url() -> str:
    """`postgresql+asyncpg://` URL of this session's own empty database (skips when unreachable)."""
    global _database_url
    if _database_url is None:
        _database_url = fresh_postgres_url()
    return _database_url


def fresh_postgres_url() -> str:
    """A new, empty database of its own (dropped at the end of the session), e.g. for one server."""
    if "postgresql" in _unavailable:
        unavailable(_unavailable["postgresql"])
    admin = _admin_url()
    name = unique_name()
    try:
        _run(_execute_on_server(admin, f'CREATE DATABASE "{name}"'))
    except Exception as error:  # refused, timed out, bad credentials: all mean "not usable"
        where = f"{admin.host or '127.0.0.1'}:{admin.port or 5432}"
        _unavailable["postgresql"] = (
            f"PostgreSQL is not usable on {where} ({type(error).__name__}: {error}): start it "
            "(pg_ctlcluster 15 main start) or set TRANQUE_TEST_POSTGRES_URL to a server where "
            "this user may CREATE DATABASE"
        )
        unavailable(_unavailable["postgresql"])
    _created.append(name)
    return admin.set(drivername="postgresql+asyncpg", database=name).render_as_string(hide_password=False)


def drop_databases() -> None:
    """Drop every database this session created (tests/conftest.py calls this at the end)."""
    global _database_url
    admin = _admin_url()
    while _created:
        name = _created.pop()
        _run(_execute_on_server(admin, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
    _database_url = None


def redis_url() -> str:
    """The Redis URL for tests (skips when Redis does not answer PING)."""
    if "redis" in _unavailable:
        unavailable(_unavailable["redis"])
    url = os.environ.get("TRANQUE_TEST_REDIS_URL", DEFAULT_REDIS)
    parsed = urllib.parse.urlsplit(url)
    host, port = parsed.hostname or "127.0.0.1", parsed.port or 6379
    try:
        with socket.create_connection((host, port), timeout=CONNECT_TIMEOUT) as connection:
            connection.sendall(b"PING\r\n")
            reply = connection.recv(64)
        if not reply.startswith(b"+PONG"):
            raise ConnectionError(reply.decode(errors="replace").strip())
    except OSError as error:
        _unavailable["redis"] = (
            f"Redis is not usable on {host}:{port} ({type(error).__name__}: {error}): start it "
            "(service redis-server start, or redis-server --daemonize yes) or set TRANQUE_TEST_REDIS_URL"
        )
    if "redis" in _unavailable:
        unavailable(_unavailable["redis"])
    return url
