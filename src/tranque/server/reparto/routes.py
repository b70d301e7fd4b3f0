"""El reparto del día over HTTP (OpenAPI at /docs; docs/protocol.md «El reparto del día»).

- `GET /api/reparto`: today's day (its commitment; opened now if nobody opened it yet),
  yesterday's (its seed revealed, or null), and for an account its attempts of today.
- `GET /api/reparto/{day}`: one day as `GET /api/reparto` shows it.
- `GET /api/reparto/{day}/seed`: the seed and every deal of a day that is over;
  `reparto_not_revealed` (403) before.
- `GET /api/reparto/{day}/{mode}/board`: the day's board of a mode, ranked against par.
- `POST /api/reparto/play` `{"mode", "once"}`: a game of today's deals; an account's first of
  the day and mode is its attempt for the board, a second is `reparto_played` (409).
- `GET /api/reparto/{day}/{mode}/replay/{who}`: `mine` (the account's game) or `best` (the
  day's best: to an account that finished its own attempt, or to anyone once the day is over),
  as `GET /api/games/{id}/replay` gives it.

Refusals are flat bodies in Spanish and English (http/errors.py) and change nothing.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Depends, Request
from fastapi.responses import JSONResponse
from pydantic import BaseModel, Field

from tranque.server.addresses import client_place
from tranque.server.app_state import server_state
from tranque.server.http.accounts import current_user, same_origin_json
from tranque.server.http.api import practice_claims
from tranque.server.http.errors import ApiError, SpanishErrors
from tranque.server.http.replay import replay_body
from tranque.server.lobby.limits import account_key, address_key
from tranque.server.lobby.once import MAX_KEY
from tranque.server.reparto.days import parse_day, shifted
from tranque.server.reparto.deals import MODES
from tranque.server.reparto.service import AlreadyPlayed, DayNotOpen, Reparto
from tranque.server.store import RepartoDay, UserRow
from tranque.server.table.log import record_withheld

router = APIRouter(prefix="/api/reparto", tags=["reparto del día"], route_class=SpanishErrors)
Guest = Annotated[UserRow | None, Depends(current_user)]


class Play(BaseModel):
    mode: Literal["individual", "pairs"] = Field(
        description="individual: tú contra el experto; pairs: tú y un experto contra dos expertos."
    )
    once: str | None = Field(default=None, max_length=MAX_KEY, description="A key per click (once.py).")


class Started(BaseModel):
    table: str
    seat: int
    token: str = Field(description="Keep it: it reclaims the seat after a disconnect (hello.token).")
    day: str
    mode: str
    ranked: bool = Field(description="Whether the game is the account's attempt for the board.")


def reparto_of(request: Request) -> Reparto:
    found: Reparto = request.app.state.reparto
    return found


def _day(text: str) -> str:
    try:
        return parse_day(text)
    except ValueError:
        raise ApiError(422, "reparto_bad_day", parameter="day") from None


def _mode(text: str) -> str:
    if text not in MODES:
        raise ApiError(422, "reparto_bad_mode", parameter="mode", mode=text[:16])
    return text


async def _opened(reparto: Reparto, day: str) -> RepartoDay:
    try:
        return await reparto.day(day)
    except DayNotOpen:
        raise ApiError(404, "reparto_no_day", day=day) from None


async def _mine(reparto: Reparto, day: str, user: UserRow | None) -> dict[str, Any] | None:
    if user is None:
        return None
    mine: dict[str, Any] = {}
    for mode in MODES:
        entry = await reparto.store.reparto_attempt(day, mode, user.user_id)
        mine[mode] = None if entry is None else {"finished": entry.diff is not None, "diff": entry.diff}
    return mine


@router.get("", summary="El reparto del día: el compromiso de hoy y la semilla de ayer")
async def today(request: Request, user: Guest) -> dict[str, Any]:
    reparto = reparto_of(request)
    row = await reparto.open_today()
    yesterday = None
    with contextlib.suppress(DayNotOpen):  # no reparto yesterday (the site was down, or new)
        yesterday = reparto.public(await reparto.day(shifted(row.day, -1)))
    return {"today": reparto.public(row), "yesterday": yesterday, "me": await _mine(reparto, row.day, user)}


@router.post(
    "/play",
    response_model=Started,
    dependencies=[Depends(same_origin_json)],
    summary="Jugar el reparto de hoy contra el experto",
)
async def play(body: Play, request: Request, user: Guest) -> Started:
    state = server_state(request)
    reparto = reparto_of(request)
    user_id = None if user is None else user.user_id
    address = client_place(request, state.settings.ipv6_prefix)

    async def make() -> Started:
        claims = practice_claims(state, address, user_id)
        name = "Invitado" if user is None else user.name
        try:
            started = await reparto.start(state.registry, body.mode, name, user_id, address, claims)
        except AlreadyPlayed:
            raise ApiError(409, "reparto_played") from None
        return Started(
            table=started.table.table_id,
            seat=0,
            token=started.token,
            day=started.day,
            mode=started.mode,
            ranked=started.ranked,
        )

    who = address_key(address) if user_id is None else account_key(user_id)
    return await state.once.run(who, body.once, make)


@router.get("/{day}", summary="Un día del reparto: su compromiso, y su semilla cuando ya pasó")
async def one_day(day: str, request: Request) -> dict[str, Any]:
    reparto = reparto_of(request)
    return reparto.public(await _opened(reparto, _day(day)))


@router.get("/{day}/seed", summary="La semilla de un día ya revelado, con cada reparto")
async def seed(day: str, request: Request) -> dict[str, Any]:
    reparto = reparto_of(request)
    row = await _opened(reparto, _day(day))
    if not reparto.revealed(row.day):
        raise ApiError(403, "reparto_not_revealed", day=row.day)
    return reparto.public(row)


@router.get("/{day}/{mode}/board", summary="La tabla del día de una forma, contra el par")
async def board(day: str, mode: str, request: Request) -> dict[str, Any]:
    reparto = reparto_of(request)
    row = await _opened(reparto, _day(day))
    return await reparto.board(row.day, _mode(mode))


@router.get("/{day}/{mode}/replay/{who}", summary="Tu partida del día, o la mejor del día")
async def replay(day: str, mode: str, who: str, request: Request, user: Guest) -> JSONResponse:
    reparto = reparto_of(request)
    row = await _opened(reparto, _day(day))
    mode = _mode(mode)
    if who not in ("mine", "best"):
        raise ApiError(404, "reparto_no_game")
    mine = None if user is None else await reparto.store.reparto_attempt(row.day, mode, user.user_id)
    if who == "mine" and user is None:
        raise ApiError(401, "login_required")
    revealed = reparto.revealed(row.day)
    if who == "mine":
        entry = mine
    else:
        # The best game shows every hand of the day: only to who has played the day out.
        if not revealed and (mine is None or mine.diff is None):
            raise ApiError(403, "reparto_play_first")
        entry = await reparto.best(row.day, mode)
    if entry is None or entry.diff is None:
        raise ApiError(404, "reparto_no_game")
    store = reparto.store
    game = await store.load_game(f"{entry.table_id}.1")
    if game is None:
        raise ApiError(404, "reparto_no_game")  # not kept yet (the recorder is at it)
    players = await store.game_players(game.game_id)
    if not revealed:
        game = dataclasses.replace(game, record=record_withheld(game.record))
    return await asyncio.to_thread(lambda: JSONResponse(replay_body(game, players)))
