"""A player's own fichas: `GET /api/me/fichas` (docs/fichas.md, docs/protocol.md).

Only the account itself reads its balance and history (the operator reads anyone's through
`/api/admin/accounts/{name}/fichas`, http/admin.py): fichas are never shown on another
player's profile. Reading the balance gives the day's refill first (fichas/service.py). With
fichas off the answer is ``{"enabled": false}`` and nothing else: no balance, no floor, no
history.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Query, Request
from fastapi.responses import JSONResponse

from tranque.server.app_state import server_state
from tranque.server.fichas import words
from tranque.server.fichas.errors import FichasError
from tranque.server.fichas.service import HISTORY_MOST, Fichas
from tranque.server.http.accounts import require_user
from tranque.server.http.errors import SpanishErrors
from tranque.server.store import PlayerStore, UserRow

router = APIRouter(prefix="/api", tags=["fichas"], route_class=SpanishErrors)

HISTORY_PAGE = 30  # movements a page of the history shows unless asked for another number


async def account_fichas(
    fichas: Fichas, games: PlayerStore, user_id: int, limit: int, before: int | None
) -> dict[str, Any]:
    """The account's balance (after the day's refill), the floor and a page of its history,
    newest first, each game's line saying whether it has a replay; `next_before`: the `before`
    of the next page (None: the last page)."""
    balance = await fichas.balance(user_id)
    movements = await fichas.history(user_id, limit, before)
    kept = await games.kept_games([game for game in map(words.game_of, movements) if game is not None])
    return {
        "enabled": True,
        "balance": balance,
        "floor": fichas.floor,
        "movements": [words.line(movement, user_id, kept) for movement in movements],
        "next_before": movements[-1].serial if len(movements) >= limit and movements else None,
    }


@router.get("/me/fichas", summary="Tus fichas: saldo y movimientos (dinero de juego, sin valor)")
async def my_fichas(
    request: Request,
    user: Annotated[UserRow, Depends(require_user)],
    limit: Annotated[int, Query(ge=1, le=HISTORY_MOST)] = HISTORY_PAGE,
    before: Annotated[int | None, Query(ge=1)] = None,
) -> Any:
    fichas = server_state(request).fichas
    if not fichas.enabled:
        return {"enabled": False}
    try:
        return await account_fichas(fichas, server_state(request).store, user.user_id, limit, before)
    except FichasError as error:
        return JSONResponse(error.body(), status_code=error.status)
