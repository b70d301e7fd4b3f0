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
from collections.abc import Callable, Iterator
from typing import Any

import httpx
import pytest
from websockets.sync.client import connect

from tests.server.support.harness import LiveServer, fast_settings
from tests.server.support.http_helpers import register
from tests.server.support.scripted import stored_events
from tranque.bots import make_bot
from tranque.engine import Action, PlayerView, Rules
from tranque.server.table.clock import RealClock
from tranque.server.ws.limits import DEFAULT_LIMITS
from tranque.terminal.bot_client import BotClient

Message = dict[str, Any]
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
    return next(frame["table"] for frame in frames if frame["type"] == "matched")


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
