"""The events of a round of dominó: its deal, each turn, each action and its end.

These are the events that carry hidden information (every hand, the boneyard, the tile a
seat drew, the round's seed and salt): each says what a viewer may see of it (R17 of
docs/rules.md). Each one is decided by the engine on a trial copy (`dealt`, `tried`,
`settled`) before it is stored, and its `apply` checks that the game replays it as stored.
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, ClassVar, Self

from tranque.engine import Action, IllegalAction, action_from_json
from tranque.engine.events import DrawEvent, PlayEvent
from tranque.engine.tiles import Tile, as_tile
from tranque.server.table.event_base import FieldsEvent, TableEvent, hands, secret_data, secret_of, tiles
from tranque.server.table.fairness import DealSecret
from tranque.server.table.line_layout import Snake
from tranque.server.table.state import Phase, TableState, TransitionError, Turn, Viewer


class Mover(StrEnum):
    """Who made a move: the seat's own `act`, a bot, the clock (R15) or a forced move."""

    HUMAN = "human"
    BOT = "bot"
    TIMEOUT = "timeout"
    AUTO = "auto"


@dataclass(frozen=True)
class RoundStarted(TableEvent):
    kind: ClassVar[str] = "round_started"
    visible_keys: ClassVar[tuple[str, ...]] = (
        "round",
        "starter",
        "commitment",
        "hand_counts",
        "boneyard_count",
        "hand",
        "scores",
        "goals",
    )
    round: int
    starter: int
    hands: tuple[tuple[str, ...], ...]
    boneyard: tuple[str, ...]
    hand_counts: tuple[int, ...]
    boneyard_count: int
    secret: DealSecret
    # The game's scores and goals by team as the round starts (zeros in the first), so a
    # score bar is full from the first hand; None in logs from before they were stored.
    scores: tuple[int, ...] | None = None
    goals: tuple[int, ...] | None = None

    def to_data(self) -> dict[str, Any]:
        data = {
            "round": self.round,
            "starter": self.starter,
            "hands": [list(hand) for hand in self.hands],
            "boneyard": list(self.boneyard),
            "hand_counts": list(self.hand_counts),
            "boneyard_count": self.boneyard_count,
            **secret_data(self.secret),
        }
        if self.scores is not None and self.goals is not None:
            data.update(scores=list(self.scores), goals=list(self.goals))
        return data

    @classmethod
    def from_data(cls, data: dict[str, Any]) -> Self:
        secret = secret_of(data)
        assert secret is not None, "a round_started without its seed"
        return cls(
            data["round"],
            data["starter"],
            hands(data["hands"]),
            tiles(data["boneyard"]),
            tuple(data["hand_counts"]),
            data["boneyard_count"],
            secret,
            None if data.get("scores") is None else tuple(data["scores"]),
            None if data.get("goals") is None else tuple(data["goals"]),
        )

    def audience(self, viewer: Viewer) -> Hashable:
        return viewer  # each seat its own hand

    def project(self, viewer: Viewer) -> dict[str, Any]:
        shown = {
            "round": self.round,
            "starter": self.starter,
            "commitment": self.secret.commitment,
            "hand_counts": list(self.hand_counts),
            "boneyard_count": self.boneyard_count,
            "hand": list(self.hands[viewer]) if viewer is not None else None,
        }
        if self.scores is not None and self.goals is not None:
            shown.update(scores=list(self.scores), goals=list(self.goals))
        return shown

    @classmethod
    def dealt(cls, state: TableState, secret: DealSecret) -> RoundStarted:
        """The next round of `state`'s game as `secret` deals it (tried on a copy of the game:
        the referee's deal is stored before anything changes)."""
        number = 0 if state.game is None else state.game.round_number + 1
        game = state.dealt(number, secret)
        round_ = game.round
        return cls(
            number,
            round_.starter,
            hands(round_.hands),
            tiles(round_.dealt_boneyard),
            tuple(round_.hand_counts),
            round_.boneyard_count,
            secret,
            tuple(game.scores),
            tuple(game.goals),
        )

    def apply(self, state: TableState) -> None:
        if self.round == 0:
            if state.phase is not Phase.PLAYING or state.game is not None:
                raise TransitionError("the first round is dealt once, when the game starts")
        else:
            game = state.playing_game()
            if self.round != game.round_number + 1 or not game.round.is_over:
                raise TransitionError(f"round {self.round} dealt out of turn")
            state.enter(Phase.PLAYING)
        state.deal(self.round, self.secret)
        round_ = state.playing_game().round
        if hands(round_.hands) != self.hands or round_.starter != self.starter:
            raise TransitionError(f"round {self.round}: its seed does not give the stored deal")
        game = state.playing_game()
        if self.scores is not None and (self.scores, self.goals) != (tuple(game.scores), tuple(game.goals)):
            raise TransitionError(f"round {self.round}: the stored scores are not the game's")
        state.ready.clear()
        state.turn = None


@dataclass(frozen=True)
class TurnStarted(FieldsEvent):
    kind: ClassVar[str] = "turn"
    visible_keys: ClassVar[tuple[str, ...]] = ("seat", "turn_id", "deadline", "auto")
    seat: int
    turn_id: int
    deadline: float
    auto: bool = False  # logs from before forced moves were announced lack it

    def apply(self, state: TableState) -> None:
        game = state.playing_game()
        if state.phase is not Phase.PLAYING or game.turn != self.seat:
            raise TransitionError(f"a turn for seat {self.seat} that is not the one to act")
        if self.turn_id <= state.turn_counter:
            raise TransitionError(f"turn {self.turn_id} after turn {state.turn_counter}")
        state.turn = Turn(self.seat, self.turn_id, self.deadline, self.auto)
        state.turn_counter = self.turn_id


@dataclass(frozen=True)
class ActionTaken(TableEvent):
    """A seat's move. `scores` is the game's score by team after a move that changed it
    before its round ended (ponce's passes score at once, C6), else None.

    A play also carries where it lies on the table (`line_layout`): `place`, its box, and
    `line_ends`, both ends of the line after it. They are a pure function of the round's
    plays, decided on a copy of the state's line and checked again when the event is applied
    (which lays the tile on the state's line); logs from before the geometry existed lack
    them (None)."""

    kind: ClassVar[str] = "action"
    visible_keys: ClassVar[tuple[str, ...]] = (
        "seat",
        "action",
        "by",
        "ends",
        "drawn",
        "scores",
        "place",
        "line_ends",
    )
    seat: int
    action: Action
    drawn: Tile | None  # the referee's: only the drawer sees it
    by: Mover
    ends: tuple[int, int] | None  # the line's ends after the action
    scores: tuple[int, ...] | None = None
    place: dict[str, Any] | None = None  # a play's box (`Box.to_json()`)
    line_ends: dict[str, Any] | None = None  # after a play: {"left": End, "right": End}

    def to_data(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "seat": self.seat,
            "action": self.action.to_json(),
            "drawn": None if self.drawn is None else str(self.drawn),
            "by": self.by.value,
            "ends": None if self.ends is None else list(self.ends),
        }
        if self.scores is not None:
            data["scores"] = list(self.scores)
        if self.place is not None:
            data["place"] = self.place
            data["line_ends"] = self.line_ends
        return data

    @classmethod
    def from_data(cls, data: dict[str, Any]) -> Self:
        drawn, ends, scores = data.get("drawn"), data.get("ends"), data.get("scores")
        return cls(
            data["seat"],
            action_from_json(data["action"]),
            None if drawn is None else as_tile(drawn),
            Mover(data["by"]),
            None if ends is None else (ends[0], ends[1]),
            None if scores is None else tuple(scores),
            data.get("place"),
            data.get("line_ends"),
        )

    def audience(self, viewer: Viewer) -> Hashable:
        return self.drawn is not None and viewer == self.seat

    def project(self, viewer: Viewer) -> dict[str, Any]:
        shown = self.to_data()
        if shown["drawn"] is None or viewer != self.seat:
            del shown["drawn"]
        return shown

    @classmethod
    def tried(cls, state: TableState, seat: int, action: Action, by: Mover) -> ActionTaken:
        """The event `action` would be for the seat to act, tried on a copy of the round;
        `IllegalAction` if the rules refuse it (then nothing happened)."""
        game = state.playing_game()
        trial = game.round.copy()  # shares the rules and the (immutable) events
        earned = trial.pass_points
        applied = trial.apply(action, seat=seat)
        drawn = applied.tile if isinstance(applied, DrawEvent) else None
        gains = [now - before for now, before in zip(trial.pass_points, earned, strict=True)]
        scores = None
        if any(gains) and not trial.is_over:
            scores = list(game.scores)
            game.scorer.credit(game.rules, scores, gains)  # the engine's own crediting (C6)
        place, line_ends = (
            _geometry(state.line.copy(), applied) if isinstance(applied, PlayEvent) else (None, None)
        )
        return cls(
            seat,
            applied.action,
            drawn,
            by,
            trial.ends,
            None if scores is None else tuple(scores),
            place,
            line_ends,
        )

    def apply(self, state: TableState) -> None:
        if state.phase is not Phase.PLAYING:
            raise TransitionError(f"an action while the table is {state.phase}")
        game = state.playing_game()
        try:
            applied = game.apply(self.action, seat=self.seat)
        except IllegalAction as error:
            raise TransitionError(f"a stored action the rules refuse: {error.code}") from None
        drawn = applied.tile if isinstance(applied, DrawEvent) else None
        if applied.action != self.action or drawn != self.drawn:
            raise TransitionError("a stored action that does not replay as stored")
        if self.scores is not None and list(self.scores) != game.scores:
            raise TransitionError("a stored action whose scores the game does not reach")
        if isinstance(applied, PlayEvent):
            laid = _geometry(state.line, applied)  # the state's line grows by the play either way
            if self.place is not None and laid != (self.place, self.line_ends):
                raise TransitionError("a stored play whose place on the table the line does not give")
        seat = state.seats[self.seat]
        forced = self.by is Mover.AUTO or (state.turn is not None and state.turn.auto)
        if seat.is_human and not forced:  # a decision (game_rating.mostly_bot)
            state.count_move(self.seat, self.by is Mover.BOT)
        if self.by is Mover.TIMEOUT:
            state.seats[self.seat] = seat.timed_out()
        elif self.by is Mover.HUMAN:
            state.seats[self.seat] = seat.acted()
        state.turn = None


def _geometry(line: Snake, play: PlayEvent) -> tuple[dict[str, Any], dict[str, Any] | None]:
    """Lay `play` on `line`: the box it takes and the line's ends after it."""
    box = line.place(str(play.tile), None if play.side is None else play.side.value)
    return box.to_json(), line.ends_json()


@dataclass(frozen=True)
class RoundEnded(TableEvent):
    kind: ClassVar[str] = "round_ended"
    visible_keys: ClassVar[tuple[str, ...]] = (
        "round",
        "result",
        "hands",
        "seed",
        "salt",
        "commitment",
        "scores",
        "goals",
    )
    round: int
    result: dict[str, Any] | None  # the engine's RoundResult.to_json(), None if ponce's passes ended it
    hands: tuple[tuple[str, ...], ...]
    secret: DealSecret | None
    scores: tuple[int, ...]
    goals: tuple[int, ...]

    def to_data(self) -> dict[str, Any]:
        return {
            "round": self.round,
            "result": self.result,
            "hands": [list(hand) for hand in self.hands],
            **secret_data(self.secret),
            "scores": list(self.scores),
            "goals": list(self.goals),
        }

    @classmethod
    def from_data(cls, data: dict[str, Any]) -> Self:
        return cls(
            data["round"],
            data["result"],
            hands(data["hands"]),
            secret_of(data),
            tuple(data["scores"]),
            tuple(data["goals"]),
        )

    @classmethod
    def settled(cls, state: TableState) -> RoundEnded:
        game = state.playing_game()
        result = game.round.result
        return cls(
            game.round_number,
            None if result is None else result.to_json(),
            hands(game.round.hands),
            state.secrets.get(game.round_number),
            tuple(game.scores),
            tuple(game.goals),
        )

    def apply(self, state: TableState) -> None:
        game = state.playing_game()
        if self.round != game.round_number or not (game.round.is_over or game.is_over):
            raise TransitionError(f"round {self.round} ended before it was over")
        if list(self.scores) != game.scores:
            raise TransitionError(f"round {self.round}: stored scores differ from the game's")
        state.enter(Phase.BETWEEN_ROUNDS)
        state.ready.clear()
        state.turn = None
