"""A bot account's client of the server's WebSocket protocol (docs/bots.md), for `tranque bot run`.

It speaks the protocol only: it joins the bots' quick match with the bot's token, follows
each table it is seated at, and on its turn hands `choose` the seat's `PlayerView`. It never
asks the server for the table again to choose: the view is kept from the frames the server
sends anyway (seat_view.py: the `sync` on joining, then every numbered event), so it sends
one message a turn, one `ready` between rounds (never after the round that ends the game)
and two a game (`quick_match`, `hello`), paced under the bot socket's message rate (pace.py).

Nothing the server refuses stops it: a message refused with `rate_limited` is sent again once
the server allows (after its `retry_after`, if it gives one); a turn already over (`stale`)
is let go. The choice runs in a thread while the socket keeps reading, and an action is
sent only while its turn is still the table's.

When the server's bot had to cover its seat (three turns in a row let run out: R16), it takes
the seat back with `return` and says so; if the seat is still covered when the game ends,
the game counts as abandoned and lost. Either way it stops after that game
(`Outcome.covered`, `Outcome.abandoned`), so that a bot too slow for the clock does not go
on losing games.
"""

from __future__ import annotations

import asyncio
import itertools
import json
from collections import Counter
from collections.abc import Callable, Coroutine
from dataclasses import dataclass, field
from typing import Any

import websockets

from tranque.engine import Action, PlayerView
from tranque.terminal.pace import Pace
from tranque.terminal.seat_view import Fold, SeatView

Message = dict[str, Any]
TURN_OVER = frozenset({"stale", "not_your_turn", "not_playing"})  # an act for a turn already over
ROUND_DEALT = "not_between_rounds"  # a `ready` that came after the next round was dealt
FATAL_FOR = frozenset({"quick_match", "hello"})  # refused (not for the rate), the game cannot go on


@dataclass
class Report:
    """What the client tells its user: the connection, each game's end, each refusal worth
    telling, and its seat covered by the server's bot."""

    connected: Callable[[], None] = lambda: None
    game_over: Callable[[int, Message], None] = lambda number, data: None
    refused: Callable[[Message], None] = lambda message: None
    covered: Callable[[str, int], None] = lambda table, seat: None


@dataclass
class Outcome:
    """How the run went: games played, the games whose seat the server's bot covered and the
    ones lost by abandonment (by number), a refusal that stopped it, every refusal by code."""

    played: int = 0
    covered: list[int] = field(default_factory=list)
    abandoned: list[int] = field(default_factory=list)
    stopped_by: Message | None = None
    refusals: Counter[str] = field(default_factory=Counter)


class Closed(Exception):
    """The server closed the socket: `code` and `reason` (4401 bad_token, 4002 token_revoked...)."""

    def __init__(self, code: int | None, reason: str) -> None:
        super().__init__(f"{code} {reason}")
        self.code = code
        self.reason = reason


class BotClient:
    def __init__(
        self,
        choose: Callable[[PlayerView], Action],
        games: int,
        report: Report | None = None,
        pace: Pace | None = None,
    ) -> None:
        self.choose = choose
        self.games_left = games
        self.report = report or Report()
        self.pace = pace or Pace.for_bots()
        self.outcome = Outcome()
        self.ids = itertools.count(1)
        self.socket: Any = None
        self.sending = asyncio.Lock()
        self.pending: dict[int, Message] = {}  # sent, not answered yet: what a refusal refers to
        self.table: str | None = None
        self.token: str | None = None
        self.seat = SeatView()
        self.behind = False  # an event came after a gap: the catch-up asked for is on its way
        self.thinking: asyncio.Task[None] | None = None
        self.waiting: Message | None = None  # the latest `options` that came while thinking
        self.failure: BaseException | None = None
        self.tasks: set[asyncio.Task[None]] = set()
        self.covered_now = False  # the server's bot holds the seat
        self.covered_in_game = False

    async def run(self, url: str, bot_token: str) -> Outcome:
        """Play `games` games from the bots' quick match (fewer if one goes wrong: `Outcome`)."""
        headers = {"Authorization": f"Bearer {bot_token}"}
        try:
            async with websockets.connect(url, additional_headers=headers, max_size=1 << 22) as socket:
                self.socket = socket
                self.report.connected()
                await self.send({"type": "quick_match"})
                async for text in socket:
                    if await self.on(json.loads(text)) or self.failure is not None:
                        break
                else:  # the server closed the socket cleanly (it is stopping) before the end
                    if self.failure is None:
                        raise Closed(socket.close_code, socket.close_reason or "")
        except websockets.ConnectionClosed as closed:
            received = closed.rcvd
            raise Closed(received.code if received else None, received.reason if received else "") from None
        if self.failure is not None:
            raise self.failure
        return self.outcome

    async def send(self, message: Message) -> None:
        async with self.sending:  # one at a time, in order, each when the pace allows
            await self.pace.wait()
            number = next(self.ids)
            self.pending[number] = message
            await self.socket.send(json.dumps({**message, "id": number}))

    # Frames ----------------------------------------------------------------------------

    async def on(self, message: Message) -> bool:
        """Do what one frame calls for; True once the run is over."""
        kind = message["type"]
        if kind == "matched":
            self.table, self.token = message["table"], message["token"]
            self.seat = SeatView()
            self.covered_now = self.covered_in_game = False
            await self.send({"type": "hello", "table": self.table, "token": self.token})
        elif kind == "sync":
            self.seat.sync(message)
            self.behind = False
            await self.seat_state()
        elif kind == "event":
            return await self.on_event(message)
        elif kind == "options":
            await self.on_options(message)
        elif kind == "ack":
            self.answered(message)
        elif kind == "error":
            return await self.on_refusal(message)
        return False

    async def on_event(self, message: Message) -> bool:
        fold = self.seat.event(message)
        if fold is Fold.GAP:
            if not self.behind and self.seat.seq is not None:
                self.behind = True  # missed events: the server sends them again, then the turn
                hello = {"type": "hello", "table": self.table, "token": self.token}
                await self.send({**hello, "last_seq": self.seat.seq})
            return False
        if fold is Fold.SEEN:
            return False
        self.behind = False
        kind, data = message["kind"], message.get("data") or {}
        if kind == "seat":
            await self.seat_state()
        elif kind == "round_ended" and not self.seat.game_over_after(data):
            await self.send({"type": "ready"})
        elif kind == "game_ended":
            return await self.game_ended(data)
        return False

    async def seat_state(self) -> None:
        """Follow the seat's state: covered by the server's bot, or ours again."""
        covered = self.seat.own_state() == "covered"
        if covered and not self.covered_now and self.seat.phase not in ("finished", "annulled"):
            self.covered_in_game = True
            self.report.covered(self.table or "", self.seat.you or 0)
        self.covered_now = covered
        if covered and self.thinking is None:
            await self.take_back()

    async def take_back(self) -> None:
        if self.covered_now and self.seat.phase in ("playing", "between_rounds"):
            await self.send({"type": "return"})

    async def game_ended(self, data: Message) -> bool:
        outcome = self.outcome
        outcome.played += 1
        self.games_left -= 1
        self.report.game_over(outcome.played, data)
        if self.covered_in_game:
            outcome.covered.append(outcome.played)
        if self.covered_now:
            outcome.abandoned.append(outcome.played)
        if self.games_left <= 0 or self.covered_in_game:
            return True
        self.table = self.token = None
        await self.send({"type": "quick_match"})
        return False

    # The turn --------------------------------------------------------------------------

    async def on_options(self, message: Message) -> None:
        if self.seat.view is None or self.behind:
            return  # the catch-up on its way ends with this turn's options again
        if self.thinking is not None:
            self.waiting = message  # the turn being thought about is over
            return
        self.thinking = asyncio.get_running_loop().create_task(self.think(message))
        self.thinking.add_done_callback(self.thought)  # keeps the task until it is over

    async def think(self, options: Message) -> None:
        turn_id = options["turn_id"]
        view = self.seat.player_view(options["legal_actions"])
        action = await asyncio.to_thread(self.choose, view)
        if self.seat.turn_id == turn_id and self.seat.phase == "playing":
            await self.send({"type": "act", "action": action.to_json(), "turn_id": turn_id})

    def thought(self, task: asyncio.Task[None]) -> None:
        self.thinking = None
        if task.cancelled():
            return
        error = task.exception()
        if error is not None:  # the level failed: the run stops with its error
            self.failure = error
            self.spawn(self.socket.close())
            return
        waiting, self.waiting = self.waiting, None
        if self.covered_now:
            self.spawn(self.take_back())
        if waiting is not None and waiting["turn_id"] == self.seat.turn_id:
            self.spawn(self.on_options(waiting))

    def spawn(self, work: Coroutine[Any, Any, None]) -> None:
        task = asyncio.get_running_loop().create_task(work)
        self.tasks.add(task)
        task.add_done_callback(self.spawned)

    def spawned(self, task: asyncio.Task[None]) -> None:
        self.tasks.discard(task)
        error = None if task.cancelled() else task.exception()
        if error is not None and not isinstance(error, websockets.ConnectionClosed) and self.failure is None:
            self.failure = error  # a closed socket ends the reading loop by itself

    # Answers ---------------------------------------------------------------------------

    def answered(self, message: Message) -> None:
        number = message.get("id")
        sent = self.pending.pop(number, None) if isinstance(number, int) else None
        if sent is not None and sent["type"] == "hello":
            self.behind = False  # the catch-up is complete (never left waiting)

    async def on_refusal(self, message: Message) -> bool:
        code = message["code"]
        self.outcome.refusals[code] += 1
        number = message.get("id")
        sent = self.pending.pop(number, None) if isinstance(number, int) else None
        if sent is not None and sent["type"] == "hello":
            self.behind = False
        if code == "rate_limited":
            wait = self.pace.refused()
            retry = message.get("retry_after")
            if isinstance(retry, int | float) and not isinstance(retry, bool) and retry > 0:
                wait = max(wait, float(retry))
            if sent is not None:
                await asyncio.sleep(wait)
                await self.send(sent)
            return False
        if code in TURN_OVER or code == ROUND_DEALT:
            return False
        self.report.refused(message)
        if sent is not None and sent["type"] in FATAL_FOR:
            self.outcome.stopped_by = message
            return True
        return False
