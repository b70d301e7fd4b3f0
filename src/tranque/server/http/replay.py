"""A kept game's replay over HTTP: `GET /api/games/{id}/replay`, the frames the replay viewer
steps through (built by `replay_frames`) with the game's summary as `GET /api/games/{id}`
gives it. A private game only to its players (`http_players.visible_game`): to anyone else,
and for a game not kept, `no_such_game` (404), the same answer.
"""

from __future__ import annotations

import asyncio
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse

from tranque.engine import Rules
from tranque.server.http.errors import SpanishErrors
from tranque.server.http.players import visible_game
from tranque.server.players.views import game_page
from tranque.server.store import GamePlayerRow, GameRow
from tranque.server.table.replay_frames import replay_frames

router = APIRouter(prefix="/api", tags=["partidas"], route_class=SpanishErrors)


@router.get("/games/{game_id}/replay", summary="La repetición de una partida terminada, jugada a jugada")
async def game_replay(game_id: str, request: Request) -> JSONResponse:
    game, players = await visible_game(request, game_id)
    # A long game is a few hundred frames: built and encoded off the event loop, and straight
    # to JSON (FastAPI's encoder would walk every frame again).
    return await asyncio.to_thread(lambda: JSONResponse(replay_body(game, players)))


def replay_body(game: GameRow, players: list[GamePlayerRow]) -> dict[str, Any]:
    frames, rounds = replay_frames(game.record)
    rules = Rules.from_json(game.record["rules"])
    teams = [
        [seat for seat in range(rules.players) if rules.team_of(seat) == team]
        for team in range(rules.team_count)
    ]
    return {
        "game": game_page(game, players),
        "rules": game.record["rules"],
        "sides": teams,
        "frames": frames,
        "rounds": rounds,
    }
