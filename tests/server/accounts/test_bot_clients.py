"""Programs playing as bot accounts against a real server, each in a process of its own:
examples/random_bot.py (plain Python and `websockets`, no `tranque`) and `tranque bot run`
with a built-in level. Matched together in the bots' quick match, they play a whole game to
its end; with a token the server does not know, each stops with the server's close code.
"""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from tests.server.support.harness import LiveServer, fast_settings
from tests.server.support.http_helpers import register

ROOT = Path(__file__).resolve().parents[3]
EXAMPLE = ROOT / "examples" / "random_bot.py"
TRANQUE = [sys.executable, "-c", "import sys; from tranque.cli import main; sys.exit(main())"]
GAME_SECONDS = 300  # a whole game, the bots thinking at once: far less on any machine


@pytest.fixture(scope="module")
def server() -> Iterator[LiveServer]:
    # Two bots waiting are matched at once; only they end their turns and the pause between rounds.
    settings = fast_settings(quick_match_wait_seconds=0, auto_move_seconds=3600, between_rounds_seconds=3600)
    with LiveServer(settings) as running:
        yield running


def bot_tokens(server: LiveServer, owner: str, *names: str) -> list[str]:
    with httpx.Client(base_url=server.http, timeout=20) as http:
        assert register(http, owner).status_code == 201
        return [http.post("/api/me/bots", json={"name": name}).json()["token"] for name in names]


def started(command: list[str]) -> subprocess.Popen[str]:
    return subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT)


def test_the_example_bot_and_tranque_bot_run_play_a_whole_game_together(server: LiveServer) -> None:
    # Two owners: two bots of one owner play unrated (same_owner).
    (example_token,) = bot_tokens(server, "Alicia", "Azarosa")
    (level_token,) = bot_tokens(server, "Benito", "Heuristica")
    example = started([sys.executable, str(EXAMPLE), "--url", server.ws, "--token", example_token])
    options = ["--url", server.ws, "--token", level_token, "--level", "heuristic", "--games", "1"]
    level = started([*TRANQUE, "--lang", "en", "bot", "run", *options])
    example_out, example_err = example.communicate(timeout=GAME_SECONDS)
    level_out, level_err = level.communicate(timeout=GAME_SECONDS)
    assert (example.returncode, example_err) == (0, "")
    assert (level.returncode, level_err) == (0, "")
    assert example_out.startswith("game over: ")
    assert "The heuristic bot connects to" in level_out
    assert "Game 1 of 1 over; scores: " in level_out

    async def finished() -> list[tuple[str, int]]:
        board = await server.state.store.rating_leaderboard("bots:duel", 0, 10)
        return sorted((row.name, row.games) for row in board.rows)

    server.recorded()  # the recorder keeps the ratings just after the game's end
    assert server.on_server(finished) == [("Azarosa", 1), ("Heuristica", 1)]


def test_the_example_does_not_import_tranque() -> None:
    source = EXAMPLE.read_text(encoding="utf-8")
    assert "import tranque" not in source and "from tranque" not in source


@pytest.mark.parametrize("program", ["example", "tranque"])
def test_a_token_the_server_does_not_know_stops_the_bot_with_the_close_code(
    server: LiveServer, program: str
) -> None:
    bad = "tqb_" + "x" * 43
    command = (
        [sys.executable, str(EXAMPLE), "--url", server.ws, "--token", bad]
        if program == "example"
        else [*TRANQUE, "--lang", "en", "bot", "run", "--url", server.ws, "--token", bad]
    )
    finished = started(command)
    _, err = finished.communicate(timeout=60)
    assert finished.returncode == 1
    assert "4401 bad_token" in err
