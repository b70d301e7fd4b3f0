"""A peña's seasons over HTTP (docs/penas.md#seasons): its current season and past ones with
their tables, one season, and a leader opening one. Anyone reads; opening needs a leader. The
rules are seasons/service.py's; a refusal is a flat body in Spanish and English."""

from __future__ import annotations

from fastapi import APIRouter, Request
from pydantic import BaseModel, Field

from tranque.server.app_state import server_state
from tranque.server.http.penas import CHANGES, Account, PenaRoutes, Viewer

router = APIRouter(prefix="/api", tags=["peñas"], route_class=PenaRoutes)


class NewSeason(BaseModel):
    name: str = Field(max_length=200, examples=["Apertura 2027"], description="1 a 40 caracteres.")
    starts: str = Field(
        max_length=16, examples=["2027-01-01"], description="Primer día (AAAA-MM-DD, Bogotá)."
    )
    ends: str = Field(max_length=16, examples=["2027-03-31"], description="Último día (AAAA-MM-DD, Bogotá).")
    scope: str = Field(
        "rated",
        max_length=16,
        description="rated: partidas con rating entre miembros; nights: las mesas de la peña.",
    )
    points: str = Field("dos_por_ganada", max_length=32, description="dos_por_ganada, tres_uno o tantos.")


class SeasonLine(BaseModel):
    rank: int
    name: str
    played: int = Field(description="PJ")
    won: int = Field(description="G")
    lost: int = Field(description="P")
    tantos_for: int = Field(description="TF")
    tantos_against: int = Field(description="TC")
    difference: int = Field(description="DIF = TF - TC")
    points: int = Field(description="PTS")


class Season(BaseModel):
    id: int
    name: str
    scope: str
    points: str
    starts: str
    ends: str
    starts_at: float
    ends_at: float
    state: str = Field(description="scheduled, live o ended.")
    frozen: bool = Field(description="Terminó y su tabla quedó guardada para siempre.")
    rows: list[SeasonLine]


class Seasons(BaseModel):
    pena: str
    current: Season | None = Field(description="La temporada por empezar o en juego.")
    past: list[Season]
    may_open: bool = Field(description="Eres líder y no hay temporada abierta.")
    scopes: list[str]
    points: list[str]
    today: str = Field(description="Hoy en Bogotá (AAAA-MM-DD).")


@router.get("/penas/{slug}/seasons", response_model=Seasons, summary="Las temporadas de una peña")
async def seasons(slug: str, request: Request, user: Viewer) -> Seasons:
    state = server_state(request)
    return Seasons.model_validate(await state.seasons.listing(slug, user, state.settings.clock.now()))


@router.get("/penas/{slug}/seasons/{season_id}", response_model=Season, summary="Una temporada y su tabla")
async def season(slug: str, season_id: int, request: Request) -> Season:
    state = server_state(request)
    return Season.model_validate(await state.seasons.season(slug, season_id, state.settings.clock.now()))


@router.post(
    "/penas/{slug}/seasons",
    response_model=Season,
    status_code=201,
    dependencies=CHANGES,
    summary="Abrir una temporada (líderes)",
)
async def open_season(slug: str, body: NewSeason, request: Request, user: Account) -> Season:
    state = server_state(request)
    now = state.settings.clock.now()
    opened = await state.seasons.open(
        user, slug, body.name, body.starts, body.ends, body.scope, body.points, now
    )
    return Season.model_validate(opened)
