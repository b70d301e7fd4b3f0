"""The public history of a round: plays, draws and passes, each with a stable JSON form."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from tranque.engine.actions import Side
from tranque.engine.tiles import Tile, as_tile


@dataclass(frozen=True, slots=True)
class PlayEvent:
    seat: int
    tile: Tile
    side: Side | None  # None for the lead

    def to_json(self) -> dict[str, Any]:
        side = None if self.side is None else self.side.value
        return {"type": "play", "seat": self.seat, "tile": str(self.tile), "side": side}


@dataclass(frozen=True, slots=True)
class DrawEvent:
    seat: int
    tile: Tile | None  # None for everybody but the drawer (R17)

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

    def to_json(self) -> dict[str, Any]:
        return {"type": "pass", "seat": self.seat}


Event = PlayEvent | DrawEvent | PassEvent


def event_from_json(data: dict[str, Any]) -> Event:
    kind, seat = data.get("type"), data.get("seat")
    if not isinstance(seat, int):
        raise ValueError(f"evento sin asiento válido: {data!r}")
    if kind == "play":
        side = data.get("side")
        return PlayEvent(seat, as_tile(data["tile"]), None if side is None else Side(side))
    if kind == "draw":
        tile = data.get("tile")
        return DrawEvent(seat, None if tile is None else as_tile(tile))
    if kind == "pass":
        return PassEvent(seat)
    raise ValueError(f"tipo de evento desconocido: {kind!r}")


def public(event: Event, viewer: int | None) -> Event:
    """The event as `viewer` may see it: a draw's tile only for the drawer."""
    if isinstance(event, DrawEvent) and event.seat != viewer and event.tile is not None:
        return event.hidden()
    return event
