"""The operator's API, `/api/admin/...` (docs/deploy.md, «Admin»).

Only for accounts whose role is `admin` (`tranque admin grant NAME admin`): the admin's browser
session, or an admin API token (`tranque admin token NAME`, sent as ``Authorization: Bearer
tqa_…``: accounts/admin_tokens.py). A moderator or a player gets 403 `not_an_admin`; a token
the site does not know, 401 `bad_admin_token`.

- find accounts by the start of their name: role, sanctions in force, the tables they sit at;
- a table (or a game, `TABLE.N`): its status, host and players; its whole event log, hands
  and deal secrets included (the operator sees everything: the page says it is private), the
  deal commitments, and the check of its last finished game's record (in the record checker's
  worker pool: analysis/verify_pool.py);
- end a stuck table: its game is annulled (`commands.EndByOperator`, run by the table's owner
  wherever it lives: `Table.call`), its players are told the reason;
- close every socket of an account (on every process: accounts/account_sockets.py);
- ban and unban, with the moderators' sanctions (moderation/enforce.py);
- an account's fichas: its balance and every movement (fichas off: `fichas_off`).

Every action is written in the moderation audit log with the admin and the reason. The
processes and their draining are the cluster's (`/api/admin/processes`), not here.
"""

from __future__ import annotations

import json
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Query, Request
from fastapi.responses import JSONResponse
from pydantic import BaseModel, Field

from tranque.server.accounts.admin_tokens import user_of_admin_token
from tranque.server.accounts.bot_tokens import bearer_token
from tranque.server.accounts.names import normal_form
from tranque.server.analysis.verify import RecordRefused
from tranque.server.analysis.verify_pool import VerifierBusy
from tranque.server.app_state import ServerState, server_state
from tranque.server.fichas.errors import FichasError
from tranque.server.fichas.service import HISTORY_MOST
from tranque.server.http.accounts import NAME_MAX, current_user, same_origin_json
from tranque.server.http.errors import ApiError, SpanishErrors
from tranque.server.http.fichas import HISTORY_PAGE
from tranque.server.http.fichas import account_fichas as fichas_of
from tranque.server.http.moderation import REASON_MAX, Names, enforcer
from tranque.server.moderation.standing import barring, in_force
from tranque.server.store import StoredEvent, UserRow
from tranque.server.store.moderation import LogEntry
from tranque.server.table import commands
from tranque.server.table.actor import Table, TableError
from tranque.server.table.seats import SeatKind

router = APIRouter(prefix="/api/admin", tags=["administración"], route_class=SpanishErrors)
FIND_MOST = 20
CLOSED_BY_ADMIN = "closed_by_admin"  # the close reason of sockets an admin closed
SECRET_KEYS = ("token_hash",)  # a seat's token hash: of no use to read, kept out of the log shown


async def require_admin(request: Request) -> UserRow:
    state = server_state(request)
    token = bearer_token(request.headers)
    if token is not None:
        user = await user_of_admin_token(state.store, token)
        if user is None:
            raise ApiError(401, "bad_admin_token")
    else:
        user = await current_user(request)
        if user is None:
            raise ApiError(401, "login_required")
    if await state.store.role_of(user.user_id) != "admin":
        raise ApiError(403, "not_an_admin")
    return user


Admin = Annotated[UserRow, Depends(require_admin)]


def _table_id(table_or_game: str) -> str:
    """A table's id from itself or from one of its games' (`TABLE.N`).

    >>> _table_id("abc123.2"), _table_id("abc123")
    ('abc123', 'abc123')
    """
    head, dot, tail = table_or_game.rpartition(".")
    return head if dot and tail.isdigit() else table_or_game


def _seat_line(table: Table, seat_index: int) -> dict[str, Any]:
    return {
        "table": table.table_id,
        "seat": seat_index,
        "phase": table.state.phase.value,
        "kind": table.options.kind,
    }


async def _account_json(state: ServerState, user: UserRow) -> dict[str, Any]:
    rows = await state.store.sanctions_of([user.user_id])
    now = state.settings.clock.now()
    barred = barring(rows, now)
    seats = []
    for table in list(state.registry.tables.values()):  # with several processes: every open one
        seat = table.state.seat_of_user(user.user_id)
        if seat is not None:
            seats.append(_seat_line(table, seat.index))
    return {
        "name": user.name,
        "role": await state.store.role_of(user.user_id),
        "bot": user.is_bot,
        "barred": None if barred is None else barred.kind,
        "muted": in_force(rows, "mute", now) is not None,
        "sanctions": [
            {"id": row.sanction_id, "kind": row.kind, "until": row.until, "reason": row.reason}
            for row in rows
            if row.holds(now)
        ],
        "sockets_here": state.account_sockets.count(user.user_id),
        "seats": seats,
    }


@router.get("/players", summary="Buscar cuentas por el comienzo del nombre")
async def find_players(
    request: Request, admin: Admin, prefix: Annotated[str, Query(min_length=1, max_length=NAME_MAX)]
) -> dict[str, Any]:
    state = server_state(request)
    users = await state.store.users_by_prefix(normal_form(prefix), FIND_MOST)
    return {"players": [await _account_json(state, user) for user in users]}


async def _live_table(state: ServerState, table_id: str) -> Table | None:
    try:
        return await state.registry.find(table_id)
    except TableError:
        return None


def _players_of_log(events: list[StoredEvent]) -> list[dict[str, Any]]:
    """Each seat as the table's log last says (its `seat` events only: nothing replayed)."""
    seats: dict[int, dict[str, Any]] = {}
    for stored in events:
        if stored.kind == "seat":
            data = stored.data
            seats[int(data["seat"])] = {
                "seat": int(data["seat"]),
                "name": data.get("name") or None,
                "kind": data.get("kind"),
                "state": data.get("state"),
            }
    return [seats[index] for index in sorted(seats)]


async def _table_json(state: ServerState, table_id: str) -> dict[str, Any]:
    row = await state.store.table(table_id)
    if row is None:
        raise ApiError(404, "no_such_game_or_table", id=table_id)
    options = row.config.get("options", {})
    names = Names(state)
    table = await _live_table(state, table_id)
    if table is not None:
        status = table.state.phase.value
        players = [
            {
                "seat": seat.index,
                "name": seat.name or None,
                "kind": seat.kind.value,
                "state": seat.state.value,
            }
            for seat in table.state.seats
        ]
        game = table.state.game_number
    else:
        events = await state.store.load_events(table_id)
        status, players = row.status, _players_of_log(events)
        game = sum(1 for stored in events if stored.kind == "game_started")
    return {
        "table": table_id,
        "status": status,
        "live": table is not None,
        "owned_here": None if table is None else table.owned,  # else a replica of another process's
        "kind": options.get("kind"),
        "competitive": bool(options.get("competitive")),
        "host": await names.of(options.get("host_user_id")),
        "created_at": row.created_at,
        "game": game,
        "players": [player for player in players if player["kind"] != SeatKind.EMPTY.value],
        "seats": len(players),
    }


@router.get("/tables/{table_id}", summary="Una mesa (o partida): estado, anfitrión y jugadores")
async def get_table(table_id: str, request: Request, admin: Admin) -> dict[str, Any]:
    return await _table_json(server_state(request), _table_id(table_id))


def _shown(stored: StoredEvent) -> dict[str, Any]:
    data = {key: value for key, value in stored.data.items() if key not in SECRET_KEYS}
    return {"seq": stored.seq, "kind": stored.kind, "at": stored.at, "data": data}


def _commitments(events: list[StoredEvent]) -> list[dict[str, Any]]:
    """Each deal's commitment, published at the deal, and whether its seed is revealed."""
    out: list[dict[str, Any]] = []
    for stored in events:
        if stored.kind == "round_started" and stored.data.get("commitment"):
            out.append({"seq": stored.seq, "commitment": stored.data["commitment"], "revealed": False})
        elif stored.kind == "round_ended" and out and stored.data.get("seed"):
            out[-1]["revealed"] = True
    return out


@router.get("/tables/{table_id}/log", summary="El registro completo de una mesa (privado: con las manos)")
async def table_log(table_id: str, request: Request, admin: Admin) -> dict[str, Any]:
    state = server_state(request)
    table_id = _table_id(table_id)
    if await state.store.table(table_id) is None:
        raise ApiError(404, "no_such_game_or_table", id=table_id)
    events = await state.store.load_events(table_id)
    return {
        "table": table_id,
        "private": True,
        "events": [_shown(stored) for stored in events],
        "commitments": _commitments(events),
    }


@router.post("/tables/{table_id}/verify", summary="Verificar la última partida terminada de una mesa")
async def verify_table(
    table_id: str,
    request: Request,
    admin: Admin,
    lang: Annotated[str, Query(pattern="^(es|en)$")] = "es",
) -> Any:
    state = server_state(request)
    record = await state.store.load_record(_table_id(table_id))
    if record is None:
        raise ApiError(404, "no_record")
    text = json.dumps(record).encode()
    try:
        return await state.verifier.check(text, f"admin:{admin.user_id}", lang)
    except RecordRefused as refused:
        return JSONResponse(refused.body, status_code=422)
    except VerifierBusy as busy:
        return JSONResponse(busy.body, status_code=503, headers={"Retry-After": "5"})


class ReasonBody(BaseModel):
    reason: str = Field(max_length=REASON_MAX, description="Why: the players read it; kept in the audit log.")


def _reason(body: ReasonBody) -> str:
    reason = body.reason.strip()
    if not reason:
        raise ApiError(422, "sanction_reason_missing", parameter="reason")
    return reason


@router.post(
    "/tables/{table_id}/end",
    dependencies=[Depends(same_origin_json)],
    summary="Terminar una mesa atascada: su partida se anula",
)
async def end_table(table_id: str, body: ReasonBody, request: Request, admin: Admin) -> dict[str, Any]:
    state = server_state(request)
    reason = _reason(body)
    table_id = _table_id(table_id)
    table = await _live_table(state, table_id)
    if table is None:
        row = await state.store.table(table_id)
        if row is None:
            raise ApiError(404, "no_such_game_or_table", id=table_id)
        raise ApiError(409, "already_over")  # not live any more: its game is over
    try:
        ended = await table.call(commands.EndByOperator(reason))
    except TableError as error:
        status = 404 if error.key == "no_such_table" else 409
        raise ApiError(status, error.key) from None
    if not ended:
        raise ApiError(409, "already_over")
    now = state.settings.clock.now()
    await state.store.write_log(
        LogEntry(now, admin.user_id, "end_table", None, None, reason, {"table": table_id})
    )
    return {"table": table_id, "status": "annulled", "reason": reason}


async def _account(state: ServerState, name: str) -> UserRow:
    user = await state.store.find_user(normal_form(name[:NAME_MAX]))
    if user is None:
        raise ApiError(404, "no_such_player", parameter="player", name=name[:NAME_MAX])
    return user


@router.post(
    "/accounts/{name}/close-sockets",
    dependencies=[Depends(same_origin_json)],
    summary="Cerrar todas las conexiones de una cuenta",
)
async def close_sockets(name: str, body: ReasonBody, request: Request, admin: Admin) -> dict[str, Any]:
    state = server_state(request)
    reason = _reason(body)
    user = await _account(state, name)
    here = state.account_sockets.count(user.user_id)
    await state.account_sockets.close(user.user_id, CLOSED_BY_ADMIN)
    now = state.settings.clock.now()
    await state.store.write_log(LogEntry(now, admin.user_id, "close_sockets", user.user_id, None, reason, {}))
    return {"name": user.name, "closed_here": here}


class PlayerReason(ReasonBody):
    player: str = Field(max_length=NAME_MAX, examples=["Pedro_23"])


@router.post(
    "/ban",
    status_code=201,
    dependencies=[Depends(same_origin_json)],
    summary="Expulsar una cuenta (la sanción «ban» de moderación)",
)
async def ban(body: PlayerReason, request: Request, admin: Admin) -> dict[str, Any]:
    state = server_state(request)
    reason = _reason(body)
    user = await _account(state, body.player)
    if user.user_id == admin.user_id:
        raise ApiError(422, "sanction_self", parameter="player")
    if await state.store.role_of(user.user_id) != "player":
        raise ApiError(409, "sanction_moderator", parameter="player", name=user.name)
    now = state.settings.clock.now()
    entry = LogEntry(now, admin.user_id, "ban", user.user_id, None, reason, {"until": None})
    row = await enforcer(state).impose(user.user_id, "ban", None, entry)
    return {"name": user.name, "sanction": row.sanction_id, "kind": "ban"}


@router.post(
    "/unban",
    dependencies=[Depends(same_origin_json)],
    summary="Levantar la expulsión de una cuenta",
)
async def unban(body: PlayerReason, request: Request, admin: Admin) -> dict[str, Any]:
    state = server_state(request)
    reason = _reason(body)
    user = await _account(state, body.player)
    now = state.settings.clock.now()
    bans = [
        row for row in await state.store.sanctions_of([user.user_id]) if row.kind == "ban" and row.holds(now)
    ]
    if not bans:
        raise ApiError(409, "not_banned", parameter="player", name=user.name)
    lifted = []
    for row in bans:
        entry = LogEntry(
            now, admin.user_id, "unban", user.user_id, None, reason, {"sanction": row.sanction_id}
        )
        if await enforcer(state).lift(row, entry) is not None:
            lifted.append(row.sanction_id)
    return {"name": user.name, "lifted": lifted}


@router.get("/accounts/{name}/fichas", summary="Las fichas de una cuenta: saldo y movimientos")
async def account_fichas(
    name: str,
    request: Request,
    admin: Admin,
    limit: Annotated[int, Query(ge=1, le=HISTORY_MOST)] = HISTORY_PAGE,
    before: Annotated[int | None, Query(ge=1)] = None,
) -> Any:
    """Any account's balance and movements (docs/fichas.md); `fichas_off` (404) when they are off."""
    state = server_state(request)
    user = await _account(state, name)
    try:
        found = await fichas_of(state.fichas, state.store, user.user_id, limit, before)
    except FichasError as error:
        return JSONResponse(error.body(), status_code=error.status)
    return {"name": user.name, **found}
