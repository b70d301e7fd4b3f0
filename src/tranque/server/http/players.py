"""Reading players back: rankings, profiles, a player's games, a finished game and its
record, and avatars (OpenAPI at /docs).

A private game is only its players' (players/access.py): it is left out of everybody else's
lists, and asking for it answers exactly as for a game that does not exist. Bodies are built
by players/views.py; refusals are flat JSON bodies in Spanish and English (http/errors.py).
"""

from __future__ import annotations

import dataclasses
import math
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Query, Request
from fastapi.responses import JSONResponse
from pydantic import BaseModel, Field

from tranque.engine.messages import OneOf
from tranque.server.accounts.avatars import AVATAR_LABELS, avatar_of
from tranque.server.accounts.names import normal_form
from tranque.server.app_state import server_state
from tranque.server.http.accounts import NAME_MAX, current_user, require_user, same_origin_json
from tranque.server.http.errors import ApiError, SpanishErrors
from tranque.server.http.tournaments import player_tournament_list
from tranque.server.players.access import can_see
from tranque.server.players.periods import PERIODS, period_keys
from tranque.server.players.views import (
    PER_PAGE,
    game_item,
    game_page,
    page_ranks,
    pool_rating,
    rating_row,
    xp_row,
)
from tranque.server.store import AccountStore, GamePlayerRow, GameRow, UserRow
from tranque.server.table.log import record_withheld

router = APIRouter(prefix="/api", tags=["jugadores"], route_class=SpanishErrors)

BOARDS = ("xp", "rating")
POOLS = ("duel", "individual", "pairs")
RECENT_GAMES = 10
RECENT_TOURNAMENTS = 5  # a profile's latest tournaments (all of them: /api/players/{name}/tournaments)
HISTORY_POINTS = 100  # a rating's chart: its last games
MAX_PAGE = 10_000  # 500,000 players: deeper pages are not worth their offset


@router.get("/rankings", summary="Clasificación por XP de un periodo o por rating de una modalidad")
async def rankings(
    request: Request,
    by: Annotated[str, Query(max_length=16, description="xp | rating")] = "xp",
    period: Annotated[str, Query(max_length=16, description="week | month | all (by=xp)")] = "week",
    pool: Annotated[str, Query(max_length=16, description="duel | individual | pairs (by=rating)")] = "duel",
    page: Annotated[int, Query(ge=1, le=MAX_PAGE)] = 1,
) -> dict[str, Any]:
    if by not in BOARDS:
        raise ApiError(422, "bad_ranking.by", parameter="by", by=by, choices=OneOf(BOARDS))
    state = server_state(request)
    store, viewer = state.store, await current_user(request)
    me = None if viewer is None else viewer.user_id
    offset = (page - 1) * PER_PAGE
    if by == "xp":
        if period not in PERIODS:
            raise ApiError(
                422, "bad_ranking.period", parameter="period", period=period, choices=OneOf(PERIODS)
            )
        key = period_keys(state.settings.clock.now())[period]
        board = await store.xp_leaderboard(key, offset, PER_PAGE, me)
        shape = xp_row
    else:
        if pool not in POOLS:
            raise ApiError(422, "bad_ranking.pool", parameter="pool", pool=pool, choices=OneOf(POOLS))
        board = await store.rating_leaderboard(pool, offset, PER_PAGE, me)
        shape = rating_row
    ranks = page_ranks(board.rows, board.first_rank, offset)
    return {
        "by": by,
        "period": period if by == "xp" else None,
        "pool": pool if by == "rating" else None,
        "page": page,
        "pages": max(1, math.ceil(board.total / PER_PAGE)),
        "per_page": PER_PAGE,
        "total": board.total,
        "rows": [shape(rank, entry) for rank, entry in zip(ranks, board.rows, strict=True)],
        "me": None if board.me is None else shape(board.me.rank, board.me.row),
    }


async def _player(store: AccountStore, name: str) -> UserRow:
    user = await store.find_user(normal_form(name[:NAME_MAX]))
    if user is None:
        raise ApiError(404, "no_such_player", name=name[:NAME_MAX])
    return user


async def profile(request: Request, user: UserRow, viewer: UserRow | None) -> dict[str, Any]:
    state = server_state(request)
    keys = period_keys(state.settings.clock.now())
    viewer_id = None if viewer is None else viewer.user_id
    page = await state.store.player_page(
        user.user_id, viewer_id, list(keys.values()), HISTORY_POINTS, RECENT_GAMES
    )
    friend, blocked = page.relation or (None, False)
    return {
        "name": user.name,
        "avatar": avatar_of(user.user_id, user.avatar),
        "member_since": int(user.created_at),
        "is_me": viewer_id == user.user_id,
        "is_bot": user.is_bot,
        "xp": {period: page.xp.get(key, 0) for period, key in keys.items()},
        "totals": {
            "played": sum(stat.played for stat in page.stats),
            "won": sum(stat.won for stat in page.stats),
        },
        "stats": [
            {"preset": stat.preset, "format": stat.format, "played": stat.played, "won": stat.won}
            for stat in page.stats
        ],
        "ratings": [pool_rating(pool) for pool in page.ratings],
        "recent": [game_item(played) for played in page.recent],
        "friend": friend,
        "blocked": blocked,
        "tournaments": await player_tournament_list(request, user, viewer, RECENT_TOURNAMENTS),
    }


@router.get("/players/{name}", summary="El perfil de un jugador")
async def player(name: str, request: Request) -> dict[str, Any]:
    user = await _player(server_state(request).store, name)
    return await profile(request, user, await current_user(request))


@router.get("/players/{name}/games", summary="Las partidas de un jugador, de la más reciente")
async def player_games(
    name: str,
    request: Request,
    before: Annotated[
        float | None, Query(allow_inf_nan=False, description="Only games finished before this moment.")
    ] = None,
    limit: Annotated[int, Query(ge=1, le=50)] = 20,
) -> dict[str, Any]:
    store = server_state(request).store
    user = await _player(store, name)
    viewer = await current_user(request)
    found = await store.player_games(
        user.user_id, None if viewer is None else viewer.user_id, before, limit + 1
    )
    return {"games": [game_item(played) for played in found[:limit]], "more": len(found) > limit}


async def visible_game(request: Request, game_id: str) -> tuple[GameRow, list[GamePlayerRow]]:
    """A kept game and its players, if the one asking may see it; else `no_such_game`, as
    for a game that was never kept (its summary, record and replay all ask here)."""
    store = server_state(request).store
    game = await store.load_game(game_id)
    if game is None:
        raise ApiError(404, "no_such_game")
    players = await store.game_players(game_id)
    if not can_see(game, players, await current_user(request)):
        raise ApiError(404, "no_such_game")  # a private game: as if there were none
    if await server_state(request).registry.hides_seeds(game.table_id):  # shared deals, not revealed
        game = dataclasses.replace(game, record=record_withheld(game.record))
    return game, players


@router.get("/games/{game_id}", summary="Una partida terminada: mesa, reglas, resultado y jugadores")
async def game(game_id: str, request: Request) -> dict[str, Any]:
    return game_page(*await visible_game(request, game_id))


@router.get("/games/{game_id}/record", summary="El registro de una partida terminada, para descargar")
async def game_record(game_id: str, request: Request) -> JSONResponse:
    found, _ = await visible_game(request, game_id)
    disposition = f'attachment; filename="tranque-{found.game_id}.json"'
    return JSONResponse(found.record, headers={"Content-Disposition": disposition})


@router.get("/avatars", summary="Los avatares que un jugador puede escoger")
async def avatars() -> list[dict[str, str]]:
    return [
        {"id": avatar, "label": label, "label_en": label_en}
        for avatar, (label, label_en) in AVATAR_LABELS.items()
    ]


class AvatarChoice(BaseModel):
    avatar: str = Field(examples=["loro"], max_length=32)


@router.put("/me/avatar", dependencies=[Depends(same_origin_json)], summary="Escoger tu avatar")
async def set_avatar(
    body: AvatarChoice, request: Request, user: Annotated[UserRow, Depends(require_user)]
) -> dict[str, Any]:
    if body.avatar not in AVATAR_LABELS:
        raise ApiError(422, "bad_avatar", parameter="avatar", avatar=body.avatar)
    await server_state(request).store.set_avatar(user.user_id, body.avatar)
    changed = dataclasses.replace(user, avatar=body.avatar)
    return await profile(request, changed, changed)
