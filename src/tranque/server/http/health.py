"""The operator's probes: GET /healthz (the process answers), /readyz (it can serve), /metrics.

/healthz touches nothing but the process. /readyz checks, each time it is asked (nothing is
cached, so an outage shows at the next probe), that the database answers a `SELECT 1` within
`CHECK_SECONDS`, that Redis answers a PING (with several processes), that the database's schema
is at the code's Alembic head (a store in memory always is), and that the server is not
draining. Neither names a URL, a host or a password: a check's `detail` is "ok" or the kind of
error. Neither sets a cookie, and no per-address limit applies to them.

/metrics is Prometheus's text format (metrics.py); with `Settings.metrics_token` set it asks
for `Authorization: Bearer <token>` (docs/deploy.md «Watching it»).
"""

from __future__ import annotations

import asyncio
import hmac
from typing import Any

import sqlalchemy as sa
from fastapi import APIRouter, Request, Response
from fastapi.responses import JSONResponse

from tranque.server import metrics
from tranque.server.accounts.bot_tokens import bearer_token
from tranque.server.app_state import ServerState
from tranque.server.http.errors import ApiError, SpanishErrors

CHECK_SECONDS = 1.0  # a dead database or Redis makes the probe answer "not ready" this fast

router = APIRouter(include_in_schema=False, route_class=SpanishErrors)
_heads: dict[str, str | None] = {}  # the code's Alembic head, read once


def _state(request: Request) -> ServerState | None:
    state: ServerState | None = getattr(request.app.state, "tranque", None)
    return state


def _node(state: ServerState | None) -> str | None:
    return state.shared.node if state is not None and state.shared is not None else None


@router.get("/healthz")
async def healthz(request: Request) -> dict[str, Any]:
    """200 whenever the process answers; no database, no Redis."""
    return {"ok": True, "node": _node(_state(request))}


@router.get("/readyz")
async def readyz(request: Request) -> JSONResponse:
    """200 and {"ready": true, "checks": {…}} when this process can serve; 503 otherwise."""
    state = _state(request)
    checks: dict[str, dict[str, Any]] = {}
    if state is None:  # starting or stopped: no store to ask
        checks["database"] = {"ok": False, "detail": "starting"}
        checks["schema"] = {"ok": False, "revision": None, "head": code_head()}
        checks["draining"] = {"ok": True}
    else:
        database, schema = await _database(state)
        checks["database"] = database
        if state.settings.redis_url is not None:
            checks["redis"] = await _redis(state)
        checks["schema"] = schema
        checks["draining"] = {"ok": not getattr(state, "draining", False)}
    ready = all(check["ok"] for check in checks.values())
    return JSONResponse({"ready": ready, "checks": checks}, status_code=200 if ready else 503)


@router.get("/metrics")
async def metrics_page(request: Request) -> Response:
    state = _state(request)
    token = state.settings.metrics_token if state is not None else None
    if token is not None:
        given = bearer_token(request.headers)
        if given is None:
            raise ApiError(401, "metrics_token")
        if not hmac.compare_digest(given.encode(), token.encode()):
            raise ApiError(403, "metrics_token.wrong")
    return Response(metrics.exposition(), media_type=metrics.CONTENT_TYPE)


def code_head() -> str | None:
    """The newest Alembic revision the code has (read from the migrations once)."""
    if "head" not in _heads:
        from alembic.script import ScriptDirectory

        from tranque.server.store.sql import alembic_config

        _heads["head"] = ScriptDirectory.from_config(alembic_config()).get_current_head()
    return _heads["head"]


async def _database(state: ServerState) -> tuple[dict[str, Any], dict[str, Any]]:
    """The database's check (a `SELECT 1` round trip) and the schema's (its Alembic revision)."""
    head = await asyncio.to_thread(code_head) if "head" not in _heads else _heads["head"]
    engine = getattr(state.store, "engine", None)
    if engine is None:  # the store in memory: always there, always at head
        return {"ok": True, "detail": "memory"}, {"ok": True, "revision": head, "head": head}
    revision: str | None = None
    try:
        async with asyncio.timeout(CHECK_SECONDS), engine.connect() as connection:
            await connection.execute(sa.text("SELECT 1"))
            try:
                found = await connection.execute(sa.text("SELECT version_num FROM alembic_version"))
                revision = found.scalar()
            except sa.exc.DBAPIError:  # no such table: never migrated
                revision = None
    except TimeoutError:
        database = {"ok": False, "detail": "timeout"}
        schema: dict[str, Any] = {"ok": False, "revision": None, "head": head}
        return database, schema
    except Exception as error:  # refused, unknown host, bad password, …: only its kind is told
        return {"ok": False, "detail": error_kind(error)}, {"ok": False, "revision": None, "head": head}
    return {"ok": True, "detail": "ok"}, {"ok": revision == head, "revision": revision, "head": head}


def error_kind(error: BaseException) -> str:
    """The name of the driver's own error under SQLAlchemy's wrapping (no message: a message
    may name a host, a user or a database).

    >>> error_kind(ConnectionRefusedError())
    'ConnectionRefusedError'
    """
    inner: BaseException = error
    orig = getattr(error, "orig", None)
    if isinstance(orig, BaseException):
        inner = orig.__cause__ or orig
    return type(inner).__name__


async def _redis(state: ServerState) -> dict[str, Any]:
    client = state.limiter_redis
    if client is None:
        return {"ok": False, "detail": "closed"}
    try:
        async with asyncio.timeout(CHECK_SECONDS):
            await client.ping()
    except TimeoutError:
        return {"ok": False, "detail": "timeout"}
    except Exception as error:
        metrics.REDIS_ERRORS.inc()
        return {"ok": False, "detail": error_kind(error)}
    return {"ok": True, "detail": "ok"}
