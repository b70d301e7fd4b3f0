"""Restart recovery (docs/design.md, restarting): SIGKILL the server mid-game, start it again on the
same database and port, and the game resumes at the exact state with no event lost.

The server runs in a subprocess (tests/server/support/serve_subprocess.py) with the real clock; the
scripted client acts at once on each turn, so no test waits on a clock.
"""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, cast

import httpx
import pytest

from tests.server.conftest import empty_database_url
from tests.server.support.harness import PROCESS_STARTUP_SECONDS, Loopback, Message, free_port
from tests.server.support.scenario_helpers import Client
from tranque.server.store import StoredEvent
from tranque.server.store.sql import SqlStore
from tranque.server.table.log import visible

RUNNER = Path(__file__).parents[1] / "support" / "serve_subprocess.py"
TURN = 20  # seconds per turn: the shortest the rules allow (R15)
STARTUP = PROCESS_STARTUP_SECONDS  # seconds a server process may take to answer


class ServerProcess(Loopback):
    """`serve_subprocess.py` on a fixed port and database, started and killed at will."""

    def __init__(self, database_url: str, port: int, log: Path) -> None:
        self.database_url = database_url
        self.port = port
        self.log = log
        self.process: subprocess.Popen[bytes] | None = None

    def start(self, *options: str) -> None:
        """Start it; `options`: serve_subprocess.py's (`--no-recorder`)."""
        with self.log.open("ab") as log:
            self.process = subprocess.Popen(
                [sys.executable, str(RUNNER), self.database_url, str(self.port), *options],
                stdout=log,
                stderr=subprocess.STDOUT,
            )
        deadline = time.monotonic() + STARTUP
        while True:
            if self.process.poll() is not None:
                raise RuntimeError(f"the server exited at start:\n{self.log.read_text()}")
            try:
                if httpx.get(self.http + "/api/bots", timeout=1).status_code == 200:
                    return
            except httpx.TransportError:
                pass
            if time.monotonic() > deadline:
                self.stop()  # no process left running for a later test's garbage collection to warn of
                raise RuntimeError(f"the server did not answer in {STARTUP} s:\n{self.log.read_text()}")
            time.sleep(0.05)

    def kill(self) -> None:
        """SIGKILL: no shutdown code runs, whatever was in flight is lost or not."""
        assert self.process is not None
        os.kill(self.process.pid, signal.SIGKILL)
        self.process.wait(timeout=20)
        self.process = None

    def stop(self) -> None:
        if self.process is not None:
            self.process.terminate()
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
            self.process = None


class Human:
    """The practice table's human: acts at once (first legal action) on every `options` frame
    and says «listo» after each round. Each connection is a new `Client`, kept in `clients`."""

    def __init__(self, server: ServerProcess, table: str, token: str) -> None:
        self.server = server
        self.table = table
        self.token = token
        self.clients: list[Client] = []
        self.index = 0  # next frame of the current client to handle
        self.acted: set[int] = set()
        self.own_actions = 0

    @property
    def client(self) -> Client:
        return self.clients[-1]

    async def close(self) -> None:
        """Close every connection this person opened (closing one already closed does nothing)."""
        for client in self.clients:
            await client.close()

    async def connect(self, last_seq: int | None = None, handled_up_to: int = 0) -> Message:
        """A new socket (hello with the seat's token and `last_seq`); events up to
        `handled_up_to` were handled by an earlier connection and are not acted on again."""
        client = Client(cast(Any, self.server))
        await client.connect()
        self.clients.append(client)
        answer = await client.hello(self.table, self.token, last_seq)
        assert answer["type"] == "ack" and answer["seat"] == 0, answer
        self.index = 0
        while self.client.frames[self.index].get("seq", handled_up_to + 1) <= handled_up_to:
            self.index += 1
        return answer

    async def next_frame(self) -> Message:
        client = self.client

        def found() -> Message | None:
            return client.frames[self.index] if len(client.frames) > self.index else None

        frame = await client.wait_for(found, timeout=30)
        self.index += 1
        return frame

    def act_message(self, options: Message) -> Message:
        return {"type": "act", "action": options["legal_actions"][0], "turn_id": options["turn_id"]}

    async def play(self, until: Callable[[Message], bool]) -> Message:
        """Play on; return the first frame for which `until` holds, not acted on."""
        while True:
            frame = await self.next_frame()
            if until(frame):
                return frame
            await self.respond(frame)

    async def respond(self, frame: Message) -> None:
        if frame["type"] == "sync" and frame["turn"] is not None and frame["turn"]["seat"] == 0:
            # A full sync carries what we may do in its view (no `options` frame follows it).
            options = {"turn_id": frame["turn"]["turn_id"], "legal_actions": frame["view"]["legal_actions"]}
            await self.respond({"type": "options", **options})
        elif frame["type"] == "options" and frame["turn_id"] not in self.acted:
            self.acted.add(frame["turn_id"])
            answer = await self.client.ask(self.act_message(frame))
            assert answer["type"] == "ack", answer
            self.own_actions += 1
        elif frame.get("kind") == "round_ended":
            answer = await self.client.ask({"type": "ready"})
            # The last round's end is followed at once by the game's: then there is no «listo».
            assert answer["type"] == "ack" or answer["code"] == "not_between_rounds", answer

    async def peek(self) -> Message:
        """A full `sync` over a second socket of the seat (no seat event: one stays open)."""
        async with Client(cast(Any, self.server)) as other:
            await other.hello(self.table, self.token)
            return next(f for f in other.frames if f["type"] == "sync")


def turn_at(n: int, human: Human) -> Callable[[Message], bool]:
    """Our `options` frame once we have acted `n` times: the table waits for us, bots are idle."""
    return lambda frame: frame["type"] == "options" and human.own_actions >= n


def assert_resumed(
    answer: Message, client: Client, last_seq: int, before: list[Message]
) -> tuple[list[Message], list[Message]]:
    """Exactly the missing events: seq contiguous from last_seq + 1 to the hello's seq, and each
    one the client had already received before the kill identical to what it got then.
    Returns (replayed events already seen, events new to the client)."""
    events = client.events
    assert [e["seq"] for e in events] == list(range(last_seq + 1, answer["seq"] + 1))
    seen = {e["seq"]: e for e in before}
    replayed = [e for e in events if e["seq"] in seen]
    assert replayed == [seen[e["seq"]] for e in replayed]
    assert [e["seq"] for e in replayed] == [s for s in seen if s > last_seq]
    return replayed, [e for e in events if e["seq"] not in seen]


async def play_across_kills(server: ServerProcess, human: Human) -> dict[str, Any]:
    """The game played to its end across two SIGKILLs of `server`, each resumed; returns
    what /api/verify says of the whole game's record."""
    await human.connect()

    # Some play, then a kill while the table waits for our move.
    frame = await human.play(turn_at(1, human))
    older = human.client.last_seq
    await human.respond(frame)
    frame = await human.play(turn_at(4, human))
    before = await human.peek()
    seen = human.client.events
    last_seen = human.client.last_seq
    server.kill()
    await human.client.close()
    assert human.client.events == seen  # nothing arrived after the kill's snapshot

    restarted = time.time()
    server.start()
    answer = await human.connect(last_seq=older, handled_up_to=last_seen)
    _, new = assert_resumed(answer, human.client, older, seen)
    # On restart the seat is away until we are back, and our turn starts again with a full clock.
    assert [(e["kind"], e["data"].get("state")) for e in new] == [
        ("seat", "away"),
        ("turn", None),
        ("seat", "present"),
    ]
    turn = new[1]["data"]
    assert (turn["seat"], turn["turn_id"]) == (0, before["turn"]["turn_id"] + 1)
    assert turn["deadline"] >= restarted + TURN > before["turn"]["deadline"]
    assert turn["deadline"] - new[1]["at"] <= TURN
    options = next(f for f in human.client.frames if f["type"] == "options")
    assert options == {
        "type": "options",
        "turn_id": turn["turn_id"],
        "legal_actions": before["view"]["legal_actions"],
    }
    after = await human.peek()
    # The same game: hand, line, counts, boneyard, scores, results, round, whose turn.
    assert after["view"] == before["view"]
    assert (after["round"], after["results"], after["phase"]) == (
        before["round"],
        before["results"],
        "playing",
    )
    assert after["turn"] == {"seat": 0, "turn_id": turn["turn_id"], "deadline": turn["deadline"]}

    # More play, then a kill with our move in flight: it may or may not have been persisted.
    frame = await human.play(turn_at(7, human))
    await human.client.send(human.act_message(frame))
    server.kill()
    await human.client.close()
    seen = human.client.events
    last_seen = human.client.last_seq
    older = seen[-4]["seq"]

    server.start()
    answer = await human.connect(last_seq=older, handled_up_to=last_seen)
    assert_resumed(answer, human.client, older, seen)
    ended = await human.play(lambda f: f.get("kind") == "game_ended")
    assert ended["data"]["reason"] == "target" and ended["data"]["winners"]
    rounds_ended = [e for e in human.client.events if e["kind"] == "round_ended"]
    assert ended["data"]["scores"] == rounds_ended[-1]["data"]["scores"]
    assert max(ended["data"]["scores"]) >= 200

    # The record of the whole game, across both kills, checks out.
    record = httpx.get(f"{server.http}/api/tables/{human.table}/record", timeout=10).json()
    verdict: dict[str, Any] = httpx.post(server.http + "/api/verify", json=record, timeout=30).json()
    assert verdict["ok"] is True, verdict
    return verdict


async def scenario(server: ServerProcess) -> None:
    server.start()
    # To 200, which no first round reaches (a double-six set holds 168 points): the game must
    # outlast the kills at our 4th and 7th actions.
    body = {"preset": "clasico", "players": 2, "mode": "individual", "target": 200}
    response = httpx.post(
        server.http + "/api/practice", json={**body, "turn_seconds": TURN, "bot_level": "greedy"}
    )
    response.raise_for_status()
    seated = response.json()
    human = Human(server, seated["table"], seated["token"])
    try:
        verdict = await play_across_kills(server, human)
    finally:
        await human.close()  # however the play ends: no socket left open for a later test
    server.stop()

    # The stored log: seq 1..N without a gap, and every frame any connection got is in it.
    store = SqlStore(server.database_url)
    await store.start()
    try:
        log: list[StoredEvent] = await store.load_events(human.table)
    finally:
        await store.close()
    assert [e.seq for e in log] == list(range(1, len(log) + 1))
    assert len(verdict["rounds"]) == len([e for e in log if e.kind == "round_ended"]) >= 1
    for client in human.clients:
        for event in client.events:
            assert visible(log[event["seq"] - 1], 0) == event


@pytest.mark.processes  # a server process to kill and start again (tests/conftest.py)
@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
def test_sigkill_mid_game_and_restart_resume_the_table_with_no_event_lost(
    backend: str, request: pytest.FixtureRequest, tmp_path: Path
) -> None:
    url = empty_database_url(backend, request, tmp_path)  # other tests' tables would be recovered too
    server = ServerProcess(url, free_port(), tmp_path / "server.log")
    try:
        asyncio.run(scenario(server))
    finally:
        server.stop()
