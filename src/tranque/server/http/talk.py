"""Table talk over HTTP (an account required; docs/protocol.md, «Table talk»): the account's
chat setting and mutes, and the report of a chat line.

- `GET /api/me/chat`: `{chat_off, muted: [{name}]}`; `PUT /api/me/chat` `{chat_off}` sets it
  (a guest keeps its setting in the browser instead).
- `POST /api/me/chat/mutes` `{name}` and `DELETE /api/me/chat/mutes/{name}`: mute a player for
  yourself (their chat lines and phrases reach none of your sockets; they are not told) or
  undo it. Each answers the account's settings as `GET` gives them.
- `POST /api/reports/chat` `{table, seq}`: report the chat line `seq` of a table you are
  seated at. The server reads the line from the table itself (a client cannot put words in
  anybody's mouth) and files a report (reason «abuse», the line as its note) in the
  moderators' queue, as `POST /api/reports` does, with the same limits.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends, Request
from pydantic import BaseModel, Field

from tranque.server.accounts.names import normal_form
from tranque.server.app_state import ServerState, server_state
from tranque.server.http.accounts import NAME_MAX, require_user, same_origin_json
from tranque.server.http.errors import ApiError, SpanishErrors
from tranque.server.http.reports import DAY, ReportMade
from tranque.server.moderation.reports import NOTE_MAX
from tranque.server.store import UserRow
from tranque.server.store.moderation import AlreadyReported, NewReport
from tranque.server.table.actor import TableError

router = APIRouter(prefix="/api", tags=["chat"], route_class=SpanishErrors)
Account = Annotated[UserRow, Depends(require_user)]
CHANGES = [Depends(same_origin_json)]


class Muted(BaseModel):
    name: str


class ChatSettings(BaseModel):
    chat_off: bool = Field(description="Chat apagado: no ves los mensajes escritos de la mesa.")
    muted: list[Muted] = Field(description="Los jugadores que silenciaste (sus mensajes y frases).")


class ChatSwitch(BaseModel):
    chat_off: bool


class MuteRequest(BaseModel):
    name: str = Field(max_length=NAME_MAX, description="El jugador a silenciar.")


class ChatReport(BaseModel):
    table: str = Field(max_length=64, description="La mesa donde estás sentado.")
    seq: int = Field(ge=1, description="El número del evento `chat` del mensaje.")


async def _settings(state: ServerState, user: UserRow) -> ChatSettings:
    muted = await state.store.chat_muted_users(user.user_id)
    return ChatSettings(
        chat_off=await state.store.chat_off(user.user_id), muted=[Muted(name=u.name) for u in muted]
    )


async def _player(state: ServerState, name: str) -> UserRow:
    found = await state.store.find_user(normal_form(name))
    if found is None:
        raise ApiError(404, "no_such_player", parameter="name", name=name)
    return found


@router.get("/me/chat", response_model=ChatSettings, summary="Tu chat: apagado o no, y a quién silenciaste")
async def chat_settings(request: Request, user: Account) -> ChatSettings:
    return await _settings(server_state(request), user)


@router.put("/me/chat", response_model=ChatSettings, dependencies=CHANGES, summary="Apagar o prender el chat")
async def switch_chat(body: ChatSwitch, request: Request, user: Account) -> ChatSettings:
    state = server_state(request)
    await state.store.set_chat_off(user.user_id, body.chat_off, state.settings.clock.now())
    return await _settings(state, user)


@router.post(
    "/me/chat/mutes", response_model=ChatSettings, dependencies=CHANGES, summary="Silenciar a alguien"
)
async def mute(body: MuteRequest, request: Request, user: Account) -> ChatSettings:
    state = server_state(request)
    other = await _player(state, body.name)
    if other.user_id == user.user_id:
        raise ApiError(422, "mute_self", parameter="name")
    await state.store.mute_in_chat(user.user_id, other.user_id, state.settings.clock.now())
    await state.friends.mutes_changed(user.user_id)
    return await _settings(state, user)


@router.delete(
    "/me/chat/mutes/{name}", response_model=ChatSettings, dependencies=CHANGES, summary="Dejar de silenciar"
)
async def unmute(name: str, request: Request, user: Account) -> ChatSettings:
    state = server_state(request)
    other = await _player(state, name)
    if not await state.store.unmute_in_chat(user.user_id, other.user_id):
        raise ApiError(404, "not_muted", name=other.name)
    await state.friends.mutes_changed(user.user_id)
    return await _settings(state, user)


@router.post(
    "/reports/chat",
    response_model=ReportMade,
    status_code=201,
    dependencies=CHANGES,
    summary="Reportar un mensaje del chat de tu mesa",
)
async def report_chat(body: ChatReport, request: Request, user: Account) -> ReportMade:
    state = server_state(request)
    try:
        table = await state.registry.find(body.table)
    except TableError:
        raise ApiError(404, "no_such_table") from None
    seats = table.state.seats
    if table.state.seat_of_user(user.user_id) is None:
        raise ApiError(403, "chat_not_seated")
    line = next((line for line in table.state.chat if line[0] == body.seq), None)
    if line is None:
        raise ApiError(404, "no_chat_line", parameter="seq")
    _, seat, text = line
    subject = seats[seat].user_id
    if subject is None:
        raise ApiError(422, "chat_report_guest", parameter="seq")
    if subject == user.user_id:
        raise ApiError(422, "chat_report_own", parameter="seq")
    now = state.settings.clock.now()
    if await state.store.reports_since(user.user_id, now - DAY) >= state.settings.reports_per_day:
        raise ApiError(429, "too_many_reports", most=state.settings.reports_per_day)
    note = f"Chat: «{text}»"[:NOTE_MAX]
    number = table.state.game_number
    game = f"{table.table_id}.{number}" if number else None
    try:
        item_id = await state.store.add_report(NewReport(user.user_id, subject, "abuse", note, game, now))
    except AlreadyReported:
        raise ApiError(409, "already_reported", name=seats[seat].name) from None
    return ReportMade(id=item_id)
