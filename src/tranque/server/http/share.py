"""Share cards and share pages (docs/sharing.md).

- `GET /api/share/games/{id}.png`: a finished public game's card (share/game_card.py);
  `GET /api/share/tournaments/{id}.png`: a public tournament's (its podium once over). `?lang=en`
  draws it in English. Drawn in the share worker (share/cards.py) and kept: a finished game
  never changes, so its card is cached a day by anyone (`Cache-Control: public`).
- `GET /api/share/penas/{slug}.png`: a peña's season table (its season in play, else its last
  one): seasons/card.py's rows on the generic table card (share/table_card.py).
- `GET /partida/{id}`, `GET /torneo/{id}` and `GET /pena/{slug}`: the client's page with the
  thing's Open Graph tags (share/open_graph.py), absolute URLs built from `Settings.public_url`,
  or else the request's own address (behind a proxy, the scheme and host it forwards:
  addresses.py); the app then opens `#/partida/{id}`, `#/torneo/{id}` or `#/penas/{slug}`.
  Like `/mesa/{id}` these always answer the page: for something that cannot be shared it
  carries the site's own tags and no card.

What may be shared is what anyone may see: a public game once it is kept (so over), a public
tournament, a peña's season (its page is public). A private game or tournament is
`share_no_game` / `share_no_tournament` (404), as one that does not exist. A game whose table
is still playing it is `share_game_in_play` (409): a round in play shows no tile to anyone but
its holder (R17), so there is no card until the game ends. A table of shared deals not yet
revealed gets a card without the line.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Annotated, Any
from urllib.parse import quote

from fastapi import APIRouter, Path, Query, Request, Response

from tranque.server.app_state import ServerState, server_state
from tranque.server.http.errors import ApiError, SpanishErrors
from tranque.server.http.security_headers import site_policy
from tranque.server.http.web_page import Site
from tranque.server.penas.errors import PenaError
from tranque.server.players.access import can_see
from tranque.server.seasons.card import season_card_rows
from tranque.server.share.cards import ShareBusy, ShareCards, game_png, podium_png
from tranque.server.share.game_card import game_words
from tranque.server.share.open_graph import OpenGraph, with_open_graph
from tranque.server.share.podium_card import PodiumCard, podium_card
from tranque.server.share.table_card import render_table_card
from tranque.server.share.texts import lang_of, say
from tranque.server.store import GameRow
from tranque.server.table.actor import TableError
from tranque.server.tournaments.config import TournamentError

GAME_CACHE = "public, max-age=86400"  # a finished game's card never changes
TOURNAMENT_CACHE = "public, max-age=300"  # a tournament's moves on
SEASON_CACHE = "public, max-age=300"  # a season's table too
PAGE_CACHE = "no-cache"
RETRY_AFTER = 5  # seconds: the worker is through a few cards by then
MAX_ID = 80  # longer ids are nobody's: the page with the site's own tags

GameId = Annotated[str, Path(max_length=MAX_ID, description="La partida: «<mesa>.<número>».")]
TournamentId = Annotated[str, Path(max_length=64, description="El torneo.")]
Slug = Annotated[str, Path(max_length=MAX_ID, description="La peña (la dirección de su página).")]
Lang = Annotated[str | None, Query(max_length=2, description="es (por omisión) | en")]


async def shared_game(state: ServerState, game_id: str) -> tuple[GameRow, bool]:
    """The kept public game `game_id` and whether its last line may be shown; refused otherwise."""
    game = await state.store.load_game(game_id)
    if game is None:
        if await in_play(state, game_id):
            raise ApiError(409, "share_game_in_play", id=game_id)
        raise ApiError(404, "share_no_game", id=game_id)
    players = await state.store.game_players(game_id)
    if not can_see(game, players, None):  # a private game: as if there were none
        raise ApiError(404, "share_no_game", id=game_id)
    return game, not await state.registry.hides_seeds(game.table_id)


async def in_play(state: ServerState, game_id: str) -> bool:
    """Whether `game_id` is the game a table anyone may follow is playing now."""
    table_id, _, number = game_id.rpartition(".")
    if not table_id or not number.isdigit():
        return False
    try:
        table = await state.registry.find(table_id)
    except TableError:
        return False
    return (
        table.options.kind.watchable and table.state.game_number == int(number) and table.state.phase.in_game
    )


async def shared_tournament(state: ServerState, tournament_id: str, lang: str) -> PodiumCard:
    try:
        found = await state.tournaments.get(tournament_id, None)
    except TournamentError:
        raise ApiError(404, "share_no_tournament", id=tournament_id) from None
    return podium_card(found.tournament.public_json(None), lang)


SeasonCard = tuple[str, str, list[str], list[list[str]]]  # title, subtitle, columns, rows


async def shared_season(state: ServerState, slug: str, lang: str) -> SeasonCard:
    """A peña's season to share: the one in play (or about to start), else the one that ended
    last; `share_no_season` (404) for a peña with none, or no such peña."""
    try:
        pena = await state.penas.pena(slug)
        listing = await state.seasons.listing(slug, None, state.settings.clock.now())
    except PenaError:
        raise ApiError(404, "share_no_season", slug=slug) from None
    season = listing["current"] or max(listing["past"], key=lambda one: one["ends"], default=None)
    if season is None:
        raise ApiError(404, "share_no_season", slug=slug)
    return season_card_rows(season, pena.name, lang)


async def drawn(cards: ShareCards, key: Hashable, draw: Callable[..., bytes], *args: Any) -> bytes:
    try:
        return await cards.png(key, draw, *args)
    except ShareBusy:
        raise ApiError(503, "share_busy", retry_after=RETRY_AFTER) from None


def png(body: bytes, cache: str) -> Response:
    return Response(body, media_type="image/png", headers={"Cache-Control": cache})


def base_url(request: Request) -> str:
    """This site's address, "https://tranque.example": `Settings.public_url` when set, else
    the address the one asking reached (behind a trusted proxy, the one it forwards)."""
    configured = server_state(request).settings.public_url
    return (configured or str(request.base_url)).rstrip("/")


def router(site: Site) -> APIRouter:
    """The share routes; `site`: the client's page the share pages are made of."""
    routes = APIRouter(tags=["compartir"], route_class=SpanishErrors)

    @routes.head("/api/share/games/{game_id}.png", include_in_schema=False)  # crawlers ask so too
    @routes.get(
        "/api/share/games/{game_id}.png", summary="La tarjeta para compartir de una partida terminada"
    )
    async def game_card_png(game_id: GameId, request: Request, lang: Lang = None) -> Response:
        state = server_state(request)
        game, show_line = await shared_game(state, game_id)
        chosen = lang_of(lang)
        body = await state.share.png(
            ("game", game.game_id, chosen, show_line), game_png, game, chosen, show_line
        )
        return png(body, GAME_CACHE)

    @routes.head("/api/share/tournaments/{tournament_id}.png", include_in_schema=False)
    @routes.get(
        "/api/share/tournaments/{tournament_id}.png", summary="La tarjeta para compartir de un torneo"
    )
    async def tournament_card_png(
        tournament_id: TournamentId, request: Request, lang: Lang = None
    ) -> Response:
        state = server_state(request)
        card = await shared_tournament(state, tournament_id, lang_of(lang))
        body = await drawn(state.share, ("tournament", card), podium_png, card)
        return png(body, TOURNAMENT_CACHE)

    @routes.head("/api/share/penas/{slug}.png", include_in_schema=False)
    @routes.get(
        "/api/share/penas/{slug}.png", summary="La tarjeta para compartir de la temporada de una peña"
    )
    async def season_card_png(slug: Slug, request: Request, lang: Lang = None) -> Response:
        state = server_state(request)
        title, subtitle, columns, rows = await shared_season(state, slug, lang_of(lang))
        key = ("season", title, subtitle, tuple(columns), tuple(map(tuple, rows)))  # changes with the table
        body = await drawn(state.share, key, render_table_card, title, subtitle, columns, rows)
        return png(body, SEASON_CACHE)

    @routes.api_route("/pena/{slug}", methods=["GET", "HEAD"], include_in_schema=False)
    async def season_page(slug: str, request: Request, lang: str | None = None) -> Response:
        chosen, base = lang_of(lang), base_url(request)
        url = f"{base}/pena/{quote(slug, safe='')}"
        try:
            if len(slug) > MAX_ID:
                raise ApiError(404, "share_no_season", slug=slug[:MAX_ID])
            title, subtitle, _, rows = await shared_season(server_state(request), slug, chosen)
        except ApiError:
            return page(request, site, site_tags(chosen, url))
        first = say(chosen, "places").split("|")[0]
        suffix = "" if chosen == "es" else "?lang=en"
        found = OpenGraph(
            title=f"{title} · Tranque",
            description=f"{subtitle} · {first} {rows[0][1]}" if rows else subtitle,
            url=url,
            image=f"{base}/api/share/penas/{quote(slug, safe='')}.png{suffix}",
            image_alt=title,
        )
        return page(request, site, found)

    @routes.api_route("/partida/{game_id}", methods=["GET", "HEAD"], include_in_schema=False)
    async def game_page(game_id: str, request: Request, lang: str | None = None) -> Response:
        chosen, base = lang_of(lang), base_url(request)
        url = f"{base}/partida/{quote(game_id, safe='')}"
        try:
            if len(game_id) > MAX_ID:
                raise ApiError(404, "share_no_game", id=game_id[:MAX_ID])
            game, _ = await shared_game(server_state(request), game_id)
        except ApiError:
            return page(request, site, site_tags(chosen, url))
        words = game_words(game, chosen)
        suffix = "" if chosen == "es" else "?lang=en"
        found = OpenGraph(
            title=say(chosen, "page_game_title", result=words.headline),
            description=words.description(),
            url=url,
            image=f"{base}/api/share/games/{quote(game.game_id, safe='')}.png{suffix}",
            image_alt=words.description(),
        )
        return page(request, site, found)

    @routes.api_route("/torneo/{tournament_id}", methods=["GET", "HEAD"], include_in_schema=False)
    async def tournament_page(tournament_id: str, request: Request, lang: str | None = None) -> Response:
        chosen, base = lang_of(lang), base_url(request)
        url = f"{base}/torneo/{quote(tournament_id, safe='')}"
        try:
            if len(tournament_id) > MAX_ID:
                raise ApiError(404, "share_no_tournament", id=tournament_id[:MAX_ID])
            card = await shared_tournament(server_state(request), tournament_id, chosen)
        except ApiError:
            return page(request, site, site_tags(chosen, url))
        places = [
            f"{label} {names}"
            for label, names in zip(say(chosen, "places").split("|"), card.podium, strict=False)
        ]
        suffix = "" if chosen == "es" else "?lang=en"
        found = OpenGraph(
            title=say(chosen, "page_tournament_title", name=card.name),
            description=" · ".join([card.details, *places]),
            url=url,
            image=f"{base}/api/share/tournaments/{quote(tournament_id, safe='')}.png{suffix}",
            image_alt=card.name,
        )
        return page(request, site, found)

    return routes


def site_tags(lang: str, url: str) -> OpenGraph:
    """The site's own tags, with no card: for a share page of something that cannot be shared."""
    return OpenGraph("Tranque · Dominó", say(lang, "page_default"), url, None)


def page(request: Request, site: Site, found: OpenGraph) -> Response:
    """The client's page with `found`'s tags, under the page's own security policy."""
    body = with_open_graph(site.page.body.decode("utf-8"), found)
    headers = {"Content-Security-Policy": site_policy(site.script_sources), "Cache-Control": PAGE_CACHE}
    return Response(body, media_type="text/html; charset=utf-8", headers=headers)
