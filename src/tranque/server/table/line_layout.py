"""Where each tile of the line lies on the table: a snake of fixed boxes that every client draws alike.

The line starts in the middle and grows both ways, as on a real table: each arm runs straight
until it would pass `REACH`, then turns a corner (one tile laid around it), steps over to a new
row and comes back the other way. The right arm snakes downwards, the left arm upwards, so the
two never meet and the board keeps a fixed width however long the line gets (clients scale the
whole board to fit their box; they never move a tile).

Units are half a tile's length: a tile along a horizontal run is 2×1, a double stands across
it 1×2 (the reverse in a vertical run). A box is its top-left corner, its size and its pips,
`pips[0]` being the half drawn at the left (horizontal box) or the top (vertical box).

The layout is a pure function of the plays in order, each `(tile, side)` with `side` None for
the lead: a box never moves once placed, boxes never overlap, and each box touches the one
before it on its arm at the point its `End` named, with the matching pips on both sides. The
server replays it from the round's events, so a restart or a reconnect gives the same boxes.
No rule is decided here: the engine has already accepted each play; this only draws it.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace
from enum import StrEnum
from typing import Any

from tranque.engine.events import Event, PlayEvent

Plays = tuple[tuple[str, str | None], ...]  # a round's plays in order: (tile, side or None)

# How far (in half-tile units) a straight run may reach from the centre before it turns: 6
# units each way, three tiles. With the corner tile and a double standing across the turn the
# board is at most 2 × (REACH + 1.5) = 15 units wide, seven and a half tiles. Measured over
# random hands (clients cap a unit at 30 px): on a 360×640 phone in portrait (a board about
# 290 px wide) a unit is ~18 px for double-six and ~17 px for double-nine with six players, so
# the line's tiles are as big as the hand's; at 1280×800 (a board about 830×470 px) double-six
# lines stay at the full 30 px and six-player double-nine lines at ~27 px. A reach of 8 would
# cost the phone a fifth of its tile size and gain the laptop nothing; 5 would stack
# six-player lines too high on the laptop.
REACH = 6.0
HALF_WIDTH = REACH + 1.5  # the widest any box reaches from the centre (tested)

# How far a vertical run goes from the row it left before it turns back (in units). With 1.5
# a plain corner tile turns at once: two tiles make the U-turn and rows sit two units apart,
# the tight snake of a real table; after a double at the corner one tile more is laid first.
RISE = 1.5


class Direction(StrEnum):
    """Which way the line grows at an end."""

    LEFT = "left"
    RIGHT = "right"
    UP = "up"
    DOWN = "down"

    @property
    def vector(self) -> tuple[float, float]:
        return _VECTORS[self]

    @property
    def horizontal(self) -> bool:
        return self is Direction.LEFT or self is Direction.RIGHT

    @property
    def opposite(self) -> Direction:
        return _OPPOSITES[self]


_VECTORS = {
    Direction.LEFT: (-1.0, 0.0),
    Direction.RIGHT: (1.0, 0.0),
    Direction.UP: (0.0, -1.0),
    Direction.DOWN: (0.0, 1.0),
}
_OPPOSITES = {
    Direction.LEFT: Direction.RIGHT,
    Direction.RIGHT: Direction.LEFT,
    Direction.UP: Direction.DOWN,
    Direction.DOWN: Direction.UP,
}


def _num(value: float) -> float | int:
    """Half-units are exact in binary; whole ones go out as integers (`3`, not `3.0`)."""
    return int(value) if float(value).is_integer() else value


@dataclass(frozen=True, slots=True)
class Box:
    """A placed tile's fixed place: top-left corner `x`, `y`, size `w`×`h`, `pips` as drawn."""

    tile: str
    x: float
    y: float
    w: float
    h: float
    pips: tuple[int, int]

    @property
    def vertical(self) -> bool:
        return self.h > self.w

    def to_json(self) -> dict[str, Any]:
        return {
            "tile": self.tile,
            "x": _num(self.x),
            "y": _num(self.y),
            "w": _num(self.w),
            "h": _num(self.h),
            "pips": list(self.pips),
        }


@dataclass(frozen=True, slots=True)
class End:
    """Where the next tile at an end would touch the line, which way it grows, its open number."""

    x: float
    y: float
    dir: Direction
    pips: int

    def to_json(self) -> dict[str, Any]:
        return {"x": _num(self.x), "y": _num(self.y), "dir": self.dir.value, "pips": self.pips}


class LayoutError(ValueError):
    """A play the line cannot take (the tile lacks the end's number): the caller's bug, never
    a player's (the engine refuses illegal plays before anything is laid out)."""


@dataclass
class _Arm:
    """One growing end of the snake: its `End`, the way it snakes (`turn`: up or down), the
    horizontal way of its next row (`heading`) and the row a vertical run left (`axis`)."""

    end: End
    turn: Direction
    heading: Direction
    axis: float = 0.0


def _halves(tile: str) -> tuple[int, int]:
    try:
        first, second = tile.split("-")
        return int(first), int(second)
    except ValueError:
        raise LayoutError(f"not a tile: {tile!r}") from None


def _rect(
    point: tuple[float, float],
    along: Direction,
    span: tuple[float, float],
    across: Direction,
    width: tuple[float, float],
) -> tuple[float, float, float, float]:
    """The rectangle from `point` spanning `span` along one direction and `width` along
    another (perpendicular to it): its opposite corners are where both spans start and end."""
    (ux, uy), (vx, vy) = _VECTORS[along], _VECTORS[across]
    x0, y0 = point[0] + span[0] * ux + width[0] * vx, point[1] + span[0] * uy + width[0] * vy
    x1, y1 = point[0] + span[1] * ux + width[1] * vx, point[1] + span[1] * uy + width[1] * vy
    return min(x0, x1), min(y0, y1), abs(x1 - x0), abs(y1 - y0)


def _perpendicular(direction: Direction) -> Direction:
    return Direction.DOWN if direction.horizontal else Direction.RIGHT


class Snake:
    """The line being laid: `place` each play in order; `boxes` (left end first) and `ends`.

    >>> snake = Snake()
    >>> snake.place("6-4", None).to_json()
    {'tile': '6-4', 'x': -1, 'y': -0.5, 'w': 2, 'h': 1, 'pips': [6, 4]}
    >>> snake.place("4-4", "right").to_json()
    {'tile': '4-4', 'x': 1, 'y': -1, 'w': 1, 'h': 2, 'pips': [4, 4]}
    >>> snake.ends[1].to_json()
    {'x': 2, 'y': 0, 'dir': 'right', 'pips': 4}
    """

    def __init__(self, reach: float = REACH) -> None:
        self.reach = reach
        self.boxes: list[Box] = []
        self.last: Box | None = None  # the box of the latest play
        self._arms: tuple[_Arm, _Arm] | None = None

    @property
    def ends(self) -> tuple[End, End] | None:
        """The left and the right end, or None before the lead."""
        return None if self._arms is None else (self._arms[0].end, self._arms[1].end)

    def ends_json(self) -> dict[str, Any] | None:
        ends = self.ends
        return None if ends is None else {"left": ends[0].to_json(), "right": ends[1].to_json()}

    def copy(self) -> Snake:
        """A snake with the same boxes that grows apart from this one."""
        twin = Snake(self.reach)
        twin.boxes = list(self.boxes)
        twin.last = self.last
        if self._arms is not None:
            twin._arms = (replace(self._arms[0]), replace(self._arms[1]))
        return twin

    def place(self, tile: str, side: str | None) -> Box:
        """Lay `tile` at `side` ("left", "right", or None for the lead) and return its box."""
        high, low = _halves(tile)
        double = high == low
        if self._arms is None:
            if side is not None:
                raise LayoutError("the first tile is the lead (side None)")
            return self._lead(tile, high, low, double)
        if side not in ("left", "right"):
            raise LayoutError(f"a play after the lead goes left or right, not {side!r}")
        arm = self._arms[0 if side == "left" else 1]
        matching = arm.end.pips
        if matching not in (high, low):
            raise LayoutError(f"{tile} does not fit the {side} end ({matching})")
        other = high + low - matching
        box, end = self._step(arm, tile, matching, other, double)
        arm.end = end
        if side == "left":
            self.boxes.insert(0, box)
        else:
            self.boxes.append(box)
        self.last = box
        return box

    def _lead(self, tile: str, high: int, low: int, double: bool) -> Box:
        half = 0.5 if double else 1.0
        box = (
            Box(tile, -0.5, -1.0, 1.0, 2.0, (high, low))
            if double
            else Box(tile, -1.0, -0.5, 2.0, 1.0, (high, low))
        )
        left = _Arm(End(-half, 0.0, Direction.LEFT, high), Direction.UP, Direction.LEFT)
        right = _Arm(End(half, 0.0, Direction.RIGHT, low), Direction.DOWN, Direction.RIGHT)
        self._arms = (left, right)
        self.boxes.append(box)
        self.last = box
        return box

    def _step(self, arm: _Arm, tile: str, matching: int, other: int, double: bool) -> tuple[Box, End]:
        end = arm.end
        point = (end.x, end.y)
        length = 1.0 if double else 2.0
        if end.dir.horizontal:
            dx = end.dir.vector[0]
            turns = dx * (end.x + dx * length) > self.reach
        else:
            turns = abs(end.y - arm.axis) >= RISE
        if not turns:
            # Straight on: along the run `length`, across it one unit (a double: two, crosswise).
            across = 2.0 if double else 1.0
            rect = _rect(point, end.dir, (0.0, length), _perpendicular(end.dir), (-across / 2, across / 2))
            match_rect = _rect(point, end.dir, (0.0, 1.0), _perpendicular(end.dir), (-0.5, 0.5))
            ux, uy = end.dir.vector
            new_end = End(end.x + ux * length, end.y + uy * length, end.dir, other)
        else:
            # Around the corner: one unit on along the run, then into the new direction. The
            # half that touches the end extends the run; the other half leads the new one.
            new_dir = arm.turn if end.dir.horizontal else arm.heading
            span = (-1.0, 1.0) if double else (-0.5, 1.5)
            rect = _rect(point, end.dir, (0.0, 1.0), new_dir, span)
            match_rect = _rect(point, end.dir, (0.0, 1.0), new_dir, (-0.5, 0.5))
            (ux, uy), (vx, vy) = end.dir.vector, new_dir.vector
            reach = span[1]
            new_end = End(end.x + ux * 0.5 + vx * reach, end.y + uy * 0.5 + vy * reach, new_dir, other)
            if end.dir.horizontal:
                arm.axis = end.y
                arm.heading = end.dir.opposite
        x, y, w, h = rect
        if double:
            pips = (matching, matching)
        else:
            first = match_rect[0] == x and match_rect[1] == y  # the matching half is left or top
            pips = (matching, other) if first else (other, matching)
        return Box(tile, x, y, w, h, pips), new_end


def plays_of(events: Iterable[Event]) -> Plays:
    """The plays of a round's events, in order, as `(tile, side)` (side None for the lead)."""
    return tuple(
        (str(event.tile), None if event.side is None else event.side.value)
        for event in events
        if isinstance(event, PlayEvent)
    )


def line_json(snake: Snake) -> dict[str, Any]:
    """What a seat's view shows of the line: `line`, the boxes left end first, and `line_ends`."""
    return {"line": [box.to_json() for box in snake.boxes], "line_ends": snake.ends_json()}


def lay_out(plays: Iterable[tuple[str, str | None]], reach: float = REACH) -> Snake:
    """The snake of `plays` laid in order (the same plays always give the same boxes)."""
    snake = Snake(reach)
    for tile, side in plays:
        snake.place(tile, side)
    return snake
