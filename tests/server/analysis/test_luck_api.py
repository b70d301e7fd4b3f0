"""«La suerte del reparto» on a real server (http/luck.py, server/luck.py): a finished round's
expected points, at the table and for a kept game, worked out off the event loop, the same as
`tranque.bots.luck` gives; refused with its code while the round is in play (R17: nothing of
a round in play), to whoever may not follow the table, and for a round never dealt."""

from __future__ import annotations

import asyncio
import random
import time
from typing import Any

import httpx
import pytest

from tests.server.support.analysis_helpers import Clients, keep_game
from tests.server.support.harness import LiveServer
from tests.server.support.http_helpers import client, live
from tests.server.support.scenario_helpers import open_table
from tests.server.support.scripted import ScriptedClient
from tranque.bots.luck import round_deal, round_luck
from tranque.engine import Rules
from tranque.engine.record import replay
from tranque.server import luck as server_luck
from tranque.server.table.state import TableKind

PLAYOUTS = 2  # what is checked does not depend on how many
SHORT = Rules.preset("clasico", players=2, mode="individual", target=10)


def quick_server() -> LiveServer:
    return live(analysis_in_processes=False)


def until_done(http: httpx.Client, path: str, **kwargs: Any) -> dict[str, Any]:
    """Ask until the figures are worked out (202 pending meanwhile; a guard of 120 s)."""
    deadline = time.monotonic() + 120
    while True:
        answer = http.get(path, **kwargs)
        assert answer.status_code in (200, 202), answer.text
        body: dict[str, Any] = answer.json()
        if answer.status_code == 200:
            assert body["status"] == "done"
            return body
        assert body["status"] == "pending"
        assert time.monotonic() < deadline, f"{path} is still pending"
        time.sleep(0.05)


def refused(answer: httpx.Response, status: int, code: str) -> None:
    assert answer.status_code == status, answer.text
    body = answer.json()
    assert body["code"] == code
    # A refusal says nothing else: no figure, no tile of a round in play.
    assert set(body) == {"code", "message", "message_en"}


def test_R17_a_practice_round_is_refused_in_play_then_shown_to_its_seat_once_over() -> None:
    with quick_server() as server, client(server) as http:
        server.state.luck.playouts = PLAYOUTS
        table, tokens = open_table(server, SHORT, [0], kind=TableKind.PRACTICE)
        mine = {"X-Seat-Token": tokens[0]}
        path = f"/api/tables/{table}/rounds/0/luck"
        refused(http.get(path, headers=mine), 409, "luck_round_not_over")
        refused(http.get(path), 404, "no_such_table")  # a practice table: only its seat
        refused(http.get(path, headers={"X-Seat-Token": "no es un token"}), 404, "no_such_table")
        refused(http.get(f"/api/tables/{table}/rounds/7/luck", headers=mine), 404, "luck_no_round")
        assert server.state.luck.computed == 0 and not server.state.luck.running

        async def play() -> None:
            async with ScriptedClient(server, table, tokens[0], rng=random.Random(3)) as guest:
                await guest.play()

        asyncio.run(play())
        body = until_done(http, path, headers=mine)
        game = server.state.registry.tables[table].state.game
        result = game.rounds[0].result
        assert body["round"] == 0 and body["unit"] == "points" and body["against"] is False
        assert body["playouts"] == PLAYOUTS and body["level"] == "expert"
        assert body["sides"] == round_luck(round_deal(game, 0), result, PLAYOUTS)
        assert [side["scored"] for side in body["sides"]] == list(result.points)
        # Asked again: kept, not worked out again.
        computed = server.state.luck.computed
        assert http.get(path, headers=mine).json() == body
        assert server.state.luck.computed == computed
        refused(http.get(path), 404, "no_such_table")


def test_a_public_table_s_spectator_may_ask_and_is_refused_while_the_round_is_played() -> None:
    with quick_server() as server, client(server) as guest:
        table, _ = open_table(server, SHORT, [0], kind=TableKind.PUBLIC)
        refused(guest.get(f"/api/tables/{table}/rounds/0/luck"), 409, "luck_round_not_over")
        refused(guest.get("/api/tables/nadie/rounds/0/luck"), 404, "no_such_table")
        assert guest.get(f"/api/tables/{table}/rounds/-1/luck").status_code == 422


def test_a_kept_game_s_rounds_seen_as_its_replay_is() -> None:
    with quick_server() as server, Clients(server) as clients:
        server.state.luck.playouts = PLAYOUTS
        ana_http, ana = clients.logged_in("ana")
        kept = keep_game(server, "mesa1.1", [ana, None])
        body = until_done(clients.guest(), "/api/games/mesa1.1/luck")
        game = replay(kept)
        assert body["rounds"] == [
            {"round": number + 1, "sides": round_luck(round_deal(game, number), played.result, PLAYOUTS)}
            for number, played in enumerate(game.rounds)
            if played.result is not None
        ]
        assert body["unit"] == "points"

        keep_game(server, "mesa2.1", [ana, None], private=True)
        refused(clients.guest().get("/api/games/mesa2.1/luck"), 404, "no_such_game")
        assert until_done(ana_http, "/api/games/mesa2.1/luck")["rounds"]
        refused(clients.guest().get("/api/games/nada.1/luck"), 404, "no_such_game")


def test_in_a_worker_process_the_figures_are_the_same() -> None:
    with live() as server, Clients(server) as clients:
        server.state.luck.playouts = PLAYOUTS
        kept = keep_game(server, "mesa1.1", [None, None])
        body = until_done(clients.guest(), "/api/games/mesa1.1/luck")
        game = replay(kept)
        played = game.rounds[0].result
        assert played is not None
        assert server.state.luck.pool.in_processes
        assert body["rounds"][0]["sides"] == round_luck(round_deal(game, 0), played, PLAYOUTS)


def test_a_round_that_fails_to_be_worked_out_is_refused_not_worked_out_again(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    calls: list[int] = []

    def broken(*args: object) -> list[dict[str, Any]]:
        calls.append(1)
        raise RuntimeError("a bug")

    monkeypatch.setattr(server_luck, "round_luck", broken)
    with quick_server() as server, client(server) as guest:
        keep_game(server, "mesa1.1", [None, None])
        path = "/api/games/mesa1.1/luck"
        deadline = time.monotonic() + 60
        while (answer := guest.get(path)).status_code == 202:
            assert time.monotonic() < deadline
            time.sleep(0.05)
        assert answer.status_code == 500 and answer.json()["code"] == "luck_failed", answer.text
        assert answer.json()["message_en"] == "What that hand's deal gave could not be worked out."
        assert guest.get(path).status_code == 500
        assert len(calls) == 1  # asked again: refused, not worked out again
