"""Players' reports over HTTP: `POST /api/reports` (docs/protocol.md, «Moderation»).

A logged-in player reports another account, from its profile or about a game they played
together: a reason code (moderation/reports.py), an optional short note. Refused: oneself,
a bot account, an unknown account or game, a game the two did not both play, a second
report of the same account for the same game (or from its profile), and more than
`Settings.reports_per_day` reports a day. A report goes to the moderators' queue and
changes nothing else.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends, Request
from pydantic import BaseModel, Field

from tranque.engine.messages import OneOf
from tranque.server.accounts.names import normal_form
from tranque.server.app_state import ServerState, server_state
from tranque.server.http.accounts import NAME_MAX, require_user, same_origin_json
from tranque.server.http.errors import ApiError, SpanishErrors
from tranque.server.moderation.reports import NOTE_MAX, REASONS
from tranque.server.store import UserRow
from tranque.server.store.moderation import AlreadyReported, NewReport
from tranque.server.table.actor import TableError

router = APIRouter(prefix="/api", tags=["moderación"], route_class=SpanishErrors)
DAY = 24 * 3600
GAME_ID_MAX = 80


class ReportRequest(BaseModel):
    player: str = Field(max_length=NAME_MAX, examples=["Pedro_23"], description="The account reported.")
    reason: str = Field(
        max_length=16, examples=["cheating"], description="One of " + ", ".join(REASONS) + "."
    )
    note: str | None = Field(default=None, description=f"At most {NOTE_MAX} characters.")
    game: str | None = Field(
        default=None, max_length=GAME_ID_MAX, examples=["t-abc123.1"], description="The game, if any."
    )


class ReportMade(BaseModel):
    id: int


@router.post(
    "/reports",
    response_model=ReportMade,
    status_code=201,
    dependencies=[Depends(same_origin_json)],
    summary="Reportar a un jugador (desde su perfil o una partida)",
)
async def report(
    body: ReportRequest, request: Request, user: Annotated[UserRow, Depends(require_user)]
) -> ReportMade:
    state = server_state(request)
    if body.reason not in REASONS:
        raise ApiError(422, "bad_report_reason", parameter="reason", reasons=OneOf(REASONS))
    note = (body.note or "").strip() or None
    if note is not None and len(note) > NOTE_MAX:
        raise ApiError(422, "report_note_too_long", parameter="note", most=NOTE_MAX)
    if user.is_bot:
        raise ApiError(403, "bot_not_allowed")
    subject = await state.store.find_user(normal_form(body.player))
    if subject is None:
        raise ApiError(404, "no_such_player", parameter="player", name=body.player)
    if subject.user_id == user.user_id:
        raise ApiError(422, "report_self", parameter="player")
    if subject.is_bot:
        raise ApiError(422, "report_bot", parameter="player")
    if body.game is not None and not await _played_together(state, body.game, user.user_id, subject.user_id):
        raise ApiError(404, "report_no_game", parameter="game")
    now = state.settings.clock.now()
    if await state.store.reports_since(user.user_id, now - DAY) >= state.settings.reports_per_day:
        raise ApiError(429, "too_many_reports", most=state.settings.reports_per_day)
    try:
        item_id = await state.store.add_report(
            NewReport(user.user_id, subject.user_id, body.reason, note, body.game, now)
        )
    except AlreadyReported:
        raise ApiError(409, "already_reported", name=subject.name) from None
    return ReportMade(id=item_id)


async def _played_together(state: ServerState, game_id: str, one: int, other: int) -> bool:
    """Both accounts played game `game_id` (kept, or still at its live table)."""
    game = await state.store.load_game(game_id)
    if game is not None:
        players = {player.user_id for player in await state.store.game_players(game_id)}
        return {one, other} <= players
    table_id, _, number = game_id.rpartition(".")
    try:
        table = await state.registry.find(table_id)
    except TableError:
        return False
    seated = table.state.seat_of_user(one) is not None and table.state.seat_of_user(other) is not None
    return seated and number.isdigit()
