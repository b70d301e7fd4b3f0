"""The message rate of one socket (docs/protocol.md, «Limits and slow clients»).

Each socket has a token bucket: `burst` messages at once, then `per_second`. A message past
it is answered `rate_limited` and changes nothing: nothing stored, nothing sent to anybody
else; 100 refused in a row close the socket (4029). The bucket reads the server's clock, a
`FakeClock` here, so the tests say exactly how many messages pass: with the clock standing
still, exactly the burst; after one second, exactly `per_second` more.

A client that reads its answers is never cut off for the answers to its own requests: 3,000
requests in one write used to get 512 answers and close code 4008 (the slow-reader limit),
and so did a `hello` with `last_seq` 0 at a table with more than 512 events.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from websockets.sync.client import connect

from tests.server.support.harness import LiveServer, Message, Player, fast_settings
from tests.server.support.raw_client import RawClient
from tests.server.support.scripted import seat_table, start_table_now, stored_events
from tranque.engine import Rules
from tranque.server.table.actor import Table
from tranque.server.table.events import PhraseSaid
from tranque.server.ws.connection import OUTBOUND_LIMIT, SLOW_CLIENT_CLOSE
from tranque.server.ws.endpoint import FLOOD_CLOSE
from tranque.server.ws.limits import DEFAULT_LIMITS, SocketLimits

BURST, PER_SECOND, FLOOD = DEFAULT_LIMITS.burst, int(DEFAULT_LIMITS.per_second), DEFAULT_LIMITS.flood_refusals
SLOW_DOWN = "Estás enviando mensajes demasiado rápido; espera un momento."
SLOW_DOWN_EN = "You are sending messages too fast; wait a moment."
UNLIMITED = SocketLimits(burst=10**9)
WAIT = 10.0


@pytest.fixture(scope="module")
def server() -> Iterator[LiveServer]:
    # Only the tests move the clock, and only people end the pause between rounds.
    settings = fast_settings(auto_move_seconds=3600, between_rounds_seconds=3600)
    with LiveServer(settings) as live:
        yield live


@pytest.fixture
def limited(server: LiveServer) -> Iterator[LiveServer]:
    """The server with the rate limit `tranque serve` runs with, for the sockets opened now."""
    server.settings.socket_limits = DEFAULT_LIMITS
    yield server
    server.settings.socket_limits = UNLIMITED


def two_people(server: LiveServer) -> tuple[str, dict[int, str]]:
    table, tokens = seat_table(server, Rules.preset("clasico", players=2), [0, 1])
    start_table_now(server, table)
    return table, tokens


def hello(table: str, token: str | None, message_id: int = 0) -> Message:
    return {"type": "hello", "id": message_id, "table": table, "token": token}


def refused(message_id: Any) -> Message:
    return {
        "type": "error",
        "id": message_id,
        "code": "rate_limited",
        "message": SLOW_DOWN,
        "message_en": SLOW_DOWN_EN,
    }


def votes(first_id: int, count: int) -> list[Message]:
    return [{"type": "vote", "id": i, "agree": i % 2 == 0} for i in range(first_id, first_id + count)]


def events_seen(client: Any, until: Callable[[Message], bool]) -> list[int]:
    """Read a `websockets` sync client until `until`; the seqs of the events it got meanwhile."""
    seqs = []
    give_up = time.monotonic() + WAIT
    while time.monotonic() < give_up:
        frame: Message = json.loads(client.recv(timeout=WAIT))
        if frame["type"] == "event":
            seqs.append(frame["seq"])
        if until(frame):
            return seqs
    raise AssertionError("the awaited frame never came")


def test_a_flood_of_votes_is_refused_past_the_burst_and_changes_nothing(limited: LiveServer) -> None:
    server = limited
    table, tokens = two_people(server)
    with RawClient(server.ws) as voter, connect(server.ws, compression=None) as partner:
        partner.send(json.dumps(hello(table, tokens[1])))
        events_seen(partner, lambda m: m["type"] == "ack")
        # The burst: the hello and 19 votes, in one write.
        voter.send(hello(table, tokens[0]), *votes(1, BURST - 1))
        passed = [voter.answer(i) for i in range(BURST)]
        assert [answer for answer in passed if answer["type"] != "ack"] == []
        log = stored_events(server, table)

        voter.send(*votes(BURST, FLOOD - 1))  # one short of being closed
        assert [voter.answer(i) for i in range(BURST, BURST + FLOOD - 1)] == [
            refused(i) for i in range(BURST, BURST + FLOOD - 1)
        ]
        assert stored_events(server, table) == log
        partner.send(json.dumps({"type": "ping", "id": "barrier"}))
        seen = events_seen(partner, lambda m: m.get("id") == "barrier")
        assert max(seen) == log[-1].seq  # the accepted votes reached the partner, no refused one did

        next_id = BURST + FLOOD - 1
        server.advance(1)  # a second later: exactly PER_SECOND more
        voter.send(*votes(next_id, 2 * PER_SECOND))
        answers = [voter.answer(i) for i in range(next_id, next_id + 2 * PER_SECOND)]
        assert [a["type"] for a in answers[:PER_SECOND]] == ["ack"] * PER_SECOND
        assert answers[PER_SECOND:] == [refused(a["id"]) for a in answers[PER_SECOND:]]

        next_id += 2 * PER_SECOND
        server.advance(60)  # a long pause fills the bucket up to the burst, not beyond
        voter.send(*votes(next_id, BURST + 5))
        answers = [voter.answer(i) for i in range(next_id, next_id + BURST + 5)]
        assert [a["type"] for a in answers[:BURST]] == ["ack"] * BURST
        assert answers[BURST:] == [refused(a["id"]) for a in answers[BURST:]]


def test_a_hello_flood_gets_100_refusals_and_then_close_code_4029(limited: LiveServer) -> None:
    server = limited
    table, tokens = two_people(server)
    # Another socket of the same seat keeps it present: the flooder's leaving changes nothing.
    with connect(server.ws, compression=None) as keeper, RawClient(server.ws) as flooder:
        keeper.send(json.dumps(hello(table, tokens[0])))
        events_seen(keeper, lambda m: m["type"] == "ack")
        writer = flooder.send_in_background(*[hello(table, tokens[0], i) for i in range(300)])
        assert [flooder.answer(i)["type"] for i in range(BURST)] == ["ack"] * BURST
        log = stored_events(server, table)
        assert [flooder.answer(i) for i in range(BURST, BURST + FLOOD)] == [
            refused(i) for i in range(BURST, BURST + FLOOD)
        ]
        flooder.read_until_closed()
        writer.join(WAIT)
        keeper.send(json.dumps({"type": "ping", "id": "barrier"}))
        assert events_seen(keeper, lambda m: m.get("id") == "barrier") == []
        assert stored_events(server, table) == log
    assert flooder.close_code == FLOOD_CLOSE
    answered = [m["id"] for m in flooder.messages if m["type"] in ("ack", "error")]
    assert answered == list(range(BURST + FLOOD))  # each in order, and nothing after the close


def test_3000_requests_in_one_write_from_a_reading_client_are_all_answered(server: LiveServer) -> None:
    """With no rate limit in the way, the slow-reader limit does not apply to a client that
    reads: it gets every answer, in order, and stays connected (it used to get 512 and 4008)."""
    with RawClient(server.ws) as client:
        writer = client.send_in_background(*[{"type": "ping", "id": i} for i in range(3000)])
        answers = [client.answer(i) for i in range(3000)]
        writer.join(WAIT)
        client.send({"type": "ping", "id": "after"})
        assert client.answer("after") == {"type": "ack", "id": "after", "pong": True}
    assert answers == [{"type": "ack", "id": i, "pong": True} for i in range(3000)]
    assert client.close_code is None


def test_3000_requests_in_one_write_under_the_limit_get_refusals_then_4029_never_4008(
    limited: LiveServer,
) -> None:
    with RawClient(limited.ws) as client:
        writer = client.send_in_background(*[{"type": "ping", "id": i} for i in range(3000)])
        client.read_until_closed()
        writer.join(WAIT)
    assert client.close_code == FLOOD_CLOSE != SLOW_CLIENT_CLOSE
    answers = [m for m in client.messages if m["type"] in ("ack", "error")]
    assert answers == [{"type": "ack", "id": i, "pong": True} for i in range(BURST)] + [
        refused(i) for i in range(BURST, BURST + FLOOD)
    ]


class _Chatter:
    """Phrases straight into a table's log, run by its actor: a long history, quickly."""

    def __init__(self, count: int) -> None:
        self.count = count

    async def run(self, table: Table) -> None:
        for _ in range(self.count):
            await table.record(PhraseSaid(1, "buena"))


def test_a_hello_from_seq_0_replays_a_history_longer_than_the_queue(limited: LiveServer) -> None:
    server = limited
    table, _ = two_people(server)

    async def chatter() -> None:
        await server.state.registry.get(table).call(_Chatter(3 * OUTBOUND_LIMIT))

    server.on_server(chatter)
    last = stored_events(server, table)[-1].seq
    assert last > 3 * OUTBOUND_LIMIT
    with connect(server.ws, compression=None, max_size=1 << 22) as spectator:
        spectator.send(json.dumps({**hello(table, None), "last_seq": 0}))
        seen = events_seen(spectator, lambda m: m["type"] in ("ack", "error"))
        spectator.send(json.dumps({"type": "ping", "id": "after"}))
        assert json.loads(spectator.recv(timeout=WAIT)) == {"type": "ack", "id": "after", "pong": True}
    assert seen == list(range(1, last + 1))


async def _frame(player: Player, wanted: Callable[[Message], bool]) -> Message:
    """The first frame `player` has received, or will, for which `wanted` is true."""
    async with asyncio.timeout(WAIT):
        checked = 0
        while True:
            for frame in player.frames[checked:]:
                if wanted(frame):
                    return frame
            checked = len(player.frames)
            await asyncio.sleep(0.005)


async def _options(player: Player, turn_id: int) -> Message:
    return await _frame(player, lambda m: m["type"] == "options" and m["turn_id"] == turn_id)


async def _event_after(player: Player, seq: int, kinds: tuple[str, ...]) -> Message:
    return await _frame(player, lambda m: m["type"] == "event" and m["seq"] > seq and m["kind"] in kinds)


def test_play_at_a_human_pace_is_never_limited(limited: LiveServer) -> None:
    """Two people play whole rounds, one move a second (the server's clock), while the other
    one asks something meanwhile: each socket sends far more than the burst, and every
    message is answered `ack`."""
    server = limited
    table, tokens = two_people(server)
    answers: list[Message] = []
    sent = {0: 0, 1: 0}

    async def play() -> None:
        async with Player(server) as first, Player(server) as second:
            players = {0: first, 1: second}

            async def ask(seat: int, message: Message) -> None:
                sent[seat] += 1
                answers.append(await players[seat].request(message))

            for seat in players:  # from the start: then the seat to act also gets its options
                await ask(seat, {**hello(table, tokens[seat]), "last_seq": 0})
            event = await _event_after(first, 0, ("turn",))
            while min(sent.values()) <= 2 * BURST:
                turn = event["data"]
                options = await _options(players[turn["seat"]], turn["turn_id"])
                action = options["legal_actions"][0]
                await ask(turn["seat"], {"type": "act", "action": action, "turn_id": turn["turn_id"]})
                await ask(1 - turn["seat"], {"type": "ping"})
                await asyncio.to_thread(server.advance, 1)  # a person takes a second or more to move
                event = await _event_after(first, event["seq"], ("turn", "round_ended"))
                if event["kind"] == "round_ended":
                    if any(frame.get("kind") == "game_ended" for frame in first.frames):
                        return
                    for seat in players:
                        await ask(seat, {"type": "ready"})
                    event = await _event_after(first, event["seq"], ("turn",))

    asyncio.run(play())
    assert min(sent.values()) > BURST
    assert [answer for answer in answers if answer["type"] != "ack"] == []
