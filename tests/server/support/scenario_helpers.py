"""Helpers for the server scenario tests (test_scenarios.py, test_restart.py).

- `Client`: a harness `Player` that reads its events in order with a cursor and matches
  answers to requests by id, so nothing it receives is ever skipped unseen.
- `open_table`: a table set up on the server's loop with chosen human seats (each gets its
  token), bots in the others, and optionally fixed deal seeds.
- `Mirror`: the referee's game rebuilt in the test from the same seeds and fed every action
  event, so a test knows every hand and can say exactly what the server must do next.
- `find_seeds`: the first deterministic seeds whose deal lets a scripted game reach a
  wanted position.
"""

from __future__ import annotations

import asyncio
import hashlib
import secrets
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from tests.server.support.harness import LiveServer, Message, Player
from tranque.engine import Action, Draw, Game, Pass, Play, Rules, Side, action_from_json
from tranque.server.table.actor import Table, TableOptions
from tranque.server.table.fairness import DealSecret
from tranque.server.table.seats import token_hash
from tranque.server.table.state import TableKind

T = TypeVar("T")

# What a refused no-op `act` (turn_id -1) may answer: it reaches the table's queue (or is
# refused before it), changes nothing, and its answer comes after every event queued before it.
SETTLE_CODES = frozenset({"stale", "not_your_turn", "not_playing", "spectator", "no_table"})


class Client(Player):
    """A `Player` whose events are read in order (`next_event`, `until`) with a cursor."""

    def __init__(self, server: LiveServer, headers: dict[str, str] | None = None) -> None:
        super().__init__(server, headers)
        self.cursor = 0

    async def __aenter__(self) -> Client:
        await self.connect()
        return self

    async def wait_for(self, found: Callable[[], T | None], timeout: float = 10) -> T:
        """Wait until `found()` returns something (it is re-checked on every frame received)."""
        async with asyncio.timeout(timeout):
            while True:
                value = found()
                if value is not None:
                    return value
                await self._unread.get()

    @property
    def events(self) -> list[Message]:
        return [frame for frame in self.frames if frame["type"] == "event"]

    def unread(self) -> list[Message]:
        return self.events[self.cursor :]

    async def ask(self, message: Message, timeout: float = 10) -> Message:
        """Send `message` and return its answer (`ack` or `error` with the same id)."""
        message_id = await self.send(message)

        def answer() -> Message | None:
            return next(
                (f for f in self.frames if f.get("type") in ("ack", "error") and f.get("id") == message_id),
                None,
            )

        return await self.wait_for(answer, timeout)

    async def ok(self, message: Message) -> Message:
        answer = await self.ask(message)
        assert answer["type"] == "ack", (message, answer)
        return answer

    async def refused(self, message: Message, code: str) -> Message:
        answer = await self.ask(message)
        assert answer["type"] == "error" and answer["code"] == code, (message, answer)
        assert isinstance(answer["message"], str) and answer["message"], answer
        return answer

    async def next_event(self, timeout: float = 10) -> Message:
        def found() -> Message | None:
            events = self.events
            return events[self.cursor] if len(events) > self.cursor else None

        event = await self.wait_for(found, timeout)
        self.cursor += 1
        return event

    async def until(self, kind: str, timeout: float = 10, **data: Any) -> Message:
        """Skip to the next event of `kind` whose data has these values."""
        while True:
            event = await self.next_event(timeout)
            if event["kind"] == kind and all(event["data"].get(k) == v for k, v in data.items()):
                return event

    async def settle(self) -> None:
        """Wait until the table has handled every command queued before now (timers included)."""
        answer = await self.ask({"type": "act", "action": {"type": "pass"}, "turn_id": -1})
        assert answer["type"] == "error" and answer["code"] in SETTLE_CODES, answer

    async def quiet(self) -> None:
        """Nothing new: once the table has handled everything queued, no event is unread."""
        await self.settle()
        assert self.unread() == []

    async def hello(self, table: str, token: str | None = None, last_seq: int | None = None) -> Message:
        message: Message = {"type": "hello", "table": table, "token": token}
        if last_seq is not None:
            message["last_seq"] = last_seq
        return await self.ask(message)


async def joined(server: LiveServer, table: str, token: str | None = None, **kwargs: Any) -> Client:
    """A connected client that said hello (and got its ack)."""
    client = Client(server, **kwargs)
    await client.connect()
    answer = await client.hello(table, token)
    assert answer["type"] == "ack", answer
    return client


async def peek(server: LiveServer, table: str, token: str | None) -> Message:
    """The `sync` a second socket of the same seat gets on hello (changes nothing at the table)."""
    async with Client(server) as other:
        await other.hello(table, token)
        return next(f for f in other.frames if f["type"] == "sync")


# Setting tables up on the server's loop --------------------------------------------------


def salt_for(seed: bytes) -> bytes:
    return hashlib.sha256(b"salt:" + seed).digest()[:16]


def fix_seeds(table: Table, seeds: Sequence[bytes]) -> None:
    """Deal round k of `table` from `seeds[k]` (committed and revealed like a fresh seed)."""
    table.deal_secret = lambda number: DealSecret(seeds[number], salt_for(seeds[number]))


def open_table(
    server: LiveServer,
    rules: Rules,
    humans: Sequence[int],
    *,
    kind: TableKind = TableKind.PRACTICE,
    seeds: Sequence[bytes] | None = None,
    bot_level: str = "greedy",
    start: bool = True,
) -> tuple[str, dict[int, str]]:
    """A table whose `humans` seats are held by guests (their tokens returned) and every
    other seat by a bot of `bot_level`; its game starts at once unless `start` is false
    (then `start_game` starts it, once the clients are in to see every event)."""
    state = server.state

    async def make() -> tuple[str, dict[int, str]]:
        options = TableOptions(kind=kind, bot_level=bot_level, **state.settings.table_defaults())
        table = await state.registry.create(rules, options)
        if seeds is not None:
            fix_seeds(table, seeds)
        tokens = {}
        for seat in table.seats:
            if seat.index in humans:
                tokens[seat.index] = await table.take_seat(seat, f"Jugador {seat.index}", None)
            else:
                await table.give_to_bot(seat, bot_level)
        if start:
            await table.start_game()
        return table.table_id, tokens

    return server.on_server(make)


def start_game(server: LiveServer, table_id: str) -> None:
    async def start() -> None:
        await server.state.registry.tables[table_id].start_game()

    server.on_server(start)


async def seated_game(
    server: LiveServer, rules: Rules, seeds: Sequence[bytes], **table: Any
) -> tuple[Mirror, dict[int, Client]]:
    """A table dealt from `seeds` with a guest at every seat, each joined by a client before
    the game starts (so they see every event): the `Mirror` of its game and the clients by
    seat. `table` goes to `open_table`."""
    seats = range(rules.players)
    table_id, tokens = open_table(server, rules, seats, seeds=seeds, start=False, **table)
    mirror = Mirror(rules, seeds)
    clients = {seat: await joined(server, table_id, tokens[seat]) for seat in seats}
    start_game(server, table_id)
    return mirror, clients


async def due_at(server: LiveServer, client: Client, seconds: float, early: float = 1) -> None:
    """Move the server's clock `seconds` on: `early` short of that, `client` has had nothing
    new; then the rest, when whatever was due at `seconds` happens."""
    server.advance(seconds - early)
    await client.quiet()
    server.advance(early)


SESSION_SECONDS = 30 * 86_400


def make_account(server: LiveServer, name: str) -> tuple[int, dict[str, str]]:
    """A user with a live session straight in the store: (user_id, the Cookie header)."""
    state = server.state
    token = secrets.token_urlsafe(24)

    async def make() -> int:
        now = state.settings.clock.now()
        user = await state.store.create_user(name, "not-a-real-hash", now)
        # A month of the server's clock: tests move a FakeClock on by hours to play games out,
        # and a session gone stale mid-test makes the account a guest (a private game's
        # record then reads as none: the reparto test's 404 under a slow database).
        await state.store.create_session(token_hash(token), user.user_id, now + SESSION_SECONDS)
        return int(user.user_id)

    user_id: int = server.on_server(make)
    return user_id, {"Cookie": f"tranque_session={token}"}


def table_of(server: LiveServer, table_id: str) -> Table:
    table: Table = server.state.registry.tables[table_id]
    return table


# The referee's game in the test ----------------------------------------------------------


class Mirror:
    """The table's game rebuilt from the same seeds; `follow` keeps it in step with events."""

    def __init__(self, rules: Rules, seeds: Sequence[bytes]) -> None:
        self.seeds = list(seeds)
        self.game = new_game(rules, seeds)

    def follow(self, event: Message) -> None:
        data = event["data"]
        if event["kind"] == "round_started" and data["round"] > self.game.round_number:
            self.game.start_next_round()
        elif event["kind"] == "action":
            assert self.game.round.turn == data["seat"], (self.game.round.turn, event)
            applied = self.game.apply(action_from_json(data["action"]))
            assert applied.action.to_json() == data["action"], (applied, event)


def new_game(rules: Rules, seeds: Sequence[bytes]) -> Game:
    return Game(rules, seed_for_round=lambda number: seeds[number])


def lowest(game: Game) -> Action:
    """The scripted humans' choice: the playable tile with the fewest pips (the opposite of
    R15, so a timeout is never mistaken for it), else the draw or pass the rules leave."""
    legal = game.round.legal_actions()
    plays = [a for a in legal if isinstance(a, Play)]
    if plays:
        return min(plays, key=lambda a: (a.tile.pips, a.tile.high, a.side is Side.RIGHT))
    return legal[0]


def r15_expected(game: Game) -> dict[str, Any]:
    """R15 worked out from the legal actions: the playable tile with the most pips (ties: the
    higher high half), on the left end when it fits both; else the draw or the pass."""
    legal = game.round.legal_actions()
    plays = [a for a in legal if isinstance(a, Play)]
    if not plays:
        (only,) = legal
        assert isinstance(only, Draw | Pass)
        return only.to_json()
    best = max((a.tile.pips, a.tile.high) for a in plays)
    placements = [a for a in plays if (a.tile.pips, a.tile.high) == best]
    if len(placements) == 1:
        return placements[0].to_json()
    (left,) = [a for a in placements if a.side is Side.LEFT]
    return left.to_json()


def fits_both_ends(game: Game, tile_text: str) -> bool:
    ends = game.round.ends
    if ends is None or ends[0] == ends[1]:
        return False
    numbers = {int(half) for half in tile_text.split("-")}
    return ends[0] in numbers and ends[1] in numbers


def forced(game: Game) -> bool:
    """The server plays a lone pass or draw by itself (turn event `auto`)."""
    legal = game.round.legal_actions()
    return len(legal) == 1 and isinstance(legal[0], Draw | Pass)


def find_seeds(label: str, fits: Callable[[list[bytes]], bool], rounds: int = 4) -> list[bytes]:
    """The first deterministic seeds (named by `label`) for which `fits` holds."""
    for attempt in range(20_000):
        seeds = [hashlib.sha256(f"{label}:{attempt}:{r}".encode()).digest() for r in range(rounds)]
        if fits(seeds):
            return seeds
    raise AssertionError(f"no deal fits {label}")


def scripted_until(
    game: Game, stop: Callable[[Game], bool], policy: Callable[[Game], Action] = lowest
) -> bool:
    """Play `policy` for every seat until `stop(game)`; False if the round ends first."""
    while not game.round.is_over:
        if stop(game):
            return True
        game.apply(policy(game))
    return False


def tiles_in(value: Any) -> set[str]:
    """Every tile written ("6-4") anywhere in a JSON value."""
    found: set[str] = set()
    if isinstance(value, str):
        parts = value.split("-")
        if len(parts) == 2 and all(p.isdigit() and len(p) == 1 for p in parts):
            found.add(value)
    elif isinstance(value, dict):
        for item in value.values():
            found |= tiles_in(item)
    elif isinstance(value, list):
        for item in value:
            found |= tiles_in(item)
    return found


async def drive(
    watch: Client,
    clients: dict[int, Client],
    mirror: Mirror,
    stop: Callable[[Game], bool] | None = None,
    until_kinds: tuple[str, ...] = ("round_ended",),
) -> Message:
    """Read `watch`'s events in order, keep `mirror` in step, and on each turn have the seat's
    client play `lowest`, until a turn at which `stop(mirror.game)` holds or an event of
    `until_kinds`; returns that event (unread events after it stay unread)."""
    while True:
        event = await watch.next_event()
        mirror.follow(event)
        if event["kind"] in until_kinds:
            return event
        if event["kind"] == "turn":
            if stop is not None and stop(mirror.game):
                return event
            data = event["data"]
            action = lowest(mirror.game).to_json()
            await clients[data["seat"]].ok({"type": "act", "action": action, "turn_id": data["turn_id"]})
