"""The table actor: the one owner of a table's game, seats and clocks (docs/design.md).

Every command goes through one queue and is handled to the end before the next, so there
is never a read-modify-write race. Each accepted change becomes a numbered event that is
persisted before anybody is told, then sent to each subscriber filtered for its seat.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
from collections.abc import Callable
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, Protocol

from tranque.engine import Action, Draw, Game, Pass, Rules
from tranque.engine.events import DrawEvent, Event
from tranque.engine.record import to_record
from tranque.engine.rules import FirstLead
from tranque.server.bot_runner import BotRunner
from tranque.server.clock import Clock, Timer
from tranque.server.fairness import DealSecret
from tranque.server.seats import Seat, SeatKind, SeatState, new_token, token_hash
from tranque.server.store import Store, StoredEvent
from tranque.server.table_log import FILTERS, Viewer, visible

log = logging.getLogger(__name__)

PHRASES = {
    "buena": "¡Buena!",
    "gracias": "Gracias",
    "rapido": "Juega rápido",
    "suerte": "¡Suerte!",
    "bien_jugado": "Bien jugado",
    "uy": "¡Uy!",
    "otra": "¿Otra?",
}
PHRASE_INTERVAL = 2.0


class Phase(StrEnum):
    WAITING = "waiting"
    PLAYING = "playing"
    BETWEEN_ROUNDS = "between_rounds"
    FINISHED = "finished"
    ANNULLED = "annulled"


class TableError(Exception):
    """A refused command: `code` for programs, `message` (Spanish) for the player."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


class Subscriber(Protocol):
    def send(self, message: dict[str, Any]) -> None:
        """Queue a message without waiting; a subscriber that cannot keep up drops itself."""
        ...


@dataclass
class TableOptions:
    kind: str = "practice"  # practice | public | private | quick
    invite_code: str | None = None
    host_user_id: int | None = None
    bot_level: str = "heuristic"
    between_rounds_seconds: float = 8.0
    auto_move_seconds: float = 1.0
    bot_min_seconds: float = 0.6

    def to_json(self) -> dict[str, Any]:
        return dict(self.__dict__)


@dataclass
class Turn:
    seat: int
    turn_id: int
    deadline: float
    timer: Timer | None = None
    helper: Timer | None = None  # the auto-move of a forced pass/draw


@dataclass
class TableState:
    phase: Phase = Phase.WAITING
    game: Game | None = None
    secrets: dict[int, DealSecret] = field(default_factory=dict)
    turn: Turn | None = None
    turn_counter: int = 0
    ready: set[int] = field(default_factory=set)
    votes: set[int] = field(default_factory=set)
    last_phrase: dict[int, float] = field(default_factory=dict)
    between_timer: Timer | None = None


class Table:
    def __init__(
        self,
        table_id: str,
        rules: Rules,
        options: TableOptions,
        store: Store,
        clock: Clock,
        bots: BotRunner,
        on_change: Callable[[Table], None] | None = None,
    ) -> None:
        self.table_id = table_id
        self.rules = rules
        self.options = options
        self.store = store
        self.clock = clock
        self.bots = bots
        self.on_change = on_change
        self.seats = [Seat(i) for i in range(rules.players)]
        self.state = TableState()
        self.seq = 0
        self.subscribers: dict[Subscriber, Viewer] = {}
        self._queue: asyncio.Queue[tuple[Command, asyncio.Future[Any] | None]] = asyncio.Queue()
        self._task: asyncio.Task[None] | None = None
        self._thinking: set[asyncio.Task[None]] = set()
        self._emitting = False
        self.retired = False

    # The actor's loop ------------------------------------------------------------------

    def start(self) -> None:
        self._task = asyncio.get_running_loop().create_task(self._run(), name=f"table-{self.table_id}")

    async def stop(self) -> None:
        for timer in self._timers():
            timer.cancel()
        for task in [self._task, *self._thinking]:
            if task is not None:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task

    async def call(self, command: Command) -> Any:
        """Run `command` on the table and return its answer, or raise its `TableError`."""
        if self.retired:
            raise TableError("no_such_table", "Esa mesa no existe o ya terminó.")
        if self._task is None or self._task.done():
            raise TableError("no_such_table", "Esa mesa no existe o ya terminó.")
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self._queue.put_nowait((command, future))
        return await future

    def post(self, command: Command) -> None:
        """Queue `command` without waiting for it (timers and bots)."""
        if self.retired:
            return
        self._queue.put_nowait((command, None))

    def retire(self) -> None:
        """The game is over and nobody watches: the actor ends after what is already queued."""
        self.retired = True

    async def _run(self) -> None:
        while not (self.retired and self._queue.empty()):
            command, future = await self._queue.get()
            try:
                answer = await command.run(self)
            except TableError as error:
                if future is not None and not future.done():
                    future.set_exception(error)
            except Exception as error:
                log.exception("table %s: %r failed", self.table_id, command)
                if future is not None and not future.done():
                    future.set_exception(TableError("internal", "Algo falló en la mesa; inténtalo de nuevo."))
                del error
            else:
                if future is not None and not future.done():
                    future.set_result(answer)

    # Events ----------------------------------------------------------------------------

    async def emit(self, kind: str, data: dict[str, Any]) -> StoredEvent:
        """Number, persist, then send one event to every subscriber as it may see it."""
        # Only the table's actor (or whoever sets up a table nobody knows yet) may change it;
        # two changes at once would number two events alike.
        assert not self._emitting, f"table {self.table_id} changed outside its actor"
        self._emitting = True
        try:
            event = StoredEvent(self.seq + 1, kind, data, self.clock.now())
            await self.store.append_event(self.table_id, event)
        finally:
            self._emitting = False
        self.seq = event.seq
        for subscriber, viewer in list(self.subscribers.items()):
            subscriber.send(visible(event, viewer))
        if self.on_change is not None:
            self.on_change(self)
        return event

    def _timers(self) -> list[Timer]:
        state = self.state
        found = [state.between_timer] if state.between_timer else []
        if state.turn is not None:
            found += [t for t in (state.turn.timer, state.turn.helper) if t is not None]
        return found

    # Seats -----------------------------------------------------------------------------

    def seat_of_token(self, token: str) -> Seat | None:
        hashed = token_hash(token)
        return next((seat for seat in self.seats if seat.token_hash == hashed), None)

    def seat_of_user(self, user_id: int) -> Seat | None:
        return next((seat for seat in self.seats if seat.user_id == user_id), None)

    async def take_seat(self, seat: Seat, name: str, user_id: int | None) -> str:
        token = new_token()
        seat.kind, seat.name, seat.user_id = SeatKind.HUMAN, name, user_id
        seat.token_hash, seat.state, seat.bot_level = token_hash(token), SeatState.AWAY, None
        await self.emit("seat", seat.event_data())
        return token

    async def give_to_bot(self, seat: Seat, level: str) -> None:
        seat.kind, seat.name, seat.user_id, seat.token_hash = SeatKind.BOT, f"Bot {seat.index}", None, None
        seat.bot_level, seat.state = level, SeatState.PRESENT
        await self.emit("seat", seat.event_data())

    async def set_seat_state(self, seat: Seat, state: SeatState) -> None:
        if seat.state is not state:
            seat.state = state
            await self.emit("seat", seat.event_data())

    @property
    def humans(self) -> list[Seat]:
        return [seat for seat in self.seats if seat.kind is SeatKind.HUMAN]

    # The game --------------------------------------------------------------------------

    def seed_for_round(self, number: int) -> bytes:
        secret = DealSecret.fresh()
        self.state.secrets[number] = secret
        return secret.seed

    async def start_game(self) -> None:
        first_starter = None
        if self.rules.first_round_lead is FirstLead.RANDOM_ANY:
            first_starter = secrets.randbelow(self.rules.players)
        self.state.phase = Phase.PLAYING
        await self.store.set_table_status(self.table_id, "playing")
        await self.emit("game_started", {"first_starter": first_starter})
        self.state.game = Game(self.rules, first_starter=first_starter, seed_for_round=self.seed_for_round)
        await self._round_started()

    @property
    def game(self) -> Game:
        if self.state.game is None:
            raise TableError("no_game", "La partida no ha empezado.")
        return self.state.game

    async def _round_started(self) -> None:
        game = self.game
        number = game.round_number
        secret = self.state.secrets[number]
        round_ = game.round
        await self.emit(
            "round_started",
            {
                "round": number,
                "starter": round_.starter,
                "hands": [[str(t) for t in hand] for hand in round_.hands],
                "boneyard": [str(t) for t in round_.dealt_boneyard],
                "hand_counts": round_.hand_counts,
                "boneyard_count": round_.boneyard_count,
                "seed": secret.seed.hex(),
                "salt": secret.salt.hex(),
                "commitment": secret.commitment,
            },
        )
        await self.next_turn()

    async def next_turn(self, deadline: float | None = None) -> None:
        """Settle what the last change ended, or give the turn to the seat to act."""
        self._cancel_turn()
        game = self.game
        if game.is_over or game.round.is_over:
            await self._round_over()
            return
        seat = self.seats[game.round.turn]
        state = self.state
        state.turn_counter += 1
        now = self.clock.now()
        turn = Turn(seat.index, state.turn_counter, deadline or now + self.rules.turn_seconds)
        state.turn = turn
        forced = self._forced_action(seat)
        await self.emit(
            "turn", {"seat": seat.index, "turn_id": turn.turn_id, "deadline": turn.deadline, "auto": forced}
        )
        self.send_options(seat.index)
        turn.timer = self.clock.call_at(turn.deadline, lambda: self.post(Timeout(turn.turn_id)))
        if seat.played_by_bot:
            self._think(seat, turn.turn_id)
        elif forced:
            when = now + self.options.auto_move_seconds
            turn.helper = self.clock.call_at(when, lambda: self.post(AutoMove(turn.turn_id)))

    def options_for(self, seat: int) -> dict[str, Any] | None:
        """The legal actions of `seat` if it is to act now (never persisted: derived state)."""
        turn = self.state.turn
        if self.state.phase is not Phase.PLAYING or turn is None or turn.seat != seat:
            return None
        actions = [action.to_json() for action in self.game.round.legal_actions()]
        return {"type": "options", "turn_id": turn.turn_id, "legal_actions": actions}

    def send_options(self, seat: int) -> None:
        """Tell the connections of the seat to act what it may do, so no client computes rules."""
        options = self.options_for(seat)
        if options is not None:
            for subscriber, viewer in list(self.subscribers.items()):
                if viewer == seat:
                    subscriber.send(options)

    def _forced_action(self, seat: Seat) -> bool:
        """A pass, or a draw, that is the only thing the seat may do (played for it)."""
        actions = self.game.round.legal_actions()
        return len(actions) == 1 and isinstance(actions[0], (Pass, Draw))

    def _cancel_turn(self) -> None:
        turn = self.state.turn
        if turn is not None:
            for timer in (turn.timer, turn.helper):
                if timer is not None:
                    timer.cancel()
        self.state.turn = None

    def _think(self, seat: Seat, turn_id: int) -> None:
        view = self.game.view(seat.index)
        level = seat.bot_level or self.options.bot_level
        task = asyncio.get_running_loop().create_task(self._bot_move(level, view, turn_id))
        self._thinking.add(task)
        task.add_done_callback(self._thinking.discard)

    async def _bot_move(self, level: str, view: Any, turn_id: int) -> None:
        started = self.clock.now()
        action = await self.bots.choose(level, view)
        pause = self.options.bot_min_seconds - (self.clock.now() - started)
        if pause > 0:
            await asyncio.sleep(pause)
        self.post(BotMove(turn_id, action))

    async def play(self, seat: Seat, action: Action, by: str) -> None:
        """Apply `action` for `seat` (the seat to act); `IllegalAction` changes nothing."""
        await self.announce(seat, self.game.apply(action), by)

    async def announce(self, seat: Seat, applied: Event, by: str) -> None:
        """Tell everybody about an action just applied, then move the game on."""
        game = self.game
        drawn = str(applied.tile) if isinstance(applied, DrawEvent) and applied.tile is not None else None
        ends = game.rounds[-1].ends
        await self.emit(
            "action",
            {
                "seat": seat.index,
                "action": applied.action.to_json(),
                "drawn": drawn,
                "by": by,
                "ends": None if ends is None else list(ends),
            },
        )
        await self.next_turn()

    async def _round_over(self) -> None:
        game, state = self.game, self.state
        number = game.round_number
        secret = state.secrets.get(number)
        result = game.round.result
        await self.emit(
            "round_ended",
            {
                "round": number,
                "result": None if result is None else result.to_json(),
                "hands": [[str(t) for t in hand] for hand in game.round.hands],
                "seed": secret.seed.hex() if secret else None,
                "salt": secret.salt.hex() if secret else None,
                "commitment": secret.commitment if secret else None,
                "scores": list(game.scores),
                "goals": list(game.goals),
            },
        )
        if game.is_over:
            await self.finish(Phase.FINISHED, "target")
            return
        state.phase = Phase.BETWEEN_ROUNDS
        state.ready.clear()
        when = self.clock.now() + self.options.between_rounds_seconds
        state.between_timer = self.clock.call_at(when, lambda: self.post(NextRound(number)))

    async def next_round(self) -> None:
        state = self.state
        if state.between_timer is not None:
            state.between_timer.cancel()
            state.between_timer = None
        state.phase = Phase.PLAYING
        self.game.start_next_round()
        await self._round_started()

    async def finish(self, phase: Phase, reason: str) -> None:
        self._cancel_turn()
        state, game = self.state, self.state.game
        state.phase = phase
        await self.emit(
            "game_ended",
            {
                "scores": list(game.scores) if game else [],
                "goals": list(game.goals) if game else [],
                "winners": list(game.winners) if game and phase is Phase.FINISHED else [],
                "reason": reason,
            },
        )
        await self.store.set_table_status(self.table_id, phase.value)
        if game is not None:
            await self.store.save_record(self.table_id, self.record())

    def record(self) -> dict[str, Any]:
        """The game's record with each round's revealed seed, salt and commitment."""
        game = self.game
        record = to_record(game)
        finished = game.round_number if game.round.is_over or game.is_over else game.round_number - 1
        for number, round_data in enumerate(record["rounds"]):
            secret = self.state.secrets.get(number)
            if secret is not None and number <= finished:
                round_data.update(
                    seed=secret.seed.hex(), salt=secret.salt.hex(), commitment=secret.commitment
                )
            else:
                round_data["seed"] = None
        record["table"] = self.table_id
        return record

    # What a viewer sees on (re)joining -------------------------------------------------

    def snapshot(self, viewer: Viewer) -> dict[str, Any]:
        state, game = self.state, self.state.game
        turn = state.turn
        secret = state.secrets.get(game.round_number) if game else None
        return {
            "type": "sync",
            "seq": self.seq,
            "table": self.table_id,
            "kind": self.options.kind,
            "phase": state.phase.value,
            "you": viewer,
            "rules": self.rules.to_json(),
            "seats": [FILTERS["seat"](seat.event_data(), viewer) for seat in self.seats],
            "view": game.view(viewer).to_json() if game else None,
            "round": game.round_number if game else None,
            "turn": None
            if turn is None
            else {"seat": turn.seat, "turn_id": turn.turn_id, "deadline": turn.deadline},
            "commitment": secret.commitment if secret else None,
            "results": [r.to_json() for r in game.results] if game else [],
            "ready": sorted(state.ready),
            "votes": sorted(state.votes),
        }


# Commands the table gives itself: timers and bots ---------------------------------------


class Command(Protocol):
    async def run(self, table: Table) -> Any: ...


def current_turn(table: Table, turn_id: int) -> Turn | None:
    """The turn a timer or bot was started for, if it is still the one being played: a
    stale timeout or bot move does nothing (docs/design.md)."""
    turn = table.state.turn
    if table.state.phase is not Phase.PLAYING or turn is None or turn.turn_id != turn_id:
        return None
    return turn


@dataclass
class Timeout:
    turn_id: int

    async def run(self, table: Table) -> None:
        turn = current_turn(table, self.turn_id)
        if turn is None:
            return
        seat = table.seats[turn.seat]
        action = table.game.round.timeout_action()
        if seat.kind is SeatKind.HUMAN:
            seat.timeouts += 1
            if seat.timeouts >= table.rules.absent_turns_before_bot:
                await table.set_seat_state(seat, SeatState.COVERED)
        await table.play(seat, action, "timeout")


@dataclass
class BotMove:
    turn_id: int
    action: Action

    async def run(self, table: Table) -> None:
        turn = current_turn(table, self.turn_id)
        if turn is None:
            return
        seat = table.seats[turn.seat]
        if not seat.played_by_bot:
            return
        action = self.action
        if action not in table.game.round.legal_actions():
            action = table.game.round.timeout_action()
        await table.play(seat, action, "bot")


@dataclass
class AutoMove:
    turn_id: int

    async def run(self, table: Table) -> None:
        turn = current_turn(table, self.turn_id)
        if turn is None:
            return
        (action,) = table.game.round.legal_actions()
        await table.play(table.seats[turn.seat], action, "auto")


@dataclass
class NextRound:
    round_number: int

    async def run(self, table: Table) -> None:
        state = table.state
        if state.phase is Phase.BETWEEN_ROUNDS and table.game.round_number == self.round_number:
            await table.next_round()
