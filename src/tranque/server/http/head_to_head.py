"""Head-to-head over HTTP: `GET /api/players/{name}/vs/{other}` («Cara a cara», docs/protocol.md).

Two accounts' record as opponents and as partners, and their last games together with links
to the replays; the fold is players/head_to_head.py's. The games counted are the ones the
one asking may see (players/access.py): a private game only if they played it too. A name
nobody has answers `no_such_player` (404); the same name twice, `head_to_head_self` (422).
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request

from tranque.server.accounts.avatars import avatar_of
from tranque.server.accounts.names import normal_form
from tranque.server.app_state import server_state
from tranque.server.http.accounts import NAME_MAX, current_user
from tranque.server.http.errors import ApiError, SpanishErrors
from tranque.server.players.head_to_head import Meeting, head_to_head
from tranque.server.players.views import seats
from tranque.server.store import AccountStore, UserRow

router = APIRouter(prefix="/api", tags=["jugadores"], route_class=SpanishErrors)

COUNTED_GAMES = 500  # the pair's last games the record counts (a fold of a few ms at most)
SHOWN_GAMES = 10  # the last games listed, each with its replay


async def named_player(store: AccountStore, name: str) -> UserRow:
    user = await store.find_user(normal_form(name[:NAME_MAX]))
    if user is None:
        raise ApiError(404, "no_such_player", name=name[:NAME_MAX])
    return user


def meeting_item(one: Meeting) -> dict[str, Any]:
    """One game the two played, as the head-to-head lists it."""
    game = one.game
    return {
        "game_id": game.game_id,
        "finished_at": game.finished_at,
        "preset": game.preset,
        "format": game.format,
        "players": game.players,
        "competitive": game.competitive,
        "private": game.private,
        "together": one.together.value,
        "outcome": one.outcome.value,
        "first_points": one.first_points,
        "second_points": one.second_points,
        "seats": seats(game.summary),
        "scores": game.summary["scores"],
        "winners": game.summary["winners"],
    }


def _who(user: UserRow) -> dict[str, Any]:
    return {"name": user.name, "avatar": avatar_of(user.user_id, user.avatar)}


@router.get("/players/{name}/vs/{other}", summary="Cara a cara: un jugador contra otro")
async def versus(name: str, other: str, request: Request) -> dict[str, Any]:
    store = server_state(request).store
    first, second = await named_player(store, name), await named_player(store, other)
    if first.user_id == second.user_id:
        raise ApiError(422, "head_to_head_self", parameter="other", name=first.name)
    viewer = await current_user(request)
    viewer_id = None if viewer is None else viewer.user_id
    games = await store.games_together(first.user_id, second.user_id, viewer_id, COUNTED_GAMES)
    record = head_to_head(games, first.user_id, second.user_id)
    opponents, partners = record.opponents, record.partners
    return {
        "first": _who(first),
        "second": _who(second),
        "opponents": {
            "played": opponents.played,
            "first_wins": opponents.first_wins,
            "second_wins": opponents.second_wins,
            "draws": opponents.draws,
            "others": opponents.others,
            "first_points": opponents.first_points,
            "second_points": opponents.second_points,
        },
        "partners": {
            "played": partners.played,
            "won": partners.won,
            "lost": partners.lost,
            "points_for": partners.points_for,
            "points_against": partners.points_against,
        },
        "games": [meeting_item(one) for one in record.meetings[:SHOWN_GAMES]],
        "counted": len(record.meetings),
        "capped": len(games) >= COUNTED_GAMES,
    }
