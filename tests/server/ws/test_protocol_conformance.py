"""What a client written from docs/protocol.md alone relies on, against a real uvicorn with
real WebSocket and HTTP clients (issue «Protocol conformance»).

- A `hello` with `last_seq` gets exactly the missing events, then `options` if it is the
  seat's turn, then the ack; without `last_seq`, a `sync`, then `options` likewise; with
  `last_seq` 0 the whole history, however long the table's log.
- Under reconnect churn (random drops, resumes with and without `last_seq`, from 0 too)
  through whole games, no event is lost, altered or duplicated.
- `game_ended` is a table's last event; every command after it gets the code the document
  gives, and the game's record is readable by the time any socket sees `game_ended`.
- In ponce the running score is in the pass that changes it.
- A covered seat stays covered after `hello` until `return`; forced moves neither count as
  timeouts nor reset the count.

The server's clock is a `FakeClock` that only the tests move; nothing here is timed.
"""

from __future__ import annotations

import asyncio
import random
import re
from collections import Counter
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.server.support.harness import LiveServer, Message, Player, fast_settings
from tests.server.support.scenario_helpers import (
    Client,
    Mirror,
    find_seeds,
    forced,
    joined,
    lowest,
    make_account,
    new_game,
    open_table,
    r15_expected,
)
from tests.server.support.scripted import PlainPlayer, stored_events
from tranque.engine import Rules, action_from_json
from tranque.server.table.events import EVENT_TYPES
from tranque.server.table.log import visible
from tranque.server.table.state import TableKind

ROOT = Path(__file__).resolve().parents[3]
DOC = " ".join((ROOT / "docs" / "protocol.md").read_text(encoding="utf-8").split())

TWO = Rules.preset("clasico", players=2, mode="individual")
FOUR = Rules.preset("clasico", players=4)
PONCE = Rules.preset("ponce")
TURN = TWO.turn_seconds
AUTO = 1.0
WAIT = 30.0  # seconds without an awaited frame before a client gives up (a hung table)


def settings(**changes: Any) -> Any:
    """Only people end the pause between rounds; forced moves wait a second of the FakeClock."""
    values: dict[str, Any] = {
        "between_rounds_seconds": 3600,
        "auto_move_seconds": AUTO,
        "default_bot_level": "greedy",
    }
    return fast_settings(**{**values, **changes})


def run(scenario: Any, **changes: Any) -> None:
    with LiveServer(settings(**changes)) as server:
        asyncio.run(scenario(server))


def doc_says(text: str) -> bool:
    return " ".join(text.split()) in DOC


# Resuming: the catch-up, then options, then the ack ------------------------------------------


class Resumer:
    """A seat's (or a spectator's) client as docs/protocol.md describes one: it acts only on
    `options`, says «listo» between rounds, ignores events it has processed, and now and then
    drops its socket and resumes, with `last_seq` (its last, 0, or one in between) or without.

    Every resume is checked as the document promises it: the events after `last_seq` (or a
    `sync` and what follows it) with no gap up to the ack's `seq`, and `options` before the
    ack exactly when it is this seat's turn."""

    MODES = ("last", "zero", "some", "none")

    def __init__(
        self, server: LiveServer, table: str, token: str | None, rng: random.Random, churn: float
    ) -> None:
        self.server, self.table, self.token = server, table, token
        self.rng, self.churn = rng, churn
        self.player = PlainPlayer(server)
        self.seat: int | None = None
        self.seq = 0  # the last event processed
        self.stream: list[Message] = []  # every sync and new event processed, in order
        self.phase = "waiting"
        self.round: int | None = None
        self.turn: dict[str, Any] | None = None
        self.ready: set[int] = set()
        self.options: Message | None = None
        self.acted: int | None = None  # the turn_id last acted on
        self.ready_for: int | None = None  # the round «listo» was said after
        self.pending: dict[Any, str] = {}
        self.ended: dict[str, Any] | None = None
        self.resumes: Counter[str] = Counter()
        self.resumes_on_turn: Counter[str] = Counter()
        self.on_event: Callable[[Message], None] | None = None  # told of each new event
        self.when_ended: Callable[[], Awaitable[None]] | None = None  # awaited on reading game_ended

    async def play(self) -> None:
        await self.resume("zero")
        await self.play_on()

    async def play_on(self) -> None:
        """Play (or watch) to `game_ended` and every answer, dropping the socket now and then."""
        while self.ended is None or self.pending:
            await self._maybe_ask()
            frame = await self.player.expect(lambda m: True, timeout=WAIT)
            ended = self.ended
            self.process(frame)
            if ended is None and self.ended is not None and self.when_ended is not None:
                await self.when_ended()
            if self.ended is None and not self.pending and self.rng.random() < self.churn:
                await self.player.close()
                self.player = PlainPlayer(self.server)
                await self.resume(self.rng.choice(self.MODES))
        await self.player.close()

    async def resume(self, mode: str) -> None:
        """Connect, say hello as `mode` says, read up to the ack and check what came before it."""
        await self.player.connect()
        last_seq = {"last": self.seq, "zero": 0, "some": self.rng.randint(0, self.seq), "none": None}[mode]
        hello: Message = {"type": "hello", "table": self.table, "token": self.token}
        if last_seq is not None:
            hello["last_seq"] = last_seq
        message_id = await self.player.send(hello)
        before: list[Message] = []
        while True:
            frame = await self.player.expect(lambda m: m["type"] != "heartbeat", timeout=WAIT)
            if frame["type"] in ("ack", "error") and frame["id"] == message_id:
                break
            before.append(frame)
        assert frame["type"] == "ack", frame
        self.seat = frame["seat"]
        syncs = [f for f in before if f["type"] == "sync"]
        if last_seq is None:
            assert before[0]["type"] == "sync" and len(syncs) == 1, before[:2]
            start = syncs[0]["seq"]
        else:
            assert syncs == [], "a hello with last_seq got a sync"
            start = last_seq
        events = [f["seq"] for f in before if f["type"] == "event"]
        assert events == list(range(start + 1, frame["seq"] + 1)), (mode, last_seq, events[:3], frame)
        for item in before:
            self.process(item)
        options = [f["turn_id"] for f in before if f["type"] == "options"]
        mine = self.my_turn()
        assert options == ([] if mine is None else [mine]), (mode, options, self.turn)
        self.resumes[mode] += 1
        if mine is not None:
            self.resumes_on_turn[mode] += 1

    def my_turn(self) -> int | None:
        """The turn_id of this seat's turn, if it is to act now (as far as it has processed)."""
        turn = self.turn
        if self.phase != "playing" or turn is None or self.seat is None or turn["seat"] != self.seat:
            return None
        turn_id: int = turn["turn_id"]
        return turn_id

    async def _maybe_ask(self) -> None:
        mine = self.my_turn()
        options = self.options
        if mine is not None and options is not None and options["turn_id"] == mine and self.acted != mine:
            self.acted = mine
            action = self.rng.choice(options["legal_actions"])
            await self._ask({"type": "act", "action": action, "turn_id": mine}, "act")
        between = self.phase == "between_rounds" and self.seat is not None
        if between and self.seat not in self.ready and self.ready_for != self.round:
            self.ready_for = self.round
            await self._ask({"type": "ready"}, "ready")

    async def _ask(self, message: Message, what: str) -> None:
        self.pending[await self.player.send(message)] = what

    def process(self, frame: Message) -> None:
        kind = frame["type"]
        if kind == "sync":
            assert frame["seq"] >= self.seq, "a sync older than what was processed"
            self.seq = frame["seq"]
            self.stream.append(frame)
            self.phase, self.round, self.turn = frame["phase"], frame["round"], frame["turn"]
            self.ready = set(frame["ready"])
            if frame["phase"] in ("finished", "annulled"):
                self.ended = {"phase": frame["phase"]}
        elif kind == "event":
            if frame["seq"] <= self.seq:
                return  # the document: ignore an event already processed
            assert frame["seq"] == self.seq + 1, f"a gap: {self.seq} then {frame['seq']}"
            self.seq = frame["seq"]
            self.stream.append(frame)
            self._follow(frame["kind"], frame["data"])
            if self.on_event is not None:
                self.on_event(frame)
        elif kind == "options":
            assert self.seat is not None, "a spectator got options"
            self.options = frame
        elif kind in ("ack", "error"):
            what = self.pending.pop(frame["id"])
            # The one race the document allows: «listo» at round_ended, with game_ended behind it.
            late_ready = what == "ready" and frame.get("code") == "not_between_rounds" and self.ended
            assert frame["type"] == "ack" or late_ready, (what, frame)

    def _follow(self, kind: str, data: dict[str, Any]) -> None:
        if kind == "turn":
            self.turn = data
        elif kind == "action":
            self.turn = None
        elif kind == "round_started":
            self.phase, self.round, self.turn, self.ready = "playing", data["round"], None, set()
        elif kind == "round_ended":
            self.phase, self.turn, self.ready = "between_rounds", None, set()
        elif kind == "ready":
            self.ready.add(data["seat"])
        elif kind == "game_started":
            self.phase = "playing"
        elif kind == "game_ended":
            self.phase, self.turn, self.ended = "finished", None, data


def assert_stream_is_the_log(server: LiveServer, table: str, client: Resumer) -> None:
    """Every event the client processed is the stored event as its viewer may see it, and it
    processed up to the table's last event."""
    log = stored_events(server, table)
    for frame in client.stream:
        if frame["type"] == "event":
            assert frame == visible(log[frame["seq"] - 1], client.seat), frame
    assert client.seq == log[-1].seq
    assert log[-1].kind == "game_ended"


async def answered(player: Player, message_id: Any) -> Message:
    """The answer to `message_id`, read frame by frame: WAIT seconds without one is a hung
    table, however long thousands of frames take on a loaded machine (answers come in the
    order the messages were sent, each after what its message caused)."""
    while True:
        frame = await player.expect(lambda m: m["type"] != "heartbeat", timeout=WAIT)
        if frame["type"] in ("ack", "error") and frame["id"] == message_id:
            return frame


def test_a_resume_from_0_on_a_table_of_thousands_of_events_gets_every_event_then_the_ack() -> None:
    """A table driven to thousands of events by a person's votes (each «sí» and «no» is an
    event); a resume with `last_seq` 0 gets all of them, then `options` (it is the seat's
    turn), then the ack; so does a spectator's, without the options."""
    votes = 3200

    async def scenario(server: LiveServer) -> None:
        table, tokens = open_table(server, TWO, [0, 1], kind=TableKind.PUBLIC)
        voter = await joined(server, table, tokens[1])
        for first in range(0, votes, 200):
            ids = [await voter.send({"type": "vote", "agree": n % 2 == 0}) for n in range(first, first + 200)]
            await answered(voter, ids[-1])
        assert [f for f in voter.frames if f["type"] == "error"] == []
        assert sum(1 for stored in stored_events(server, table) if stored.kind == "vote") == votes
        for resumer in ("spectator", "seat"):  # a seat leaving records an event; a spectator none
            log = stored_events(server, table)
            last = log[-1].seq
            turn = next(stored for stored in reversed(log) if stored.kind == "turn").data
            viewer = turn["seat"] if resumer == "seat" else None
            token = None if viewer is None else tokens[viewer]
            arrives = viewer == 0  # the voter's seat 1 is present already; seat 0 comes back
            async with PlainPlayer(server) as resumed:
                hello = {"type": "hello", "table": table, "token": token, "last_seq": 0}
                answer = await answered(resumed, await resumed.send(hello))
                up_to = last + arrives
                assert answer == {"type": "ack", "id": answer["id"], "seat": viewer, "seq": up_to}
                before = resumed.frames[: resumed.frames.index(answer)]
                events = [f for f in before if f["type"] == "event"]
                assert [f["seq"] for f in events] == list(range(1, up_to + 1))
                assert events[:last] == [visible(stored, viewer) for stored in log]
                kinds = [f["type"] for f in before[last:]]
                if viewer is None:
                    assert kinds == []
                else:
                    options = before[last]
                    assert options["type"] == "options" and options["turn_id"] == turn["turn_id"]
                    assert kinds == (["options", "event"] if arrives else ["options"])
        await voter.close()

    run(scenario)


def test_resuming_on_your_own_turn_gets_options_after_a_sync_and_after_missing_events() -> None:
    async def scenario(server: LiveServer) -> None:
        table, tokens = open_table(server, TWO, [0, 1], kind=TableKind.PUBLIC)
        seated = {seat: await joined(server, table, tokens[seat]) for seat in (0, 1)}
        log = stored_events(server, table)
        turn = next(s for s in reversed(log) if s.kind == "turn").data
        to_act, waiting = turn["seat"], 1 - turn["seat"]
        await seated[to_act].wait_for(
            lambda: next((f for f in seated[to_act].frames if f["type"] == "options"), None)
        )
        for last_seq in (None, 0, log[-1].seq):
            for seat, gets in ((to_act, [turn["turn_id"]]), (waiting, [])):
                async with Client(server) as again:
                    answer = await again.hello(table, tokens[seat], last_seq)
                    assert answer["type"] == "ack"
                    kinds = [f["type"] for f in again.frames]
                    events = [f["seq"] for f in again.frames if f["type"] == "event"]
                    if last_seq is None:
                        assert kinds[0] == "sync"
                    else:
                        assert "sync" not in kinds and events == list(range(last_seq + 1, answer["seq"] + 1))
                    options = [f for f in again.frames if f["type"] == "options"]
                    assert [f["turn_id"] for f in options] == gets, (last_seq, seat)
                    if gets:
                        assert options[0]["legal_actions"]
                        assert kinds[-2:] == ["options", "ack"]
        assert doc_says(
            "an `options` message with its legal actions follows the catch-up, after the missing"
            " events or after the `sync` alike, before the ack"
        )
        for client in seated.values():
            await client.close()

    run(scenario)


def test_reconnect_churn_through_whole_games_loses_and_duplicates_nothing() -> None:
    """Four tables at once, each with two people, two bots and a spectator that keep
    dropping their sockets and resuming in every way the document allows, to the end."""

    def one_table(server: LiveServer, number: int) -> tuple[str, list[Resumer]]:
        rng = random.Random(number)
        seeds = [rng.randbytes(32) for _ in range(40)]
        table, tokens = open_table(server, FOUR, [0, 1], kind=TableKind.PUBLIC, seeds=seeds, start=False)
        clients = [
            Resumer(server, table, token, random.Random(rng.random()), 0.06)
            for token in (tokens[0], tokens[1], None)
        ]
        return table, clients

    async def play(server: LiveServer, table: str, clients: list[Resumer]) -> None:
        started = asyncio.create_task(asyncio.to_thread(_start, server, table))
        await asyncio.gather(*(client.play() for client in clients), started)

    async def scenario(server: LiveServer) -> None:
        # Every table is opened before any client connects, and checked once every game is
        # over: a call to the server from here blocks this loop, which the clients of the
        # other tables need to open their sockets and read their frames.
        tables = [one_table(server, number) for number in range(4)]
        await asyncio.gather(*(play(server, table, clients) for table, clients in tables))
        for table, found in tables:
            for client in found:
                assert_stream_is_the_log(server, table, client)
            kinds = [stored.kind for stored in stored_events(server, table)]
            # A whole game: played to its end, through at least one finished round (how many
            # rounds depends on who timed out when, so no count is asserted).
            assert kinds[-1] == "game_ended" and "round_ended" in kinds, kinds[-5:]
        clients = [client for _, found in tables for client in found]
        resumes = sum((client.resumes for client in clients), Counter())
        on_turn = sum((client.resumes_on_turn for client in clients), Counter())
        assert set(resumes) == set(Resumer.MODES), resumes  # every way of resuming was tried
        assert on_turn["none"] > 0 and on_turn["last"] + on_turn["some"] + on_turn["zero"] > 0, on_turn
        assert all(client.ended is not None for client in clients)

    run(scenario)


def _start(server: LiveServer, table_id: str) -> None:
    async def start() -> None:
        await server.state.registry.tables[table_id].start_game()

    server.on_server(start)


# After game_ended -----------------------------------------------------------------------------


def after_the_end_codes() -> dict[str, str]:
    """What docs/protocol.md says each command gets once the game is over."""
    sentence = DOC.split("(their seat does not turn `present` or `away` any more), but ", 1)[1].split(".", 1)[
        0
    ]
    codes: dict[str, str] = {}
    for names, code in re.findall(
        r"((?:`\w+`(?:, | and |,? and )?)+) (?:are refused )?with `(\w+)`", sentence
    ):
        for name in re.findall(r"`(\w+)`", names):
            codes[name] = code
    return codes


async def until_nobody_follows(server: LiveServer, table_id: str) -> None:
    """Until the server has handled the close of every socket that followed the table."""

    async def followers() -> int:
        return len(server.state.registry.tables[table_id].subscribers)

    async with asyncio.timeout(WAIT):
        while await asyncio.to_thread(server.on_server, followers):
            await asyncio.sleep(0.01)


def test_after_game_ended_every_command_gets_the_documented_code_and_nothing_is_stored() -> None:
    async def scenario(server: LiveServer) -> None:
        _, host = make_account(server, "anfitriona")
        _, guest = make_account(server, "invitado")
        created = httpx.post(
            server.http + "/api/tables", json={"preset": "clasico", "players": 2}, headers=host
        )
        assert created.status_code == 201, created.text
        table = created.json()["table"]
        people: list[tuple[Client, str]] = []
        for headers, seat in ((host, 0), (guest, 1)):
            person = Client(server, headers)
            await person.connect()
            seated = await person.ok({"type": "sit", "table": table, "seat": seat})
            await person.ok({"type": "hello", "table": table, "token": seated["token"]})
            people.append((person, seated["token"]))
        for person, _ in people:
            await person.ok({"type": "vote", "agree": True})
        ended = await people[0][0].until("game_ended")
        assert ended["data"]["reason"] == "annulled"
        log = stored_events(server, table)
        assert log[-1].kind == "game_ended"
        host_socket, token = people[0]
        commands: dict[str, Message] = {
            "act": {"type": "act", "action": {"type": "pass"}},
            "phrase": {"type": "phrase", "phrase": "buena"},
            "return": {"type": "return"},
            "vote": {"type": "vote", "agree": True},
            "ready": {"type": "ready"},
            "sit": {"type": "sit", "table": table},
            "stand": {"type": "stand"},
            "fill_bots": {"type": "fill_bots", "level": "greedy"},
        }
        expected = after_the_end_codes()
        assert set(expected) == set(commands), expected
        for name, message in commands.items():
            await host_socket.refused(message, expected[name])
        # Sockets may still come and go: they catch up, and the seats change no more.
        for last_seq in (None, 0):
            async with Client(server) as again:
                answer = await again.hello(table, token, last_seq)
                assert answer["type"] == "ack" and answer["seq"] == log[-1].seq
        for person, _ in people:
            await person.close()
        await until_nobody_follows(server, table)
        assert stored_events(server, table) == log

    run(scenario)


@pytest.mark.parametrize("backend", ["memory", "sqlite"])
def test_the_record_is_there_as_soon_as_game_ended_is_seen(backend: str, tmp_path: Path) -> None:
    """Practice games played to their target, and one annulled by vote: the moment the
    client has read `game_ended`, the record endpoint answers with the game's record."""
    url = "memory://" if backend == "memory" else f"sqlite+aiosqlite:///{tmp_path / 'tranque.db'}"
    short = Rules.preset("clasico", players=2, mode="individual", target=10)

    async def finish(
        server: LiveServer, http: httpx.AsyncClient, table: str, token: str, annul: bool
    ) -> None:
        client = Resumer(server, table, token, random.Random(table), churn=0)
        fetched: list[httpx.Response] = []

        async def fetch() -> None:
            fetched.append(await http.get(f"/api/tables/{table}/record"))

        client.when_ended = fetch
        await client.resume("zero")
        if annul:
            client.acted = client.my_turn()  # it votes instead of playing
            await client._ask({"type": "vote", "agree": True}, "vote")
        await client.play_on()
        (response,) = fetched
        assert response.status_code == 200, response.text
        record = response.json()
        assert record["table"] == table
        assert record["rounds"]
        if not annul:  # every round was played out, so every seed is revealed
            assert all(r["seed"] is not None for r in record["rounds"])

    async def scenario(server: LiveServer) -> None:
        tables = [open_table(server, short, [0]) for _ in range(4)]
        async with httpx.AsyncClient(base_url=server.http) as http:
            await asyncio.gather(
                *(finish(server, http, table, tokens[0], n == 0) for n, (table, tokens) in enumerate(tables))
            )

    with LiveServer(settings(database_url=url)) as server:
        asyncio.run(scenario(server))
    assert doc_says(
        "stored before `game_ended` is sent, so it is at `GET /api/tables/{id}/record` by the time any socket"
        " sees that event"
    )


# Ponce: the running score is in the pass that changes it --------------------------------------


def test_in_ponce_a_pass_that_scores_carries_the_game_scores_to_everybody() -> None:
    seeds = [bytes([n]) * 32 for n in range(40)]

    async def scenario(server: LiveServer) -> None:
        table, tokens = open_table(server, PONCE, [0], kind=TableKind.PUBLIC, seeds=seeds, start=False)
        mirror = Mirror(PONCE, seeds)
        player = Resumer(server, table, tokens[0], random.Random(5), churn=0)
        watcher = Resumer(server, table, None, random.Random(6), churn=0)
        scoring: list[Message] = []

        def check(frame: Message) -> None:
            """The referee's game in the test says which actions change the score, and to what."""
            before = list(mirror.game.scores)
            mirror.follow(frame)
            if frame["kind"] != "action":
                return
            game = mirror.game
            if game.scores != before and not game.round.is_over:
                assert frame["data"]["action"] == {"type": "pass"}, frame
                assert frame["data"]["scores"] == game.scores, frame
                scoring.append(frame)
            else:
                assert "scores" not in frame["data"], frame

        watcher.on_event = check
        await watcher.resume("zero")
        await player.resume("zero")
        await asyncio.to_thread(_start, server, table)
        await asyncio.gather(player.play_on(), watcher.play_on())
        assert scoring, "no pass scored in a whole game of ponce"
        seen = {f["seq"]: f for f in player.stream if f["type"] == "event"}
        assert all(seen[f["seq"]] == f for f in scoring)  # the seat gets what a spectator gets
        assert_stream_is_the_log(server, table, player)
        assert_stream_is_the_log(server, table, watcher)

    run(scenario)
    assert "scores" in EVENT_TYPES["action"].visible_keys
    assert doc_says("a pass that scores adds `scores`: the game's scores by side right after it")


# R16: covered until return; forced moves count neither way ------------------------------------

IDLE = 1  # the seat whose player stops answering


def timeout_forced_timeout_timeout(seeds: list[bytes]) -> bool:
    """In round 0, with seat 0 playing `lowest`, seat 1's turns go: a timeout, one or more
    forced moves, then two timeouts."""
    game = new_game(TWO, seeds)
    pattern: list[str] = []
    while not game.round.is_over and pattern.count("timeout") < 3:
        if game.round.turn == IDLE:
            if forced(game):
                pattern.append("auto")
                game.apply(game.round.legal_actions()[0])
            else:
                pattern.append("timeout")
                game.apply(action_from_json(r15_expected(game)))
        else:
            game.apply(lowest(game))
    return (
        len(pattern) > 3
        and pattern[0] == "timeout"
        and set(pattern[1:-2]) == {"auto"}
        and (pattern[-2:] == ["timeout", "timeout"])
    )


def test_forced_moves_neither_count_as_timeouts_nor_reset_the_count_and_hello_does_not_uncover() -> None:
    seeds = find_seeds("forced-neither-way", timeout_forced_timeout_timeout)

    async def scenario(server: LiveServer) -> None:
        table, tokens = open_table(server, TWO, [0, 1], seeds=seeds, start=False)
        mirror = Mirror(TWO, seeds)
        watch = await joined(server, table, tokens[1 - IDLE])
        idle = await joined(server, table, tokens[IDLE])
        await asyncio.to_thread(_start, server, table)
        await watch.until("game_started")  # both seats are present before it
        moves: list[str] = []
        while moves.count("timeout") < 3:
            event = await watch.next_event()
            mirror.follow(event)
            data = event["data"]
            if event["kind"] == "seat" and data["seat"] == IDLE:
                assert data["state"] == "covered", data
                assert moves.count("timeout") == 2, moves  # covered at the third timeout, not before
                moves.append("covered")
            elif event["kind"] == "action" and data["seat"] == IDLE:
                moves.append(data["by"])
            elif event["kind"] == "turn" and data["seat"] != IDLE:
                action = lowest(mirror.game).to_json()
                await watch.ok({"type": "act", "action": action, "turn_id": data["turn_id"]})
            elif event["kind"] == "turn":
                await asyncio.to_thread(server.advance, AUTO if data["auto"] else TURN)
        assert moves[:2] == ["timeout", "auto"] and moves[-2:] == ["covered", "timeout"], moves
        assert moves.count("covered") == 1
        # Reconnecting is not coming back: the seat stays covered, and the bot plays it...
        await idle.close()
        async with Client(server) as again:
            for last_seq in (None, watch.last_seq):
                answer = await again.hello(table, tokens[IDLE], last_seq)
                assert answer["type"] == "ack"
            sync = next(f for f in again.frames if f["type"] == "sync")
            assert sync["seats"][IDLE]["state"] == "covered"
            await again.settle()
            assert [e for e in again.events if e["kind"] == "seat" and e["seq"] > sync["seq"]] == []
            while True:
                event = await watch.next_event()
                mirror.follow(event)
                data = event["data"]
                if event["kind"] == "action" and data["seat"] == IDLE:
                    assert data["by"] == "bot", data
                    break
                if event["kind"] == "turn" and data["seat"] != IDLE:
                    action = lowest(mirror.game).to_json()
                    await watch.ok({"type": "act", "action": action, "turn_id": data["turn_id"]})
            # ...until `return`.
            await again.ok({"type": "return"})
            back = await again.until("seat", seat=IDLE)
            assert back["data"]["state"] == "present"
        await watch.close()

    run(scenario)
    assert doc_says("a `covered` seat stays `covered` after a `hello` with its token (no `seat` event)")
    assert doc_says(
        "A forced move the server plays neither counts as a timeout nor resets the count of timeouts in a row"
    )
