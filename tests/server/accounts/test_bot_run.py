"""`tranque bot run` (terminal/bot_client.py, terminal/bot.py) against a real server, with
real bot accounts and their tokens: two of them play a whole game at full speed within the
bot socket's message rate; a seat the server's bot had to cover ends the run with exit
code 3 and a line saying so; after a `rate_limited` refusal it sends again and plays on; a
`--url` that is not the server's WebSocket is one line and exit code 2.
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.sync.client import connect

from tests.cli_helpers import flat, one_line_error
from tests.server.support.harness import LiveServer, fast_settings
from tests.server.support.http_helpers import register
from tests.server.support.scripted import stored_events
from tranque.bots import make_bot
from tranque.cli import main
from tranque.engine import Action, PlayerView, Rules
from tranque.server.table.clock import RealClock
from tranque.server.ws.limits import DEFAULT_LIMITS
from tranque.terminal.bot_client import BotClient

Message = dict[str, Any]
EXAMPLE = Path(__file__).resolve().parents[3] / "examples" / "random_bot.py"
GAME_SECONDS = 300.0  # a whole game between two quick bots: far less on any machine


def bot_token(server: LiveServer, owner: str, name: str) -> str:
    with httpx.Client(base_url=server.http, timeout=20) as http:
        assert register(http, owner).status_code == 201
        answer = http.post("/api/me/bots", json={"name": name})
        assert answer.status_code == 201, answer.text
        token: str = answer.json()["token"]
        return token


def spied(client: BotClient) -> list[Message]:
    """Every frame `client` receives, kept as it handles it."""
    frames: list[Message] = []
    handle = client.on

    async def on(message: Message) -> Any:
        frames.append(message)
        return await handle(message)

    client.on = on  # type: ignore[method-assign]
    return frames


def refusal_codes(frames: list[Message]) -> list[str]:
    return [frame["code"] for frame in frames if frame["type"] == "error"]


def table_of(frames: list[Message]) -> str:
    return str(next(frame["table"] for frame in frames if frame["type"] == "matched"))


# A whole game at full speed ----------------------------------------------------------------


@pytest.fixture(scope="module")
def real_rate() -> Iterator[LiveServer]:
    """The server as it runs: a real clock, the bot socket's real message rate, no pause
    imposed on bots (they are matched at once and deal themselves the next round with `ready`)."""
    settings = fast_settings(clock=RealClock(), quick_match_wait_seconds=0)
    with LiveServer(settings) as running:
        limits = running.settings.socket_limits  # LiveServer lifts the rate; put the real one back
        running.settings.socket_limits = dataclasses.replace(
            limits, burst=DEFAULT_LIMITS.burst, bot_burst=DEFAULT_LIMITS.bot_burst
        )
        yield running


def test_B1_two_fast_bot_clients_play_a_whole_game(real_rate: LiveServer) -> None:
    server = real_rate
    assert (
        server.settings.socket_limits.bot_burst == 60 and server.settings.socket_limits.bot_per_second == 10
    )
    assert server.settings.bot_min_seconds == 0
    names = ["Rapida", "Veloz"]
    tokens = [bot_token(server, owner, name) for owner, name in zip(["Ana", "Beto"], names, strict=True)]
    clients = [BotClient(make_bot("greedy", seed=seat).choose, 1) for seat in range(2)]
    frames = [spied(client) for client in clients]

    async def play() -> None:
        async with asyncio.timeout(GAME_SECONDS):
            await asyncio.gather(*(c.run(server.ws, t) for c, t in zip(clients, tokens, strict=True)))

    asyncio.run(play())
    assert [refusal_codes(received) for received in frames] == [[], []]  # rate_limited above all
    ended = [frame for frame in frames[0] if frame["type"] == "event" and frame["kind"] == "game_ended"]
    assert len(ended) == 1 and ended[0]["data"]["reason"] == "target"
    winners = ended[0]["data"]["winners"]
    table = table_of(frames[0])
    events = stored_events(server, table)
    moves = [event.data for event in events if event.kind == "action"]
    assert len(moves) > 60  # a whole game, played at full speed
    assert {move["by"] for move in moves} <= {"human", "auto"}  # never the clock, never the server's bot
    assert [e.data for e in events if e.kind == "seat" and e.data["state"] == "covered"] == []

    server.recorded()
    with httpx.Client(base_url=server.http, timeout=20) as http:
        seats = {
            frame["seat"]: name
            for name, got in zip(names, frames, strict=True)
            for frame in got
            if frame["type"] == "matched"
        }
        for seat, name in seats.items():
            (game,) = http.get(f"/api/players/{name}/games").json()["games"]
            assert game["game_id"] == f"{table}.1"
            assert (game["won"], game["abandoned"]) == (seat in winners, False)
            assert game["winners"] == winners


# The view kept from the events --------------------------------------------------------------


@pytest.fixture(scope="module")
def server() -> Iterator[LiveServer]:
    # Two bots waiting are matched at once; nothing moves but what they send (a still clock).
    settings = fast_settings(quick_match_wait_seconds=0, auto_move_seconds=3600, between_rounds_seconds=3600)
    with LiveServer(settings) as running:
        yield running


def synced_view(server: LiveServer, table: str, token: str) -> PlayerView:
    """The seat's view as a fresh `sync` gives it, on a socket of its own."""
    with connect(server.ws) as socket:
        socket.send(json.dumps({"type": "hello", "id": 1, "table": table, "token": token}))
        while True:
            frame = json.loads(socket.recv(timeout=20))
            if frame["type"] == "sync":
                return PlayerView.from_json(frame["view"], Rules.from_json(frame["rules"]))


def test_the_view_kept_from_the_events_is_the_one_a_fresh_sync_gives(server: LiveServer) -> None:
    tokens = [bot_token(server, owner, name) for owner, name in [("Carla", "Atenta"), ("Dario", "Exacta")]]
    compared: list[bool] = []
    clients: list[BotClient] = []

    def checking(seat: int) -> Callable[[PlayerView], Action]:
        bot = make_bot("heuristic", seed=seat)

        def choose(view: PlayerView) -> Action:
            client = clients[seat]
            assert client.table is not None and client.token is not None
            compared.append(view == synced_view(server, client.table, client.token))
            return bot.choose(view)

        return choose

    clients.extend(BotClient(checking(seat), 1) for seat in range(2))

    async def play() -> None:
        async with asyncio.timeout(GAME_SECONDS):
            await asyncio.gather(*(c.run(server.ws, t) for c, t in zip(clients, tokens, strict=True)))

    asyncio.run(play())
    assert len(compared) > 30 and all(compared)


# A seat the server's bot had to cover ---------------------------------------------------------


class Stuck:
    """A level that thinks until the test lets it answer (a bot too slow for the clock)."""

    def __init__(self) -> None:
        self.asked = threading.Event()
        self.release = threading.Event()
        self.level = make_bot("greedy", seed=1)

    def choose(self, view: PlayerView) -> Action:
        self.asked.set()
        self.release.wait(GAME_SECONDS)
        return self.level.choose(view)


def seat_to_act(server: LiveServer, table: str) -> int | None:
    """The seat whose turn the table waits for (its last `turn` with no action after it)."""
    for stored in reversed(stored_events(server, table)):
        if stored.kind == "turn":
            seat: int = stored.data["seat"]
            return seat
        if stored.kind in ("action", "round_ended", "game_ended"):
            return None
    return None


def kinds(server: LiveServer, table: str) -> list[tuple[str, Any]]:
    return [(e.kind, e.data.get("state")) for e in stored_events(server, table)]


def until(condition: Callable[[], bool], then: Callable[[], None] = lambda: None) -> None:
    """Wait for `condition`, doing `then` between looks (no more than GAME_SECONDS)."""
    deadline = time.monotonic() + GAME_SECONDS
    while not condition():
        assert time.monotonic() < deadline, "the condition never came"
        then()
        time.sleep(0.02)


def seated(server: LiveServer, name: str) -> tuple[str, int] | None:
    """The table and seat of the account `name`, once the quick match has seated it."""

    async def find() -> tuple[str, int] | None:
        for table_id, table in server.state.registry.tables.items():
            for seat in table.seats:
                if seat.name == name:
                    return table_id, seat.index
        return None

    return server.on_server(find)


def run_stuck_against_a_quick_bot(
    server: LiveServer, names: tuple[str, str], monkeypatch: pytest.MonkeyPatch, keep_stuck: bool
) -> tuple[int, str]:
    """`tranque bot run` with a level stuck on its first turn, against examples/random_bot.py:
    the test moves the clock past its turns until the server's bot covers its seat, then lets
    it answer at once (`keep_stuck` False) or only once the game is over. Its exit code and
    its table."""
    stuck = Stuck()
    monkeypatch.setattr("tranque.terminal.bot.make_bot", lambda level, seed=None: stuck)
    slow, quick = (bot_token(server, f"Dueña{name}", name) for name in names)
    options = ["--url", server.ws, "--token", slow, "--level", "greedy"]
    exit_codes: list[int] = []
    running = threading.Thread(
        target=lambda: exit_codes.append(main(["--lang", "en", "bot", "run", *options]))
    )
    running.start()
    example = subprocess.Popen(
        [sys.executable, str(EXAMPLE), "--url", server.ws, "--token", quick, "--seed", "3"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        until(lambda: stuck.asked.is_set() and seated(server, names[0]) is not None)
        found = seated(server, names[0])
        assert found is not None
        table, seat = found

        def its_turn_runs_out() -> None:
            if seat_to_act(server, table) == seat:
                server.advance(31)  # past the turn's 30 s: the server plays for it

        until(lambda: ("seat", "covered") in kinds(server, table), its_turn_runs_out)
        if keep_stuck:
            until(lambda: ("game_ended", None) in kinds(server, table))
        stuck.release.set()
        running.join(GAME_SECONDS)
        assert example.wait(GAME_SECONDS) == 0
    finally:
        stuck.release.set()
        example.kill()
    (code,) = exit_codes
    return code, table


@pytest.fixture(scope="module")
def slow_cover() -> Iterator[LiveServer]:
    # As `server`, but the server's bot waits a second of the still clock before each move.
    settings = fast_settings(
        quick_match_wait_seconds=0, auto_move_seconds=3600, between_rounds_seconds=3600, bot_min_seconds=1.0
    )
    with LiveServer(settings) as running:
        yield running


def test_B1_a_seat_covered_by_the_servers_bot_ends_the_run_with_exit_code_3(
    slow_cover: LiveServer, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    name = "Lenta"
    code, table = run_stuck_against_a_quick_bot(slow_cover, (name, "Lista"), monkeypatch, False)
    err = flat(capsys.readouterr().err)
    assert code == 3
    assert "The server's bot took seat" in err and f"at table {table}: this bot let three turns" in err
    assert err.endswith("Stopping: in game 1 the server's bot had to play for this bot.")
    slow_cover.recorded()
    with httpx.Client(base_url=slow_cover.http, timeout=20) as http:
        (game,) = http.get(f"/api/players/{name}/games").json()["games"]
    assert game["abandoned"] is False  # it took its seat back and played the game to its end


def test_B1_a_game_lost_by_abandonment_ends_the_run_with_exit_code_3(
    server: LiveServer, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    name = "Dormida"
    code, table = run_stuck_against_a_quick_bot(server, (name, "Despierta"), monkeypatch, True)
    err = flat(capsys.readouterr().err)
    assert code == 3
    assert "The server's bot took seat" in err and f"at table {table}" in err
    assert err.endswith(
        "Stopping: game 1 counts as abandoned and lost, "
        "because the server's bot held this bot's seat when it ended."
    )
    server.recorded()
    with httpx.Client(base_url=server.http, timeout=20) as http:
        (game,) = http.get(f"/api/players/{name}/games").json()["games"]
    assert (game["won"], game["abandoned"]) == (False, True)


# After rate_limited ------------------------------------------------------------------------


def test_B1_after_rate_limited_the_client_sends_again_and_plays_the_game_out() -> None:
    # A server far stingier than the documented rate: the client's pace is over it, so the
    # server refuses some of its messages, and each one must be sent again.
    settings = fast_settings(clock=RealClock(), quick_match_wait_seconds=0)
    with LiveServer(settings) as server:
        server.settings.socket_limits = dataclasses.replace(
            server.settings.socket_limits, burst=DEFAULT_LIMITS.burst, bot_burst=4, bot_per_second=5.0
        )
        tokens = [
            bot_token(server, owner, name) for owner, name in [("Elena", "Paciente"), ("Fabio", "Terca")]
        ]
        clients = [BotClient(make_bot("greedy", seed=seat).choose, 1) for seat in range(2)]
        frames = [spied(client) for client in clients]

        async def play() -> None:
            async with asyncio.timeout(GAME_SECONDS):
                await asyncio.gather(*(c.run(server.ws, t) for c, t in zip(clients, tokens, strict=True)))

        asyncio.run(play())
        refused = [code for received in frames for code in refusal_codes(received)]
        assert refused and set(refused) == {"rate_limited"}
        assert [c.outcome.played for c in clients] == [1, 1]
        events = stored_events(server, table_of(frames[0]))
        assert [e.data["reason"] for e in events if e.kind == "game_ended"] == ["target"]
        assert {e.data["by"] for e in events if e.kind == "action"} <= {"human", "auto"}
        assert [e for e in events if e.kind == "seat" and e.data["state"] == "covered"] == []


# A wrong --url --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("url", "line"),
    [
        (
            "http://127.0.0.1:{port}/ws",
            "invalid --url: a bot connects to the server's WebSocket, not to its web page: "
            "use ws://127.0.0.1:{port}/ws",
        ),
        (
            "http://127.0.0.1:{port}",
            "invalid --url: a bot connects to the server's WebSocket, not to its web page: "
            "use ws://127.0.0.1:{port}/ws",
        ),
        (
            "https://tranque.example/",
            "invalid --url: a bot connects to the server's WebSocket, not to its web page: "
            "use wss://tranque.example/ws",
        ),
        (
            "ws://127.0.0.1:{port}",
            "invalid --url: the server's WebSocket is at /ws: use ws://127.0.0.1:{port}/ws",
        ),
        (
            "ws://127.0.0.1:{port}/",
            "invalid --url: the server's WebSocket is at /ws: use ws://127.0.0.1:{port}/ws",
        ),
        (
            "ws://127.0.0.1:{port}/api/ws",
            "invalid --url: ws://127.0.0.1:{port}/api/ws answered HTTP 403; there is no Tranque "
            "WebSocket there (use ws://HOST:PORT/ws)",
        ),
        (
            "127.0.0.1:{port}/ws",
            "invalid --url: '127.0.0.1:{port}/ws' is not a WebSocket address; use ws://HOST:PORT/ws",
        ),
        (
            "ws://127.0.0.1:puerto/ws",
            "invalid --url: 'ws://127.0.0.1:puerto/ws' is not a WebSocket address; use ws://HOST:PORT/ws",
        ),
    ],
)
def test_B1_a_wrong_url_is_one_line_and_exit_code_2(
    server: LiveServer, capsys: pytest.CaptureFixture[str], url: str, line: str
) -> None:
    port = server.port
    command = ["--lang", "en", "bot", "run", "--url", url.format(port=port), "--token", "tqb_" + "x" * 43]
    assert main(command) == 2
    assert one_line_error(capsys.readouterr()) == "tranque: error: " + line.format(port=port)


def test_B1_a_wrong_url_is_told_in_spanish_first(
    server: LiveServer, capsys: pytest.CaptureFixture[str]
) -> None:
    url = f"http://127.0.0.1:{server.port}"
    assert main(["bot", "run", "--url", url, "--token", "tqb_x"]) == 2
    assert one_line_error(capsys.readouterr()) == (
        "tranque: error: opción --url no válida: el bot se conecta al WebSocket del servidor, "
        f"no a su página: usa ws://127.0.0.1:{server.port}/ws"
    )
