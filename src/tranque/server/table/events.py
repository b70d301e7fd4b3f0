"""Table events: one frozen class per kind, each with its stored form, what each viewer may
see of it (R17 of docs/rules.md) and the one `apply` that folds it into a `TableState`
(what an event is: `event_base`).

The kinds of the table's own life are here (its creation, its seats, the start and end of
the game, phrases, votes, practice hints); the round's (deal, turns, actions, its end), which
carry the hidden information, are in `round_events`, and this module names them too. `EVENT_TYPES`
and `decode` read a stored event back: the stored JSON and the `kind` names are the ones
logs have always had, so old logs still restore.

`apply` is used live (right after the event is stored) and on restore (for every stored
event), so the two cannot drift. It refuses, with `TransitionError`, an event the table's
lifecycle does not allow at that point: a bug or a corrupt log.
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass, replace
from enum import StrEnum
from typing import Any, ClassVar, Self

from tranque.engine import Action, action_from_json
from tranque.server.table.event_base import FieldsEvent, TableEvent, in_game, seat_index
from tranque.server.table.round_events import ActionTaken, Mover, RoundEnded, RoundStarted, TurnStarted
from tranque.server.table.seats import PUBLIC_KEYS, Seat, SeatKind, SeatState
from tranque.server.table.state import Phase, TableKind, TableState, TransitionError, Viewer

__all__ = [
    "EVENT_TYPES",
    "PHRASES",
    "ActionTaken",
    "Annulled",
    "ChatSaid",
    "EndReason",
    "GameEnded",
    "GameStarted",
    "HintGiven",
    "Mover",
    "PhraseSaid",
    "PlaceSeen",
    "RatingShown",
    "ReadyGiven",
    "RematchVoted",
    "RoundEnded",
    "RoundStarted",
    "SeatChanged",
    "TableCreated",
    "TableEvent",
    "TimeCalled",
    "TurnStarted",
    "Voted",
    "decode",
]

PHRASES = {
    "buena": "¡Buena!",
    "gracias": "Gracias",
    "rapido": "Juega rápido",
    "suerte": "¡Suerte!",
    "bien_jugado": "Bien jugado",
    "uy": "¡Uy!",
    "otra": "¿Otra?",
    "paso": "¡Paso!",
    "capicua": "¡Capicúa!",
    "se_tranco": "¡Se trancó!",
    "dale": "¡Dale!",
    "agua": "¡Agua!",
}


class EndReason(StrEnum):
    TARGET = "target"
    ANNULLED = "annulled"  # by vote, deserted, or never started


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
    count of timeouts: the count is then what the old interpreter made of it. `no_show`: a
    bot covers the seat because its person never showed up within the table's grace
    (`TableOptions.absent_grace_seconds`); written only then."""

    kind: ClassVar[str] = "seat"
    visible_keys: ClassVar[tuple[str, ...]] = (*PUBLIC_KEYS, "no_show")
    seat: Seat
    counted: bool = True
    no_show: bool = False

    def to_data(self) -> dict[str, Any]:
        data = self.seat.to_json()
        if not self.counted:
            del data["timeouts"]
        if self.no_show:
            data["no_show"] = True
        return data

    @classmethod
    def from_data(cls, data: dict[str, Any]) -> Self:
        return cls(Seat.from_json(data), counted="timeouts" in data, no_show=bool(data.get("no_show")))

    def project(self, viewer: Viewer) -> dict[str, Any]:
        shown = self.seat.public_json()
        if self.no_show:
            shown["no_show"] = True
        return shown

    def apply(self, state: TableState) -> None:
        before = state.seats[seat_index(state, self.seat.index)]
        seat = self.seat
        if seat.kind is not before.kind and state.phase is not Phase.WAITING:
            raise TransitionError(f"seat {seat.index} changed hands while the table is {state.phase}")
        if not self.counted:
            kept = before.is_human and seat.is_human and before.state is not SeatState.COVERED
            seat = replace(seat, timeouts=before.timeouts if kept else 0)
        if self.no_show and not (seat.is_human and seat.state is SeatState.COVERED and state.phase.in_game):
            raise TransitionError(f"seat {seat.index} marked absent but not covered in a game")
        state.replace_seat(seat)
        if seat.state is SeatState.PRESENT and seat.is_human:
            state.shown_up.add(seat.index)
        if self.no_show:
            state.no_show.add(seat.index)


@dataclass(frozen=True)
class PlaceSeen(FieldsEvent):
    """A person's seat was used from a place (an address, as its key for this table:
    addresses.seat_address_key) it had not been used from: a socket followed it, or its token
    was handed out again (GET /api/me/seats). Only at a competitive table for people, where
    two seats ever used from one place make the game unrated (players/table_rating.py).

    The key stays in the log, never on the wire: viewers get the event with no data (the
    `rating` event that may follow says what it changed)."""

    kind: ClassVar[str] = "place"
    visible_keys: ClassVar[tuple[str, ...]] = ()
    seat: int
    key: str

    def apply(self, state: TableState) -> None:
        seat = state.seats[seat_index(state, self.seat)]
        if not seat.is_human:
            raise TransitionError(f"a place for seat {self.seat}, which is not a person's")
        state.replace_seat(seat.seen_at(self.key))


@dataclass(frozen=True)
class GameStarted(FieldsEvent):
    """A game begins: the table's first (`game` 1, from WAITING) or a rematch (the next
    number, from FINISHED, once every person agreed). Logs from before rematches have no
    `game`: theirs is the first. `started_at`: when, at a table whose options count from the
    start (a time cap, a grace for the absent); written only there."""

    kind: ClassVar[str] = "game_started"
    visible_keys: ClassVar[tuple[str, ...]] = ("first_starter", "game", "started_at")
    first_starter: int | None
    game: int = 1
    started_at: float | None = None

    def to_data(self) -> dict[str, Any]:
        data = super().to_data()
        if self.started_at is None:
            del data["started_at"]
        return data

    def apply(self, state: TableState) -> None:
        if not state.full:
            raise TransitionError("a game starts only with every seat taken")
        if self.game != state.game_number + 1:
            raise TransitionError(f"game {self.game} started after game {state.game_number}")
        if state.phase is Phase.FINISHED and set(state.rematch_needed) - state.rematch:
            raise TransitionError("a rematch started before every person agreed")
        state.enter(Phase.PLAYING)
        state.new_game(self.first_starter, self.started_at)


@dataclass(frozen=True)
class RematchVoted(FieldsEvent):
    """A person asked for another game after `game_ended`: `agreed` the seats that have so
    far, `needed` every seat whose agreement it takes (the people's; bots agree)."""

    kind: ClassVar[str] = "rematch_vote"
    visible_keys: ClassVar[tuple[str, ...]] = ("seat", "agreed", "needed")
    seat: int
    agreed: tuple[int, ...]
    needed: tuple[int, ...]

    def apply(self, state: TableState) -> None:
        if state.phase is not Phase.FINISHED:
            raise TransitionError(f"a rematch vote while the table is {state.phase}")
        if state.seats[seat_index(state, self.seat)].kind is not SeatKind.HUMAN:
            raise TransitionError(f"a rematch vote from seat {self.seat}, which is not a person's")
        state.rematch.add(self.seat)
        if tuple(sorted(state.rematch)) != self.agreed or tuple(state.rematch_needed) != self.needed:
            raise TransitionError("a rematch vote whose counts are not the table's")


@dataclass(frozen=True)
class ReadyGiven(FieldsEvent):
    kind: ClassVar[str] = "ready"
    visible_keys: ClassVar[tuple[str, ...]] = ("seat",)
    seat: int

    def apply(self, state: TableState) -> None:
        if state.phase is not Phase.BETWEEN_ROUNDS:
            raise TransitionError(f"«listo» while the table is {state.phase}")
        state.ready.add(seat_index(state, self.seat))


@dataclass(frozen=True)
class GameEnded(TableEvent):
    """The game is over. `rating_changes` are what a rated game changed, one per seat
    (`{"seat", "before", "after", "xp"}`, shown ratings; the table fills them in as it
    decides the event, `archive.FinishedGame.rating_changes`, and the recorder keeps them
    afterwards, players/recorder.py); any other game's data has
    none (nor have logs from before ratings)."""

    kind: ClassVar[str] = "game_ended"
    visible_keys: ClassVar[tuple[str, ...]] = (
        "scores",
        "goals",
        "winners",
        "reason",
        "rating_changes",
        "operator_reason",
        "ficha_changes",
    )
    scores: tuple[int, ...]
    goals: tuple[int, ...]
    winners: tuple[int, ...]
    reason: EndReason
    rating_changes: tuple[dict[str, int], ...] = ()
    # Why the site's operator annulled the game (commands.EndByOperator), shown to its players;
    # None for every other end.
    operator_reason: str | None = None
    # What the game's end moves of its pot of fichas (players/table_fichas.py `ficha_changes`):
    # one `{"seat", "user_id", "amount" (signed), "kind"}` per staked seat, then the bank's cut.
    ficha_changes: tuple[dict[str, Any], ...] = ()

    def to_data(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "scores": list(self.scores),
            "goals": list(self.goals),
            "winners": list(self.winners),
            "reason": self.reason.value,
        }
        if self.rating_changes:
            data["rating_changes"] = [dict(change) for change in self.rating_changes]
        if self.operator_reason is not None:
            data["operator_reason"] = self.operator_reason
        if self.ficha_changes:
            data["ficha_changes"] = [dict(change) for change in self.ficha_changes]
        return data

    @classmethod
    def from_data(cls, data: dict[str, Any]) -> Self:
        return cls(
            tuple(data["scores"]),
            tuple(data["goals"]),
            tuple(data["winners"]),
            EndReason(data["reason"]),
            tuple(data.get("rating_changes", ())),
            data.get("operator_reason"),
            tuple(data.get("ficha_changes", ())),
        )

    @classmethod
    def closing(cls, state: TableState, reason: EndReason, operator_reason: str | None = None) -> GameEnded:
        game = state.game
        if game is None:
            return cls((), (), (), reason, operator_reason=operator_reason)
        winners = tuple(game.winners) if reason is EndReason.TARGET else ()
        return cls(tuple(game.scores), tuple(game.goals), winners, reason, operator_reason=operator_reason)

    def apply(self, state: TableState) -> None:
        if self.reason is EndReason.TARGET and not (state.game is not None and state.game.is_over):
            raise TransitionError("a game ended by its target before anybody reached it")
        state.enter(Phase.FINISHED if self.reason is EndReason.TARGET else Phase.ANNULLED)
        state.turn = None


TIME_UP = {
    "es": "Se acabó el tiempo: se termina esta mano y gana quien vaya adelante",
    "en": "Time is up: this hand is played out and whoever is ahead wins",
}


@dataclass(frozen=True)
class TimeCalled(FieldsEvent):
    """The game's time cap (`TableOptions.game_cap_seconds`) was reached during round `round`
    (0-based; or after it, between hands): the engine's `Game.call_time` (docs/rules.md G2–G4).
    Viewers are told in both languages."""

    kind: ClassVar[str] = "time_called"
    visible_keys: ClassVar[tuple[str, ...]] = ("round", "message", "message_en")
    round: int

    def project(self, viewer: Viewer) -> dict[str, Any]:
        return {"round": self.round, "message": TIME_UP["es"], "message_en": TIME_UP["en"]}

    def apply(self, state: TableState) -> None:
        in_game(state, "time called")
        game = state.playing_game()
        if game.is_over or game.time_called is not None or game.round_number != self.round:
            raise TransitionError(f"time called in round {self.round}, which is not the one in play")
        game.call_time()


@dataclass(frozen=True)
class RatingShown(FieldsEvent):
    """What the players see of a competitive table's ratings changed (a seat taken or left,
    a rated game's new ratings before a rematch): the `rating` of `sync` (players/table_rating.py)."""

    kind: ClassVar[str] = "rating"
    visible_keys: ClassVar[tuple[str, ...]] = ("competitive", "rated", "reason", "chances", "seats")
    competitive: bool
    rated: bool
    reason: str | None
    chances: tuple[float, ...] | None
    seats: tuple[dict[str, Any] | None, ...]

    def apply(self, state: TableState) -> None:
        state.rating = self.to_data()


@dataclass(frozen=True)
class PhraseSaid(FieldsEvent):
    kind: ClassVar[str] = "phrase"
    visible_keys: ClassVar[tuple[str, ...]] = ("seat", "phrase")
    seat: int
    phrase: str

    def apply(self, state: TableState) -> None:
        seat_index(state, self.seat)


@dataclass(frozen=True)
class ChatSaid(FieldsEvent):
    """A line of typed chat (server/talk/): seen by every seat alike, never by a spectator.

    A spectator is sent the event's number with empty data, so its numbering has no gap and it
    learns neither who wrote nor what. `apply` only keeps the line among the table's recent
    chat (`TableState.chat`, for a player's `sync`): nothing of the game changes, and the
    engine's record, which replays read, never carries it."""

    kind: ClassVar[str] = "chat"
    visible_keys: ClassVar[tuple[str, ...]] = ("seat", "text")
    seat: int
    text: str

    def audience(self, viewer: Viewer) -> Hashable:
        return viewer is not None

    def project(self, viewer: Viewer) -> dict[str, Any]:
        return {} if viewer is None else self.to_data()

    def apply(self, state: TableState) -> None:
        state.chat.append((state.seq + 1, seat_index(state, self.seat), self.text))


@dataclass(frozen=True)
class Voted(FieldsEvent):
    kind: ClassVar[str] = "vote"
    visible_keys: ClassVar[tuple[str, ...]] = ("seat", "agree")
    seat: int
    agree: bool

    def apply(self, state: TableState) -> None:
        in_game(state, "a vote")
        if state.seats[seat_index(state, self.seat)].kind is not SeatKind.HUMAN:
            raise TransitionError(f"a vote from seat {self.seat}, which is not a person's")
        if self.agree:
            state.votes.add(self.seat)
        else:
            state.votes.clear()


@dataclass(frozen=True)
class Annulled(FieldsEvent):
    kind: ClassVar[str] = "annulled"
    visible_keys: ClassVar[tuple[str, ...]] = ("votes",)
    votes: tuple[int, ...]

    def apply(self, state: TableState) -> None:
        in_game(state, "an annulment")


@dataclass(frozen=True)
class HintGiven(TableEvent):
    """A seat of a practice table asked for a hint («Pista») on its turn and was given
    `action`, the expert's choice from the seat's own view (`hints.suggest`); `count` is how
    many hints the seat has been given in this game, this one included.

    What it suggests is a tile of the seat's hand: only that seat sees `action` (R17). Every
    other viewer sees that the seat used a hint on that turn, and how many it has used."""

    kind: ClassVar[str] = "hint"
    visible_keys: ClassVar[tuple[str, ...]] = ("seat", "turn_id", "action", "count")
    seat: int
    turn_id: int
    action: Action
    count: int

    def to_data(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "turn_id": self.turn_id,
            "action": self.action.to_json(),
            "count": self.count,
        }

    @classmethod
    def from_data(cls, data: dict[str, Any]) -> Self:
        return cls(data["seat"], data["turn_id"], action_from_json(data["action"]), data["count"])

    def audience(self, viewer: Viewer) -> Hashable:
        return viewer == self.seat

    def project(self, viewer: Viewer) -> dict[str, Any]:
        shown = self.to_data()
        if viewer != self.seat:
            del shown["action"]
        return shown

    def apply(self, state: TableState) -> None:
        turn = state.turn
        playing = None if turn is None or state.phase is not Phase.PLAYING else (turn.seat, turn.turn_id)
        if playing != (self.seat, self.turn_id):
            raise TransitionError(f"a hint for seat {self.seat} on turn {self.turn_id}, not the one in play")
        if state.seats[seat_index(state, self.seat)].kind is not SeatKind.HUMAN:
            raise TransitionError(f"a hint for seat {self.seat}, which is not a person's")
        if self.action not in state.playing_game().round.legal_actions():
            raise TransitionError(f"a hint the rules refuse: {self.action}")
        count = state.hints.get(self.seat, 0) + 1
        if count != self.count:
            raise TransitionError(f"hint {self.count} of seat {self.seat} after {count - 1}")
        state.hints[self.seat] = count
        state.last_hint[self.seat] = (self.turn_id, self.action)


EVENT_TYPES: dict[str, type[TableEvent]] = {
    cls.kind: cls
    for cls in (
        TableCreated,
        SeatChanged,
        PlaceSeen,
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
        ChatSaid,
        RematchVoted,
        RatingShown,
        HintGiven,
        TimeCalled,
    )
}


def decode(kind: str, data: dict[str, Any]) -> TableEvent:
    """The typed event of a stored `kind` and `data`; an unknown kind is an error, never a leak."""
    event_type = EVENT_TYPES.get(kind)
    if event_type is None:
        raise KeyError(f"no table event kind {kind!r}")
    return event_type.from_data(data)
