"""Heartbeats (docs/protocol.md, «Heartbeats»): a link that dies without a reset is noticed.

The server pings every socket at the WebSocket level and drops one whose pong does not come
(close code 1011); it also sends a `heartbeat` frame to a socket it has sent nothing for a
while, which is how a browser, that cannot see pings, notices a dead link. The intervals are
short here; the tests wait for what must happen, never for a length of time.
"""

from __future__ import annotations

import contextlib
import json
import time
from collections.abc import Iterator
from typing import Any

import pytest
from websockets.frames import Opcode
from websockets.sync.client import ClientConnection, connect

from tests.server.support.harness import LiveServer
from tests.server.support.raw_client import RawClient
from tests.server.support.scripted import seat_table, start_table_now
from tranque.engine import Rules
from tranque.server.settings import Settings
from tranque.server.table.clock import FakeClock
from tranque.server.ws.limits import SocketLimits

Message = dict[str, Any]
WAIT = 10.0
LIMITS = SocketLimits(ping_seconds=0.2, pong_seconds=1.0, heartbeat_seconds=0.1, burst=10**9)
KEEPALIVE_TIMEOUT = 1011  # uvicorn's close code for a ping that went unanswered


@pytest.fixture(scope="module")
def server() -> Iterator[LiveServer]:
    settings = Settings(
        database_url="memory://", clock=FakeClock(), bot_processes=0, bot_min_seconds=0, socket_limits=LIMITS
    )
    live = LiveServer(settings)
    live.server.config.ws_ping_interval = LIMITS.ping_seconds
    live.server.config.ws_ping_timeout = LIMITS.pong_seconds
    with live:
        yield live


@contextlib.contextmanager
def healthy_client(server: LiveServer) -> Iterator[ClientConnection]:
    """A client that reads all the time and answers every ping (websockets does it itself)."""
    with connect(server.ws, compression=None, ping_interval=None) as client:
        yield client


def next_frame(client: ClientConnection, wanted: Any) -> Message:
    """The next frame for which `wanted` is true; heartbeats keep coming, so give up in time."""
    give_up = time.monotonic() + WAIT
    while time.monotonic() < give_up:
        frame: Message = json.loads(client.recv(timeout=WAIT))
        if wanted(frame):
            return frame
    raise AssertionError("the awaited frame never came")


def two_people(server: LiveServer) -> tuple[str, dict[int, str]]:
    table, tokens = seat_table(server, Rules.preset("clasico", players=2), [0, 1])
    start_table_now(server, table)
    return table, tokens


def hello(client: ClientConnection, table: str, token: str | None) -> Message:
    client.send(json.dumps({"type": "hello", "id": "hello", "table": table, "token": token}))
    return next_frame(client, lambda m: m["type"] in ("ack", "error"))


def seat_state(server: LiveServer, table: str, seat: int) -> str:
    """The seat's state in a spectator's fresh snapshot."""
    with healthy_client(server) as spectator:
        spectator.send(json.dumps({"type": "hello", "table": table}))
        sync = next_frame(spectator, lambda m: m["type"] == "sync")
    state: str = sync["seats"][seat]["state"]
    return state


def test_a_quiet_socket_hears_a_heartbeat_every_interval(server: LiveServer) -> None:
    with healthy_client(server) as client:
        heard = [json.loads(client.recv(timeout=WAIT)) for _ in range(3)]
    assert heard == [{"type": "heartbeat", "interval": LIMITS.heartbeat_seconds}] * 3


def test_a_link_that_dies_without_a_reset_is_dropped_and_its_seat_goes_away(server: LiveServer) -> None:
    table, tokens = two_people(server)
    with healthy_client(server) as partner, RawClient(server.ws) as dying:
        assert hello(partner, table, tokens[1])["type"] == "ack"
        dying.send({"type": "hello", "id": 1, "table": table, "token": tokens[0]})
        assert dying.answer(1)["type"] == "ack"
        next_frame(partner, lambda m: m.get("kind") == "seat" and m["data"]["state"] == "present")
        # From here the dying client reads nothing and answers nothing, and says nothing.
        away = next_frame(partner, lambda m: m.get("kind") == "seat" and m["data"]["state"] == "away")
        assert away["data"]["seat"] == 0
        dying.read_until_closed()
    assert any(frame.opcode is Opcode.PING for frame in dying.frames), "the server never pinged"
    assert dying.close_code == KEEPALIVE_TIMEOUT
    assert seat_state(server, table, 0) == "away"


def test_a_client_that_answers_its_pings_is_kept(server: LiveServer) -> None:
    table, tokens = two_people(server)
    with healthy_client(server) as client:
        assert hello(client, table, tokens[0])["type"] == "ack"
        frames: list[Message] = []
        # Twenty heartbeats in a row: the server sent nothing else for 20 intervals, in which
        # it pinged this client many times (every 0.2 s) and would have dropped it at the
        # first ping unanswered for a second.
        while sum(1 for frame in frames[-20:] if frame["type"] == "heartbeat") < 20:
            frames.append(json.loads(client.recv(timeout=WAIT)))
        client.send(json.dumps({"type": "ping", "id": "still there"}))
        answer = next_frame(client, lambda m: m["type"] == "ack")
        assert seat_state(server, table, 0) == "present"
    assert answer == {"type": "ack", "id": "still there", "pong": True}
    assert not [f for f in frames if f.get("kind") == "seat" and f["data"]["state"] != "present"]
