"""Tiles (fichas): the public `Tile` value and the integer tables the engine runs on.

Inside the engine a tile is an index 0..54 and a hand is a bitmask of indices, the way
python-chess uses squares and bitboards. The index is independent of the set: tile
{high, low} has index ``high * (high + 1) // 2 + low``, so the 28 tiles of double-six
are exactly indices 0..27 and double-nine adds 28..54.

>>> Tile(4, 6) == Tile.parse("6-4") and str(Tile(4, 6)) == "6-4"
True
>>> Tile(6, 4).pips
10
>>> sorted([Tile(6, 6), Tile(1, 0), Tile(5, 4)])
[Tile(1, 0), Tile(5, 4), Tile(6, 6)]
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Final

from tranque.engine.errors import EngineError

MAX_NUMBER: Final = 9
TILE_COUNT: Final = (MAX_NUMBER + 1) * (MAX_NUMBER + 2) // 2

TileIndex = int
Mask = int

_TILE_TEXT: Final = re.compile(r"\s*([0-9]+)\s*-\s*([0-9]+)\s*")


class TileError(EngineError):
    """A tile that does not exist, or text that is not a tile."""


HIGH: Final[list[int]] = []
LOW: Final[list[int]] = []
for _high in range(MAX_NUMBER + 1):
    for _low in range(_high + 1):
        HIGH.append(_high)
        LOW.append(_low)

PIPS: Final[list[int]] = [h + lo for h, lo in zip(HIGH, LOW, strict=True)]
BIT: Final[list[Mask]] = [1 << i for i in range(TILE_COUNT)]
IS_DOUBLE: Final[list[bool]] = [h == lo for h, lo in zip(HIGH, LOW, strict=True)]
# R6's order for the first lead: doubles highest first, then the other tiles by pips and
# then by the higher half.
LEAD_ORDER: Final[list[TileIndex]] = sorted(
    range(TILE_COUNT), key=lambda i: (IS_DOUBLE[i], PIPS[i], HIGH[i]), reverse=True
)
# WITH_NUMBER[n]: every tile showing the number n on one of its halves.
WITH_NUMBER: Final[list[Mask]] = [
    sum(BIT[i] for i in range(TILE_COUNT) if n in (HIGH[i], LOW[i])) for n in range(MAX_NUMBER + 1)
]
# WITH_NUMBER_IN_SET[s][n]: the tiles of the double-s set showing n. Within double-six
# these masks stay below 2**30, which the compiled engine reads fastest.
WITH_NUMBER_IN_SET: Final[list[list[Mask]]] = [
    [WITH_NUMBER[n] & ((1 << ((s + 1) * (s + 2) // 2)) - 1) for n in range(MAX_NUMBER + 1)]
    for s in range(MAX_NUMBER + 1)
]


def set_mask(set_max: int) -> Mask:
    """Every tile of the double-`set_max` set."""
    return (1 << ((set_max + 1) * (set_max + 2) // 2)) - 1


def indices(mask: Mask) -> list[TileIndex]:
    """The tile indices in a bitmask, lowest first."""
    found = []
    while mask:
        low_bit = mask & -mask
        found.append(low_bit.bit_length() - 1)
        mask ^= low_bit
    return found


def mask_pips(mask: Mask) -> int:
    """The pips of every tile in `mask`, added up."""
    total = 0
    while mask:
        low_bit = mask & -mask
        total += PIPS[low_bit.bit_length() - 1]
        mask ^= low_bit
    return total


@dataclass(frozen=True, slots=True)
class Tile:
    """A dominó tile. Equal regardless of the order of its halves; printed higher half first.
    Tiles sort by their higher half, then their lower one (the set's canonical order)."""

    high: int
    low: int
    index: TileIndex = field(init=False, compare=False, repr=False)

    def __init__(self, a: object, b: object) -> None:
        # `object`, not `int`: the checks must also hold where this module is compiled.
        if not isinstance(a, int) or not isinstance(b, int) or isinstance(a, bool) or isinstance(b, bool):
            raise TileError("tile_numbers", a=repr(a), b=repr(b))
        if not (0 <= a <= MAX_NUMBER and 0 <= b <= MAX_NUMBER):
            raise TileError("tile_range", tile=f"{a}-{b}", most=MAX_NUMBER)
        high, low = (a, b) if a >= b else (b, a)
        object.__setattr__(self, "high", high)
        object.__setattr__(self, "low", low)
        object.__setattr__(self, "index", high * (high + 1) // 2 + low)

    def __hash__(self) -> int:
        return self.index

    # Written out: compiled, a class that defines `__lt__` loses the dataclass's `__eq__`.
    def __eq__(self, other: object) -> bool:
        return isinstance(other, Tile) and self.index == other.index

    # The index orders tiles by higher half, then lower half.
    def __lt__(self, other: Tile) -> bool:
        return self.index < other.index

    def __le__(self, other: Tile) -> bool:
        return self.index <= other.index

    def __gt__(self, other: Tile) -> bool:
        return self.index > other.index

    def __ge__(self, other: Tile) -> bool:
        return self.index >= other.index

    def __reduce__(self) -> tuple[type[Tile], tuple[int, int]]:
        return (Tile, (self.high, self.low))

    @classmethod
    def parse(cls, text: str) -> Tile:
        """Read ``"6-4"`` (either order, spaces allowed; ASCII digits only)."""
        match = _TILE_TEXT.fullmatch(text) if isinstance(text, str) else None
        if match is None:
            raise TileError("tile_text", text=str(text))
        return cls(int(match.group(1)), int(match.group(2)))

    @classmethod
    def full_set(cls, set_max: int) -> list[Tile]:
        """The tiles of the double-`set_max` set in canonical order: 0-0, 1-0, 1-1, 2-0, …"""
        if set_max not in (6, 9):
            raise TileError("tile_set", value=repr(set_max))
        return TILES[: (set_max + 1) * (set_max + 2) // 2]

    @property
    def pips(self) -> int:
        """The tile's pips, both halves together: `Tile(6, 4).pips == 10`."""
        return self.high + self.low

    @property
    def is_double(self) -> bool:
        """Whether both halves are the same number (6-6, 0-0)."""
        return self.high == self.low

    def __str__(self) -> str:
        return f"{self.high}-{self.low}"

    def __repr__(self) -> str:
        return f"Tile({self.high}, {self.low})"


TILES: Final[list[Tile]] = [Tile(h, lo) for h, lo in zip(HIGH, LOW, strict=True)]


def as_tile(value: object) -> Tile:
    """Accept a `Tile` or its text form."""
    if isinstance(value, Tile):
        return value
    if isinstance(value, str):
        return Tile.parse(value)
    raise TileError("tile_text", text=repr(value))
