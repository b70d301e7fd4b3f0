"""Table events: one frozen class per kind, each with its stored form, what each viewer may
see of it (R17 of docs/rules.md) and the one `apply` that folds it into a `TableState`.

An event is stored as the referee knows it (every hand, each round's seed and salt, account
ids and token hashes) by `to_data`, and read back by `from_data`: the stored JSON and the
`kind` names are the ones logs have always had, so old logs still restore. What leaves the
server is `project(viewer)`, a whitelist: `visible_keys` are all the keys some viewer may
get. Viewers with the same `audience(viewer)` get the same projection, so a frame is
serialised once per audience, not once per socket.

`apply` is used live (right after the event is stored) and on restore (for every stored
event), so the two cannot drift. It refuses, with `TransitionError`, an event the table's
lifecycle does not allow at that point: a bug or a corrupt log.
"""

from __future__ import annotations

import copy
from collections.abc import Hashable
from dataclasses import dataclass, replace
from enum import StrEnum
from typing import Any, ClassVar, Self

from tranque.engine import Action, IllegalAction, action_from_json
from tranque.engine.events import DrawEvent
from tranque.engine.tiles import Tile, as_tile
from tranque.server.fairness import DealSecret
from tranque.server.seats import PUBLIC_KEYS, Seat, SeatKind, SeatState
from tranque.server.table_state import Phase, TableKind, TableState, TransitionError, Turn, Viewer

PHRASES = {
    "buena": "¡Buena!",
    "gracias": "Gracias",
    "rapido": "Juega rápido",
    "suerte": "¡Suerte!",
    "bien_jugado": "Bien jugado",
    "uy": "¡Uy!",
    "otra": "¿Otra?",
}


class Mover(StrEnum):
    """Who made a move: the seat's own `act`, a bot, the clock (R15) or a forced move."""

    HUMAN = "human"
    BOT = "bot"
    TIMEOUT = "timeout"
    AUTO = "auto"


class EndReason(StrEnum):
    TARGET = "target"
    ANNULLED = "annulled"  # by vote, deserted, or never started


class TableEvent:
    kind: ClassVar[str]
    visible_keys: ClassVar[tuple[str, ...]]  # every key of the data some viewer may receive

    def to_data(self) -> dict[str, Any]:
        raise NotImplementedError

    @classmethod
    def from_data(cls, data: dict[str, Any]) -> Self:
        raise NotImplementedError

    def audience(self, viewer: Viewer) -> Hashable:
        """Viewers with equal audiences get equal projections (default: everybody alike)."""
        return None

    def project(self, viewer: Viewer) -> dict[str, Any]:
        data = self.to_data()
        return {key: data[key] for key in self.visible_keys if key in data}

    def apply(self, state: TableState) -> None:
        raise NotImplementedError


def _in_game(state: TableState, what: str) -> None:
    if not state.phase.in_game:
        raise TransitionError(f"{what} while the table is {state.phase}")


def _seat_index(state: TableState, seat: int) -> int:
    if not 0 <= seat < len(state.seats):
        raise TransitionError(f"no seat {seat}")
    return seat


def _tiles(tiles: Any) -> tuple[str, ...]:
    return tuple(str(tile) for tile in tiles)


def _hands(hands: Any) -> tuple[tuple[str, ...], ...]:
    return tuple(_tiles(hand) for hand in hands)


def _secret(data: dict[str, Any]) -> DealSecret | None:
    if data.get("seed") is None:
        return None
    return DealSecret(bytes.fromhex(data["seed"]), bytes.fromhex(data["salt"]))


@dataclass(frozen=True)
class TableCreated(TableEvent):
    kind: ClassVar[str] = "table_created"
    visible_keys: ClassVar[tuple[str, ...]] = ("rules", "kind", "bot_level")
    rules: dict[str, Any]
    table_kind: TableKind
    bot_level: str

    def to_data(self) -> dict[str, Any]:
        return {"rules": self.rules, "kind": self.table_kind.value, "bot_level": self.bot_level}

    @classmethod
    def from_data(cls, data: dict[str, Any]) -> Self:
        return cls(data["rules"], TableKind(data["kind"]), data["bot_level"])

    def apply(self, state: TableState) -> None:
        if state.seq != 0:
            raise TransitionError("a table is created once, by its first event")
        if self.rules != state.rules.to_json():
            raise TransitionError("the log's rules are not the table's")


@dataclass(frozen=True)
class SeatChanged(TableEvent):
    """A seat's new record. `counted` is false for records from before they carried the seat's
    count of timeouts: the count is then what the old interpreter made of it."""

    kind: ClassVar[str] = "seat"
    visible_keys: ClassVar[tuple[str, ...]] = PUBLIC_KEYS
    seat: Seat
    counted: bool = True

    def to_data(self) -> dict[str, Any]:
        data = self.seat.to_json()
        if not self.counted:
            del data["timeouts"]
        return data

    @classmethod
    def from_data(cls, data: dict[str, Any]) -> Self:
        return cls(Seat.from_json(data), counted="timeouts" in data)

    def project(self, viewer: Viewer) -> dict[str, Any]:
        return self.seat.public_json()

    def apply(self, state: TableState) -> None:
        before = state.seats[_seat_index(state, self.seat.index)]
        seat = self.seat
        if seat.kind is not before.kind and state.phase is not Phase.WAITING:
            raise TransitionError(f"seat {seat.index} changed hands while the table is {state.phase}")
        if not self.counted:
            kept = before.is_human and seat.is_human and before.state is not SeatState.COVERED
            seat = replace(seat, timeouts=before.timeouts if kept else 0)
        state.replace_seat(seat)


@dataclass(frozen=True)
class GameStarted(TableEvent):
    kind: ClassVar[str] = "game_started"
    visible_keys: ClassVar[tuple[str, ...]] = ("first_starter",)
    first_starter: int | None

    def to_data(self) -> dict[str, Any]:
        return {"first_starter": self.first_starter}

    @classmethod
    def from_data(cls, data: dict[str, Any]) -> Self:
        return cls(data["first_starter"])

    def apply(self, state: TableState) -> None:
        if not state.full:
            raise TransitionError("a game starts only with every seat taken")
        state.enter(Phase.PLAYING)
        state.first_starter = self.first_starter


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
    )
    round: int
    starter: int
    hands: tuple[tuple[str, ...], ...]
    boneyard: tuple[str, ...]
    hand_counts: tuple[int, ...]
    boneyard_count: int
    secret: DealSecret

    def to_data(self) -> dict[str, Any]:
        return {
            "round": self.round,
            "starter": self.starter,
            "hands": [list(hand) for hand in self.hands],
            "boneyard": list(self.boneyard),
            "hand_counts": list(self.hand_counts),
            "boneyard_count": self.boneyard_count,
            "seed": self.secret.seed.hex(),
            "salt": self.secret.salt.hex(),
            "commitment": self.secret.commitment,
        }

    @classmethod
    def from_data(cls, data: dict[str, Any]) -> Self:
        secret = _secret(data)
        assert secret is not None, "a round_started without its seed"
        return cls(
            data["round"],
            data["starter"],
            _hands(data["hands"]),
            _tiles(data["boneyard"]),
            tuple(data["hand_counts"]),
            data["boneyard_count"],
            secret,
        )

    def audience(self, viewer: Viewer) -> Hashable:
        return viewer  # each seat its own hand

    def project(self, viewer: Viewer) -> dict[str, Any]:
        return {
            "round": self.round,
            "starter": self.starter,
            "commitment": self.secret.commitment,
            "hand_counts": list(self.hand_counts),
            "boneyard_count": self.boneyard_count,
            "hand": list(self.hands[viewer]) if viewer is not None else None,
        }

    @classmethod
    def dealt(cls, state: TableState, secret: DealSecret) -> RoundStarted:
        """The next round of `state`'s game as `secret` deals it (tried on a copy: the
        referee's deal is stored before anything changes)."""
        number = 0 if state.game is None else state.game.round_number + 1
        trial = state.copy()
        trial.deal(number, secret)
        round_ = trial.playing_game().round
        return cls(
            number,
            round_.starter,
            _hands(round_.hands),
            _tiles(round_.dealt_boneyard),
            tuple(round_.hand_counts),
            round_.boneyard_count,
            secret,
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
        if _hands(round_.hands) != self.hands or round_.starter != self.starter:
            raise TransitionError(f"round {self.round}: its seed does not give the stored deal")
        state.ready.clear()
        state.turn = None


@dataclass(frozen=True)
class TurnStarted(TableEvent):
    kind: ClassVar[str] = "turn"
    visible_keys: ClassVar[tuple[str, ...]] = ("seat", "turn_id", "deadline", "auto")
    seat: int
    turn_id: int
    deadline: float
    auto: bool

    def to_data(self) -> dict[str, Any]:
        return {"seat": self.seat, "turn_id": self.turn_id, "deadline": self.deadline, "auto": self.auto}

    @classmethod
    def from_data(cls, data: dict[str, Any]) -> Self:
        return cls(data["seat"], data["turn_id"], data["deadline"], data.get("auto", False))

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
    kind: ClassVar[str] = "action"
    visible_keys: ClassVar[tuple[str, ...]] = ("seat", "action", "by", "ends", "drawn")
    seat: int
    action: Action
    drawn: Tile | None  # the referee's: only the drawer sees it
    by: Mover
    ends: tuple[int, int] | None  # the line's ends after the action

    def to_data(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "action": self.action.to_json(),
            "drawn": None if self.drawn is None else str(self.drawn),
            "by": self.by.value,
            "ends": None if self.ends is None else list(self.ends),
        }

    @classmethod
    def from_data(cls, data: dict[str, Any]) -> Self:
        drawn, ends = data.get("drawn"), data.get("ends")
        return cls(
            data["seat"],
            action_from_json(data["action"]),
            None if drawn is None else as_tile(drawn),
            Mover(data["by"]),
            None if ends is None else (ends[0], ends[1]),
        )

    def audience(self, viewer: Viewer) -> Hashable:
        return self.drawn is not None and viewer == self.seat

    def project(self, viewer: Viewer) -> dict[str, Any]:
        shown: dict[str, Any] = {
            "seat": self.seat,
            "action": self.action.to_json(),
            "by": self.by.value,
            "ends": None if self.ends is None else list(self.ends),
        }
        if self.drawn is not None and viewer == self.seat:
            shown["drawn"] = str(self.drawn)
        return shown

    @classmethod
    def tried(cls, state: TableState, seat: int, action: Action, by: Mover) -> ActionTaken:
        """The event `action` would be for the seat to act, tried on a copy of the round;
        `IllegalAction` if the rules refuse it (then nothing happened)."""
        trial = copy.deepcopy(state.playing_game().round)
        applied = trial.apply(action, seat=seat)
        drawn = applied.tile if isinstance(applied, DrawEvent) else None
        return cls(seat, applied.action, drawn, by, trial.ends)

    def apply(self, state: TableState) -> None:
        if state.phase is not Phase.PLAYING:
            raise TransitionError(f"an action while the table is {state.phase}")
        try:
            applied = state.playing_game().apply(self.action, seat=self.seat)
        except IllegalAction as error:
            raise TransitionError(f"a stored action the rules refuse: {error.code}") from None
        drawn = applied.tile if isinstance(applied, DrawEvent) else None
        if applied.action != self.action or drawn != self.drawn:
            raise TransitionError("a stored action that does not replay as stored")
        seat = state.seats[self.seat]
        if self.by is Mover.TIMEOUT:
            state.seats[self.seat] = seat.timed_out()
        elif self.by is Mover.HUMAN:
            state.seats[self.seat] = seat.acted()
        state.turn = None


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
        secret = self.secret
        return {
            "round": self.round,
            "result": self.result,
            "hands": [list(hand) for hand in self.hands],
            "seed": None if secret is None else secret.seed.hex(),
            "salt": None if secret is None else secret.salt.hex(),
            "commitment": None if secret is None else secret.commitment,
            "scores": list(self.scores),
            "goals": list(self.goals),
        }

    @classmethod
    def from_data(cls, data: dict[str, Any]) -> Self:
        return cls(
            data["round"],
            data["result"],
            _hands(data["hands"]),
            _secret(data),
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
            _hands(game.round.hands),
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


@dataclass(frozen=True)
class ReadyGiven(TableEvent):
    kind: ClassVar[str] = "ready"
    visible_keys: ClassVar[tuple[str, ...]] = ("seat",)
    seat: int

    def to_data(self) -> dict[str, Any]:
        return {"seat": self.seat}

    @classmethod
    def from_data(cls, data: dict[str, Any]) -> Self:
        return cls(data["seat"])

    def apply(self, state: TableState) -> None:
        if state.phase is not Phase.BETWEEN_ROUNDS:
            raise TransitionError(f"«listo» while the table is {state.phase}")
        state.ready.add(_seat_index(state, self.seat))


@dataclass(frozen=True)
class GameEnded(TableEvent):
    kind: ClassVar[str] = "game_ended"
    visible_keys: ClassVar[tuple[str, ...]] = ("scores", "goals", "winners", "reason")
    scores: tuple[int, ...]
    goals: tuple[int, ...]
    winners: tuple[int, ...]
    reason: EndReason

    def to_data(self) -> dict[str, Any]:
        return {
            "scores": list(self.scores),
            "goals": list(self.goals),
            "winners": list(self.winners),
            "reason": self.reason.value,
        }

    @classmethod
    def from_data(cls, data: dict[str, Any]) -> Self:
        return cls(
            tuple(data["scores"]), tuple(data["goals"]), tuple(data["winners"]), EndReason(data["reason"])
        )

    @classmethod
    def closing(cls, state: TableState, reason: EndReason) -> GameEnded:
        game = state.game
        if game is None:
            return cls((), (), (), reason)
        winners = tuple(game.winners) if reason is EndReason.TARGET else ()
        return cls(tuple(game.scores), tuple(game.goals), winners, reason)

    def apply(self, state: TableState) -> None:
        if self.reason is EndReason.TARGET and not (state.game is not None and state.game.is_over):
            raise TransitionError("a game ended by its target before anybody reached it")
        state.enter(Phase.FINISHED if self.reason is EndReason.TARGET else Phase.ANNULLED)
        state.turn = None


@dataclass(frozen=True)
class PhraseSaid(TableEvent):
    kind: ClassVar[str] = "phrase"
    visible_keys: ClassVar[tuple[str, ...]] = ("seat", "phrase")
    seat: int
    phrase: str

    def to_data(self) -> dict[str, Any]:
        return {"seat": self.seat, "phrase": self.phrase}

    @classmethod
    def from_data(cls, data: dict[str, Any]) -> Self:
        return cls(data["seat"], data["phrase"])

    def apply(self, state: TableState) -> None:
        _seat_index(state, self.seat)


@dataclass(frozen=True)
class Voted(TableEvent):
    kind: ClassVar[str] = "vote"
    visible_keys: ClassVar[tuple[str, ...]] = ("seat", "agree")
    seat: int
    agree: bool

    def to_data(self) -> dict[str, Any]:
        return {"seat": self.seat, "agree": self.agree}

    @classmethod
    def from_data(cls, data: dict[str, Any]) -> Self:
        return cls(data["seat"], data["agree"])

    def apply(self, state: TableState) -> None:
        _in_game(state, "a vote")
        if state.seats[_seat_index(state, self.seat)].kind is not SeatKind.HUMAN:
            raise TransitionError(f"a vote from seat {self.seat}, which is not a person's")
        if self.agree:
            state.votes.add(self.seat)
        else:
            state.votes.clear()


@dataclass(frozen=True)
class Annulled(TableEvent):
    kind: ClassVar[str] = "annulled"
    visible_keys: ClassVar[tuple[str, ...]] = ("votes",)
    votes: tuple[int, ...]

    def to_data(self) -> dict[str, Any]:
        return {"votes": list(self.votes)}

    @classmethod
    def from_data(cls, data: dict[str, Any]) -> Self:
        return cls(tuple(data["votes"]))

    def apply(self, state: TableState) -> None:
        _in_game(state, "an annulment")


EVENT_TYPES: dict[str, type[TableEvent]] = {
    cls.kind: cls
    for cls in (
        TableCreated,
        SeatChanged,
        GameStarted,
        RoundStarted,
        TurnStarted,
        ActionTaken,
        RoundEnded,
        ReadyGiven,
        GameEnded,
        PhraseSaid,
        Voted,
        Annulled,
    )
}


def decode(kind: str, data: dict[str, Any]) -> TableEvent:
    """The typed event of a stored `kind` and `data`; an unknown kind is an error, never a leak."""
    event_type = EVENT_TYPES.get(kind)
    if event_type is None:
        raise KeyError(f"no table event kind {kind!r}")
    return event_type.from_data(data)
