"""Finished games put straight into a live server's store, as the table keeps them
(game_archive.py): the `games` row, a `game_players` row per account, ratings and XP."""

from __future__ import annotations

from dataclasses import dataclass

from tests.server.support.harness import LiveServer
from tests.server.support.http_helpers import PASSWORD
from tranque.server.accounts.passwords import hash_password
from tranque.server.players.periods import period_keys
from tranque.server.players.rating_scale import shown
from tranque.server.store import GamePlayerRow, GameRow, RatingRow, UserRow

NO_LOGIN = "not a password hash"  # an account nobody logs in to


def make_user(server: LiveServer, name: str, *, can_log_in: bool = False) -> int:
    async def create() -> UserRow:
        hashed = await hash_password(PASSWORD) if can_log_in else NO_LOGIN
        user: UserRow = await server.state.store.create_user(name, hashed, server.settings.clock.now())
        return user

    return server.on_server(create).user_id


@dataclass(frozen=True)
class Seat:
    user_id: int | None  # None: a bot
    name: str
    won: bool = False
    xp: int = 0
    rating: tuple[float, float, float, float] | None = None  # mu, sigma before; mu, sigma after
    abandoned: bool = False


def save_game(
    server: LiveServer,
    game_id: str,
    seats: list[Seat],
    *,
    finished_at: float | None = None,
    preset: str = "clasico",
    private: bool = False,
    rated: bool = False,
    record: dict[str, object] | None = None,
) -> None:
    """Keep a finished individual game of these seats (team = seat), with its XP and ratings."""
    at = server.settings.clock.now() if finished_at is None else finished_at
    fmt = "duel" if len(seats) == 2 else "individual"
    winners = [index for index, seat in enumerate(seats) if seat.won]
    summary = {
        "seats": [
            {
                "seat": index,
                "team": index,
                "name": seat.name,
                "kind": "human" if seat.user_id else "bot",
                "user_id": seat.user_id,
            }
            for index, seat in enumerate(seats)
        ],
        "scores": [100 if seat.won else 40 for seat in seats],
        "goals": [0] * len(seats),
        "winners": winners,
        "rounds": 3,
    }
    table_id, number = game_id.split(".")
    game = GameRow(
        game_id,
        table_id,
        int(number),
        at,
        preset,
        fmt,
        len(seats),
        "private" if private else "public",
        private,
        rated,
        rated,
        None if rated else "casual",
        summary,
        record or {"rounds": []},
    )
    players, ratings, xp = [], [], []
    for index, seat in enumerate(seats):
        if seat.user_id is None:
            continue
        before_mu, before_sigma, after_mu, after_sigma = seat.rating or (None, None, None, None)
        players.append(
            GamePlayerRow(
                game_id,
                seat.user_id,
                index,
                at,
                preset,
                fmt,
                private,
                seat.won,
                seat.abandoned,
                seat.xp,
                before_mu,
                before_sigma,
                after_mu,
                after_sigma,
            )
        )
        if after_mu is not None and after_sigma is not None:
            ratings.append(rating_row(server, seat.user_id, fmt, after_mu, after_sigma, at))
        if seat.xp:
            xp += [(key, seat.user_id, seat.xp) for key in period_keys(at).values()]

    async def keep() -> None:
        await server.state.store.save_game(game, players, ratings, xp)

    server.on_server(keep)


def rating_row(server: LiveServer, user_id: int, pool: str, mu: float, sigma: float, at: float) -> RatingRow:
    async def count() -> int:
        page = await server.state.store.player_page(user_id, None, [], 0, 0)
        return next((rated.rating.games for rated in page.ratings if rated.rating.pool == pool), 0)

    return RatingRow(user_id, pool, mu, sigma, shown(mu, sigma), server.on_server(count) + 1, at)
