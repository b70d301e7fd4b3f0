"""A table driven in-process: the real `Table` actor on a `MemoryStore`, a `FakeClock` and
`InlineBots` (no uvicorn, no sockets), with fake connections that keep every frame.

    async with TableRig.practice(Rules.preset("clasico", players=2, mode="individual")) as rig:
        guest = await rig.hello(0)
        rig.advance(30)                      # the turn runs out
        assert rig.replayed() == rig.table.state
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from typing import Any

from tranque.engine import Rules
from tranque.server.lobby.restore import replay_log, resume
from tranque.server.players.recorder import Recorder
from tranque.server.store import MemoryStore, Store, StoredEvent
from tranque.server.table.actor import Command, Table
from tranque.server.table.bots import InlineBots
from tranque.server.table.clock import FakeClock
from tranque.server.table.commands import Act, RatingsRecorded, Subscribe, Unsubscribe
from tranque.server.table.fairness import DealSecret
from tranque.server.table.seats import SeatState
from tranque.server.table.state import Phase, TableKind, TableOptions, TableState, Viewer

Message = dict[str, Any]


def fixed_secret(salt: str = "") -> Any:
    """Deals that are the same on every run: round k from SHA-256 of `salt` and k."""

    def secret(number: int) -> DealSecret:
        seed = hashlib.sha256(f"deal:{salt}:{number}".encode()).digest()
        return DealSecret(seed, hashlib.sha256(b"salt:" + seed).digest()[:16])

    return secret


class Socket:
    """A connection following a table, as `ws.Client` holds one: what it was told (each frame
    parsed back from its text, as a client would), the seat it believes it holds, its tokens."""

    def __init__(self, name: str = "socket") -> None:
        self.name = name
        self.frames: list[Message] = []
        self.texts: list[str] = []
        self.seat: Viewer = None
        self.tokens: dict[int, str] = {}

    def send(self, message: Message) -> None:
        self.frames.append(json.loads(json.dumps(message)))

    def send_text(self, text: str) -> None:
        self.texts.append(text)
        self.frames.append(json.loads(text))

    @property
    def events(self) -> list[Message]:
        return [frame for frame in self.frames if frame["type"] == "event"]

    def kinds(self) -> list[str]:
        return [event["kind"] for event in self.events]

    def __repr__(self) -> str:
        return f"Socket({self.name!r})"


class TableRig:
    """One table on the fakes, and what a test needs to drive it and check it."""

    def __init__(
        self, rules: Rules, kind: TableKind, store: Store | None = None, salt: str = "", **options: Any
    ) -> None:
        self.rules = rules
        self.store = store or MemoryStore()
        self.clock = FakeClock()
        self.bots = InlineBots()
        values = {"bot_level": "greedy", "bot_min_seconds": 0.0, **options}
        self.options = TableOptions(kind=kind, **values)
        self.secret = fixed_secret(salt)
        self.table_id = "mesa"
        self.tokens: dict[int, str] = {}  # the guests' seats (`practice`)
        self.table = self._new_table()

    def _new_table(self) -> Table:
        table = Table(self.table_id, self.rules, self.options, self.store, self.clock, self.bots)
        table.deal_secret = self.secret
        return table

    @classmethod
    @asynccontextmanager
    async def opened(
        cls, rules: Rules, kind: TableKind = TableKind.PUBLIC, store: Store | None = None, **options: Any
    ) -> AsyncIterator[TableRig]:
        """A new table with every seat empty, as `Registry.create` makes one (on `store`, or a
        fresh `MemoryStore`)."""
        rig = cls(rules, kind, store, **options)
        config = {"rules": rules.to_json(), "options": rig.options.to_json()}
        await rig.store.create_table(rig.table_id, config, rig.clock.now())
        rig.table.start()
        await rig.table.record_creation()
        try:
            yield rig
        finally:
            await rig.table.stop()

    @classmethod
    @asynccontextmanager
    async def practice(
        cls, rules: Rules, humans: tuple[int, ...] = (0,), store: Store | None = None, **options: Any
    ) -> AsyncIterator[TableRig]:
        """A started table with guests at `humans` (their tokens in `rig.tokens`), bots elsewhere."""
        async with cls.opened(rules, TableKind.PRACTICE, store, **options) as rig:
            table = rig.table
            for seat in table.seats:
                if seat.index in humans:
                    rig.tokens[seat.index] = await table.take_seat(seat, f"Jugador {seat.index}", None)
                else:
                    await table.give_to_bot(seat, "greedy")
            await table.start_game()
            await table.until_idle()
            yield rig

    # Driving ---------------------------------------------------------------------------

    async def call(self, command: Command) -> Any:
        """Run a command on the actor, then let the bots and posted commands run out."""
        try:
            return await self.table.call(command)
        finally:
            await self.table.until_idle()

    async def hello(self, seat: Viewer, socket: Socket | None = None, last_seq: int | None = None) -> Socket:
        socket = socket or Socket(f"seat {seat}")
        token = None if seat is None else (socket.tokens.get(seat) or self.tokens[seat])
        socket.seat = await self.call(Subscribe(socket, token, last_seq))
        return socket

    async def leave(self, socket: Socket) -> None:
        await self.call(Unsubscribe(socket))

    async def advance(self, seconds: float) -> None:
        """Move the clock; every timer due fires, and what it posts runs to the end."""
        self.clock.advance(seconds)
        await self.table.until_idle()

    async def restart(self) -> None:
        """What a restart does: the actor dies with everything it held; a new one is rebuilt
        from the log and resumed (every socket is gone)."""
        await self.table.stop()
        self.table = self._new_table()
        replay_log(self.table, await self.store.load_events(self.table_id))
        self.table.start()
        await resume(self.table)
        await self.table.until_idle()

    async def record_games(self) -> int:
        """What the app's recorder does after a game's end (players/recorder.py): record every
        game end stored and not recorded yet, telling the table; how many it recorded."""
        recorder = Recorder(self.store, recorded=lambda end: self.table.post(RatingsRecorded()))
        recorded = await recorder.catch_up()
        await self.table.until_idle()
        return recorded

    # Checking --------------------------------------------------------------------------

    def phase(self) -> Phase:
        """The table's phase, read afresh: typed `Phase`, not the one an earlier `assert` on
        `rig.table.state.phase` narrowed it to (mypy keeps that narrowing across an await)."""
        return self.table.state.phase

    def seat_state(self, index: int) -> SeatState:
        """Seat `index`'s state, read afresh (as `phase`)."""
        return self.table.state.seats[index].state

    async def log(self) -> list[StoredEvent]:
        return await self.store.load_events(self.table_id)

    async def replayed(self) -> TableState:
        """The state a restart would rebuild from the log as it is now."""
        twin = self._new_table()
        replay_log(twin, await self.log())
        return twin.state

    async def kinds(self, after: int = 0) -> list[str]:
        return [event.kind for event in await self.store.load_events(self.table_id, after)]


async def play_until(
    rig: TableRig, done: Callable[[TableState], bool], humans: tuple[int, ...] = (0,), between: float = 8.0
) -> None:
    """Humans play their first legal action, bots and clocks do the rest (the pause between
    rounds passed by moving the clock `between` seconds), until `done(state)`."""
    for _ in range(5000):
        state = rig.table.state
        if done(state):
            return
        turn = state.turn
        if state.phase is Phase.BETWEEN_ROUNDS:
            await rig.advance(between)
        elif turn is not None and turn.seat in humans and not state.seats[turn.seat].played_by_bot:
            action = state.playing_game().round.legal_actions()[0]
            await rig.call(Act(turn.seat, action.to_json(), turn.turn_id))
        elif turn is not None:
            await rig.advance(1)  # a bot that waits a moment, or a forced move
        else:
            raise AssertionError(f"nothing to do in {state.phase}")
    raise AssertionError("the game did not get there")
