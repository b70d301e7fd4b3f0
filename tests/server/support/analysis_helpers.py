"""For tests of the post-game analysis on the site: a short finished game kept in a live
server's store with its real record, accounts that log in, and waiting for an analysis."""

from __future__ import annotations

import contextlib
import time
from typing import Any

import httpx

from tests.bots.test_analysis import small_game
from tests.server.support.harness import LiveServer
from tests.server.support.http_helpers import client, login
from tests.server.support.players_helpers import Seat, make_user, save_game
from tranque.engine.record import to_record

GAME_SEED = 3  # greedy against random, clasico 1 contra 1 to 30: one round, 10 decisions to judge
DEALS = 3  # deals per decision: what is checked does not depend on the budget


def record(seed: int = GAME_SEED) -> dict[str, Any]:
    return to_record(small_game(seed=seed))


def keep_game(
    server: LiveServer,
    game_id: str,
    seats: list[int | None],
    *,
    private: bool = False,
    seed: int = GAME_SEED,
) -> dict[str, Any]:
    """Keep a finished game of these accounts (None: a bot) with a real record; its record."""
    kept = record(seed)
    people = [Seat(user_id, f"jugador{index}") for index, user_id in enumerate(seats)]
    save_game(server, game_id, people, private=private, record=kept)
    return kept


class Clients:
    """HTTP clients of a live server, all closed when the `with` block ends."""

    def __init__(self, server: LiveServer) -> None:
        self.server = server
        self.stack = contextlib.ExitStack()

    def __enter__(self) -> Clients:
        return self

    def __exit__(self, *exc: object) -> None:
        self.stack.close()

    def guest(self) -> httpx.Client:
        return self.stack.enter_context(client(self.server))

    def logged_in(self, name: str) -> tuple[httpx.Client, int]:
        """A client logged in to a new account, and the account's id."""
        user_id = make_user(self.server, name, can_log_in=True)
        http = self.guest()
        assert login(http, name).status_code == 200
        return http, user_id


def ask(http: httpx.Client, game_id: str) -> httpx.Response:
    return http.post(f"/api/games/{game_id}/analysis", json={})


def wait_for(http: httpx.Client, game_id: str, statuses: tuple[str, ...] = ("done",)) -> dict[str, Any]:
    """Poll the game's analysis until its status is one of `statuses` (a guard of 120 s)."""
    deadline = time.monotonic() + 120
    while True:
        body: dict[str, Any] = http.get(f"/api/games/{game_id}/analysis").json()
        if body["status"] in statuses:
            return body
        assert body["status"] not in ("failed", "none") or "failed" in statuses, body
        assert time.monotonic() < deadline, f"the analysis of {game_id} is still {body['status']}"
        time.sleep(0.05)
