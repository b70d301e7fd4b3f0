"""The ASGI app: `create_app(settings)` wires the store, the tables, the HTTP API and /ws."""

from __future__ import annotations

import contextlib
import logging
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request
from fastapi.responses import FileResponse, JSONResponse
from fastapi.staticfiles import StaticFiles
from fastapi_offline import FastAPIOffline

from tranque.server.body_limit import BodyLimit
from tranque.server.bot_runner import BotRunner
from tranque.server.clock import Clock, RealClock
from tranque.server.limits import Limits
from tranque.server.quickmatch import QuickMatch
from tranque.server.registry import Registry
from tranque.server.security import SecurityHeaders
from tranque.server.sessions import SessionSockets
from tranque.server.store import Store
from tranque.server.store.factory import make_store
from tranque.server.table import TableError
from tranque.server.throttle import LoginLimiter, SlidingWindow
from tranque.server.verifier import Verifier

log = logging.getLogger(__name__)

WEB_DIR = Path(__file__).resolve().parent.parent / "web"
DOCS_ASSETS = "/docs-assets"
DOCS_PAGES = ("/docs", "/docs/oauth2-redirect", "/redoc")


@dataclass
class Settings:
    database_url: str | None = "sqlite+aiosqlite:///./tranque.db"
    clock: Clock = field(default_factory=RealClock)
    bot_processes: int = 1
    between_rounds_seconds: float = 8.0
    auto_move_seconds: float = 1.0
    bot_min_seconds: float = 0.6
    deserted_game_seconds: float = 300.0  # a practice or quick game every human left ends then
    idle_waiting_seconds: float = 1800.0  # a table waiting for players that nobody follows
    quick_match_wait_seconds: float = 10.0
    lobby_update_seconds: float = 1.0  # a lobby follower gets at most one update this often
    default_bot_level: str = "heuristic"
    secure_cookies: bool = False  # also on by itself for a request that came over https
    login_failures_per_minute: int = 10  # from one address on one account's name
    login_failures_per_address_per_minute: int = 30  # from one address on any names
    registrations_per_address_per_hour: int = 5
    limits: Limits = field(default_factory=Limits)  # what one client may send and create
    verify_in_processes: bool = True  # records are checked in worker processes; False: in threads

    def table_defaults(self) -> dict[str, Any]:
        return {
            "between_rounds_seconds": self.between_rounds_seconds,
            "auto_move_seconds": self.auto_move_seconds,
            "bot_min_seconds": self.bot_min_seconds,
            "deserted_game_seconds": self.deserted_game_seconds,
            "idle_waiting_seconds": self.idle_waiting_seconds,
        }


@dataclass
class ServerState:
    settings: Settings
    store: Store
    registry: Registry
    quick: QuickMatch
    bots: BotRunner
    verifier: Verifier
    session_sockets: SessionSockets = field(default_factory=SessionSockets)
    login_limiter: LoginLimiter = field(init=False)
    registrations: SlidingWindow = field(init=False)

    def __post_init__(self) -> None:
        now = self.settings.clock.now
        self.login_limiter = LoginLimiter(
            self.settings.login_failures_per_minute, self.settings.login_failures_per_address_per_minute, now
        )
        self.registrations = SlidingWindow(self.settings.registrations_per_address_per_hour, 3600, now)


def create_app(settings: Settings | None = None) -> FastAPI:
    settings = settings or Settings()

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        store = make_store(settings.database_url)
        await store.start()
        bots = BotRunner(settings.bot_processes)
        registry = Registry(
            store, settings.clock, bots, settings.table_defaults(), settings.lobby_update_seconds
        )
        quick = QuickMatch(
            registry,
            settings.clock,
            settings.quick_match_wait_seconds,
            settings.default_bot_level,
            settings.limits,
        )
        verifier = Verifier(settings.limits, settings.verify_in_processes)
        app.state.tranque = ServerState(settings, store, registry, quick, bots, verifier)
        await registry.recover()
        try:
            yield
        finally:
            await registry.close()
            bots.close()
            await verifier.close()
            await store.close()

    # The docs' Swagger UI and ReDoc come from fastapi_offline's copies, served from this origin.
    app = FastAPIOffline(
        title="Tranque",
        summary="Dominó en línea como se juega en Colombia y el Caribe.",
        version="0.1.0",
        lifespan=lifespan,
        static_url=DOCS_ASSETS,
        favicon_url="/static/favicon.svg",
    )
    app.add_middleware(BodyLimit, limits=settings.limits)  # inside SecurityHeaders: its refusals get them
    app.add_middleware(SecurityHeaders, docs_paths=DOCS_PAGES)

    @app.exception_handler(TableError)
    async def table_error(request: Request, error: TableError) -> JSONResponse:
        status = 404 if error.code in ("no_such_table", "bad_invite") else 409
        return JSONResponse({"code": error.code, "message": error.message}, status_code=status)

    from tranque.server.http_api import router as api_router
    from tranque.server.ws import router as ws_router

    app.include_router(api_router)
    app.include_router(ws_router)
    from tranque.server import accounts, http_tables

    app.include_router(accounts.router)
    app.include_router(http_tables.router)

    app.mount("/static", StaticFiles(directory=WEB_DIR), name="static")

    @app.get("/", include_in_schema=False)
    @app.get("/mesa", include_in_schema=False)
    async def home() -> FileResponse:
        """The browser client; /mesa?invite=CODE is an invitation link."""
        return FileResponse(WEB_DIR / "index.html", headers={"Cache-Control": "no-cache"})

    return app


def server_state(request: Request) -> ServerState:
    state: ServerState = request.app.state.tranque
    return state
