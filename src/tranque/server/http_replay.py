"""A kept game's replay and record over HTTP: `GET /api/games/{id}/replay` (the frames the
replay viewer steps through, built by `replay_frames`) and `GET /api/games/{id}/record` (the
engine's record, as a file to download).

Both answer a private game only to its players (`game_access.can_see`); to anyone else,
and for a game not kept, `no_such_game` (404), the same answer.
"""

from __future__ import annotations

import asyncio
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse

from tranque.engine import Rules
from tranque.server import ratings
from tranque.server.accounts import current_user
from tranque.server.game_access import can_see
from tranque.server.http_errors import ApiError, SpanishErrors
from tranque.server.replay_frames import replay_frames
from tranque.server.state import server_state
from tranque.server.store import GamePlayerRow, GameRow

router = APIRouter(prefix="/api", tags=["partidas"], route_class=SpanishErrors)


async def _visible_game(game_id: str, request: Request) -> tuple[GameRow, list[GamePlayerRow]]:
    store = server_state(request).store
    game = await store.load_game(game_id)
    players = [] if game is None else await store.game_players(game_id)
    if game is None or not can_see(game, players, await current_user(request)):
        raise ApiError(404, "no_such_game")
    return game, players


def shown_rating(mu: float | None, sigma: float | None) -> int | None:
    """The rating a player is shown (`ratings.shown`), rounded; None for a game unrated."""
    if mu is None or sigma is None:
        return None
    return round(ratings.shown(ratings.rating(mu, sigma)))


def game_json(game: GameRow, players: list[GamePlayerRow]) -> dict[str, Any]:
    """The game's summary, as `GET /api/games/{id}` gives it: no account ids."""
    summary = game.summary
    seats = summary.get("seats", [])
    names = {seat["seat"]: seat["name"] for seat in seats}
    return {
        "game_id": game.game_id,
        "table_id": game.table_id,
        "number": game.number,
        "finished_at": game.finished_at,
        "preset": game.preset,
        "format": game.format,
        "players": game.players,
        "competitive": game.competitive,
        "rated": game.rated,
        "unrated_reason": game.unrated_reason,
        "private": game.private,
        "seats": [
            {
                "seat": seat["seat"],
                "name": seat["name"],
                "kind": seat["kind"],
                "bot_level": seat.get("bot_level"),
            }
            for seat in seats
        ],
        "scores": summary.get("scores", []),
        "goals": summary.get("goals", []),
        "winners": summary.get("winners", []),
        "rounds": summary.get("rounds", len(game.record.get("rounds", []))),
        "participants": [
            {
                "name": names.get(player.seat),
                "seat": player.seat,
                "won": player.won,
                "abandoned": player.abandoned,
                "xp": player.xp,
                "rating_before": shown_rating(player.mu_before, player.sigma_before),
                "rating_after": shown_rating(player.mu_after, player.sigma_after),
            }
            for player in sorted(players, key=lambda player: player.seat)
        ],
    }


@router.get("/games/{game_id}/replay", summary="La repetición de una partida terminada, jugada a jugada")
async def game_replay(game_id: str, request: Request) -> JSONResponse:
    game, players = await _visible_game(game_id, request)
    # A long game is a few hundred frames: built and encoded off the event loop, and straight
    # to JSON (FastAPI's encoder would walk every frame again).
    return await asyncio.to_thread(lambda: JSONResponse(replay_body(game, players)))


def replay_body(game: GameRow, players: list[GamePlayerRow]) -> dict[str, Any]:
    frames, rounds = replay_frames(game.record)
    rules = Rules.from_json(game.record["rules"])
    sides = [
        [seat for seat in range(rules.players) if rules.side_of(seat) == side]
        for side in range(rules.side_count)
    ]
    return {
        "game": game_json(game, players),
        "rules": game.record["rules"],
        "sides": sides,
        "frames": frames,
        "rounds": rounds,
    }


@router.get("/games/{game_id}/record", summary="El registro de una partida terminada, para descargar")
async def game_record(game_id: str, request: Request) -> JSONResponse:
    game, _ = await _visible_game(game_id, request)
    filename = f"tranque-{game.game_id}.json"
    return JSONResponse(game.record, headers={"Content-Disposition": f'attachment; filename="{filename}"'})
