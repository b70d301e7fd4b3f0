"""Seats: who holds each place at a table, and the lifecycle of a human's seat.

A seat is EMPTY, held by a BOT, or held by a HUMAN. A human's seat is PRESENT while a
connection is bound to it, AWAY when none is (the seat is kept: disconnect is not leave),
and COVERED once a bot has taken it over after repeated timeouts (R16) until the human
comes back and acts.
"""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass
from enum import StrEnum


class SeatKind(StrEnum):
    EMPTY = "empty"
    HUMAN = "human"
    BOT = "bot"


class SeatState(StrEnum):
    PRESENT = "present"
    AWAY = "away"
    COVERED = "covered"  # a bot plays for the absent human (R16)


def new_token() -> str:
    return secrets.token_urlsafe(24)


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


@dataclass
class Seat:
    index: int
    kind: SeatKind = SeatKind.EMPTY
    name: str = ""
    user_id: int | None = None
    token_hash: str | None = None
    bot_level: str | None = None
    state: SeatState = SeatState.AWAY
    connections: int = 0
    timeouts: int = 0  # consecutive clock expiries (R16, C10)

    @property
    def played_by_bot(self) -> bool:
        return self.kind is SeatKind.BOT or self.state is SeatState.COVERED

    def event_data(self) -> dict[str, object]:
        """The referee's record of this seat; `table_log` strips the token and user."""
        return {
            "seat": self.index,
            "name": self.name,
            "kind": self.kind.value,
            "state": self.state.value,
            "bot_level": self.bot_level,
            "user_id": self.user_id,
            "token_hash": self.token_hash,
        }

    def restore(self, data: dict[str, object]) -> None:
        self.name = str(data["name"])
        self.kind = SeatKind(str(data["kind"]))
        self.state = SeatState(str(data["state"]))
        level = data.get("bot_level")
        self.bot_level = str(level) if level is not None else None
        user = data.get("user_id")
        self.user_id = int(str(user)) if user is not None else None
        hashed = data.get("token_hash")
        self.token_hash = str(hashed) if hashed is not None else None
