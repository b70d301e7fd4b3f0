"""What a player can do on their turn: `Play`, `Draw`, `Pass`; and `IllegalAction`.

Actions are frozen and hashable, and each has a stable JSON form used by the server, the
records and the database: ``{"type": "play", "tile": "6-4", "side": "left"}``.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from tranque.engine.tiles import Tile, as_tile


class Side(StrEnum):
    LEFT = "left"
    RIGHT = "right"


class IllegalAction(ValueError):
    """An action the rules do not allow now. The message is for a person (Spanish)."""


@dataclass(frozen=True, slots=True)
class Play:
    """Put `tile` at an end. `side` is None for the lead (the first tile of the round)."""

    tile: Tile
    side: Side | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "type": "play",
            "tile": str(self.tile),
            "side": None if self.side is None else self.side.value,
        }

    def __str__(self) -> str:
        where = {None: "", Side.LEFT: " izquierda", Side.RIGHT: " derecha"}[self.side]
        return f"jugar {self.tile}{where}"


@dataclass(frozen=True, slots=True)
class Draw:
    """Take one tile from the boneyard (C2); the turn stays with the drawer."""

    def to_json(self) -> dict[str, Any]:
        return {"type": "draw"}

    def __str__(self) -> str:
        return "robar del pozo"


@dataclass(frozen=True, slots=True)
class Pass:
    def to_json(self) -> dict[str, Any]:
        return {"type": "pass"}

    def __str__(self) -> str:
        return "pasar"


Action = Play | Draw | Pass

DRAW = Draw()
PASS = Pass()


def action_from_json(data: Any) -> Action:
    """Read an action's JSON form; a malformed one raises `IllegalAction` saying what is wrong."""
    if not isinstance(data, dict):
        raise IllegalAction("la jugada debe ser un objeto JSON con «type»")
    kind = data.get("type")
    if kind == "draw":
        return DRAW
    if kind == "pass":
        return PASS
    if kind != "play":
        raise IllegalAction(f"tipo de jugada desconocido: {kind!r}; se espera play, draw o pass")
    try:
        tile = as_tile(data.get("tile"))
    except ValueError as error:
        raise IllegalAction(str(error)) from None
    side = data.get("side")
    if side is None:
        return Play(tile, None)
    try:
        return Play(tile, Side(side))
    except ValueError:
        raise IllegalAction(f"lado desconocido: {side!r}; se espera left, right o null") from None
