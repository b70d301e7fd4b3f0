"""Whether a store's failure is the database being out of reach, which passes, rather than a
refusal or a bug, which does not.

An outage (PostgreSQL restarting or failing over, the network between, a SQLite file that
cannot be written for a while) makes the site wait and try again: a table's commands are
refused with `unavailable` while its actor retries (table/actor.py), an HTTP request is
answered 503 (http/errors.py), and readiness says so. Anything else is not retried.
"""

from __future__ import annotations

import logging

import sqlalchemy as sa

try:  # PostgreSQL's driver: refusals while the server starts, stops or drops a connection
    from asyncpg import exceptions as _asyncpg

    _DRIVER_OUTAGES: tuple[type[BaseException], ...] = (
        _asyncpg.PostgresConnectionError,
        _asyncpg.CannotConnectNowError,
        _asyncpg.AdminShutdownError,
        _asyncpg.CrashShutdownError,
        _asyncpg.InterfaceError,
    )
except ImportError:  # pragma: no cover - asyncpg is a dependency
    _DRIVER_OUTAGES = ()


class StoreUnavailable(Exception):
    """The store cannot be reached now (raised by stores that know it: tests' twins)."""


# OSError covers a refused or reset connection and a full disk; TimeoutError a server that
# does not answer; SQLAlchemy's OperationalError what SQLite says of a locked or unwritable
# file and what a driver says of a lost connection; its TimeoutError a pool with no
# connection to give.
_OUTAGES: tuple[type[BaseException], ...] = (
    StoreUnavailable,
    OSError,
    TimeoutError,
    sa.exc.OperationalError,
    sa.exc.InterfaceError,
    sa.exc.TimeoutError,
    *_DRIVER_OUTAGES,
)


def is_outage(error: BaseException) -> bool:
    """Whether `error` (or what caused it) says the database is out of reach.

    >>> is_outage(ConnectionRefusedError(111, "Connect call failed"))
    True
    >>> is_outage(ValueError("a bug"))
    False
    """
    seen: set[int] = set()
    current: BaseException | None = error
    while current is not None and id(current) not in seen:
        seen.add(id(current))
        if isinstance(current, _OUTAGES):
            return True
        if isinstance(current, sa.exc.DBAPIError) and current.connection_invalidated:
            return True
        original = getattr(current, "orig", None)
        current = original if isinstance(original, BaseException) else current.__cause__
    return False


def log_failure(logger: logging.Logger, error: BaseException, message: str, *args: object) -> None:
    """Log a background job's failure: one warning line for an outage (it says what is out of
    reach, and passes), the whole traceback for anything else (a bug to read)."""
    if is_outage(error):
        first = str(error).strip().splitlines()
        logger.warning(
            message + " (the database is out of reach: %s)",
            *args,
            first[0] if first else type(error).__name__,
        )
    else:
        logger.error(message, *args, exc_info=error)
