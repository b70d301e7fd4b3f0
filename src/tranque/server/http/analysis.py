"""A finished game's post-game analysis over HTTP (OpenAPI at /docs).

- `POST /api/games/{id}/analysis` asks for it (an account; a game the person may see, as
  its replay, `http_players.visible_game`): the analysis already done, or the one pending,
  is answered as it is (200, 202); otherwise a new one is queued (202, analysis/queue.py)
  within the account's limits: `analysis_pending` (429) while one of its own is not over,
  `analysis_limit` (429) past `analysis_requests_per_day` in the last 24 hours,
  `analysis_pending_place` (429) while `analysis_pending_per_address` asked for from the same
  place (`addresses.client_address`) are not over, `analysis_busy` (503, `Retry-After`) when
  the site's queue (its unfinished rows in the store, of every process) is full. The queue
  takes its jobs in turns between places and accounts (`store.analyses.turn_order`), so
  neither one account nor one place can hold back the others. A failed one may be asked for
  again.
- `GET /api/games/{id}/analysis`: its status, progress and, once done, the result
  (analysis/view.py); `status` "none" when nobody asked for it yet.

Refusals are flat bodies in Spanish and English (http/errors.py), and change nothing.
"""

from __future__ import annotations

import asyncio
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Request
from fastapi.responses import JSONResponse

from tranque.server.addresses import client_address
from tranque.server.analysis.queue import QueueFull
from tranque.server.analysis.view import analysis_body, outdated
from tranque.server.app_state import server_state
from tranque.server.http.accounts import require_user, same_origin_json
from tranque.server.http.errors import ApiError, SpanishErrors
from tranque.server.http.players import visible_game
from tranque.server.lobby.limits import address_key
from tranque.server.refusals import Counted
from tranque.server.store import AnalysisRow, GameRow, UserRow

router = APIRouter(prefix="/api", tags=["partidas"], route_class=SpanishErrors)

DAY = 24 * 3600.0
RETRY_AFTER = "60"  # seconds: a job takes about this long at the default budget
UNDER_WAY = ("pending", "running")


@router.get("/games/{game_id}/analysis", summary="El análisis de una partida terminada: estado y resultado")
async def get_analysis(game_id: str, request: Request) -> JSONResponse:
    game, _ = await visible_game(request, game_id)
    row = await server_state(request).store.analysis(game_id)
    return await _answer(game, row, 200)


@router.post(
    "/games/{game_id}/analysis",
    dependencies=[Depends(same_origin_json)],
    summary="Pedir el análisis de una partida terminada",
)
async def request_analysis(
    game_id: str, request: Request, user: Annotated[UserRow, Depends(require_user)]
) -> JSONResponse:
    state = server_state(request)
    store, settings, queue = state.store, state.settings, state.analyses
    game, _ = await visible_game(request, game_id)
    row = await store.analysis(game_id)
    if row is not None and row.status == "done" and not outdated(row):
        return await _answer(game, row, 200)
    now = settings.clock.now()
    if row is not None and row.status in UNDER_WAY:
        return await _answer(game, row, 202)
    if queue.holds(game_id):  # another request is queueing it this very moment
        return await _answer(game, AnalysisRow(game_id, user.user_id, "pending", now), 202)
    recent, unfinished = await store.analyses_requested(user.user_id, now - DAY)
    if unfinished >= settings.analysis_pending_per_account:
        raise ApiError(429, "analysis_pending")
    if recent >= settings.analysis_requests_per_day:
        raise ApiError(
            429, "analysis_limit", analyses=Counted(settings.analysis_requests_per_day, "analyses")
        )
    place = address_key(client_address(request))
    most = settings.analysis_pending_per_address
    if sum(1 for other in await store.unfinished_analyses() if other.place_key == place) >= most:
        raise ApiError(429, "analysis_pending_place", analyses=Counted(most, "analyses"))
    try:
        await queue.reserve(game_id)
    except QueueFull:
        body = ApiError(503, "analysis_busy").body()
        return JSONResponse(body, status_code=503, headers={"Retry-After": RETRY_AFTER})
    try:
        row = AnalysisRow(game_id, user.user_id, "pending", now, place_key=place)
        await store.save_analysis(row)
    except BaseException:
        queue.release(game_id)
        raise
    await queue.push(game_id)
    return await _answer(game, row, 202)


async def _answer(game: GameRow, row: AnalysisRow | None, status: int) -> JSONResponse:
    # A done analysis is shaped (the line laid out per flagged move) off the event loop.
    body: dict[str, Any] = await asyncio.to_thread(analysis_body, game, row)
    return JSONResponse(body, status_code=status)
