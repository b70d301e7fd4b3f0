"""Dominó tiles drawn on a card: a finished round's line in one row, left end first.

Only the drawing is here. The line comes from the engine's replay of a finished game
(game_card.py): which tiles, in which order, was decided by the engine long before.
"""

from __future__ import annotations

from collections.abc import Sequence

from PIL import ImageDraw

from tranque.server.share.canvas import INK, PAPER

Half = tuple[int, int]  # a tile as drawn: its left half's pips, its right half's

# Where the pips of 0 to 9 sit in a half, on a 3x3 grid of (column, row) from 0 to 2.
PIPS: dict[int, tuple[tuple[int, int], ...]] = {
    0: (),
    1: ((1, 1),),
    2: ((0, 0), (2, 2)),
    3: ((0, 0), (1, 1), (2, 2)),
    4: ((0, 0), (2, 0), (0, 2), (2, 2)),
    5: ((0, 0), (2, 0), (1, 1), (0, 2), (2, 2)),
    6: ((0, 0), (2, 0), (0, 1), (2, 1), (0, 2), (2, 2)),
    7: ((0, 0), (2, 0), (0, 1), (1, 1), (2, 1), (0, 2), (2, 2)),
    8: ((0, 0), (1, 0), (2, 0), (0, 1), (2, 1), (0, 2), (1, 2), (2, 2)),
    9: ((0, 0), (1, 0), (2, 0), (0, 1), (1, 1), (2, 1), (0, 2), (1, 2), (2, 2)),
}


def parse(tile: str) -> Half:
    """ "6-4" -> (6, 4)."""
    high, low = tile.split("-")
    return int(high), int(low)


def chained(tiles: Sequence[str]) -> list[Half]:
    """The line's tiles (left end first) turned so that each touches the next with the same
    number, as they lie on the table.

    >>> chained(["6-6", "6-3", "4-3"])
    [(6, 6), (6, 3), (3, 4)]
    >>> chained(["5-2", "5-5", "5-1"])
    [(2, 5), (5, 5), (5, 1)]
    """
    halves = [parse(tile) for tile in tiles]
    if not halves:
        return []
    first = halves[0]
    if len(halves) > 1 and first[0] in halves[1] and first[1] not in halves[1]:
        first = (first[1], first[0])
    line = [first]
    for high, low in halves[1:]:
        line.append((high, low) if line[-1][1] == high else (low, high))
    return line


def line_width(line: Sequence[Half], unit: float, gap: float) -> float:
    """How wide `line` is drawn with half-tiles of `unit` pixels: a double stands across."""
    return sum(unit if a == b else 2 * unit for a, b in line) + gap * max(0, len(line) - 1)


def draw_line(
    draw: ImageDraw.ImageDraw, line: Sequence[Half], centre_y: float, left: float, unit: float
) -> None:
    """`line` in a row from `left`, centred on `centre_y`, half-tiles of `unit` pixels."""
    gap = max(2.0, unit / 8)
    x = left
    for a, b in line:
        if a == b:
            _tile(draw, x, centre_y - unit, unit, 2 * unit, (a, b), across=True)
            x += unit + gap
        else:
            _tile(draw, x, centre_y - unit / 2, 2 * unit, unit, (a, b), across=False)
            x += 2 * unit + gap


def _tile(
    draw: ImageDraw.ImageDraw, x: float, y: float, w: float, h: float, pips: Half, across: bool
) -> None:
    radius = max(2.0, min(w, h) / 6)
    draw.rounded_rectangle((x, y, x + w, y + h), radius=radius, fill=PAPER, outline=INK, width=1)
    if across:  # a double stands across the line: its halves one above the other
        draw.line((x + 3, y + h / 2, x + w - 3, y + h / 2), fill=INK, width=1)
        halves = [(x, y, w, h / 2), (x, y + h / 2, w, h / 2)]
    else:
        draw.line((x + w / 2, y + 3, x + w / 2, y + h - 3), fill=INK, width=1)
        halves = [(x, y, w / 2, h), (x + w / 2, y, w / 2, h)]
    for (hx, hy, hw, hh), count in zip(halves, pips, strict=True):
        dot = max(1.0, min(hw, hh) / 10)
        for column, row in PIPS.get(count, ()):
            cx = hx + hw * (0.25 + 0.25 * column)
            cy = hy + hh * (0.25 + 0.25 * row)
            draw.ellipse((cx - dot, cy - dot, cx + dot, cy + dot), fill=INK)
