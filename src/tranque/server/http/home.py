"""The home page's part for a signed-in player: `GET /api/home` (docs/protocol.md, «Home»).

Their friends' latest finished games, each with who won and its replay, and the tournaments
starting soonest that they are entered in or may still enter. A guest has no such part (401).
Friends' games are the ones the player may see (players/access.py): a friend's private game
only if the player sat at it too.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Request

from tranque.server.app_state import server_state
from tranque.server.http.accounts import require_user
from tranque.server.http.errors import SpanishErrors
from tranque.server.http.tournaments import me, summary
from tranque.server.players.head_to_head import winning_seats
from tranque.server.players.views import seats
from tranque.server.store import GameResult, UserRow
from tranque.server.tournaments.service import Loaded, loaded

router = APIRouter(prefix="/api", tags=["inicio"], route_class=SpanishErrors)
Account = Annotated[UserRow, Depends(require_user)]

FRIENDS_GAMES = 8  # the friends' latest games shown
SOON_TOURNAMENTS = 5  # the tournaments starting soonest shown
LOOKED_AT = 30  # open tournaments looked at for those: public ones by start, and the player's own


def friend_game(game: GameResult, friends: dict[int, str]) -> dict[str, Any]:
    """A friend's finished game: the table, the result, which friends played and who won."""
    names = {seat["seat"]: seat["name"] for seat in game.summary["seats"]}
    return {
        "game_id": game.game_id,
        "finished_at": game.finished_at,
        "preset": game.preset,
        "format": game.format,
        "competitive": game.competitive,
        "private": game.private,
        "seats": seats(game.summary),
        "scores": game.summary["scores"],
        "winners": game.summary["winners"],
        "friends": [friends[row.user_id] for row in game.accounts if row.user_id in friends],
        "won_by": [names[seat] for seat in winning_seats(game.summary) if seat in names],
    }


async def soon_tournaments(request: Request, user: UserRow) -> list[dict[str, Any]]:
    """The open tournaments starting soonest the player is in or may enter (those with no
    start time, which start when full or when their creator says, after those with one)."""
    state = server_state(request)
    store, now = state.store, state.settings.clock.now()
    rows = {row.id: row for row in await store.tournaments(("open",), True, LOOKED_AT)}
    for row, _ in await store.player_tournaments(user.user_id, LOOKED_AT):
        if row.status == "open":
            rows.setdefault(row.id, row)
    chosen: list[tuple[Loaded, dict[str, Any]]] = []
    for row in rows.values():
        found = loaded(row)
        barred = await state.tournaments.barred(found.tournament, user) is not None
        mine = me(found.tournament, user, now, barred)
        if mine["registered"] or mine["can_register"]:
            chosen.append((found, mine))
    chosen.sort(key=lambda pair: _start_order(pair[0]))
    return [{**await summary(store, found), "me": mine} for found, mine in chosen[:SOON_TOURNAMENTS]]


def _start_order(found: Loaded) -> tuple[bool, float, float]:
    starts_at = found.row.starts_at
    return (starts_at is None, starts_at or 0.0, found.row.created_at)


@router.get("/home", summary="Tu inicio: partidas recientes de tus amigos y torneos por empezar")
async def home(request: Request, user: Account) -> dict[str, Any]:
    store = server_state(request).store
    links = await store.friend_links(user.user_id)
    friends = {link.user.user_id: link.user.name for link in links if link.status == "friends"}
    games = await store.games_of_any(sorted(friends), user.user_id, FRIENDS_GAMES)
    return {
        "friends": len(friends),
        "friends_games": [friend_game(game, friends) for game in games],
        "tournaments": await soon_tournaments(request, user),
    }
