"""The ASGI app: `create_app(settings)` wires the store, the tables, the HTTP API and /ws.

The configuration is settings.py's, the running server's state state.py's, and the HTTP
refusals http/errors.py's; this module only builds the app: its lifespan, middleware, routes.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import AsyncIterator
from pathlib import Path

from fastapi import FastAPI, Request, Response
from fastapi_offline import FastAPIOffline

from tranque.server import config, logs, runtime
from tranque.server.analysis.queue import AnalysisQueue
from tranque.server.analysis.verify_pool import Verifier
from tranque.server.app_state import ServerState, Shared
from tranque.server.cluster.leases import RedisLeases
from tranque.server.cluster.node import Cluster
from tranque.server.cluster.redis_bus import RedisBus
from tranque.server.collector import Collector, managed
from tranque.server.http import accounts, bot_accounts
from tranque.server.http import admin as http_admin
from tranque.server.http import admin_processes as http_admin_processes
from tranque.server.http import analysis as http_analysis
from tranque.server.http import api as http_api
from tranque.server.http import fichas as http_fichas
from tranque.server.http import friends as http_friends
from tranque.server.http import head_to_head as http_head_to_head
from tranque.server.http import health as http_health
from tranque.server.http import home as http_home
from tranque.server.http import learn as http_learn
from tranque.server.http import luck as http_luck
from tranque.server.http import moderation as http_moderation
from tranque.server.http import penas as http_penas
from tranque.server.http import players as http_players
from tranque.server.http import replay as http_replay
from tranque.server.http import reports as http_reports
from tranque.server.http import seasons as http_seasons
from tranque.server.http import share as http_share
from tranque.server.http import tables as http_tables
from tranque.server.http import talk as http_talk
from tranque.server.http import tournaments as http_tournaments
from tranque.server.http.body_limit import BodyLimit
from tranque.server.http.errors import table_error
from tranque.server.http.security_headers import SecurityHeaders
from tranque.server.http.static_files import page as client_page
from tranque.server.http.static_files import router as static_router
from tranque.server.http.web_page import load_site
from tranque.server.lobby.quickmatch import QuickMatch
from tranque.server.lobby.registry import Registry
from tranque.server.logs import RequestIds
from tranque.server.moderation.review_queue import queue_signals
from tranque.server.moderation.sampler import FairPlaySampler
from tranque.server.players.recorder import Recorder
from tranque.server.puzzles import routes as puzzle_routes
from tranque.server.reparto import routes as reparto_routes
from tranque.server.reparto import service as reparto_service
from tranque.server.settings import Settings
from tranque.server.store import Store
from tranque.server.store.factory import make_store
from tranque.server.table.actor import TableError
from tranque.server.table.bots import BotRunner
from tranque.server.tournaments import deals as tournament_deals
from tranque.server.tournaments.director import Director
from tranque.server.ws import endpoint as ws

WEB_DIR = Path(__file__).resolve().parent.parent / "web"
DOCS_ASSETS = "/docs-assets"
DOCS_PAGES = ("/docs", "/docs/oauth2-redirect", "/redoc")


def environment_of(settings: Settings) -> dict[str, str]:
    """The environment from which `app_from_environment` makes `settings` again: every key of
    the resolved configuration, in one variable (config.py)."""
    return config.environment_of(settings)


def app_from_environment() -> FastAPI:
    """The app of one of `tranque serve --workers N`'s processes (uvicorn's factory)."""
    settings = config.from_environment(os.environ)
    runtime.tune_garbage_collector()
    return create_app(settings)


def make_cluster(settings: Settings, store: Store) -> Cluster | None:
    """This process's part in a cluster, when it has others (`redis_url`, or a test's links)."""
    if settings.cluster_links is not None:
        bus, leases = settings.cluster_links()
    elif settings.redis_url is not None:
        bus, leases = RedisBus(settings.redis_url), RedisLeases(settings.redis_url, prefix="")
    else:
        return None
    return Cluster(store, bus, leases, settings.cluster)


def create_app(settings: Settings | None = None) -> FastAPI:
    settings = settings or Settings()

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        store = make_store(settings.database_url, migrate=settings.migrate_at_start)
        await store.start()
        bots = BotRunner(settings.bot_processes)
        cluster = make_cluster(settings, store)
        registry = Registry(
            store,
            settings.clock,
            bots,
            settings.table_defaults(),
            settings.lobby_update_seconds,
            cluster=cluster,
        )
        registry.bank_cut = settings.fichas_bank_cut  # before any table is made or restored
        deal_hooks = tournament_deals.install(registry, store)  # duplicado's deals, before any restore
        reparto = reparto_service.Reparto(
            store,
            settings.reparto_clock or settings.clock,
            hands=settings.reparto_hands,
            bot_level=settings.reparto_bot_level,
            in_processes=settings.reparto_in_processes,
        )
        reparto_service.install(registry, reparto)  # the reparto del día's deals, in front of those
        app.state.reparto = reparto
        quick = QuickMatch(
            registry,
            settings.clock,
            settings.quick_match_wait_seconds,
            settings.default_bot_level,
            settings.limits,
        )
        verifier = Verifier(settings.limits, settings.verify_in_processes)
        analyses = AnalysisQueue(
            store,
            settings.clock,
            workers=settings.analysis_workers,
            size=settings.analysis_queue_size,
            deals=settings.analysis_deals,
            in_processes=settings.analysis_in_processes,
            poll=settings.analysis_poll_seconds,
            stale_after=settings.analysis_stale_seconds,
        )
        fairplay = FairPlaySampler(
            store,
            settings.clock,
            rate=settings.fairplay_sample_rate,
            deals=settings.fairplay_deals,
            window=settings.fairplay_window_days * 86400.0,
            thresholds=settings.fairplay_thresholds,
            on_signal=settings.fairplay_on_signal or queue_signals(store),
            poll=settings.fairplay_poll_seconds,
            check_every=settings.fairplay_check_seconds,
            in_processes=settings.fairplay_in_processes,
        )
        collector = Collector() if managed() else None
        shared = (
            Shared(cluster.bus, cluster.leases, cluster.node, settings.cluster, settings.redis_url)
            if cluster is not None
            else None
        )
        state = ServerState(
            settings,
            store,
            registry,
            quick,
            bots,
            verifier,
            analyses,
            collector,
            shared=shared,
            fairplay=fairplay,
        )
        director = Director(
            store,
            registry,
            state.presence,
            settings.clock,
            tick_seconds=settings.tournament_tick_seconds,
            absent_grace_seconds=settings.tournament_absent_grace_seconds,
            bar_days=settings.tournament_bar_days,
            schedule=settings.tournament_schedule,
            hooks=deal_hooks,
            scan_seconds=settings.tournament_scan_seconds,
            in_processes=settings.tournament_in_processes,
        )
        if shared is not None:  # one director for the site: the holder of `<prefix>:tournaments`
            director.share(shared.leases, shared.node, shared.settings)
        director.fichas = state.fichas  # a tournament's entries and prizes in fichas
        state.director = director
        state.tournaments.changed = director.changed  # a registration, a creation: a pass now
        app.state.tranque = state
        if cluster is not None:
            logs.set_node(cluster.node)
            cluster.watched = state.nodes  # presence's and quick match's processes, watched too
            cluster.on_node_gone = state.node_gone
            cluster.on_lease_taken_again = state.lease_taken_again
            cluster.sockets = lambda: sum(state.sockets_by_place.values())
            cluster.on_drain = lambda: setattr(state, "draining", True)
            await cluster.start(registry)
        await state.start_shared()  # presence and quick match, on the cluster's bus and leases
        await registry.recover()
        recorder = Recorder(
            store,
            retry_seconds=settings.recorder_retry_seconds,
            recorded=lambda end: registry.ratings_recorded(end.table_id),
            bank_cut=settings.fichas_bank_cut,
        )
        if settings.recorder:  # at once: game ends stored before a crash are recorded now
            recorder.start()

        def game_over(table_id: str) -> None:  # a table of this process ended: its game, its tournament
            if settings.recorder:
                recorder.wake()
            director.table_over(table_id)
            reparto.table_over(registry.tables.get(table_id))

        registry.game_over = game_over
        if settings.tournament_director:  # after the tables are restored: it finds them there
            await director.start()
        await analyses.start()  # its workers claim jobs from the store (a restart's stale ones too)
        if settings.fairplay_sampler:  # in the background, after the players' own analyses
            await fairplay.start()
        if collector is not None:
            collector.start()
        try:
            yield
        finally:
            if collector is not None:
                collector.close()
            await director.close()  # (gives its lease back while the leases are still open)
            await state.close_shared()  # while the bus and the leases are still open
            state.presence.close()
            if cluster is not None:
                await cluster.close()
            await recorder.close()
            await reparto.close()
            await registry.close()
            bots.close()
            await verifier.close()
            await state.passwords.close()
            await state.luck.close()
            await state.share.close()
            await analyses.close()
            await fairplay.close()
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
    app.add_middleware(RequestIds)  # outermost: every line logged for a request names it

    app.exception_handler(TableError)(table_error)
    app.include_router(http_health.router)
    app.include_router(http_api.router)
    app.include_router(ws.router)
    app.include_router(accounts.router)
    app.include_router(http_tables.router)
    app.include_router(http_players.router)
    app.include_router(http_replay.router)
    app.include_router(http_analysis.router)
    app.include_router(puzzle_routes.router)
    app.include_router(http_luck.router)
    app.include_router(http_friends.router)
    app.include_router(http_learn.router)
    app.include_router(bot_accounts.router)
    app.include_router(http_reports.router)
    app.include_router(http_talk.router)
    app.include_router(http_moderation.router)
    app.include_router(http_admin.router)
    app.include_router(http_admin_processes.router)
    app.include_router(http_tournaments.router)
    app.include_router(http_head_to_head.router)
    app.include_router(http_home.router)
    app.include_router(http_penas.router)
    app.include_router(reparto_routes.router)
    app.include_router(http_seasons.router)
    app.include_router(http_fichas.router)

    # The client's files, fingerprinted and compressed once, here, before anything is served
    # (http/static_files.py); /avatars/<id>.svg are the players' drawings (web/avatars/, one
    # per id of server/accounts/avatars.py).
    site = load_site(WEB_DIR)
    app.include_router(static_router(site))
    app.include_router(http_share.router(site))  # /partida/<id>, /torneo/<id> and their cards

    @app.get("/", include_in_schema=False)
    @app.get("/mesa", include_in_schema=False)
    @app.get("/mesa/{anything:path}", include_in_schema=False)
    async def home(request: Request) -> Response:
        """The browser client; /mesa?invite=CODE is an invitation link, and /mesa/<id> a
        table's own link: always the page (which says when a table does not exist), never
        a JSON refusal."""
        return client_page(request, site)

    return app
