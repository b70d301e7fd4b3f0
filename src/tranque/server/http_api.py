"""The HTTP API (OpenAPI at /docs): practice tables, the lobby, records and deal checks."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, HTTPException, Request
from pydantic import BaseModel, Field

from tranque.bots import bot_names
from tranque.engine import Rules, RulesError
from tranque.server.app import server_state
from tranque.server.verify import verify_record

router = APIRouter(prefix="/api")


class TableRequest(BaseModel):
    """Table options of docs/rules.md; anything left out takes the preset's default."""

    preset: str = Field("clasico", examples=["clasico"])
    players: int | None = Field(None, examples=[4])
    mode: str | None = Field(None, examples=["pairs"])
    target: int | None = Field(None, examples=[100])
    turn_seconds: int | None = Field(None, examples=[30])
    capicua_bonus: int | None = Field(None, examples=[0])
    bot_level: str = Field("heuristic", examples=["expert"])

    def rules(self) -> Rules:
        if self.bot_level not in bot_names():
            raise HTTPException(
                422,
                {
                    "code": "unknown_bot",
                    "parameter": "bot_level",
                    "message": f"No hay un bot «{self.bot_level}»; hay: {', '.join(bot_names())}.",
                },
            )
        try:
            return Rules.from_options(
                self.preset,
                players=self.players,
                mode=self.mode,
                target=self.target,
                turn_seconds=self.turn_seconds,
                capicua_bonus=self.capicua_bonus,
            )
        except RulesError as error:
            raise HTTPException(
                422, {"code": "bad_rules", "parameter": error.parameter, "message": str(error)}
            ) from None


class PracticeRequest(TableRequest):
    name: str = Field("Invitado", max_length=24)


class Seated(BaseModel):
    table: str
    seat: int
    token: str = Field(description="Keep it: it reclaims the seat after a disconnect (hello.token).")


@router.post("/practice", response_model=Seated, summary="Practicar contra la máquina (sin cuenta)")
async def practice(body: PracticeRequest, request: Request) -> Seated:
    state = server_state(request)
    table, token = await state.registry.practice(
        body.rules(), body.name.strip() or "Invitado", body.bot_level
    )
    return Seated(table=table.table_id, seat=0, token=token)


@router.get("/lobby", summary="Mesas públicas esperando jugadores")
async def lobby(request: Request) -> list[dict[str, Any]]:
    return server_state(request).registry.lobby()


@router.get("/tables/{table_id}/record", summary="El registro de una partida terminada")
async def record(table_id: str, request: Request) -> dict[str, Any]:
    found = await server_state(request).store.load_record(table_id)
    if found is None:
        raise HTTPException(404, {"code": "no_record", "message": "Esa partida no existe o no ha terminado."})
    return found


@router.post("/verify", summary="Verificar los repartos de un registro")
async def verify(body: dict[str, Any]) -> dict[str, Any]:
    return verify_record(body)


@router.get("/bots", summary="Niveles de bot")
async def bots() -> list[dict[str, str]]:
    from tranque.bots import LEVELS

    return [{"name": level.name, "title": level.title, "summary": level.summary} for level in LEVELS.values()]


@router.get("/presets", summary="Modalidades: jugadores, formas y metas de cada una")
async def presets() -> list[dict[str, Any]]:
    from tranque.engine.presets import PRESETS

    return [
        {
            "name": preset.name,
            "title": preset.title,
            "summary": preset.summary,
            "seatings": {str(n): [mode.value for mode in modes] for n, modes in preset.seatings.items()},
            "targets": {str(n): preset.default_target(n) for n in preset.seatings},
        }
        for preset in PRESETS.values()
    ]
