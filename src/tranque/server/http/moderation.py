"""The moderators' API, `/api/moderation/...` (docs/protocol.md, «Moderation»).

Only for accounts whose role is `moderator` or `admin` (`tranque admin grant`); anyone else
gets 403 `not_a_moderator` (401 without a session). The queue of open items (players'
reports and items other parts of the server raise) with the accounts and the game each is
about; an account's sanctions; the sanctions themselves (mute, suspend for some minutes,
ban) and their undo, carried out by moderation/enforce.py; closing an item; the audit log.
Every action is written to the audit log with the moderator, the account and the reason.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Query, Request
from pydantic import BaseModel, Field

from tranque.engine.messages import OneOf
from tranque.server.accounts.names import normal_form
from tranque.server.app_state import ServerState, server_state
from tranque.server.http.accounts import NAME_MAX, require_user, same_origin_json
from tranque.server.http.errors import ApiError, SpanishErrors
from tranque.server.moderation.enforce import UNDO, Enforcer
from tranque.server.moderation.standing import barring, in_force, may_moderate
from tranque.server.store import UserRow
from tranque.server.store.moderation import SANCTIONS, LogEntry, ReviewItem, SanctionRow

router = APIRouter(prefix="/api/moderation", tags=["moderación"], route_class=SpanishErrors)
REASON_MAX = 500
MOST_MINUTES = 366 * 24 * 60  # a suspension's longest: a year
LIST_MOST = 200


async def require_moderator(request: Request) -> UserRow:
    user = await require_user(request)
    if not await may_moderate(server_state(request).store, user.user_id):
        raise ApiError(403, "not_a_moderator")
    return user


Moderator = Annotated[UserRow, Depends(require_moderator)]


def enforcer(state: ServerState) -> Enforcer:
    return Enforcer(state.store, state.registry, state.account_sockets)


class Names:
    """Account names by id, looked up once each."""

    def __init__(self, state: ServerState) -> None:
        self.state = state
        self.known: dict[int, str] = {}

    async def of(self, user_id: int | None) -> str | None:
        if user_id is None:
            return None
        if user_id not in self.known:
            user = await self.state.store.user_by_id(user_id)
            self.known[user_id] = user.name if user is not None else f"#{user_id}"
        return self.known[user_id]


def _game_links(game_id: str | None) -> dict[str, Any] | None:
    if game_id is None:
        return None
    return {"id": game_id, "record": f"/api/games/{game_id}/record", "replay": f"/#/partida/{game_id}"}


async def _item_json(item: ReviewItem, names: Names) -> dict[str, Any]:
    return {
        "id": item.item_id,
        "kind": item.kind,
        "subjects": [{"id": uid, "name": await names.of(uid)} for uid in item.subjects],
        "evidence": item.evidence,
        "game": _game_links(item.game_id),
        "created_at": item.created_at,
        "reporter": await names.of(item.reporter_id),
        "reason": item.reason,
        "note": item.note,
        "status": item.status,
        "closed_at": item.closed_at,
        "closed_by": await names.of(item.closed_by),
        "resolution": item.resolution,
    }


async def _sanction_json(row: SanctionRow, names: Names, now: float) -> dict[str, Any]:
    return {
        "id": row.sanction_id,
        "player": await names.of(row.user_id),
        "kind": row.kind,
        "until": row.until,
        "created_at": row.created_at,
        "by": await names.of(row.created_by),
        "reason": row.reason,
        "lifted_at": row.lifted_at,
        "lifted_by": await names.of(row.lifted_by),
        "holds": row.holds(now),
    }


async def _entry_json(entry: LogEntry, names: Names) -> dict[str, Any]:
    return {
        "id": entry.entry_id,
        "at": entry.at,
        "moderator": await names.of(entry.moderator_id),
        "action": entry.action,
        "player": await names.of(entry.subject_id),
        "item": entry.item_id,
        "reason": entry.reason,
        "details": entry.details,
    }


async def _account(state: ServerState, name: str) -> UserRow:
    user = await state.store.find_user(normal_form(name[:NAME_MAX]))
    if user is None:
        raise ApiError(404, "no_such_player", parameter="player", name=name[:NAME_MAX])
    return user


@router.get("/queue", summary="La cola de moderación: reportes y otros avisos")
async def queue(
    request: Request,
    moderator: Moderator,
    status: Annotated[str, Query(pattern="^(open|closed)$")] = "open",
) -> dict[str, Any]:
    state = server_state(request)
    names = Names(state)
    items = await state.store.review_items(status, LIST_MOST)
    return {"items": [await _item_json(item, names) for item in items]}


@router.get("/log", summary="El registro de acciones de moderación")
async def audit_log(request: Request, moderator: Moderator) -> dict[str, Any]:
    state = server_state(request)
    names = Names(state)
    return {
        "entries": [await _entry_json(entry, names) for entry in await state.store.moderation_log(LIST_MOST)]
    }


@router.get("/accounts/{name}", summary="Una cuenta: su rol y sus sanciones")
async def account(name: str, request: Request, moderator: Moderator) -> dict[str, Any]:
    state = server_state(request)
    user = await _account(state, name)
    rows = await state.store.sanctions_of([user.user_id])
    now = state.settings.clock.now()
    names = Names(state)
    barred, muted = barring(rows, now), in_force(rows, "mute", now)
    return {
        "name": user.name,
        "role": await state.store.role_of(user.user_id),
        "bot": user.is_bot,
        "barred": None if barred is None else barred.kind,
        "muted": muted is not None,
        "sanctions": [await _sanction_json(row, names, now) for row in rows],
    }


class SanctionRequest(BaseModel):
    player: str = Field(max_length=NAME_MAX, examples=["Pedro_23"])
    kind: str = Field(max_length=16, examples=["suspend"], description="mute | suspend | ban")
    minutes: int | None = Field(
        default=None, description="How long (mute, suspend); a suspension needs it, a ban takes none."
    )
    reason: str = Field(max_length=REASON_MAX, description="Why: kept in the audit log.")
    item: int | None = Field(default=None, description="The queue item it answers, if any.")


@router.post(
    "/sanctions",
    status_code=201,
    dependencies=[Depends(same_origin_json)],
    summary="Silenciar, suspender o expulsar una cuenta",
)
async def sanction(body: SanctionRequest, request: Request, moderator: Moderator) -> dict[str, Any]:
    state = server_state(request)
    if body.kind not in SANCTIONS:
        raise ApiError(422, "bad_sanction", parameter="kind", kinds=OneOf(SANCTIONS))
    reason = body.reason.strip()
    if not reason:
        raise ApiError(422, "sanction_reason_missing", parameter="reason")
    minutes = body.minutes
    if body.kind == "ban":
        minutes = None
    elif minutes is None and body.kind == "suspend":
        raise ApiError(422, "sanction_minutes", parameter="minutes", most=MOST_MINUTES)
    if minutes is not None and not 1 <= minutes <= MOST_MINUTES:
        raise ApiError(422, "sanction_minutes", parameter="minutes", most=MOST_MINUTES)
    user = await _account(state, body.player)
    if user.user_id == moderator.user_id:
        raise ApiError(422, "sanction_self", parameter="player")
    if await may_moderate(state.store, user.user_id):
        raise ApiError(409, "sanction_moderator", parameter="player", name=user.name)
    now = state.settings.clock.now()
    until = None if minutes is None else now + minutes * 60
    details: dict[str, Any] = {"until": until}
    entry = LogEntry(now, moderator.user_id, body.kind, user.user_id, body.item, reason, details)
    row = await enforcer(state).impose(user.user_id, body.kind, until, entry)
    return await _sanction_json(row, Names(state), now)


class LiftRequest(BaseModel):
    reason: str = Field(max_length=REASON_MAX, description="Why: kept in the audit log.")


@router.post(
    "/sanctions/{sanction_id}/lift",
    dependencies=[Depends(same_origin_json)],
    summary="Deshacer una sanción",
)
async def lift(sanction_id: int, body: LiftRequest, request: Request, moderator: Moderator) -> dict[str, Any]:
    state = server_state(request)
    reason = body.reason.strip()
    if not reason:
        raise ApiError(422, "sanction_reason_missing", parameter="reason")
    row = await state.store.sanction_by_id(sanction_id)
    if row is None:
        raise ApiError(404, "no_such_sanction")
    now = state.settings.clock.now()
    entry = LogEntry(
        now, moderator.user_id, UNDO[row.kind], row.user_id, None, reason, {"sanction": sanction_id}
    )
    lifted = await enforcer(state).lift(row, entry)
    if lifted is None:
        raise ApiError(409, "sanction_lifted")
    return await _sanction_json(lifted, Names(state), now)


class CloseRequest(BaseModel):
    resolution: str = Field(max_length=REASON_MAX, description="What was decided: kept in the audit log.")


@router.post(
    "/items/{item_id}/close",
    dependencies=[Depends(same_origin_json)],
    summary="Cerrar un aviso de la cola",
)
async def close_item(
    item_id: int, body: CloseRequest, request: Request, moderator: Moderator
) -> dict[str, Any]:
    state = server_state(request)
    resolution = body.resolution.strip()
    if not resolution:
        raise ApiError(422, "sanction_reason_missing", parameter="resolution")
    item = await state.store.review_item(item_id)
    if item is None:
        raise ApiError(404, "no_such_item")
    now = state.settings.clock.now()
    subject = item.subjects[0] if item.subjects else None
    entry = LogEntry(now, moderator.user_id, "close", subject, item_id, resolution, {"kind": item.kind})
    if not await state.store.close_item(item_id, resolution, entry):
        raise ApiError(409, "item_closed")
    closed = await state.store.review_item(item_id)
    assert closed is not None
    return await _item_json(closed, Names(state))
