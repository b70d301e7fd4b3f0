"""A scripted human (or spectator) over a real WebSocket that keeps its seat's view current.

The client builds its view the way a browser would: from the `sync` it gets on `hello`,
then from each event (its hand from `round_started`, its own drawn tiles, every play).
On its turn it chooses among the legal actions of that view; for a lead (where R6 may
force the tile) it asks for a fresh `sync` over a second socket of the same seat, which
changes nothing at the table. With `verify=True` it does that on every turn and checks
that the view it kept equals the server's. With `hints` (a practice table) it asks for a
hint («Pista») before that share of its moves and checks that each is one of its legal
actions for that turn.

    async with ScriptedClient(server, table, token, rng=random.Random(1)) as client:
        ended = await client.play()   # the game_ended event's data
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable
from typing import Any

import websockets

from tests.server.support.harness import LiveServer, Loopback, Message, Player, fast_settings
from tranque.engine import Rules
from tranque.server.settings import Settings
from tranque.server.store import StoredEvent
from tranque.server.table import commands
from tranque.server.table.actor import Table, TableOptions
from tranque.server.table.state import TableKind

TURN_WAIT = 60.0  # seconds without any frame before a client gives up (a hung game)


def game_settings(database_url: str = "memory://") -> Settings:
    """A server for whole scripted games: forced moves are played at once, and only «listo»
    from every person ends the pause between rounds."""
    return fast_settings(database_url, auto_move_seconds=0.05, between_rounds_seconds=3600)


def stored_events(server: LiveServer, table_id: str) -> list[StoredEvent]:
    """The table's log as the server stored it: the referee's truth, every hand included."""

    async def load() -> list[StoredEvent]:
        events: list[StoredEvent] = await server.state.store.load_events(table_id)
        return events

    return server.on_server(load)


def halves(tile: str) -> tuple[int, int]:
    high, low = tile.split("-")
    return int(high), int(low)


class PlainPlayer(Player):
    """A `Player` that declines permessage-deflate: cheaper when thousands of frames are read."""

    async def connect(self) -> None:
        self._socket = await websockets.connect(
            self.server.ws, additional_headers=self.headers, max_size=1 << 22, compression=None
        )
        self._reader = asyncio.get_running_loop().create_task(self._read())


class ScriptedClient:
    """One seat's client (token given) or a spectator's (no token) that plays to the end."""

    def __init__(
        self,
        server: Loopback,
        table: str,
        token: str | None = None,
        *,
        rng: random.Random | None = None,
        verify: bool = False,
        autoplay_forced: bool = False,
        compression: bool = True,
        reconnect_after: int | None = None,
        hints: float = 0.0,
        headers: dict[str, str] | None = None,
    ) -> None:
        self.server = server
        self.headers = headers  # the socket's (e.g. X-Forwarded-For: where it plays from)
        self.table = table
        self.token = token
        self.rng = rng or random.Random(0)
        self.verify = verify
        self.autoplay_forced = autoplay_forced
        self.compression = compression
        self.player = self._new_player()
        self.dropped: list[list[Message]] = []  # frames of earlier connections (see reconnect_after)
        self.dropped_applied: list[int] = []  # how many of each were applied before the drop
        self.applied = 0  # frames of the current connection applied so far
        self.peeks: list[list[Message]] = []  # frames of the extra sockets that fetched a sync
        self.reconnect_after = reconnect_after  # drop the socket and resume after this many frames
        self.joined = False
        self.seat: int | None = None
        self.phase = "waiting"
        self.round: int | None = None
        self.hand: set[str] = set()
        self.line: list[str] = []
        self.ends: tuple[int, int] | None = None
        self.boxes: list[dict[str, Any]] = []  # each play's `place`, left end first
        self.line_ends: dict[str, Any] | None = None
        self.hand_counts: list[int] = []
        self.boneyard_count = 0
        self.turn: dict[str, Any] | None = None
        self.acted_turn: int | None = None
        self.pending: dict[int, str] = {}  # message id -> what was asked
        self.ended: dict[str, Any] | None = None
        self.ready_due = False  # a human says «listo» as soon as a round ends
        self.seq = 0  # the last event number applied
        self.actions_acked = 0
        self.forced_left = 0  # forced turns left for the server to play (autoplay_forced)
        self.forced_lost = 0  # forced turns the server played first (another client moved the clock)
        self.views_checked = 0
        self.hints = hints  # the share of its own moves it asks a hint for first
        self.hint_asked: dict[int, tuple[int, list[dict[str, Any]]]] = {}  # id -> (turn_id, legal)
        self.hints_given: list[Message] = []  # the acks of its hints

    async def __aenter__(self) -> ScriptedClient:
        await self.player.connect()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.player.close()

    @property
    def frames(self) -> list[Message]:
        return self.player.frames

    @property
    def streams(self) -> list[list[Message]]:
        """Every frame this client received, socket by socket, each in order."""
        return [*self.dropped, self.player.frames, *self.peeks]

    def event_seqs(self) -> list[int]:
        """The numbers of the syncs and events received, over every connection in turn."""
        applied = [*zip(self.dropped, self.dropped_applied, strict=True), (self.player.frames, self.applied)]
        return [
            frame["seq"]
            for frames, count in applied
            for frame in frames[:count]
            if frame["type"] in ("sync", "event")
        ]

    def _new_player(self) -> Player:
        return (
            Player(self.server, self.headers) if self.compression else PlainPlayer(self.server, self.headers)
        )

    # Driving --------------------------------------------------------------------------

    async def join(self) -> None:
        self.joined = True
        await self._ask({"type": "hello", "table": self.table, "token": self.token}, "hello")

    async def play(self) -> dict[str, Any]:
        """Join, play (or watch) until `game_ended` and every answer is in; the end's data."""
        if not self.joined:
            await self.join()
        while self.ended is None or self.pending:
            frame = await self.player.expect(lambda m: True, timeout=TURN_WAIT)
            self.apply(frame)
            await self._maybe_act()
        return self.ended

    async def _ask(self, message: Message, what: str) -> None:
        message_id = await self.player.send(message)
        self.pending[message_id] = what

    async def reconnect(self) -> None:
        """Drop the socket and come back on a new one, resuming after the last event applied."""
        await self.player.close()
        self.dropped.append(self.player.frames)
        self.dropped_applied.append(self.applied)
        self.applied = 0
        self.player = self._new_player()
        await self.player.connect()
        hello = {"type": "hello", "table": self.table, "token": self.token, "last_seq": self.seq}
        await self._ask(hello, "hello")

    async def _maybe_act(self) -> None:
        if (
            self.reconnect_after is not None
            and len(self.player.frames) >= self.reconnect_after
            and not self.pending
            and self.ended is None
        ):
            self.reconnect_after = None
            await self.reconnect()
        if self.ready_due:
            self.ready_due = False
            await self._ask({"type": "ready"}, "ready")
        turn = self.turn
        if (
            self.phase != "playing"
            or self.seat is None
            or turn is None
            or turn["seat"] != self.seat
            or self.acted_turn == turn["turn_id"]
        ):
            return
        self.acted_turn = turn["turn_id"]
        if turn.get("auto") and self.autoplay_forced:
            # Leave the forced pass/draw to the server, which plays it after auto_move_seconds.
            server = self.server
            assert isinstance(server, LiveServer), "autoplay_forced moves a LiveServer's FakeClock"
            self.forced_left += 1
            await asyncio.to_thread(server.advance, server.settings.auto_move_seconds)
            return
        if self.ends is None or self.verify:
            legal = await self._synced_legal_actions(turn["turn_id"])
            if legal is None:  # the server played a forced move for us meanwhile
                self.forced_lost += 1
                return
        else:
            legal = self.legal_actions()
        if self.hints and self.rng.random() < self.hints:
            message_id = await self.player.send({"type": "hint"})
            self.pending[message_id] = "hint"
            self.hint_asked[message_id] = (turn["turn_id"], legal)
        action = self.rng.choice(legal)
        what = "forced act" if turn.get("auto") else "act"
        await self._ask({"type": "act", "action": action, "turn_id": turn["turn_id"]}, what)

    async def _synced_legal_actions(self, turn_id: int) -> list[dict[str, Any]] | None:
        """The legal actions of a fresh sync; None when that turn is already over."""
        async with Player(self.server, self.headers) as peek:
            await peek.send({"type": "hello", "table": self.table, "token": self.token})
            sync = await peek.expect(lambda m: m["type"] == "sync")
            await peek.expect(lambda m: m["type"] in ("ack", "error"))
        self.peeks.append(peek.frames)
        if sync["turn"] is None or sync["turn"]["turn_id"] != turn_id:
            return None
        view = sync["view"]
        # Events of the command that started this turn may still be on their way to this
        # client's own socket: catch up to the peek's number, so the two views compare at
        # one instant whatever the machine's load.
        while self.verify and sync["seq"] > self.seq:
            self.apply(await self.player.expect(lambda m: True, timeout=TURN_WAIT))
        if self.verify and sync["seq"] == self.seq:
            assert self.view_summary() == summary_of(view), (self.view_summary(), summary_of(view))
            if self.ends is not None:
                assert sorted_actions(self.legal_actions()) == sorted_actions(view["legal_actions"])
            self.views_checked += 1
        legal: list[dict[str, Any]] = view["legal_actions"]
        return legal

    # Keeping the view ---------------------------------------------------------------------

    def apply(self, frame: Message) -> None:
        self.applied += 1
        kind = frame.get("type")
        if kind in ("sync", "event"):
            self.seq = frame["seq"]
        if kind == "sync":
            self._apply_sync(frame)
        elif kind == "event":
            handler: Callable[[dict[str, Any]], None] | None = getattr(self, "_on_" + frame["kind"], None)
            if handler is not None:
                handler(frame["data"])
        elif kind in ("ack", "error"):
            self._answered(frame)

    def _answered(self, frame: Message) -> None:
        what = self.pending.pop(frame["id"], None)
        if what is None:
            raise AssertionError(f"an answer to nothing asked: {frame}")
        if frame["type"] == "ack":
            if what == "hello":
                self.seat = frame["seat"]
            elif what in ("act", "forced act"):
                self.actions_acked += 1
            elif what == "hint":
                turn_id, legal = self.hint_asked.pop(frame["id"])
                assert frame["turn_id"] == turn_id and frame["action"] in legal, (frame, legal)
                self.hints_given.append(frame)
            return
        # Two races are expected, nothing else: a «ready» sent at round_ended against the
        # game_ended right behind it, and a forced move the server made when another client
        # moved the shared FakeClock. And a hint past the game's limit is refused.
        if what == "ready" and frame["code"] == "not_between_rounds" and self.ended is not None:
            return
        if what == "forced act" and frame["code"] in ("not_your_turn", "stale", "not_playing"):
            self.forced_lost += 1
            return
        if what == "hint" and frame["code"] == "too_many_hints":
            self.hint_asked.pop(frame["id"])
            return
        raise AssertionError(f"{what} refused: {frame}")

    def _apply_sync(self, sync: Message) -> None:
        self.seat = sync["you"]
        self.phase = sync["phase"]
        if self.phase in ("finished", "annulled"):
            self.ended = {"phase": self.phase}
        self.round = sync["round"]
        self.turn = sync["turn"]
        view = sync["view"]
        if view is not None:
            self.hand = set(view["hand"])
            self.line = [box["tile"] for box in view["line"]]
            self.boxes = list(view["line"])
            self.line_ends = view["line_ends"]
            self.ends = None if view["ends"] is None else (view["ends"][0], view["ends"][1])
            self.hand_counts = list(view["hand_counts"])
            self.boneyard_count = view["boneyard_count"]
        if self.phase == "between_rounds" and self.seat is not None and self.seat not in sync["ready"]:
            self.ready_due = True

    def _on_game_started(self, data: dict[str, Any]) -> None:
        self.phase = "playing"

    def _on_round_started(self, data: dict[str, Any]) -> None:
        self.phase = "playing"
        self.round = data["round"]
        self.hand = set(data["hand"] or [])
        self.line = []
        self.ends = None
        self.boxes = []
        self.line_ends = None
        self.hand_counts = list(data["hand_counts"])
        self.boneyard_count = data["boneyard_count"]
        self.turn = None

    def _on_turn(self, data: dict[str, Any]) -> None:
        self.turn = data

    def _on_action(self, data: dict[str, Any]) -> None:
        seat, action = data["seat"], data["action"]
        if action["type"] == "play":
            self._place(seat, action["tile"], action["side"])
            if action["side"] == "left":
                self.boxes.insert(0, data["place"])
            else:
                self.boxes.append(data["place"])
            self.line_ends = data["line_ends"]
        elif action["type"] == "draw":
            self.boneyard_count -= 1
            self.hand_counts[seat] += 1
            if seat == self.seat:
                self.hand.add(data["drawn"])

    def _place(self, seat: int, tile: str, side: str | None) -> None:
        high, low = halves(tile)
        self.hand_counts[seat] -= 1
        if seat == self.seat:
            self.hand.remove(tile)
        if self.ends is None:
            self.line = [tile]
            self.ends = (high, low)
            return
        left, right = self.ends
        if side == "left":
            self.line.insert(0, tile)
            self.ends = (high if low == left else low, right)
        else:
            self.line.append(tile)
            self.ends = (left, high if low == right else low)

    def _on_round_ended(self, data: dict[str, Any]) -> None:
        self.phase = "between_rounds"
        self.turn = None
        self.ready_due = self.seat is not None

    def _on_game_ended(self, data: dict[str, Any]) -> None:
        self.phase = "finished"
        self.ended = data

    # Choosing -----------------------------------------------------------------------------

    def legal_actions(self) -> list[dict[str, Any]]:
        """R8/R9 over the kept view: forced play, else draw while the boneyard lasts, else pass."""
        assert self.ends is not None, "a lead needs the server's legal actions (R6)"
        left, right = self.ends
        plays = []
        for tile in sorted(self.hand):
            numbers = halves(tile)
            if left in numbers:
                plays.append({"type": "play", "tile": tile, "side": "left"})
            if right in numbers and left != right:
                plays.append({"type": "play", "tile": tile, "side": "right"})
        if plays:
            return plays
        return [{"type": "draw"}] if self.boneyard_count > 0 else [{"type": "pass"}]

    def view_summary(self) -> dict[str, Any]:
        return {
            "hand": sorted(self.hand),
            "line": self.line,
            "ends": None if self.ends is None else list(self.ends),
            "boxes": self.boxes,
            "line_ends": self.line_ends,
            "hand_counts": self.hand_counts,
            "boneyard_count": self.boneyard_count,
        }


def summary_of(view: dict[str, Any]) -> dict[str, Any]:
    return {
        "hand": sorted(view["hand"]),
        "line": [box["tile"] for box in view["line"]],
        "ends": view["ends"],
        "boxes": view["line"],
        "line_ends": view["line_ends"],
        "hand_counts": view["hand_counts"],
        "boneyard_count": view["boneyard_count"],
    }


def sorted_actions(actions: list[dict[str, Any]]) -> list[tuple[str, str, str]]:
    return sorted((a["type"], a.get("tile") or "", a.get("side") or "") for a in actions)


# Tables with several humans, set up on the server's loop ----------------------------------


class _Seat:
    """Seat a guest at each of `humans`, bots everywhere else (run by the table's actor)."""

    def __init__(self, humans: list[int], bot_level: str) -> None:
        self.humans = humans
        self.bot_level = bot_level

    async def run(self, table: Table) -> dict[int, str]:
        tokens = {}
        for seat in table.seats:
            if seat.index in self.humans:
                tokens[seat.index] = await table.take_seat(seat, f"Jugador {seat.index}", None)
            else:
                await table.give_to_bot(seat, self.bot_level)
        return tokens


def seat_table(
    server: LiveServer,
    rules: Rules,
    humans: list[int],
    bot_level: str = "greedy",
    kind: TableKind = TableKind.PUBLIC,
) -> tuple[str, dict[int, str]]:
    """Create a table with guests at `humans` and bots elsewhere; its id and the guests' tokens.

    (Tables with several people are made over HTTP with accounts; this skips the accounts.)
    The game starts with `start_table`."""

    async def create() -> tuple[str, dict[int, str]]:
        registry = server.state.registry
        options = TableOptions(kind=kind, bot_level=bot_level, **registry.defaults)
        table = await registry.create(rules, options)
        tokens: dict[int, str] = await table.call(_Seat(humans, bot_level))
        return table.table_id, tokens

    return server.on_server(create)


def start_table_now(server: LiveServer, table_id: str) -> None:
    """Start the game at a table made by `seat_table`, and wait until it has started."""

    async def start() -> None:
        await server.state.registry.get(table_id).call(commands.StartGame())

    server.on_server(start)


async def start_table(server: LiveServer, table_id: str) -> None:
    """`start_table_now` from a client's loop, without blocking that loop."""
    await asyncio.to_thread(start_table_now, server, table_id)
