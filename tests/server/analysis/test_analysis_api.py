"""A finished game's analysis asked for on the site (http_analysis.py, analysis_queue.py) on a
real server: asked for, followed to the end and stored, the same as `tranque analyze` gives
for the record; refused with its code, changing nothing, when it may not be; claimed after
a restart (pending, or running with a stale heartbeat; not one another process is at);
failed, not stuck, when its worker process dies."""

from __future__ import annotations

import dataclasses
import os
import random
import signal
import time
from functools import partial
from pathlib import Path
from typing import Any

from tests.bots.test_analysis import small_game
from tests.bots.test_no_peeking import redeal
from tests.server.support.analysis_helpers import DEALS, GAME_SEED, Clients, ask, keep_game, wait_for
from tests.server.support.harness import LiveServer
from tests.server.support.http_helpers import database_url, live
from tests.server.support.players_helpers import Seat, save_game
from tranque import Game
from tranque.bots.analysis import analyze
from tranque.engine.record import replay, to_record
from tranque.server.app import environment_of
from tranque.server.config import from_environment, resolve
from tranque.server.settings import Settings
from tranque.server.store import AnalysisRow

__all__ = ["database_url"]  # the fixture: a server on every backend

QUICK: dict[str, Any] = {"analysis_in_processes": False, "analysis_deals": DEALS}


def test_an_analysis_is_asked_for_followed_and_stored(database_url: str) -> None:
    with live(database_url, **QUICK) as server, Clients(server) as clients:
        http, ana = clients.logged_in("ana")
        kept = keep_game(server, "mesa1.1", [ana, None])
        assert http.get("/api/games/mesa1.1/analysis").json()["status"] == "none"

        asked = ask(http, "mesa1.1")
        assert asked.status_code == 202
        assert asked.json()["status"] in ("pending", "running", "done")
        body = wait_for(http, "mesa1.1")
        progress = body["progress"]
        assert progress["done"] == progress["total"] > 0
        result = body["result"]

        # The same analysis `tranque analyze --budget 3 --seed 0 --json` prints for the record.
        expected = analyze(replay(kept), deals=DEALS, seed=0).to_json()
        stored = server.on_server(lambda: server.state.store.analysis("mesa1.1"))
        assert stored.result == expected
        assert result["players"] == expected["players"]
        assert [d["verdict"] for d in result["decisions"]] == [d["verdict"] for d in expected["decisions"]]
        assert progress["total"] == sum(1 for d in expected["decisions"] if d["alternatives"])

        # What the viewer draws: each move's frame, its worth, the chart, the better tile.
        actions = kept["rounds"][0]["actions"]
        assert [d["step"] for d in result["decisions"]] == list(range(1, len(actions) + 1))
        judged = [d for d in result["decisions"] if d["alternatives"]]
        assert all(d["worth"] is not None and d["best_worth"] >= d["worth"] for d in judged)
        assert sum(len(points) for points in result["chart"]) == len(judged)
        flagged = [d for d in result["decisions"] if d["verdict"] in ("inaccuracy", "error")]
        assert flagged and all(d["ghost"] is not None for d in flagged if d["best"]["type"] == "play")
        assert all(d["ghost"]["tile"] == d["best"]["tile"] for d in flagged if d["ghost"])
        assert all(d["ghost"] is None for d in result["decisions"] if d not in flagged)

        # Asked for again: the one done, as it is, and nothing counted.
        again = ask(http, "mesa1.1")
        assert again.status_code == 200
        assert again.json()["result"] == result
        # Anyone may read a public game's analysis, without an account.
        assert clients.guest().get("/api/games/mesa1.1/analysis").json()["result"] == result


def test_in_worker_processes_the_analysis_is_the_same() -> None:
    with live(analysis_deals=DEALS) as server, Clients(server) as clients:
        http, ana = clients.logged_in("ana")
        kept = keep_game(server, "mesa1.1", [ana, None])
        assert ask(http, "mesa1.1").status_code == 202
        wait_for(http, "mesa1.1")
        stored = server.on_server(lambda: server.state.store.analysis("mesa1.1"))
        assert stored.result == analyze(replay(kept), deals=DEALS, seed=0).to_json()
        assert server.state.analyses.worker_pids()  # it ran in a process of the pool


def refusal(response: object, status: int, code: str) -> None:
    assert response.status_code == status, response.text  # type: ignore[attr-defined]
    body = response.json()  # type: ignore[attr-defined]
    assert body["code"] == code and body["message"] and body["message_en"], body


def test_refusals_name_their_code_and_change_nothing() -> None:
    # workers=0: requests stay pending, so every limit is met without waiting on a job
    with (
        live(analysis_workers=0, analysis_queue_size=2, analysis_requests_per_day=2) as server,
        Clients(server) as clients,
    ):
        http, ana = clients.logged_in("ana")
        bea, bea_id = clients.logged_in("bea")
        carla, _ = clients.logged_in("carla")
        for number in range(1, 5):
            keep_game(server, f"mesa{number}.1", [ana, bea_id])
        keep_game(server, "privada.1", [bea_id, None], private=True)
        table = server.post("/api/practice", {"preset": "clasico"})["table"]

        refusal(clients.guest().post("/api/games/mesa1.1/analysis", json={}), 401, "login_required")
        refusal(http.post("/api/games/mesa1.1/analysis", content=b"{}"), 415, "json_required")
        refusal(ask(http, "nada.1"), 404, "no_such_game")
        refusal(ask(http, f"{table}.1"), 404, "no_such_game")  # a game still being played
        refusal(ask(http, "privada.1"), 404, "no_such_game")  # another's private game
        refusal(http.get("/api/games/privada.1/analysis"), 404, "no_such_game")
        assert bea.get("/api/games/privada.1/analysis").json()["status"] == "none"

        assert ask(http, "mesa1.1").status_code == 202
        assert ask(http, "mesa1.1").json()["status"] == "pending"  # the same one, answered again
        refusal(ask(http, "mesa2.1"), 429, "analysis_pending")  # one of hers is not over
        assert ask(bea, "mesa2.1").status_code == 202
        busy = ask(carla, "mesa3.1")  # the queue holds 2
        refusal(busy, 503, "analysis_busy")
        assert int(busy.headers["Retry-After"]) > 0
        assert carla.get("/api/games/mesa3.1/analysis").json()["status"] == "none"

        # Her first one over (failed here), she may ask for another: the day's second.
        over(server, "mesa1.1", ana)
        assert ask(http, "mesa3.1").status_code == 202
        over(server, "mesa3.1", ana)
        refusal(ask(http, "mesa4.1"), 429, "analysis_limit")  # 2 in the last 24 hours
        assert http.get("/api/games/mesa4.1/analysis").json()["status"] == "none"
        server.advance(24 * 3600 + 1)  # a day later, she may again
        assert ask(http, "mesa4.1").status_code == 202


def over(server: LiveServer, game_id: str, user_id: int) -> None:
    """The game's analysis failed, as a dead worker leaves it (the queue lets it go)."""
    row = AnalysisRow(game_id, user_id, "failed", server.settings.clock.now(), finished_at=1.0)

    async def save() -> None:
        await server.state.store.save_analysis(row)
        server.state.analyses.release(game_id)

    server.on_server(save)


def test_after_a_restart_the_pending_and_stale_analyses_are_claimed(tmp_path: Path) -> None:
    url = f"sqlite+aiosqlite:///{tmp_path / 'tranque.db'}"
    with live(url, analysis_workers=0) as server, Clients(server) as clients:
        http, ana = clients.logged_in("ana")
        for game_id in ("mesa1.1", "mesa2.1", "mesa3.1"):
            keep_game(server, game_id, [ana, None])
        assert ask(http, "mesa1.1").status_code == 202
        assert http.get("/api/games/mesa1.1/analysis").json()["status"] == "pending"
        # mesa2.1: cut short by a process that died (its heartbeat long stale)
        dead = AnalysisRow("mesa2.1", ana, "running", 1.0, 3, 9, claimed_by="dead/0", heartbeat_at=1.0)
        server.on_server(lambda: server.state.store.save_analysis(dead))
    with live(url, **QUICK) as again, Clients(again) as clients:
        # mesa3.1: being analysed by another process, alive (heartbeat now): left to it
        now = again.settings.clock.now()
        alive = AnalysisRow("mesa3.1", ana, "running", 0.5, 2, 9, claimed_by="alive/0", heartbeat_at=now)
        again.on_server(lambda: again.state.store.save_analysis(alive))
        for game_id in ("mesa1.1", "mesa2.1"):
            body = wait_for(clients.guest(), game_id)
            assert body["result"]["players"]
        assert again.on_server(lambda: again.state.store.analysis("mesa3.1")) == alive


def test_a_worker_that_dies_fails_its_job_and_the_next_one_runs() -> None:
    with live(analysis_deals=2000) as server, Clients(server) as clients:
        http, ana = clients.logged_in("ana")
        keep_game(server, "mesa1.1", [ana, None], seed=5)  # 66 decisions: many seconds at 2000 deals
        assert ask(http, "mesa1.1").status_code == 202
        wait_for(http, "mesa1.1", ("running",))
        pids: list[int] = []
        while not pids:
            pids = server.state.analyses.worker_pids()
            time.sleep(0.02)
        os.kill(pids[0], signal.SIGKILL)
        failed = wait_for(http, "mesa1.1", ("failed",))
        assert failed["result"] is None and failed["finished_at"] is not None
        assert failed["progress"]["done"] < failed["progress"]["total"]

        server.state.analyses.deals = DEALS  # the next job: quick, in a new pool
        assert ask(http, "mesa1.1").status_code == 202
        assert wait_for(http, "mesa1.1")["result"]["players"]
        assert server.state.analyses.worker_pids() != pids


def test_the_workers_go_to_each_process_of_a_cluster_by_the_environment() -> None:
    for workers in (0, 3):
        environment = environment_of(Settings(analysis_workers=workers))
        assert from_environment(environment).analysis_workers == workers


def test_serve_takes_the_workers_from_its_option_else_the_environment() -> None:
    assert resolve(None, {}).analysis_workers == 1
    assert resolve(None, {"TRANQUE_ANALYSIS_WORKERS": "0"}).analysis_workers == 0
    option = {"analysis_workers": ("--analysis-workers", 2)}
    assert resolve(None, {"TRANQUE_ANALYSIS_WORKERS": "0"}, option).analysis_workers == 2


def test_R17_a_seats_stored_analysis_is_the_same_whatever_the_hands_it_could_not_see() -> None:
    """The same game with the tiles seat 0 never saw dealt otherwise (every move still legal,
    seat 0's every view the same): its stored analysis of seat 0 is the same to the last digit."""
    game = small_game(seed=GAME_SEED)  # one round
    first = game.rounds[0]
    actions = [action for _, _, action in game.actions]
    other, moved = redeal(game.rules, (first.dealt_hands, first.dealt_boneyard), actions, 0, random.Random(5))
    assert moved >= 4
    again = Game(game.rules, deals=[other], first_starter=game.first_starter)
    for action in actions:
        again.apply(action)
    with live(**QUICK) as server, Clients(server) as clients:
        http, ana = clients.logged_in("ana")
        for game_id, played in (("mesa1.1", game), ("mesa2.1", again)):
            save_game(server, game_id, [Seat(ana, "ana"), Seat(None, "bot")], record=to_record(played))
            assert ask(http, game_id).status_code == 202
            wait_for(http, game_id)
        results = [
            server.on_server(partial(server.state.store.analysis, game_id)).result
            for game_id in ("mesa1.1", "mesa2.1")
        ]
    seat_0 = [[d for d in result["decisions"] if d["seat"] == 0] for result in results]
    assert seat_0[0] == seat_0[1] and any(d["alternatives"] for d in seat_0[0])
    assert results[0]["players"][0] == results[1]["players"][0]
    # seat 1 held other tiles: its own analysis is of other positions
    assert results[0]["decisions"] != results[1]["decisions"]


def test_an_analysis_stored_in_an_older_format_is_computed_anew_when_asked_for(database_url: str) -> None:
    with live(database_url, **QUICK) as server, Clients(server) as clients:
        http, ana = clients.logged_in("ana")
        keep_game(server, "mesa1.1", [ana, None])
        assert ask(http, "mesa1.1").status_code == 202
        done = wait_for(http, "mesa1.1")["result"]
        assert done["format"] == 2 and done["unit"] == "points"
        assert all("loss_points" in d and "reasons" in d and "model_note" in d for d in done["decisions"])
        # The analysis as the expert's weighted reading stored it, before format 2.
        stored = server.on_server(lambda: server.state.store.analysis("mesa1.1"))
        old = {k: v for k, v in stored.result.items() if k not in ("format", "unit")}
        server.on_server(lambda: server.state.store.save_analysis(dataclasses.replace(stored, result=old)))
        shown = http.get("/api/games/mesa1.1/analysis").json()
        assert shown["status"] == "none" and shown["result"] is None
        assert ask(http, "mesa1.1").status_code == 202  # queued anew, not answered as done
        assert wait_for(http, "mesa1.1")["result"]["format"] == 2
