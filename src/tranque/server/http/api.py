"""The HTTP API (OpenAPI at /docs): practice tables, the lobby, records and deal checks.

Every refusal is a flat JSON body {"code", "message", "message_en"[, "parameter"]}, in
Spanish and in English (http/errors.py).
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter, Query, Request
from fastapi.responses import JSONResponse
from pydantic import BaseModel, ConfigDict, Field

from tranque.bots import bot_names
from tranque.engine import Rules, RulesError
from tranque.engine.messages import OneOf
from tranque.engine.presets import PRESETS
from tranque.server.addresses import client_place
from tranque.server.analysis.verify import RecordRefused
from tranque.server.analysis.verify_pool import VerifierBusy
from tranque.server.app_state import ServerState, server_state
from tranque.server.http.accounts import current_user
from tranque.server.http.errors import ApiError, SpanishErrors
from tranque.server.lobby.limits import account_games, account_key, address_key, live_games
from tranque.server.lobby.once import MAX_KEY
from tranque.server.players.access import can_see, may_see, private_game
from tranque.server.refusals import Counted
from tranque.server.table import bot_text
from tranque.server.table.choices import catalogue, target_choices
from tranque.server.table.log import last_game, record_withheld
from tranque.server.table.state import TableOptions

router = APIRouter(prefix="/api", route_class=SpanishErrors)


class TableRequest(BaseModel):
    """Table options of docs/rules.md; anything left out takes the preset's default."""

    preset: str = Field(default="clasico", examples=["clasico"])
    players: int | None = Field(default=None, examples=[4])
    mode: str | None = Field(default=None, examples=["pairs"])
    target: int | None = Field(default=None, examples=[100])
    turn_seconds: int | None = Field(default=None, examples=[30])
    capicua_bonus: int | None = Field(default=None, examples=[0])
    bot_level: str = Field(default="heuristic", examples=["expert"])
    once: str | None = Field(
        default=None,
        max_length=MAX_KEY,
        description="A key the client makes up per click: a repeat gets the first answer (once.py).",
    )

    def rules(self) -> Rules:
        if self.bot_level not in bot_names():
            raise ApiError(
                422, "unknown_bot.listed", parameter="bot_level", level=self.bot_level, levels=bot_names()
            )
        try:
            rules = Rules.from_options(
                self.preset,
                players=self.players,
                mode=self.mode,
                target=self.target,
                turn_seconds=self.turn_seconds,
                capicua_bonus=self.capicua_bonus,
            )
        except RulesError as error:
            raise ApiError(422, "bad_rules", parameter=error.parameter, cause=error) from None
        choices = target_choices(rules.preset_name, rules.players)
        if rules.target not in choices:
            raise ApiError(
                422,
                "bad_rules.target" if len(choices) > 1 else "bad_rules.only_target",
                parameter="target",
                title=PRESETS[rules.preset_name].title,
                players=rules.players,
                choices=OneOf(choices),
                target=rules.target,
            )
        return rules


class PracticeRequest(TableRequest):
    name: str = Field(default="Invitado", max_length=24)


class Seated(BaseModel):
    table: str
    seat: int
    token: str = Field(description="Keep it: it reclaims the seat after a disconnect (hello.token).")


@router.post("/practice", response_model=Seated, summary="Practicar contra la máquina (sin cuenta)")
async def practice(body: PracticeRequest, request: Request) -> Seated:
    state = server_state(request)
    rules = body.rules()
    user = await current_user(request)
    user_id = None if user is None else user.user_id
    address = client_place(request, state.settings.ipv6_prefix)

    async def make() -> Seated:
        # Nothing is awaited between counting the quotas and the registry's claiming them.
        claims = practice_claims(state, address, user_id)
        name = body.name.strip() or "Invitado"
        table, token = await state.registry.practice(rules, name, body.bot_level, claims, user_id, address)
        return Seated(table=table.table_id, seat=0, token=token)

    who = address_key(address) if user_id is None else account_key(user_id)
    return await state.once.run(who, body.once, make)


def practice_claims(state: ServerState, address: str, user_id: int | None) -> list[str]:
    """What a new practice game counts against: its address, and its account when logged in;
    `too_many_games` (429) when one of them is at its quota."""
    limits, registry = state.settings.limits, state.registry
    claims = [address_key(address)]
    if live_games(registry, claims[0]) >= limits.live_games_per_address:
        raise ApiError(429, "too_many_games.address", games=Counted(limits.live_games_per_address, "games"))
    if user_id is None:
        return claims
    if account_games(registry, user_id, state.quick.is_waiting) >= limits.live_games_per_account:
        raise ApiError(429, "too_many_games", games=Counted(limits.live_games_per_account, "games"))
    return [*claims, account_key(user_id)]


@router.get("/cluster", summary="Este proceso en el clúster: mesas propias, réplicas, relevos")
async def cluster(request: Request) -> dict[str, Any]:
    """With several processes: this one's name, how many tables it owns and keeps as
    replicas, and how often it took a table over, gave one up or had a write refused."""
    found = server_state(request).registry.cluster
    return {"node": None} if found is None else found.status()


@router.get("/lobby", summary="Mesas públicas esperando jugadores")
async def lobby(request: Request) -> list[dict[str, Any]]:
    return server_state(request).registry.lobby()


@router.get("/tables/{table_id}/record", summary="El registro de una partida terminada")
async def record(table_id: str, request: Request) -> dict[str, Any]:
    """The record of the table's last finished game, seen exactly as GET
    /api/games/{id}/record sees it (players/access.py): once the game is kept, by the kept
    game's own rule; before (the recorder keeps it just after the end), or for an annulled
    game, by the same rule read from the table (a private casual game: its players only).
    To anybody else it answers as if there were none."""
    store = server_state(request).store
    found = await store.load_record(table_id)
    row = await store.table(table_id)
    if found is None or row is None:
        raise ApiError(404, "no_record")
    number, seated = await last_game(store, table_id)
    user = await current_user(request)
    kept = await store.load_game(f"{table_id}.{number}")
    if kept is not None:
        visible = can_see(kept, await store.game_players(kept.game_id), user)
    else:
        visible = may_see(private_game(TableOptions(**row.config["options"])), seated, user)
    if not visible:
        raise ApiError(404, "no_record")  # a private game: as if there were none
    if await server_state(request).registry.hides_seeds(table_id):
        return record_withheld(found)  # shared deals not revealed yet (a duplicado's round)
    return found


class RecordBody(BaseModel):
    """A record, as GET /api/tables/{id}/record gives it."""

    model_config = ConfigDict(extra="allow", title="Record")


# The body is read by the worker, not by FastAPI: /docs learns its schema from here.
RECORD_BODY = {"required": True, "content": {"application/json": {"schema": RecordBody.model_json_schema()}}}


@router.post(
    "/verify",
    summary="Verificar un registro: cada reparto y cada jugada",
    openapi_extra={"requestBody": RECORD_BODY},
)
async def verify(
    request: Request,
    lang: Annotated[Literal["es", "en"], Query(description="The language of the problems.")] = "es",
) -> Any:
    state = server_state(request)
    # The body is read already (http/body_limit.py) and parsed by the worker, not here.
    text = await request.body()
    try:
        return await state.verifier.check(text, client_place(request, state.settings.ipv6_prefix), lang)
    except RecordRefused as refused:
        return JSONResponse(refused.body, status_code=422)
    except VerifierBusy as busy:
        return JSONResponse(busy.body, status_code=503, headers={"Retry-After": "5"})


@router.get("/bots", summary="Niveles de bot")
async def bots() -> list[dict[str, str]]:
    return bot_text.catalogue()


@router.get("/presets", summary="Modalidades: todo lo que un formulario de mesa ofrece")
async def presets() -> list[dict[str, Any]]:
    return catalogue()
