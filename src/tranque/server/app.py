"""The ASGI app: `create_app(settings)` wires the store, the tables, the HTTP API and /ws.

The configuration is settings.py's, the running server's state state.py's, and the HTTP
refusals http_errors.py's; this module only builds the app: its lifespan, middleware, routes.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from pathlib import Path

from fastapi import FastAPI
from fastapi.responses import FileResponse
from fastapi.staticfiles import StaticFiles
from fastapi_offline import FastAPIOffline

from tranque.server import accounts, http_api, http_friends, http_players, http_replay, http_tables, ws
from tranque.server.body_limit import BodyLimit
from tranque.server.bot_runner import BotRunner
from tranque.server.collector import Collector, managed
from tranque.server.http_errors import table_error
from tranque.server.quickmatch import QuickMatch
from tranque.server.registry import Registry
from tranque.server.security import SecurityHeaders
from tranque.server.settings import Settings
from tranque.server.state import ServerState
from tranque.server.store.factory import make_store
from tranque.server.table import TableError
from tranque.server.verifier import Verifier

WEB_DIR = Path(__file__).resolve().parent.parent / "web"
DOCS_ASSETS = "/docs-assets"
DOCS_PAGES = ("/docs", "/docs/oauth2-redirect", "/redoc")


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
        collector = Collector() if managed() else None
        app.state.tranque = ServerState(settings, store, registry, quick, bots, verifier, collector)
        await registry.recover()
        if collector is not None:
            collector.start()
        try:
            yield
        finally:
            if collector is not None:
                collector.close()
            app.state.tranque.presence.close()
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

    app.exception_handler(TableError)(table_error)
    app.include_router(http_api.router)
    app.include_router(ws.router)
    app.include_router(accounts.router)
    app.include_router(http_tables.router)
    app.include_router(http_players.router)
    app.include_router(http_replay.router)
    app.include_router(http_friends.router)

    app.mount("/static", StaticFiles(directory=WEB_DIR), name="static")
    # The players' drawings (web/avatars/<id>.svg, one per id of server/avatars.py).
    app.mount("/avatars", StaticFiles(directory=WEB_DIR / "avatars"), name="avatars")

    @app.get("/", include_in_schema=False)
    @app.get("/mesa", include_in_schema=False)
    @app.get("/mesa/{anything:path}", include_in_schema=False)
    async def home() -> FileResponse:
        """The browser client; /mesa?invite=CODE is an invitation link, and /mesa/<id> a
        table's own link: always the page (which says when a table does not exist), never
        a JSON refusal."""
        return FileResponse(WEB_DIR / "index.html", headers={"Cache-Control": "no-cache"})

    return app
