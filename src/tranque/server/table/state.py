"""A table's state: what its event log folds into, and the checked lifecycle of its phase.

`TableState` is changed only by `TableState.apply(event, seq)` (each event's own `apply`,
in `events.py` and `table/round_events.py`), live and on restore alike. Its phase moves only through
`enter`:

    WAITING ──→ PLAYING ⇄ BETWEEN_ROUNDS ──→ FINISHED
       │          ↑ └───────────┴──────────────┼──→ ANNULLED
       └──────────┼────────────────────────────┼──→ ANNULLED
                  └──── a rematch (game_started) ┘

A finished game may be followed by another at the same table (a rematch every person agreed
to): `game_started` then takes the table from FINISHED back to PLAYING with a fresh game.

Everything else a running table holds (who is connected, timers, bots thinking) is the
actor's (`actor.Table`), not state: it is not in the log and a restart starts it afresh.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, fields
from enum import StrEnum
from typing import Any, Protocol

from tranque.engine import Action, Game, Rules
from tranque.engine.record import to_record
from tranque.server.refusals import Refusal
from tranque.server.table.fairness import DealSecret
from tranque.server.table.line_layout import Snake
from tranque.server.table.seats import Seat, SeatKind, SeatState

CHAT_KEPT = 30  # chat lines a player is sent again on (re)joining (`sync`'s `chat`)
Viewer = int | None  # a seat, or None for a spectator


class TableStatus(StrEnum):
    """A table's status in the store: which tables a restart brings back."""

    WAITING = "waiting"
    PLAYING = "playing"
    FINISHED = "finished"
    ANNULLED = "annulled"


class Phase(StrEnum):
    WAITING = "waiting"
    PLAYING = "playing"
    BETWEEN_ROUNDS = "between_rounds"
    FINISHED = "finished"
    ANNULLED = "annulled"

    @property
    def status(self) -> TableStatus:
        return TableStatus.PLAYING if self is Phase.BETWEEN_ROUNDS else TableStatus(self.value)

    @property
    def in_game(self) -> bool:
        return self in (Phase.PLAYING, Phase.BETWEEN_ROUNDS)

    @property
    def is_over(self) -> bool:
        return self in (Phase.FINISHED, Phase.ANNULLED)


NEXT_PHASES: dict[Phase, frozenset[Phase]] = {
    Phase.WAITING: frozenset({Phase.PLAYING, Phase.ANNULLED}),
    Phase.PLAYING: frozenset({Phase.BETWEEN_ROUNDS, Phase.ANNULLED}),
    Phase.BETWEEN_ROUNDS: frozenset({Phase.PLAYING, Phase.FINISHED, Phase.ANNULLED}),
    Phase.FINISHED: frozenset({Phase.PLAYING}),  # a rematch
    Phase.ANNULLED: frozenset(),
}


class TableKind(StrEnum):
    PRACTICE = "practice"  # one guest against bots
    PUBLIC = "public"  # listed in the lobby; spectators welcome
    PRIVATE = "private"  # by invitation only
    QUICK = "quick"  # made by «Jugar ahora»
    # A tournament's game: not listed in the lobby, spectators welcome, its seats the
    # tournament's (nobody takes, leaves or stands up from one), no rematch, never deserted.
    TOURNAMENT = "tournament"

    @property
    def ends_when_deserted(self) -> bool:
        """Tables nobody else relies on: annulled once every human has been gone a while."""
        return self in (TableKind.PRACTICE, TableKind.QUICK)

    @property
    def watchable(self) -> bool:
        """Whether anybody may follow the table as a spectator (no invitation needed)."""
        return self in (TableKind.PUBLIC, TableKind.TOURNAMENT)


class TransitionError(RuntimeError):
    """A change of phase or an event the table's lifecycle does not allow: a bug or a
    corrupt log, never a player's doing (players get a `TableError`)."""


class TableError(Refusal):
    """A refused command: `code` for programs, `message` (Spanish) and `message_en` (English)
    for the player, from the catalogue (`TableError("no_such_seat", last=3)`)."""


@dataclass
class TableOptions:
    kind: TableKind = TableKind.PRACTICE
    invite_code: str | None = None
    host_user_id: int | None = None
    bot_level: str = "heuristic"
    competitive: bool = False  # «competitiva»: rated (game_archive, ratings); else «amistosa»
    between_rounds_seconds: float = 8.0
    auto_move_seconds: float = 1.0
    bot_min_seconds: float = 0.6
    deserted_game_seconds: float = 300.0  # practice and quick: every human gone this long
    idle_waiting_seconds: float = 1800.0  # a table waiting for players that nobody follows
    hints_per_game: int = 20  # practice: the expert's suggestions a seat may ask for in a game
    bots: bool = False  # «acepta bots»: bot accounts may sit (rated in the bots' pools)
    # A tournament's table (server/tournaments/): its id and round, shown so a client links back.
    tournament: str | None = None
    tournament_round: int | None = None
    # The time cap (docs/rules.md G2): this long after the game starts, time is called.
    game_cap_seconds: float | None = None
    # A person whose seat was never present this long after the game started is covered by a
    # bot and marked `no_show` (they may still come back and play on).
    absent_grace_seconds: float | None = None
    # Duplicado: "<tournament id>:<round>". Every table with the same ref deals the same hands
    # with the same starters (`Registry.deal_sources`); their seeds stay hidden until revealed.
    deals: str | None = None
    # A peña's table (server/penas/): only the peña's members may sit (ws/endpoint.py), and the
    # chat treats it as a private table (server/talk/).
    pena_id: int | None = None
    # Mirones at a private table (talk/watching.py): "none", "friends" (the host's), "pena"
    # (the table's peña's members) or "link" (whoever holds `watch_token`); None elsewhere.
    spectators: str | None = None
    watch_token: str | None = None  # the secret of the watching link (spectators "link")
    # Fichas (server/fichas/, table/stakes.py): what each person puts in the pot to sit at a
    # competitive table (one of `Settings.fichas_stakes`); 0: nothing is staked.
    stake: int = 0

    def __post_init__(self) -> None:
        self.kind = TableKind(self.kind)
        if self.kind is TableKind.PRACTICE:
            self.competitive = False  # a game against the machine is never rated
        if not self.competitive:
            self.stake = 0  # only a rated game is played for fichas

    def to_json(self) -> dict[str, Any]:
        """Every option; the tournaments' ones only when set, so the configuration of any other
        table is what it always was (and a process of the release before reads it)."""
        data = {item.name: getattr(self, item.name) for item in fields(self)}
        data["kind"] = self.kind.value
        for name in _WRITTEN_WHEN_SET:
            if data[name] is None:
                del data[name]
        if not self.stake:
            del data["stake"]
        return data


_WRITTEN_WHEN_SET = (
    "tournament",
    "tournament_round",
    "game_cap_seconds",
    "absent_grace_seconds",
    "deals",
    "pena_id",
    "spectators",
    "watch_token",
)


@dataclass(frozen=True)
class Turn:
    seat: int
    turn_id: int
    deadline: float
    auto: bool  # a forced pass or draw, which the server plays after a moment


class Foldable(Protocol):
    """What `TableState.apply` folds in: an event of the table's log (events.py's
    `TableEvent`s), which knows how it changes the state. The events import this module,
    never the reverse."""

    def apply(self, state: TableState) -> None: ...


class TableState:
    """The fold of a table's log. Compare two with `==` (it compares `facts()`)."""

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self.seq = 0  # the last event applied
        self.phase = Phase.WAITING
        self.seats = [Seat(index) for index in range(rules.players)]
        self.first_starter: int | None = None
        self.game: Game | None = None
        self.secrets: dict[int, DealSecret] = {}
        self.line = Snake()  # the round's line as it lies on the table (derived: its plays laid out)
        self.turn: Turn | None = None
        self.turn_counter = 0  # the last turn_id given
        self.ready: set[int] = set()
        self.votes: set[int] = set()
        self.game_number = 0  # 1-based: the game being played or last played at this table
        self.rematch: set[int] = set()  # the seats that agreed to play another game
        self.rating: dict[str, Any] | None = None  # the last `rating` event's data
        # The table's recent typed chat, (seq, seat, text), for a player's `sync` (server/talk/).
        self.chat: deque[tuple[int, int, str]] = deque(maxlen=CHAT_KEPT)
        self.hints: dict[int, int] = {}  # seat → hints it was given in this game (practice)
        self.last_hint: dict[int, tuple[int, Action]] = {}  # seat → (turn_id, action) of its last hint
        # A person's seat → its turns with a choice in this game (its own moves, the covering
        # bot's and the clock's; forced moves aside), and how many of them the bot made
        # (players/game_rating.py `mostly_bot`).
        self.decisions: dict[int, int] = {}
        self.bot_moves: dict[int, int] = {}
        # When the game started, where the table's options need it (a time cap, a grace for
        # the absent: `game_started.started_at`); None otherwise.
        self.started_at: float | None = None
        # The seats present at some moment since the game started (a grace for the absent),
        # and those covered for never showing up (`seat` events marked `no_show`).
        self.shown_up: set[int] = set()
        self.no_show: set[int] = set()

    def apply(self, event: Foldable, seq: int) -> None:
        """Fold one event in: the only way a table's state changes."""
        if seq != self.seq + 1:
            raise TransitionError(f"event {seq} after event {self.seq}")
        event.apply(self)
        self.seq = seq

    def enter(self, phase: Phase) -> None:
        if phase not in NEXT_PHASES[self.phase]:
            raise TransitionError(f"a table cannot go from {self.phase} to {phase}")
        self.phase = phase

    def replace_seat(self, seat: Seat) -> None:
        self.seats[seat.index] = self.seats[seat.index].transition_to(seat)

    # Reading ---------------------------------------------------------------------------

    @property
    def humans(self) -> list[Seat]:
        return [seat for seat in self.seats if seat.is_human]

    @property
    def full(self) -> bool:
        return all(seat.kind is not SeatKind.EMPTY for seat in self.seats)

    def seat_of_token(self, hashed: str) -> Seat | None:
        return next((seat for seat in self.seats if seat.token_hash == hashed), None)

    def seat_of_user(self, user_id: int) -> Seat | None:
        return next((seat for seat in self.seats if seat.user_id == user_id), None)

    @property
    def rematch_needed(self) -> list[int]:
        """The seats whose agreement a rematch needs: every person's (bots agree by themselves)."""
        return [seat.index for seat in self.humans]

    def new_game(self, first_starter: int | None, started_at: float | None = None) -> None:
        """Forget the game played (a rematch): the seats stay, the scores start again."""
        self.game_number += 1
        self.first_starter = first_starter
        self.started_at = started_at
        self.shown_up = {seat.index for seat in self.humans if seat.state is SeatState.PRESENT}
        self.no_show = set()
        self.game = None
        self.secrets = {}
        self.line = Snake()
        self.turn = None
        self.ready = set()
        self.votes = set()
        self.rematch = set()
        self.hints = {}
        self.last_hint = {}
        self.decisions = {}
        self.bot_moves = {}

    def count_move(self, seat: int, by_bot: bool) -> None:
        """A person's seat made a decision in this game (by the covering bot, if `by_bot`)."""
        self.decisions[seat] = self.decisions.get(seat, 0) + 1
        if by_bot:
            self.bot_moves[seat] = self.bot_moves.get(seat, 0) + 1

    def hint_counts(self) -> list[int]:
        """How many hints each seat was given in this game (practice tables; zeros elsewhere)."""
        return [self.hints.get(seat.index, 0) for seat in self.seats]

    def playing_game(self) -> Game:
        """The game, which must exist (it does from the first `round_started` on)."""
        if self.game is None:
            raise TableError("no_game")
        return self.game

    @property
    def waiting_for_ready(self) -> list[Seat]:
        """Humans who have not said «listo» and are not covered (a covered seat never says it)."""
        return [s for s in self.humans if s.state is not SeatState.COVERED and s.index not in self.ready]

    # Dealing (the one place a round is dealt, live and on restore) -----------------------

    def deal(self, number: int, secret: DealSecret) -> None:
        self.secrets[number] = secret
        self.line = Snake()
        if number == 0:
            self.game = Game(self.rules, first_starter=self.first_starter, seed_for_round=self._seed_of)
        else:
            self.playing_game().start_next_round()

    def dealt(self, number: int, secret: DealSecret) -> Game:
        """The game as dealing round `number` from `secret` makes it, this state unchanged
        (a `round_started` is decided on it before it is stored)."""
        seeds = {n: known.seed for n, known in self.secrets.items()} | {number: secret.seed}
        if number == 0:
            return Game(self.rules, first_starter=self.first_starter, seed_for_round=seeds.__getitem__)
        game = self.playing_game().copy(seed_for_round=seeds.__getitem__)
        game.start_next_round()
        return game

    def _seed_of(self, number: int) -> bytes:
        return self.secrets[number].seed

    # Comparing -------------------------------------------------------------------------

    def facts(self) -> dict[str, Any]:
        """Everything this state holds, as plain data (the game by its record and its round)."""
        game = self.game
        return {
            "seq": self.seq,
            "phase": self.phase.value,
            "seats": [seat.to_json() for seat in self.seats],
            "first_starter": self.first_starter,
            "secrets": {n: (s.seed.hex(), s.salt.hex()) for n, s in sorted(self.secrets.items())},
            "turn": None if self.turn is None else vars(self.turn),
            "turn_counter": self.turn_counter,
            "ready": sorted(self.ready),
            "votes": sorted(self.votes),
            "game_number": self.game_number,
            "rematch": sorted(self.rematch),
            "rating": self.rating,
            "chat": [list(line) for line in self.chat],
            "hints": self.hint_counts(),
            "last_hint": {seat: [turn, action.to_json()] for seat, (turn, action) in self.last_hint.items()},
            "decisions": dict(sorted(self.decisions.items())),
            "bot_moves": dict(sorted(self.bot_moves.items())),
            "started_at": self.started_at,
            "shown_up": sorted(self.shown_up),
            "no_show": sorted(self.no_show),
            "game": None if game is None else _game_facts(game),
        }

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, TableState):
            return NotImplemented
        return self.facts() == other.facts()

    __hash__ = None  # type: ignore[assignment]


def _game_facts(game: Game) -> dict[str, Any]:
    round_ = game.round
    return {
        "record": to_record(game),
        "round_number": game.round_number,
        "hands": [[str(tile) for tile in hand] for hand in round_.hands],
        "boneyard": [str(tile) for tile in round_.boneyard],
        "turn": None if round_.is_over else round_.turn,
        "ends": round_.ends,
        "events": [event.to_json() for event in round_.full_events],
        "view": game.view(None).to_json(),
    }
