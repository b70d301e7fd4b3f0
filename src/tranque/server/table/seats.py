"""Seats: who holds each place at a table, and the checked lifecycle of a human's seat.

A seat is EMPTY, held by a BOT, or held by a HUMAN. A human's seat is AWAY when taken (no
connection follows it yet), PRESENT while one does, AWAY again when the last one closes
(disconnect is not leave), and COVERED once a bot plays it after repeated timeouts (R16),
until the human comes back::

    EMPTY ─seat_human→ AWAY ⇄ PRESENT          (arrive, leave)
                       AWAY | PRESENT ─cover→ COVERED ─come_back→ PRESENT
                       AWAY | PRESENT ─vacate→ EMPTY  (before the game starts)
    EMPTY ─seat_bot→ BOT

A `Seat` is a frozen value. Each change is a method that returns the next seat or raises
`SeatTransitionError`; the table stores the new seat in a `seat` event, and replaying that
event checks the same transition (`Seat.transition_to`).
"""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass, replace
from enum import StrEnum
from typing import Any


class SeatKind(StrEnum):
    EMPTY = "empty"
    HUMAN = "human"
    BOT = "bot"


class SeatState(StrEnum):
    PRESENT = "present"
    AWAY = "away"
    COVERED = "covered"  # a bot plays for the absent human (R16)


class SeatTransitionError(RuntimeError):
    """A change of seat its lifecycle does not allow: a bug or a corrupt log, never a player's doing."""


def new_token() -> str:
    return secrets.token_urlsafe(24)


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


_E, _H, _B = SeatKind.EMPTY, SeatKind.HUMAN, SeatKind.BOT
_P, _A, _C = SeatState.PRESENT, SeatState.AWAY, SeatState.COVERED

# (kind, state) before → every (kind, state) a seat event may bring. A human's seat may also
# stay as it is with its count of timeouts reset (C10), and the table's first event names
# every empty seat as it is.
ALLOWED: dict[tuple[SeatKind, SeatState], frozenset[tuple[SeatKind, SeatState]]] = {
    (_E, _A): frozenset({(_E, _A), (_H, _A), (_B, _P)}),
    (_H, _A): frozenset({(_H, _A), (_H, _P), (_H, _C), (_E, _A)}),
    (_H, _P): frozenset({(_H, _P), (_H, _A), (_H, _C), (_E, _A)}),
    (_H, _C): frozenset({(_H, _P), (_H, _C)}),
    (_B, _P): frozenset(),
}

# The most places a seat's log keeps: past them, a seat is no longer followed place by place
# and its game is not rated (players/table_rating.py, `many_places`), so the log of a table
# stays small whoever reconnects from however many addresses.
MAX_PLACES = 16

PUBLIC_KEYS = ("seat", "name", "name_en", "kind", "state", "bot_level", "face", "abandoned")


@dataclass(frozen=True, slots=True)
class Seat:
    index: int
    kind: SeatKind = SeatKind.EMPTY
    name: str = ""
    user_id: int | None = None
    token_hash: str | None = None
    bot_level: str | None = None
    state: SeatState = SeatState.AWAY  # an empty seat says "away" on the wire, as it always has
    timeouts: int = 0  # consecutive clock expiries (R16, C10)
    # A person's address as a key of this table (addresses.seat_address_key), never the
    # address itself: whether two people play from one (an unrated game). Never public.
    address_key: str | None = None
    # The keys of every other address the seat was used from since (a socket following it,
    # its token handed out again: `events.PlaceSeen`), sorted; never public either.
    places: tuple[str, ...] = ()
    # A bot's drawing (web/avatars/<face>.svg, bot_names.py); None for a person, and for the
    # bots of logs from before bots had faces ("Bot 1").
    face: str | None = None
    # The person left the game with `abandon`: the machine plays their seat to the end.
    abandoned: bool = False

    @property
    def address_keys(self) -> frozenset[str]:
        """Every place this seat is known to have been used from (as keys)."""
        keys = set(self.places)
        if self.address_key is not None:
            keys.add(self.address_key)
        return frozenset(keys)

    @property
    def played_by_bot(self) -> bool:
        return self.kind is SeatKind.BOT or self.state is SeatState.COVERED

    @property
    def is_human(self) -> bool:
        return self.kind is SeatKind.HUMAN

    # The lifecycle ---------------------------------------------------------------------

    def seat_human(
        self, name: str, user_id: int | None, hashed_token: str, address_key: str | None = None
    ) -> Seat:
        self._require(self.kind is SeatKind.EMPTY, "seat a person in")
        return Seat(
            self.index, SeatKind.HUMAN, name, user_id, hashed_token, None, SeatState.AWAY, 0, address_key
        )

    def seat_bot(self, level: str, name: str | None = None, face: str | None = None) -> Seat:
        """A bot of `level` in this empty seat, named `name` with the drawing `face`
        (bot_names.py chooses them); without a name it is `Bot <seat>`, as bots once were."""
        self._require(self.kind is SeatKind.EMPTY, "seat a bot in")
        return replace(
            Seat(self.index, SeatKind.BOT, name or f"Bot {self.index}", None, None, level, SeatState.PRESENT),
            face=face,
        )

    def vacate(self) -> Seat:
        self._require(self.is_human and self.state is not SeatState.COVERED, "vacate")
        return Seat(self.index)

    def arrive(self) -> Seat:
        self._require(self.is_human and self.state is SeatState.AWAY, "mark present")
        return replace(self, state=SeatState.PRESENT)

    def leave(self) -> Seat:
        self._require(self.is_human and self.state is SeatState.PRESENT, "mark away")
        return replace(self, state=SeatState.AWAY)

    def cover(self) -> Seat:
        self._require(self.is_human and self.state is not SeatState.COVERED, "cover with a bot")
        return replace(self, state=SeatState.COVERED)

    def come_back(self) -> Seat:
        """The covered human is back (R16): present again, and the count of timeouts restarts."""
        self._require(self.is_human and self.state is SeatState.COVERED, "hand back")
        return replace(self, state=SeatState.PRESENT, timeouts=0, abandoned=False)

    def abandon(self) -> Seat:
        """The person leaves the game (`abandon`): a bot covers the seat to the game's end."""
        self._require(self.is_human and not self.abandoned, "abandon")
        return replace(self, state=SeatState.COVERED, abandoned=True)

    def rekey(self, hashed_token: str) -> Seat:
        """The same account's seat with a new token (its old one no longer opens it): how an
        account is given its seat's token again once the server no longer has it."""
        self._require(self.is_human and self.user_id is not None, "give a new token to")
        return replace(self, token_hash=hashed_token)

    def seen_at(self, key: str) -> Seat:
        """The same seat, known to have been used from the place of `key` too."""
        self._require(self.is_human, "note a place of")
        return replace(self, places=tuple(sorted({*self.places, key})))

    def reset_timeouts(self) -> Seat:
        self._require(self.is_human, "reset the timeouts of")
        return replace(self, timeouts=0)

    def timed_out(self) -> Seat:
        """One more clock expiry in a row; only a person's are counted."""
        return replace(self, timeouts=self.timeouts + 1) if self.is_human else self

    def acted(self) -> Seat:
        return replace(self, timeouts=0) if self.timeouts else self

    def transition_to(self, new: Seat) -> Seat:
        """`new` if a seat event may bring it after this seat, else `SeatTransitionError`."""
        before, after = (self.kind, self.state), (new.kind, new.state)
        allowed = ALLOWED.get(before, frozenset())
        if new.index != self.index or after not in allowed:
            raise SeatTransitionError(
                f"seat {self.index}: {self.kind}/{self.state} cannot become {new.kind}/{new.state}"
            )
        rekeyed = self.user_id is not None and self.holder[:2] == new.holder[:2]
        if self.is_human and new.is_human and self.holder != new.holder and not rekeyed:
            raise SeatTransitionError(f"seat {self.index} changed hands without being vacated")
        return new

    @property
    def holder(self) -> tuple[str, int | None, str | None]:
        return (self.name, self.user_id, self.token_hash)

    def _require(self, condition: bool, what: str) -> None:
        if not condition:
            raise SeatTransitionError(f"cannot {what} seat {self.index}: it is {self.kind}/{self.state}")

    # JSON --------------------------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        """The referee's record of this seat (account id, token hash, address key and the keys
        of the other places it was used from included; records from before address keys have
        none, and a seat without them writes none)."""
        data: dict[str, Any] = {
            "seat": self.index,
            "name": self.name,
            "kind": self.kind.value,
            "state": self.state.value,
            "bot_level": self.bot_level,
            "user_id": self.user_id,
            "token_hash": self.token_hash,
            "timeouts": self.timeouts,
        }
        if self.address_key is not None:
            data["address_key"] = self.address_key
        if self.places:
            data["places"] = list(self.places)
        if self.face is not None:
            data["face"] = self.face
        if self.abandoned:
            data["abandoned"] = True
        return data

    def public_json(self) -> dict[str, Any]:
        """What anybody at the table may know of this seat (R17: no account, no token)."""
        shown = {key: value for key, value in self.to_json().items() if key in PUBLIC_KEYS}
        shown["name_en"] = self.name_en
        shown["face"] = self.face
        shown["abandoned"] = self.abandoned
        return shown

    @property
    def name_en(self) -> str:
        """The seat's name for an English page: a bot's is made by the server (a person's
        name, `Toño`, the same in both languages today, but a client must not assume so); a
        person's is their own."""
        return self.name

    @staticmethod
    def from_json(data: dict[str, Any]) -> Seat:
        """Read a record (one from before records carried a count of timeouts reads as 0)."""
        user = data.get("user_id")
        return Seat(
            index=int(data["seat"]),
            kind=SeatKind(data["kind"]),
            name=str(data["name"]),
            user_id=None if user is None else int(user),
            token_hash=data.get("token_hash"),
            bot_level=data.get("bot_level"),
            state=SeatState(data["state"]),
            timeouts=int(data.get("timeouts", 0)),
            address_key=data.get("address_key"),
            places=tuple(data.get("places", ())),
            face=data.get("face"),
            abandoned=bool(data.get("abandoned", False)),
        )
