"""Tournaments over HTTP: the lists, one event's page, creating, registering, withdrawing,
cancelling, and a player's tournaments (docs/protocol.md «Tournaments»).

Anyone may read the public events; a private one is read with its invitation (`?invite=`),
by its creator, or by those in it. Every change needs an account and answers the event's page
as `GET` gives it, with `me` (what the viewer may do, and their table and seat while they
play). The rules are the machine's (tournaments/machine.py) and the service's
(tournaments/service.py); a refusal is a flat body in Spanish and English, its status by code.
"""

from __future__ import annotations

from collections.abc import Awaitable
from typing import Annotated, Any

from fastapi import APIRouter, Body, Depends, Query, Request
from fastapi.responses import JSONResponse
from pydantic import BaseModel, Field

from tranque.server.accounts.names import normal_form
from tranque.server.app_state import server_state
from tranque.server.http.accounts import NAME_MAX, current_user, require_user, same_origin_json
from tranque.server.http.errors import ApiError, SpanishErrors
from tranque.server.store import AccountStore, TournamentRow, UserRow
from tranque.server.tournaments.config import TournamentConfig, TournamentError
from tranque.server.tournaments.machine import Tournament
from tranque.server.tournaments.service import LISTS, Loaded, invite_of, is_registered

router = APIRouter(prefix="/api", tags=["torneos"], route_class=SpanishErrors)
Account = Annotated[UserRow, Depends(require_user)]
CHANGES = [Depends(same_origin_json)]
MAX_PAGE = 10_000
PLAYER_TOURNAMENTS = 20  # a player's list: their latest tournaments

# A refusal's HTTP status by its code (any other tournament refusal: 409, a conflict with the
# event's state: registered, started, full, mid_game, creator, ...).
STATUS_OF = {
    "tournament_not_found": 404,
    "tournament_private": 403,
    "tournament_barred": 403,
    "tournament_config": 422,
    "pena_members_only": 403,
    "fichas_off": 404,
}


def refused(error: TournamentError) -> ApiError:
    """The machine's or the service's refusal as the API answers it."""
    params: dict[str, Any] = dict(error.params)
    return ApiError(STATUS_OF.get(error.code, 409), error.key, parameter=error.field, **params)


class Registration(BaseModel):
    invite: str | None = Field(default=None, max_length=64, description="La invitación de un torneo privado.")
    partner: str | None = Field(default=None, max_length=64, description="Tu pareja (torneos por parejas).")
    pena: int | None = Field(
        default=None, description="Peña contra peña: el id de la peña por la que juegas."
    )


# Bodies -----------------------------------------------------------------------------------------


async def creator_name(store: AccountStore, tournament: Tournament) -> str | None:
    user = await store.user_by_id(tournament.creator)
    return None if user is None else user.name


async def summary(store: AccountStore, found: Loaded, fichas_on: bool = False) -> dict[str, Any]:
    """What a list shows of a tournament: the machine's summary, its creator by name, and its
    entry in fichas when it has one (and fichas are on)."""
    tournament = found.tournament
    body = {**tournament.summary_json(), "creator": await creator_name(store, tournament)}
    if fichas_on and tournament.config.entry_fichas:
        body["entry_fichas"] = tournament.config.entry_fichas
    return body


def me(tournament: Tournament, viewer: UserRow | None, now: float, barred: bool) -> dict[str, Any]:
    """What the viewer may do with the event (the machine's answers, and the attendance bar),
    and where they play now."""
    if viewer is None:
        return {
            "registered": False,
            "can_register": False,
            "can_withdraw": False,
            "can_cancel": False,
            "table": None,
            "seat": None,
            "invite": None,
        }
    account = viewer.user_id
    game = tournament.playing_game_of(account)
    seat = None if game is None else next(s.seat for s in game.seats if s.account == account)
    return {
        "registered": is_registered(tournament, account),
        "can_register": tournament.can_register(account, now) and not barred,
        "can_withdraw": tournament.can_withdraw(account),
        "can_cancel": tournament.can_cancel(account),
        "table": None if game is None else game.table_id,
        "seat": seat,
        "invite": invite_of(tournament, viewer),  # a private event's code: its creator's only
    }


async def detail(request: Request, found: Loaded, viewer: UserRow | None) -> dict[str, Any]:
    """An event's page: the machine's public view (its summary, configuration, entrants,
    standings, the rounds so far with their games, the podium), its creator by name, and `me`.
    (Its `entrants` and `rounds` are lists, where a summary has their counts.)"""
    state = server_state(request)
    tournament = found.tournament
    barred = viewer is not None and await state.tournaments.barred(tournament, viewer) is not None
    body = tournament.public_json(None if viewer is None else viewer.user_id)
    if not state.fichas.enabled:  # fichas off: no entry in fichas shown anywhere
        body["config"].pop("entry_fichas", None)
    for row in body["battle"] or []:  # peña against peña: each peña's name and page
        pena = await state.store.pena_by_id(row["pena_id"])
        row["name"], row["slug"] = (pena.name, pena.slug) if pena is not None else ("—", None)
    return {
        **body,
        "creator": await creator_name(state.store, tournament),
        "me": me(tournament, viewer, state.settings.clock.now(), barred),
    }


# The lists and an event's page -----------------------------------------------------------------


@router.get("/tournaments", summary="Los torneos: próximos, en juego o terminados")
async def tournament_list(
    request: Request,
    status: Annotated[str, Query(max_length=16, description="upcoming | live | finished")] = "upcoming",
    page: Annotated[int, Query(ge=1, le=MAX_PAGE)] = 1,
) -> dict[str, Any]:
    if status not in LISTS:
        raise ApiError(422, "bad_tournament_list", parameter="status", status=status)
    state = server_state(request)
    found, pages = await state.tournaments.page(status, page)
    return {
        "tournaments": [await summary(state.store, one, state.fichas.enabled) for one in found],
        "page": page,
        "pages": pages,
    }


@router.get("/tournaments/{tournament_id}", summary="Un torneo: inscritos, clasificación, rondas")
async def tournament_page(
    tournament_id: str,
    request: Request,
    invite: Annotated[
        str | None, Query(max_length=64, description="La invitación de un torneo privado.")
    ] = None,
) -> dict[str, Any]:
    viewer = await current_user(request)
    try:
        found = await server_state(request).tournaments.get(tournament_id, viewer, invite)
    except TournamentError as error:
        raise refused(error) from None
    return await detail(request, found, viewer)


# Changes --------------------------------------------------------------------------------------


@router.post("/tournaments", status_code=201, dependencies=CHANGES, summary="Crear un torneo")
async def create(request: Request, user: Account, body: Annotated[dict[str, Any], Body()]) -> JSONResponse:
    """The body is the tournament's configuration (docs/protocol.md «Tournaments»); a private
    event's invitation is answered here, to its creator only."""
    state = server_state(request)
    try:
        found = await state.tournaments.create(user, TournamentConfig.from_json(body))
    except TournamentError as error:
        raise refused(error) from None
    content = {"tournament": await detail(request, found, user), "invite": invite_of(found.tournament, user)}
    return JSONResponse(content, status_code=201)


async def changed(request: Request, user: UserRow, change: Awaitable[Loaded]) -> dict[str, Any]:
    """The event's page after `change` (a service call, awaited here), or its refusal."""
    try:
        found = await change
    except TournamentError as error:
        raise refused(error) from None
    return await detail(request, found, user)


@router.post("/tournaments/{tournament_id}/register", dependencies=CHANGES, summary="Inscribirse")
async def register(
    tournament_id: str, request: Request, user: Account, body: Registration | None = None
) -> dict[str, Any]:
    body = body or Registration()
    tournaments = server_state(request).tournaments
    return await changed(
        request, user, tournaments.register(user, tournament_id, body.invite, body.partner, body.pena)
    )


@router.post("/tournaments/{tournament_id}/withdraw", dependencies=CHANGES, summary="Retirarse")
async def withdraw(tournament_id: str, request: Request, user: Account) -> dict[str, Any]:
    return await changed(request, user, server_state(request).tournaments.withdraw(user, tournament_id))


@router.post("/tournaments/{tournament_id}/start", dependencies=CHANGES, summary="Empezar (su creador)")
async def start(tournament_id: str, request: Request, user: Account) -> dict[str, Any]:
    """An event with no start time starts when its creator says (a minitorneo: when full)."""
    return await changed(request, user, server_state(request).tournaments.start(user, tournament_id))


@router.post("/tournaments/{tournament_id}/cancel", dependencies=CHANGES, summary="Cancelar (su creador)")
async def cancel(tournament_id: str, request: Request, user: Account) -> dict[str, Any]:
    return await changed(request, user, server_state(request).tournaments.cancel(user, tournament_id))


# A player's tournaments -----------------------------------------------------------------------


def played(row: TournamentRow, place: int | None) -> dict[str, Any]:
    """One of a player's tournaments, as their profile lists it."""
    return {
        "id": row.id,
        "name": row.name,
        "format": row.format,
        "status": row.status,
        "finished_at": row.finished_at,
        "place": place,
        "entrants": Tournament.from_json(row.doc).summary_json()["entrants"],
    }


async def player_tournament_list(
    request: Request, user: UserRow, viewer: UserRow | None, limit: int
) -> list[dict[str, Any]]:
    """The tournaments `user` entered, as `viewer` may see them (private ones: the player's own)."""
    mine = viewer is not None and viewer.user_id == user.user_id
    found = await server_state(request).tournaments.of_player(user.user_id, limit, public_only=not mine)
    return [played(row, place) for row, place in found]


@router.get("/players/{name}/tournaments", summary="Los torneos de un jugador y sus puestos")
async def player_tournaments(name: str, request: Request) -> dict[str, Any]:
    user = await server_state(request).store.find_user(normal_form(name[:NAME_MAX]))
    if user is None:
        raise ApiError(404, "no_such_player", name=name[:NAME_MAX])
    return {
        "tournaments": await player_tournament_list(
            request, user, await current_user(request), PLAYER_TOURNAMENTS
        )
    }
