"""«La suerte del reparto» over HTTP: each side's expected points from a round's deal alone,
beside what it scored (tranque.bots.luck, worked out by the server's `Luck`, server/luck.py).

- `GET /api/tables/{table}/rounds/{n}/luck`: round `n` (numbered from 0, as `round_ended`
  numbers it) of the game being played or last played at a table, once it is over. Whoever
  may follow the table may ask: anybody at a public or tournament table, otherwise a seat's
  holder (its token in the `X-Seat-Token` header, or its account's session); to anybody else
  it answers as if there were no table (`no_such_table`, 404). A round still in play is
  refused (`luck_round_not_over`, 409) and one never dealt is `luck_no_round` (404): the
  figures need the whole deal, which R17 shows only once the round has ended.
- `GET /api/games/{id}/luck`: every round of a kept game, seen as its replay is
  (`visible_game`).

Both refuse with `luck_hidden` (409) while the table's shared deals (a duplicado's) are not
revealed, answer 202 `{"status": "pending"}` while the figures are being worked out (ask
again), 503 `luck_busy` when too many rounds wait for the worker and 500 `luck_failed` when
working a round out failed.
"""

from __future__ import annotations

import asyncio
from typing import Annotated, Any

from fastapi import APIRouter, Header, Path, Request
from fastapi.responses import JSONResponse

from tranque.bots.luck import luck_body, round_deal
from tranque.engine import Game
from tranque.engine.record import replay
from tranque.server.app_state import server_state
from tranque.server.http.accounts import current_user
from tranque.server.http.errors import ApiError, SpanishErrors
from tranque.server.http.players import visible_game
from tranque.server.luck import Luck, LuckBusy, LuckFailed
from tranque.server.table.actor import Table, TableError
from tranque.server.table.seats import token_hash

router = APIRouter(prefix="/api", tags=["partidas"], route_class=SpanishErrors)

RETRY_AFTER = 5  # seconds: a busy worker is through a few rounds by then


@router.get(
    "/tables/{table_id}/rounds/{number}/luck",
    summary="Lo que daba el reparto de una mano terminada, y lo que cada lado hizo",
)
async def table_round_luck(
    table_id: str,
    number: Annotated[int, Path(ge=0, le=100_000, description="La mano, desde 0 (como en round_ended).")],
    request: Request,
    x_seat_token: Annotated[str | None, Header(max_length=128, description="El token de tu puesto.")] = None,
) -> JSONResponse:
    state = server_state(request)
    try:
        table = await state.registry.find(table_id)
    except TableError:
        raise ApiError(404, "no_such_table") from None
    if not await _may_follow(table, request, x_seat_token):
        raise ApiError(404, "no_such_table")  # as if there were none
    if await state.registry.hides_seeds(table_id):
        raise ApiError(409, "luck_hidden")
    game = table.state.game
    if game is None or number >= len(game.rounds):
        raise ApiError(404, "luck_no_round")
    result = game.rounds[number].result
    if result is None:
        raise ApiError(409, "luck_round_not_over")
    game_id = f"{table_id}.{table.state.game_number}"
    sides = _round(state.luck, (game_id, number), game, number)
    if sides is None:
        return JSONResponse({"status": "pending", "round": number}, status_code=202)
    return JSONResponse(luck_body(game.rules, state.luck.playouts) | {"round": number, "sides": sides})


@router.get("/games/{game_id}/luck", summary="Lo que daba el reparto de cada mano de una partida terminada")
async def game_luck(game_id: str, request: Request) -> JSONResponse:
    state = server_state(request)
    row, _ = await visible_game(request, game_id)
    if await state.registry.hides_seeds(row.table_id):
        raise ApiError(409, "luck_hidden")
    game: Game = await asyncio.to_thread(replay, row.record)
    rounds = []
    pending = False
    for number, round_ in enumerate(game.rounds):
        if round_.result is None:
            continue  # cut short by the game's end: no result to set beside
        sides = _round(state.luck, (game_id, number), game, number)
        if sides is None:
            pending = True
        else:
            rounds.append({"round": number + 1, "sides": sides})
    body = luck_body(game.rules, state.luck.playouts) | {"rounds": rounds}
    if pending:
        return JSONResponse(body | {"status": "pending"}, status_code=202)
    return JSONResponse(body)


def _round(luck: Luck, key: tuple[str, int], game: Game, number: int) -> list[dict[str, Any]] | None:
    result = game.rounds[number].result
    assert result is not None
    try:
        return luck.round(key, round_deal(game, number), result)
    except LuckBusy:
        raise ApiError(503, "luck_busy", retry_after=RETRY_AFTER) from None
    except LuckFailed:
        raise ApiError(500, "luck_failed") from None


async def _may_follow(table: Table, request: Request, token: str | None) -> bool:
    """Whether the one asking may follow the table: as `Subscribe` lets a socket follow it."""
    if table.options.kind.watchable:
        return True
    if token is not None and table.state.seat_of_token(token_hash(token)) is not None:
        return True
    user = await current_user(request)
    return user is not None and table.state.seat_of_user(user.user_id) is not None
