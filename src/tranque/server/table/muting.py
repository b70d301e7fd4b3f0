"""Phrases hidden from whoever blocks their speaker (docs/protocol.md, «Friends and blocks»).

The table's log keeps every phrase; only the frames change at sending: a socket whose account
blocks the speaking seat's account gets the `phrase` event with its `phrase` null, so the
event numbers stay without gaps and nothing of what was said reaches it.
"""

from __future__ import annotations

from typing import Any

from tranque.server.table.events import PhraseSaid, TableEvent
from tranque.server.table.seats import Seat


def speaker(event: TableEvent, seats: list[Seat]) -> int | None:
    """The account whose seat said a phrase; None for any other event (or a guest's phrase)."""
    if not isinstance(event, PhraseSaid):
        return None
    return seats[event.seat].user_id


def hides(subscriber: object, account: int | None) -> bool:
    """Whether `subscriber` (a socket) hides what `account` says."""
    muted: frozenset[int] = getattr(subscriber, "muted", frozenset())
    return account is not None and account in muted


def hushed(frame: dict[str, Any]) -> dict[str, Any]:
    """A `phrase` event frame without the phrase."""
    return {**frame, "data": {**frame["data"], "phrase": None}}
