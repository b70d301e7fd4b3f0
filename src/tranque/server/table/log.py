"""A table's log on the way in and out: typed events ↔ stored events, and frames for viewers.

Events are stored as the referee knows them (`TableEvent.to_data`); everything that leaves
the server is an `event` frame built from the event's projection for one viewer (R17 of
docs/rules.md). `Broadcast` serialises a frame once per audience (each seat's own hand in
`round_started`, the drawer's tile in a draw, one frame for everybody else), not once per
socket.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable
from typing import Any

from tranque.server.json_text import dumps
from tranque.server.store import StoredEvent, TableLog
from tranque.server.table.events import GameStarted, SeatChanged, TableEvent, decode
from tranque.server.table.state import TableState, Viewer


def to_stored(event: TableEvent, seq: int, at: float) -> StoredEvent:
    return StoredEvent(seq, event.kind, event.to_data(), at)


def from_stored(stored: StoredEvent) -> TableEvent:
    return decode(stored.kind, stored.data)


def replay(state: TableState, events: Iterable[StoredEvent]) -> None:
    """Fold stored `events` into `state` with each event's own `apply`: a restart, and a
    table whose store refused what it had applied, rebuild their state this one way."""
    for stored in events:
        state.apply(from_stored(stored), stored.seq)


async def last_game(store: TableLog, table_id: str) -> tuple[int, set[int]]:
    """The number of the table's last game (0: none started) and the accounts holding its
    seats, as its log last says (its `game_started` and `seat` records only: no game is
    replayed)."""
    number, holders = 0, dict[int, int | None]()
    for stored in await store.load_events(table_id):
        if stored.kind == SeatChanged.kind:
            holders[int(stored.data["seat"])] = stored.data.get("user_id")
        elif stored.kind == GameStarted.kind:
            number = int(stored.data.get("game", 1))
    return number, {user_id for user_id in holders.values() if user_id is not None}


def frame(seq: int, at: float, event: TableEvent, viewer: Viewer, hide_seeds: bool = False) -> dict[str, Any]:
    """The `event` message `viewer` receives; with `hide_seeds` (shared deals not revealed
    yet: `TableOptions.deals`) a round's seed and salt stay back, its commitment does not."""
    data = event.project(viewer)
    if hide_seeds:
        data = withheld(data)
    return {"type": "event", "seq": seq, "kind": event.kind, "at": at, "data": data}


def withheld(data: dict[str, Any]) -> dict[str, Any]:
    """`data` with any seed and salt it shows set to null."""
    if data.get("seed") is None and data.get("salt") is None:
        return data
    return {**data, "seed": None, "salt": None}


def record_withheld(record: dict[str, Any]) -> dict[str, Any]:
    """A game's record with every round's seed and salt set to null (each commitment kept):
    what a client gets of a table of shared deals not revealed yet."""
    rounds = [withheld(round_data) for round_data in record.get("rounds", ())]
    return {**record, "rounds": rounds}


def visible(stored: StoredEvent, viewer: Viewer) -> dict[str, Any]:
    """A stored event as `viewer` receives it."""
    return frame(stored.seq, stored.at, from_stored(stored), viewer)


class Broadcast:
    """One event's frames, each serialised the first time a viewer of its audience needs it."""

    def __init__(self, seq: int, at: float, event: TableEvent) -> None:
        self.seq, self.at, self.event = seq, at, event
        self.stored: StoredEvent | None = None  # its stored form, once the table has made it
        self._texts: dict[Hashable, str] = {}

    def text_for(self, viewer: Viewer, hide_seeds: bool = False) -> str:
        audience = (self.event.audience(viewer), hide_seeds)
        text = self._texts.get(audience)
        if text is None:
            text = self._texts[audience] = dumps(frame(self.seq, self.at, self.event, viewer, hide_seeds))
        return text

    @property
    def serialisations(self) -> int:
        return len(self._texts)
