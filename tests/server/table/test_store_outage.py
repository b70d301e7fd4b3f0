"""The database out of reach is weather, not death (table/actor.py "Outages",
docs/deploy.md "When the database goes away").

While the store cannot be written, a table's commands are refused `unavailable`, its
followers are told `paused`, its turn clock stands still and its bots wait; once the log
reads back, the table goes on by itself (`resumed`), whoever was to act gets a full new
turn, and nothing acknowledged is lost. First on the in-memory store with a switch that
makes it fail (fast, a `FakeClock`); then on a PostgreSQL server of the test's own, stopped
for 10 seconds mid-game and started again, with several tables and no restart of the site.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Callable
from typing import Any

import httpx
import pytest

from tests.server.support.harness import LiveServer, Message, Player, fast_settings
from tests.server.support.private_postgres import PrivatePostgres
from tests.server.support.scripted import stored_events
from tests.server.support.switched_store import SwitchedStore
from tranque.server.table.actor import Table
from tranque.server.table.clock import RealClock

TURN_SECONDS = 30  # the practice table's turn (clasico's default)
BACK_WITHIN = 5.0  # seconds: every table moves again this soon after the database is back


def table_of(server: LiveServer, table_id: str) -> Table:
    async def get() -> Table:
        table: Table = server.state.registry.get(table_id)
        return table

    return server.on_server(get)


class Seat(Player):
    """A scripted human that plays the first legal action of each `options` at once, and
    keeps every ack: the moves the server said it took."""

    def __init__(self, server: LiveServer, seated: dict[str, Any]) -> None:
        super().__init__(server)
        self.table, self.token = seated["table"], seated["token"]
        self.acked: list[tuple[int, dict[str, Any]]] = []  # (the ack's seq, the action)
        self.refused: list[str] = []
        self.playing = True
        self._player: asyncio.Task[None] | None = None
        self._options_read = 0

    async def join(self, *, autoplay: bool = True) -> None:
        hello = {"type": "hello", "table": self.table, "token": self.token, "last_seq": 0}
        answer = await self.request(hello)
        assert answer["type"] == "ack", answer
        if autoplay:
            self._player = asyncio.get_running_loop().create_task(self._play())

    async def options(self) -> Message:
        """The next `options` not acted on yet (read from `frames`: a request's wait for its
        answer passes over the others)."""
        while True:
            for index in range(self._options_read, len(self.frames)):
                if self.frames[index]["type"] == "options":
                    self._options_read = index + 1
                    return self.frames[index]
            self._options_read = len(self.frames)
            await asyncio.sleep(0.01)

    async def seen(self, wanted: Callable[[Message], bool], since: int = 0) -> Message:
        """The first frame from `frames[since]` on for which `wanted` is true, once received."""
        async with asyncio.timeout(10):
            while True:
                found = [frame for frame in self.frames[since:] if wanted(frame)]
                if found:
                    return found[0]
                await asyncio.sleep(0.01)

    async def _play(self) -> None:
        while self.playing:
            options = await self.options()
            action = options["legal_actions"][0]
            answer = await self.request({"type": "act", "action": action, "turn_id": options["turn_id"]})
            if answer["type"] == "ack":
                self.acked.append((answer["seq"], action))
            else:
                self.refused.append(answer["code"])

    async def stop(self) -> None:
        self.playing = False
        if self._player is not None:
            self._player.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._player

    def sent_paused(self, index: int) -> bool:
        return any(frame["type"] == "paused" for frame in self.frames[index:])

    def over(self) -> bool:
        return any(frame["type"] == "event" and frame["kind"] == "game_ended" for frame in self.frames)

    def events_after(self, index: int) -> list[Message]:
        return [frame for frame in self.frames[index:] if frame["type"] == "event"]


def assert_nothing_acknowledged_lost(server: LiveServer, seat: Seat) -> None:
    """Every acked move is in the stored log, as the seat's last action at or before its ack."""
    logged = stored_events(server, seat.table)
    seqs = [event.seq for event in logged]
    assert seqs == list(range(1, len(seqs) + 1)), "the log has a gap or a repeat"
    for seq, action in seat.acked:
        actions = [e for e in logged if e.seq <= seq and e.kind == "action" and e.data.get("seat") == 0]
        assert actions, f"the move acked at seq {seq} is not in the log"
        assert same_move(actions[-1].data["action"], action)


def same_move(logged: dict[str, Any], sent: dict[str, Any]) -> bool:
    return all(logged.get(key) == sent.get(key) for key in ("type", "tile"))


def test_a_table_waits_for_its_store_and_goes_on_by_itself() -> None:
    with LiveServer(fast_settings()) as server:
        seated = server.post("/api/practice", {"preset": "clasico"})

        async def scenario() -> None:
            seat = Seat(server, seated)
            async with seat:
                table = table_of(server, seat.table)
                switched = SwitchedStore(table.store)
                table.store = switched
                await seat.join(autoplay=False)
                options = await seat.options()
                switched.down = True
                refused = await seat.request(
                    {"type": "act", "action": options["legal_actions"][0], "turn_id": options["turn_id"]}
                )
                assert refused["type"] == "error" and refused["code"] == "unavailable"
                paused = await seat.seen(lambda m: m["type"] == "paused")
                assert paused["code"] == "unavailable" and "base de datos" in paused["message"]
                assert "database" in paused["message_en"]
                waited_from = len(seat.frames)
                hello = await seat.request({"type": "hello", "table": seat.table, "token": seat.token})
                assert hello["type"] == "error" and hello["code"] == "unavailable"
                server.advance(10 * TURN_SECONDS)  # the turn clock stands still: no timeout
                await asyncio.sleep(0.2)
                assert seat.events_after(waited_from) == []
                assert table.waiting

                switched.down = False
                back = len(seat.frames)
                server.advance(2.0)  # the most the actor waits between two looks
                await seat.seen(lambda m: m["type"] == "resumed", back)
                turn = await seat.seen(lambda m: m["type"] == "event" and m["kind"] == "turn", back)
                assert turn["data"]["seat"] == 0  # the same seat, to act again...
                assert turn["data"]["deadline"] - turn["at"] == TURN_SECONDS  # ...with a full new turn
                assert not table.waiting
                options = await seat.options()
                action = options["legal_actions"][0]
                taken = await seat.request({"type": "act", "action": action, "turn_id": options["turn_id"]})
                assert taken["type"] == "ack"
                seat.acked.append((taken["seq"], action))
            assert_nothing_acknowledged_lost(server, seat)

        asyncio.run(scenario())


def test_an_http_request_while_the_store_is_out_of_reach_is_answered_503_unavailable() -> None:
    with LiveServer(fast_settings()) as server:

        async def switch_off() -> None:
            server.state.store = SwitchedStore(server.state.store)
            server.state.store.down = True

        server.on_server(switch_off)
        answer = httpx.get(server.http + "/api/players/nadie", timeout=20)
        assert answer.status_code == 503
        assert answer.json()["code"] == "unavailable"
        assert answer.headers["Retry-After"]


# PostgreSQL of the test's own, stopped for 10 s mid-game ------------------------------------

TABLES = 4
ADDRESSES = [f"10.0.0.{n}" for n in range(TABLES)]  # a table each, below every per-address quota
OUTAGE_SECONDS = 10


def wait_until(done: Callable[[], bool], seconds: float, what: str) -> None:
    deadline = time.monotonic() + seconds
    while not done():
        if time.monotonic() > deadline:
            raise AssertionError(what)
        time.sleep(0.05)


@pytest.mark.timeout(300)
def test_a_10_second_postgresql_outage_mid_game_every_table_moves_again_without_a_restart() -> None:
    # Games to 200 with bots that take 0.3 s a move: none is over within the test's 20 s.
    settings = fast_settings(None, clock=RealClock(), bot_min_seconds=0.3, auto_move_seconds=0.3)
    with PrivatePostgres() as database:
        settings.database_url = database.url
        with LiveServer(settings) as server:
            loop = asyncio.new_event_loop()
            seats: list[Seat] = []
            try:
                for address in ADDRESSES:
                    practice = {"preset": "clasico", "target": 200}
                    seated = server.post("/api/practice", practice, headers={"X-Forwarded-For": address})
                    seats.append(Seat(server, seated))
                    loop.run_until_complete(seats[-1].connect())
                    loop.run_until_complete(seats[-1].join())
                outage(server, database, seats, loop)
            finally:
                for seat in seats:
                    loop.run_until_complete(seat.stop())
                    loop.run_until_complete(seat.close())
                loop.close()
            for seat in seats:
                assert_nothing_acknowledged_lost(server, seat)


def outage(
    server: LiveServer, database: PrivatePostgres, seats: list[Seat], loop: asyncio.AbstractEventLoop
) -> None:
    def play(seconds: float) -> None:
        loop.run_until_complete(asyncio.sleep(seconds))

    play(3.0)  # the games under way
    assert all(seat.acked for seat in seats), "a table did not get going"
    database.stop()
    stopped_at = [len(seat.frames) for seat in seats]
    play(OUTAGE_SECONDS)
    assert httpx.get(server.http + "/readyz", timeout=5).status_code == 503  # not ready meanwhile
    waited = [seat for seat, index in zip(seats, stopped_at, strict=True) if seat.sent_paused(index)]
    assert waited, "no table tried to write during the outage"
    database.start()
    back = [len(seat.frames) for seat in seats]
    play(BACK_WITHIN)
    for seat, index in zip(seats, back, strict=True):
        assert not seat.over(), f"the game of table {seat.table} ended: the test needs longer games"
        assert seat.events_after(index), f"table {seat.table} did not move within {BACK_WITHIN} s"
    assert httpx.get(server.http + "/readyz", timeout=5).status_code == 200
    for seat, index in zip(seats, stopped_at, strict=True):
        told = [frame["type"] for frame in seat.frames[index:] if frame["type"] in ("paused", "resumed")]
        assert told in ([], ["paused", "resumed"])
