"""Peñas over HTTP (docs/penas.md): the list and search, a peña's page, creating one, asking to
join, invitation links, joining with one, leaving, and the leaders' actions.

Anyone reads the list and a peña's page; every change needs an account. A change answers the
peña's page as `GET /api/penas/{slug}` gives it to the account, so a page shows what the server
now holds. The rules are penas/service.py's; a refusal is a flat body in Spanish and English.
"""

from __future__ import annotations

from collections.abc import Callable, Coroutine
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Query, Request, Response
from pydantic import BaseModel, Field

from tranque.server.app_state import server_state
from tranque.server.http.accounts import current_user, require_user, same_origin_json
from tranque.server.http.errors import ApiError, SpanishErrors
from tranque.server.http.tournaments import summary as tournament_summary
from tranque.server.penas.errors import PenaError
from tranque.server.penas.rules import CREST_LABELS, CRESTS, DESCRIPTION_MOST, NAME_MOST
from tranque.server.store import UserRow


def answered(error: PenaError) -> ApiError:
    """The rules' refusal as the API answers it."""
    return ApiError(error.status, error.key, error.parameter, None, **error.params)


class PenaRoutes(SpanishErrors):
    """`SpanishErrors` routes that also answer the peñas' own refusals (penas/errors.py)."""

    def get_route_handler(self) -> Callable[[Request], Coroutine[Any, Any, Response]]:
        handler = super().get_route_handler()

        async def guarded(request: Request) -> Response:
            try:
                return await handler(request)
            except PenaError as error:
                return answered(error).response()

        return guarded


router = APIRouter(prefix="/api", tags=["peñas"], route_class=PenaRoutes)
Account = Annotated[UserRow, Depends(require_user)]
Viewer = Annotated[UserRow | None, Depends(current_user)]
CHANGES = [Depends(same_origin_json)]
PENA_TOURNAMENTS = 20  # the tournaments a peña's page lists
TEXT_MOST = 2000  # longer than any field allows: refused before the rules look (422)


class NewPena(BaseModel):
    name: str = Field(
        max_length=TEXT_MOST, examples=["Los del Martes"], description=f"3 a {NAME_MOST} caracteres."
    )
    crest: str = Field(
        max_length=32, examples=["gallo"], description="Uno de los dibujos de GET /api/penas/crests."
    )
    description: str = Field("", max_length=TEXT_MOST, description=f"Hasta {DESCRIPTION_MOST} caracteres.")
    access: str = Field(
        "open", max_length=16, examples=["open"], description="open (por solicitud) o invite."
    )


class PenaChange(BaseModel):
    crest: str = Field(max_length=32)
    description: str = Field("", max_length=TEXT_MOST)
    access: str = Field(max_length=16)


class Named(BaseModel):
    name: str = Field(max_length=64, description="El nombre de un jugador.")


class Joining(BaseModel):
    invitation: str | None = Field(None, max_length=64, description="El token del enlace de invitación.")


class Crest(BaseModel):
    id: str
    es: str
    en: str


class Pena(BaseModel):
    id: int
    slug: str
    name: str
    crest: str
    description: str
    access: str
    members: int
    created_at: float
    role: str | None = Field(None, description="Tu papel: leader, member o null.")


class Member(BaseModel):
    name: str
    avatar: str
    role: str
    joined_at: float
    online: bool | None = Field(description="Solo para los miembros; null para los demás.")


class Asking(BaseModel):
    name: str
    avatar: str
    at: float


class PenaTable(BaseModel):
    table: str
    phase: str
    preset: str
    players: int
    competitive: bool
    seats: list[str | None]
    invite_url: str | None = Field(description="Solo para los miembros, los únicos que se sientan.")


class PenaPage(Pena):
    requested: bool = Field(description="Pediste entrar y esperas a un líder.")
    people: list[Member] = Field(description="Sus miembros: los líderes primero, y quién está en línea.")
    requests: list[Asking] = Field(description="Las solicitudes, solo para los líderes.")
    tables: list[PenaTable]


class Invitation(BaseModel):
    token: str
    url: str = Field(examples=["/#/penas/los-del-martes?invitacion=TOKEN"])
    expires_at: float


class Left(BaseModel):
    outcome: str = Field(examples=["left"], description="left, o dissolved si eras su único miembro.")


def _page(body: dict[str, Any]) -> PenaPage:
    return PenaPage.model_validate(body)


async def _answer(request: Request, slug: str, user: UserRow) -> PenaPage:
    return _page(await server_state(request).penas.page(slug, user))


@router.get("/penas", response_model=list[Pena], summary="Las peñas (o las que se llaman así)")
async def list_penas(
    request: Request, q: Annotated[str, Query(max_length=64, description="Parte del nombre.")] = ""
) -> list[Pena]:
    return [Pena.model_validate(row) for row in await server_state(request).penas.listing(q)]


@router.get("/penas/crests", response_model=list[Crest], summary="Los escudos que una peña puede llevar")
async def crests() -> list[Crest]:
    return [Crest(id=crest, es=CREST_LABELS[crest][0], en=CREST_LABELS[crest][1]) for crest in CRESTS]


@router.get("/me/penas", response_model=list[Pena], summary="Tus peñas")
async def my_penas(request: Request, user: Account) -> list[Pena]:
    return [Pena.model_validate(row) for row in await server_state(request).penas.mine(user)]


@router.post(
    "/penas", response_model=PenaPage, status_code=201, dependencies=CHANGES, summary="Crear una peña"
)
async def create(body: NewPena, request: Request, user: Account) -> PenaPage:
    state = server_state(request)
    now = state.settings.clock.now()
    pena = await state.penas.create(user, body.name, body.crest, body.description, body.access, now)
    return await _answer(request, pena.slug, user)


@router.get("/penas/{slug}", response_model=PenaPage, summary="La página de una peña")
async def page(slug: str, request: Request, user: Viewer) -> PenaPage:
    return _page(await server_state(request).penas.page(slug, user))


@router.get("/penas/{slug}/games", summary="Las partidas recientes entre miembros de la peña")
async def games(slug: str, request: Request, user: Viewer) -> list[dict[str, Any]]:
    """Finished games with two or more of its members, newest first: the fields of a player's
    games (`GET /api/players/{name}/games`) without one player's side."""
    return await server_state(request).penas.games(slug, user)


@router.get("/penas/{slug}/tournaments", summary="Los torneos de la peña")
async def tournaments(slug: str, request: Request) -> list[dict[str, Any]]:
    """Its tournaments as the lists give them (`GET /api/tournaments`), those not over first."""
    state = server_state(request)
    pena = await state.penas.pena(slug)
    found = await state.tournaments.of_pena(pena.id, PENA_TOURNAMENTS)
    return [await tournament_summary(state.store, item) for item in found]


@router.patch(
    "/penas/{slug}", response_model=PenaPage, dependencies=CHANGES, summary="Cambiar una peña (líderes)"
)
async def change(slug: str, body: PenaChange, request: Request, user: Account) -> PenaPage:
    await server_state(request).penas.update(user, slug, body.crest, body.description, body.access)
    return await _answer(request, slug, user)


@router.post(
    "/penas/{slug}/requests",
    response_model=PenaPage,
    dependencies=CHANGES,
    summary="Pedir entrar a una peña abierta",
)
async def ask(slug: str, request: Request, user: Account) -> PenaPage:
    state = server_state(request)
    await state.penas.ask(user, slug, state.settings.clock.now())
    return await _answer(request, slug, user)


@router.delete(
    "/penas/{slug}/requests", response_model=PenaPage, dependencies=CHANGES, summary="Retirar tu solicitud"
)
async def withdraw(slug: str, request: Request, user: Account) -> PenaPage:
    await server_state(request).penas.withdraw(user, slug)
    return await _answer(request, slug, user)


@router.post(
    "/penas/{slug}/requests/{name}/approve",
    response_model=PenaPage,
    dependencies=CHANGES,
    summary="Aprobar una solicitud (líderes)",
)
async def approve(slug: str, name: str, request: Request, user: Account) -> PenaPage:
    state = server_state(request)
    await state.penas.approve(user, slug, name, state.settings.clock.now())
    return await _answer(request, slug, user)


@router.delete(
    "/penas/{slug}/requests/{name}",
    response_model=PenaPage,
    dependencies=CHANGES,
    summary="Rechazar una solicitud (líderes)",
)
async def refuse(slug: str, name: str, request: Request, user: Account) -> PenaPage:
    await server_state(request).penas.refuse(user, slug, name)
    return await _answer(request, slug, user)


@router.post(
    "/penas/{slug}/invitations",
    response_model=Invitation,
    status_code=201,
    dependencies=CHANGES,
    summary="Crear un enlace de invitación (líderes)",
)
async def invite(slug: str, request: Request, user: Account) -> Invitation:
    state = server_state(request)
    made = await state.penas.invite(user, slug, state.settings.clock.now())
    return Invitation(token=made.token, url=made.url, expires_at=made.expires_at)


@router.post(
    "/penas/{slug}/join",
    response_model=PenaPage,
    dependencies=CHANGES,
    summary="Entrar con un enlace de invitación",
)
async def join(slug: str, body: Joining, request: Request, user: Account) -> PenaPage:
    state = server_state(request)
    await state.penas.join(user, slug, body.invitation, state.settings.clock.now())
    return await _answer(request, slug, user)


@router.post("/penas/{slug}/leave", response_model=Left, dependencies=CHANGES, summary="Salir de la peña")
async def leave(slug: str, request: Request, user: Account) -> Left:
    """The only member leaving dissolves the peña; the one leader may not leave while others remain."""
    return Left(outcome=await server_state(request).penas.leave(user, slug))


@router.delete(
    "/penas/{slug}/members/{name}",
    response_model=PenaPage,
    dependencies=CHANGES,
    summary="Sacar a un miembro (líderes)",
)
async def remove(slug: str, name: str, request: Request, user: Account) -> PenaPage:
    await server_state(request).penas.remove(user, slug, name)
    return await _answer(request, slug, user)


@router.post(
    "/penas/{slug}/leaders", response_model=PenaPage, dependencies=CHANGES, summary="Nombrar líder (líderes)"
)
async def promote(slug: str, body: Named, request: Request, user: Account) -> PenaPage:
    await server_state(request).penas.promote(user, slug, body.name)
    return await _answer(request, slug, user)
