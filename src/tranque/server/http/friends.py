"""Friends and blocks over HTTP (an account required): the lists, requests, blocks, invites.

Every change answers the account's lists as `GET /api/friends` gives them, so a page shows
what the server now holds; the rules are players/friends.py's.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Request
from pydantic import BaseModel, Field

from tranque.server.app_state import server_state
from tranque.server.http.accounts import require_user, same_origin_json
from tranque.server.http.errors import SpanishErrors
from tranque.server.store import UserRow

router = APIRouter(prefix="/api", tags=["amigos"], route_class=SpanishErrors)
Account = Annotated[UserRow, Depends(require_user)]
CHANGES = [Depends(same_origin_json)]


class Named(BaseModel):
    name: str = Field(max_length=64, description="El nombre del otro jugador.")


class Invite(BaseModel):
    table_id: str = Field(max_length=64, description="Una mesa en la que estás sentado.")


class FriendTable(BaseModel):
    table_id: str
    phase: str = Field(examples=["playing"])
    kind: str = Field(examples=["public"])


class Friend(BaseModel):
    name: str
    avatar: str | None
    online: bool
    table: FriendTable | None = Field(description="Su mesa pública o de partida rápida (o una tuya).")


class Asked(BaseModel):
    name: str
    avatar: str | None
    at: float


class Blocked(BaseModel):
    name: str


class FriendLists(BaseModel):
    friends: list[Friend]
    incoming: list[Asked]
    outgoing: list[Asked]
    blocked: list[Blocked]


class Sent(BaseModel):
    sent: int = Field(description="A cuántas pestañas abiertas de tu amigo llegó.")


def _lists(body: dict[str, Any]) -> FriendLists:
    return FriendLists.model_validate(body)


@router.get("/friends", response_model=FriendLists, summary="Tus amigos, solicitudes y bloqueos")
async def friend_lists(request: Request, user: Account) -> FriendLists:
    return _lists(await server_state(request).friends.listing(user))


@router.post("/friends", response_model=FriendLists, dependencies=CHANGES, summary="Pedir amistad")
async def ask(body: Named, request: Request, user: Account) -> FriendLists:
    """A friend request; if they already asked you, this accepts theirs."""
    state = server_state(request)
    await state.friends.request(user, body.name, state.settings.clock.now())
    return _lists(await state.friends.listing(user))


@router.post(
    "/friends/{name}/accept",
    response_model=FriendLists,
    dependencies=CHANGES,
    summary="Aceptar una solicitud",
)
async def accept(name: str, request: Request, user: Account) -> FriendLists:
    state = server_state(request)
    await state.friends.accept(user, name, state.settings.clock.now())
    return _lists(await state.friends.listing(user))


@router.delete(
    "/friends/{name}",
    response_model=FriendLists,
    dependencies=CHANGES,
    summary="Quitar un amigo, rechazar o cancelar una solicitud",
)
async def remove(name: str, request: Request, user: Account) -> FriendLists:
    state = server_state(request)
    await state.friends.remove(user, name)
    return _lists(await state.friends.listing(user))


@router.post("/blocks", response_model=FriendLists, dependencies=CHANGES, summary="Bloquear a un jugador")
async def block(body: Named, request: Request, user: Account) -> FriendLists:
    """Ends any friendship or request; their phrases no longer reach you, and quick match
    never seats you together."""
    state = server_state(request)
    other = await state.friends.block(user, body.name, state.settings.clock.now())
    state.quick.keep_apart(user.user_id, other.user_id)
    return _lists(await state.friends.listing(user))


@router.delete(
    "/blocks/{name}", response_model=FriendLists, dependencies=CHANGES, summary="Desbloquear a un jugador"
)
async def unblock(name: str, request: Request, user: Account) -> FriendLists:
    state = server_state(request)
    await state.friends.unblock(user, name)
    return _lists(await state.friends.listing(user))


@router.post(
    "/friends/{name}/invite",
    response_model=Sent,
    dependencies=CHANGES,
    summary="Invitar a un amigo a tu mesa",
)
async def invite(name: str, body: Invite, request: Request, user: Account) -> Sent:
    state = server_state(request)
    return Sent.model_validate(
        await state.friends.invite(user, name, body.table_id, state.settings.clock.now())
    )
