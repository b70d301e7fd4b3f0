"""Phrases and chat lines hidden from whoever blocks or mutes their speaker (docs/protocol.md,
«Friends and blocks» and «Table talk»).

The table's log keeps every phrase and line; only the frames change at sending: a socket whose
account blocks (or mutes in the chat) the speaking seat's account gets the `phrase` event with
its `phrase` null, or the `chat` event with its `text` null, so the event numbers stay without
gaps and nothing of what was said reaches it. A `sync`'s recent chat leaves such lines out.
"""

from __future__ import annotations

from typing import Any

from tranque.server.table.events import ChatSaid, PhraseSaid, TableEvent
from tranque.server.table.seats import Seat

SAID = {PhraseSaid.kind: "phrase", ChatSaid.kind: "text"}  # each kind's words


def speaker(event: TableEvent, seats: list[Seat]) -> int | None:
    """The account whose seat said a phrase or a chat line; None for any other event (or a
    guest's)."""
    if not isinstance(event, PhraseSaid | ChatSaid):
        return None
    return seats[event.seat].user_id


def hides(subscriber: object, account: int | None) -> bool:
    """Whether `subscriber` (a socket) hides what `account` says."""
    muted: frozenset[int] = getattr(subscriber, "muted", frozenset())
    return account is not None and account in muted


def hushed(frame: dict[str, Any]) -> dict[str, Any]:
    """A `phrase` or `chat` event frame without its words (a spectator's chat frame has none)."""
    key, data = SAID[frame["kind"]], frame["data"]
    return {**frame, "data": {**data, key: None}} if key in data else frame


def hushed_sync(sync: dict[str, Any], subscriber: object, seats: list[Seat]) -> dict[str, Any]:
    """A `sync` without the recent chat lines of the accounts `subscriber` hides."""
    chat = sync.get("chat")
    if not chat:
        return sync
    kept = [line for line in chat if not hides(subscriber, seats[line["seat"]].user_id)]
    return {**sync, "chat": kept}
