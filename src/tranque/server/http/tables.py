"""Tables with other people (an account required): create one, and look one up.

A table is created empty; its host (and everybody else) then takes a seat with the WebSocket
`sit` message. A private table is reached only through its invite code, an unguessable
`secrets.token_urlsafe(16)`; it never shows in the lobby, and asking for it without the code
answers exactly as for a table that does not exist.
"""

from __future__ import annotations

import secrets
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Query, Request
from pydantic import BaseModel, Field

from tranque.engine.messages import OneOf
from tranque.server.addresses import client_address
from tranque.server.app_state import server_state
from tranque.server.fichas.errors import FichasError
from tranque.server.http.accounts import require_user, same_origin_json
from tranque.server.http.api import TableRequest
from tranque.server.http.errors import ApiError, SpanishErrors
from tranque.server.http.penas import answered
from tranque.server.lobby.limits import host_key, waiting_tables
from tranque.server.penas.errors import PenaError
from tranque.server.refusals import Counted
from tranque.server.store import UserRow
from tranque.server.table import commands
from tranque.server.table.actor import Phase, Table, TableError
from tranque.server.table.seats import SeatKind
from tranque.server.table.views import invite_path, watch_path
from tranque.server.talk.watching import SPECTATOR_POLICIES, watch_token

router = APIRouter(prefix="/api", tags=["mesas"], route_class=SpanishErrors)


class CreateTable(TableRequest):
    """The table options of docs/rules.md; `bot_level` is the level of the bots the host may seat."""

    private: bool = Field(False, description="Solo se entra con la invitación; no sale en el vestíbulo.")
    competitive: bool = Field(
        False, description="Competitiva: la partida cuenta para la clasificación y da XP; si no, amistosa."
    )
    bots: bool = Field(
        False, description="Acepta bots: cuentas de bot pueden sentarse (su partida cuenta entre bots)."
    )
    pena_id: int | None = Field(
        None, description="Una mesa de tu peña: privada, y solo sus miembros se sientan (docs/penas.md)."
    )
    spectators: str | None = Field(
        None,
        max_length=16,
        examples=["link"],
        description="Mirones de una mesa privada: " + ", ".join(SPECTATOR_POLICIES) + " (por defecto none).",
    )
    stake: int = Field(
        0,
        ge=0,
        examples=[50],
        description="Apuesta en fichas para sentarse (solo competitiva; uno de los niveles del sitio).",
    )


class Created(BaseModel):
    table: str
    kind: str = Field(examples=["private"])
    invite: str | None = Field(None, description="El código de invitación (mesas privadas).")
    invite_url: str | None = Field(None, examples=["/mesa?invite=CODE"])
    watch_url: str | None = Field(None, description="El enlace para mirones (mirones «link»).")


class SeatSummary(BaseModel):
    seat: int
    name: str | None
    kind: str


class TableSummary(BaseModel):
    table: str
    kind: str
    phase: str
    competitive: bool
    bots: bool
    preset: str
    players: int
    mode: str
    target: int
    turn_seconds: int
    capicua_bonus: int
    seats: list[SeatSummary]
    # Only at a staked table (its routes leave unset fields out): with fichas off, or at a table
    # without a stake, no stake or pot appears at all (docs/fichas.md).
    stake: int = Field(0, description="La apuesta en fichas para sentarse; solo en una mesa con apuesta.")
    pot: int = Field(0, description="Las fichas en el bote de la partida; solo en una mesa con apuesta.")


def no_table() -> ApiError:
    return ApiError(404, "no_such_table")


def summary(table: Table) -> TableSummary:
    rules = table.rules
    return TableSummary(
        table=table.table_id,
        kind=table.options.kind,
        phase=table.state.phase.value,
        competitive=table.options.competitive,
        bots=table.options.bots,
        preset=rules.preset_name,
        players=rules.players,
        mode=rules.mode.value,
        target=rules.target,
        turn_seconds=rules.turn_seconds,
        capicua_bonus=rules.capicua_bonus,
        seats=[
            SeatSummary(
                seat=seat.index, name=seat.name if seat.kind is not SeatKind.EMPTY else None, kind=seat.kind
            )
            for seat in table.seats
        ],
        **table.stakes.json(table),
    )


@router.post(
    "/tables",
    response_model=Created,
    status_code=201,
    dependencies=[Depends(same_origin_json)],
    summary="Crear una mesa (pública o privada)",
)
async def create_table(
    body: CreateTable, request: Request, user: Annotated[UserRow, Depends(require_user)]
) -> Created:
    rules = body.rules()
    if body.spectators is not None and body.spectators not in SPECTATOR_POLICIES:
        raise ApiError(422, "bad_spectators", parameter="spectators", choices=OneOf(SPECTATOR_POLICIES))
    state = server_state(request)
    registry, limits = state.registry, state.settings.limits
    try:
        state.fichas.check_table_stake(body.stake, body.competitive)
    except FichasError as error:
        params: dict[str, Any] = dict(error.params)  # the refusal's figures (the levels)
        raise ApiError(error.status, error.key, parameter="stake", **params) from None
    if body.pena_id is not None:
        try:
            await state.penas.check_member(body.pena_id, user, "table")
        except PenaError as error:
            raise answered(error) from None

    async def make() -> Created:
        # Nothing is awaited between counting the account's waiting tables and claiming this one.
        if waiting_tables(registry, user.user_id) >= limits.waiting_tables_per_account:
            most = Counted(limits.waiting_tables_per_account, "tables")
            raise ApiError(429, "too_many_tables", tables=most)
        kind = "private" if body.private or body.pena_id is not None else "public"
        spectators = (body.spectators or "none") if kind == "private" else None  # public: anybody watches
        table = await registry.create(
            rules,
            registry.options(
                kind=kind,
                bot_level=body.bot_level,
                host_user_id=user.user_id,
                competitive=body.competitive,
                bots=body.bots,
                pena_id=body.pena_id,
                spectators=spectators,
                watch_token=watch_token() if spectators == "link" else None,
                stake=body.stake,
            ),
            [host_key(user.user_id)],
        )
        code, watch = table.options.invite_code, table.options.watch_token
        if kind == "private" and code is not None:
            watch_url = None if watch is None else watch_path(table.table_id, watch)
            return Created(
                table=table.table_id,
                kind=kind,
                invite=code,
                invite_url=invite_path(code),
                watch_url=watch_url,
            )
        return Created(table=table.table_id, kind=kind, invite=None, invite_url=None, watch_url=None)

    return await state.once.run(host_key(user.user_id), body.once, make)


class LiveSeat(BaseModel):
    table: str
    seat: int
    token: str = Field(description="The seat's token, for hello.token.")
    phase: str = Field(examples=["playing"])
    preset: str = Field(examples=["clasico"])


@router.get("/me/seats", response_model=list[LiveSeat], summary="Tus puestos en mesas sin terminar")
async def my_seats(request: Request, user: Annotated[UserRow, Depends(require_user)]) -> list[LiveSeat]:
    """Every seat the account holds at a table that has not ended: where «Volver a tu
    partida» goes, from any device the account is logged in on."""
    found = []
    for table in list(server_state(request).registry.tables.values()):
        if table.state.seat_of_user(user.user_id) is None or table.state.phase.is_over:
            continue
        try:
            held = await table.call(commands.AccountSeat(user.user_id, client_address(request)))
        except TableError:
            continue  # retired meanwhile
        if held is not None:
            seat, token = held
            phase = "waiting" if table.state.phase is Phase.WAITING else "playing"
            preset = table.rules.preset_name
            found.append(LiveSeat(table=table.table_id, seat=seat, token=token, phase=phase, preset=preset))
    return found


class Stakes(BaseModel):
    enabled: bool = Field(description="Whether the site plays for fichas at all.")
    stakes: list[int] = Field(examples=[[10, 50, 100, 500]], description="The stakes a table may have.")


@router.get("/stakes", response_model=Stakes, summary="Las apuestas en fichas que una mesa puede tener")
async def stakes(request: Request) -> Stakes:
    """What the create-table form offers: no stake select when fichas are off."""
    fichas = server_state(request).fichas
    levels = [level for level in fichas.stakes if level > 0] if fichas.enabled else []
    return Stakes(enabled=fichas.enabled, stakes=levels)


@router.get(
    "/tables/{table_id}",
    response_model=TableSummary,
    response_model_exclude_unset=True,  # `stake` and `pot` only at a staked table
    summary="Una mesa: reglas, puestos y fase",
)
async def get_table(
    table_id: str,
    request: Request,
    invite: Annotated[str | None, Query(max_length=64, description="El código de una mesa privada.")] = None,
) -> TableSummary:
    try:
        table = await server_state(request).registry.find(table_id)
    except TableError:
        raise no_table() from None
    if table.options.kind.watchable:  # public, and a tournament's (linked from its page)
        return summary(table)
    if invite is not None and _invited(table, invite):
        return summary(table)
    raise no_table()  # private, practice or quick-match tables: as if there were none


@router.get(
    "/invites/{code}",
    response_model=TableSummary,
    response_model_exclude_unset=True,  # `stake` and `pot` only at a staked table
    summary="La mesa de una invitación",
)
async def get_invite(code: str, request: Request) -> TableSummary:
    return summary(server_state(request).registry.by_invite(code))  # TableError: 404 bad_invite


def _invited(table: Table, code: str) -> bool:
    expected = table.options.invite_code
    return expected is not None and secrets.compare_digest(expected.encode(), code.encode())
