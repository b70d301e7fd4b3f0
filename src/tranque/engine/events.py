"""The public history of a round: plays, draws and passes, each with a stable JSON form.

`Round.apply` returns the event that happened. A play carries the line's geometry: `laid`
is the tile's two halves in table order, left to right, so the half facing out is
``laid[0]`` after a play on the left and ``laid[1]`` after a play on the right.

>>> event = PlayEvent(1, Tile(6, 4), Side.LEFT, (4, 6))
>>> event.to_json()
{'type': 'play', 'seat': 1, 'tile': '6-4', 'side': 'left', 'laid': [4, 6]}
>>> str(event.action)
'6-4i'
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from tranque.engine.actions import DRAW, PASS, Action, IllegalAction, Play, Side
from tranque.engine.tiles import Tile, as_tile


@dataclass(frozen=True, slots=True)
class PlayEvent:
    seat: int
    tile: Tile
    side: Side | None  # None for the lead
    laid: tuple[int, int]  # the tile's halves as laid, left to right

    @property
    def action(self) -> Action:
        return Play(self.tile, self.side)

    @property
    def outer(self) -> int:
        """The number this play leaves showing at its end (the lead's left half)."""
        return self.laid[1] if self.side is Side.RIGHT else self.laid[0]

    def to_json(self) -> dict[str, Any]:
        side = None if self.side is None else self.side.value
        return {
            "type": "play",
            "seat": self.seat,
            "tile": str(self.tile),
            "side": side,
            "laid": list(self.laid),
        }


@dataclass(frozen=True, slots=True)
class DrawEvent:
    seat: int
    tile: Tile | None  # None for everybody but the drawer (R17)

    @property
    def action(self) -> Action:
        return DRAW

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"type": "draw", "seat": self.seat}
        if self.tile is not None:
            data["tile"] = str(self.tile)
        return data

    def hidden(self) -> DrawEvent:
        return DrawEvent(self.seat, None)


@dataclass(frozen=True, slots=True)
class PassEvent:
    seat: int

    @property
    def action(self) -> Action:
        return PASS

    def to_json(self) -> dict[str, Any]:
        return {"type": "pass", "seat": self.seat}


Event = PlayEvent | DrawEvent | PassEvent


def event_from_json(data: Any) -> Event:
    """Read an event's JSON form; a malformed one raises `IllegalAction` (``"malformed_event"``)."""
    try:
        kind, seat = data["type"], data["seat"]
        if not isinstance(seat, int) or isinstance(seat, bool):
            raise TypeError
        if kind == "play":
            side = data.get("side")
            high, low = data["laid"]
            return PlayEvent(seat, as_tile(data["tile"]), None if side is None else Side(side), (high, low))
        if kind == "draw":
            tile = data.get("tile")
            return DrawEvent(seat, None if tile is None else as_tile(tile))
        if kind == "pass":
            return PassEvent(seat)
    except (KeyError, TypeError, ValueError):
        pass
    raise IllegalAction("malformed_event", event=repr(data))


def public(event: Event, viewer: int | None) -> Event:
    """The event as `viewer` may see it: a draw's tile only for the drawer."""
    if isinstance(event, DrawEvent) and event.seat != viewer and event.tile is not None:
        return event.hidden()
    return event
