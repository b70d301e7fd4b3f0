"""Bot accounts over HTTP: a person makes bots, gives them tokens, revokes them; anybody reads
the bots' ranking (OpenAPI at /docs; docs/bots.md).

A bot account is an account like any other (its name is checked as names.py says, look-alikes
included) owned by the person who made it, with no password: it cannot log in, and plays only
over the WebSocket with its token (accounts/bot_tokens.py). A person may own `Limits.bots_per_owner`.
A token is shown once, when made; making a new one revokes the old. Bots are rated in pools
of their own, ``bots:duel``, ``bots:individual`` and ``bots:pairs`` (table/actor.py).
"""

from __future__ import annotations

import math
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Query, Request, Response
from pydantic import BaseModel, Field

from tranque.engine.messages import OneOf
from tranque.server.accounts.bot_tokens import new_bot_token
from tranque.server.accounts.names import normal_form
from tranque.server.app_state import ServerState, server_state
from tranque.server.http.accounts import NAME_MAX, clean_name, current_user, require_user, same_origin_json
from tranque.server.http.errors import ApiError, SpanishErrors
from tranque.server.players.ratings import POOLS, bots_pool
from tranque.server.players.views import PER_PAGE, page_ranks, rating_row
from tranque.server.refusals import Counted
from tranque.server.store import BotRow, NameTaken, TooManyBots, UserRow
from tranque.server.table.seats import token_hash

router = APIRouter(prefix="/api", tags=["bots"], route_class=SpanishErrors)
MAX_PAGE = 10_000


class NewBot(BaseModel):
    name: str = Field(examples=["Robotina"], description="3 a 24 letras, cifras, _, - o .")


class BotToken(BaseModel):
    name: str
    token: str = Field(description="El token del bot: se muestra solo esta vez.")


class BotInfo(BaseModel):
    id: int
    name: str
    created_at: float
    has_token: bool = Field(description="Tiene un token vigente.")
    used_at: float | None = Field(description="Cuándo abrió un socket con su token por última vez.")


async def require_person(user: Annotated[UserRow, Depends(require_user)]) -> UserRow:
    """A logged-in person (a bot account never has a session, but say so if one had)."""
    if user.is_bot:
        raise ApiError(403, "bot_not_allowed")
    return user


def _info(bot: BotRow) -> BotInfo:
    return BotInfo(
        id=bot.user_id, name=bot.name, created_at=bot.created_at, has_token=bot.has_token, used_at=bot.used_at
    )


async def _own_bot(state: ServerState, owner: UserRow, name: str) -> BotRow:
    wanted = normal_form(name[:NAME_MAX]).casefold()
    for bot in await state.store.bots_of(owner.user_id):
        if bot.name.casefold() == wanted:
            return bot
    raise ApiError(404, "no_such_bot", name=name[:NAME_MAX])


async def _give_token(state: ServerState, bot_id: int) -> str:
    """A new token for the bot; its old one stops working and its sockets close."""
    token = new_bot_token()
    await state.store.set_bot_token(bot_id, token_hash(token))
    await state.bot_sockets.revoke(bot_id)
    return token


@router.post(
    "/me/bots",
    response_model=BotToken,
    status_code=201,
    dependencies=[Depends(same_origin_json)],
    summary="Crear una cuenta de bot (con su token, que se muestra solo esta vez)",
)
async def create_bot(
    body: NewBot, request: Request, owner: Annotated[UserRow, Depends(require_person)]
) -> BotToken:
    name = clean_name(body.name)
    state = server_state(request)
    most = state.settings.limits.bots_per_owner
    too_many = ApiError(409, "too_many_bots", bots=Counted(most, "bots"))
    if len(await state.store.bots_of(owner.user_id)) >= most:
        raise too_many
    if await state.store.find_user(name) is not None:
        raise ApiError(409, "name_taken", parameter="name")
    similar = await state.store.find_similar_user(name)
    if similar is not None:
        raise ApiError(409, "name_confusable", parameter="name", similar=similar.name)
    try:  # counted again as it is made: two requests at once cannot both pass the count above
        bot = await state.store.create_bot(name, owner.user_id, state.settings.clock.now(), most)
    except NameTaken:
        raise ApiError(409, "name_taken", parameter="name") from None
    except TooManyBots:
        raise too_many from None
    return BotToken(name=bot.name, token=await _give_token(state, bot.user_id))


@router.get("/me/bots", response_model=list[BotInfo], summary="Tus cuentas de bot")
async def my_bots(request: Request, owner: Annotated[UserRow, Depends(require_person)]) -> list[BotInfo]:
    return [_info(bot) for bot in await server_state(request).store.bots_of(owner.user_id)]


@router.post(
    "/me/bots/{name}/token",
    response_model=BotToken,
    dependencies=[Depends(same_origin_json)],
    summary="Un token nuevo para tu bot (el anterior deja de servir)",
)
async def new_token(
    name: str, request: Request, owner: Annotated[UserRow, Depends(require_person)]
) -> BotToken:
    state = server_state(request)
    bot = await _own_bot(state, owner, name)
    return BotToken(name=bot.name, token=await _give_token(state, bot.user_id))


@router.delete(
    "/me/bots/{name}/token",
    status_code=204,
    dependencies=[Depends(same_origin_json)],
    summary="Revocar el token de tu bot (y cerrar sus conexiones)",
)
async def revoke_token(
    name: str, request: Request, owner: Annotated[UserRow, Depends(require_person)]
) -> Response:
    state = server_state(request)
    bot = await _own_bot(state, owner, name)
    await state.store.set_bot_token(bot.user_id, None)
    await state.bot_sockets.revoke(bot.user_id)
    return Response(status_code=204)


@router.get("/bots/ranking", summary="Clasificación de los bots por rating de una modalidad")
async def bots_ranking(
    request: Request,
    pool: Annotated[str, Query(max_length=16, description="duel | individual | pairs")] = "duel",
    page: Annotated[int, Query(ge=1, le=MAX_PAGE)] = 1,
) -> dict[str, Any]:
    if pool not in POOLS:
        raise ApiError(422, "bad_ranking.pool", parameter="pool", pool=pool, choices=OneOf(POOLS))
    state = server_state(request)
    viewer = await current_user(request)
    offset = (page - 1) * PER_PAGE
    me = None if viewer is None else viewer.user_id
    board = await state.store.rating_leaderboard(bots_pool(pool), offset, PER_PAGE, me)
    ranks = page_ranks(board.rows, board.first_rank, offset)
    return {
        "pool": pool,
        "page": page,
        "pages": max(1, math.ceil(board.total / PER_PAGE)),
        "per_page": PER_PAGE,
        "total": board.total,
        "rows": [rating_row(rank, entry) for rank, entry in zip(ranks, board.rows, strict=True)],
    }
