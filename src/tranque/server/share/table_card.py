"""A generic table as a share card: a title, a subtitle, and rows under column headings, the
way a league prints its table (a peña's season: PJ, G, P, tantos a favor, en contra,
diferencia, puntos). The first column is the wide one (a name); the others are numbers,
right-aligned. Rows past what fits are left out, and the card says how many.
"""

from __future__ import annotations

from tranque.server.share.canvas import (
    ACCENT,
    FELT_DARK,
    MARGIN,
    MUTED,
    PAPER,
    WIDTH,
    Canvas,
    fitted,
    text_width,
)

TOP = 200  # the headings' row
BOTTOM = 548  # the last row ends above the footer band
ROW = 40  # pixels per row at most


def render_table_card(title: str, subtitle: str, columns: list[str], rows: list[list[str]]) -> bytes:
    """The table as a 1200x630 PNG: `columns` are the headings, each of `rows` one cell per
    column (missing cells are blank, extra ones ignored)."""
    canvas = Canvas()
    canvas.fitted_text((MARGIN, 100), title, 48, WIDTH - 2 * MARGIN, PAPER, bold=True)
    canvas.fitted_text((MARGIN, 160), subtitle, 24, WIDTH - 2 * MARGIN, MUTED)
    if not columns:
        return canvas.png()
    size = 24
    room = WIDTH - 2 * MARGIN
    # The number columns as wide as their widest cell; the first takes what is left.
    widths = [
        max([text_width(columns[c], size, True)] + [text_width(row[c], size) for row in rows if c < len(row)])
        + 24
        for c in range(1, len(columns))
    ]
    while sum(widths) > room * 0.7 and size > 14:
        size -= 2
        widths = [width * size / (size + 2) for width in widths]
    first = room - sum(widths)
    fits = max(1, (BOTTOM - TOP - ROW) // ROW)
    shown = rows[:fits] if len(rows) <= fits else rows[: fits - 1]
    y = TOP
    _row(canvas, columns, y, first, widths, size, ACCENT, bold=True)
    for index, row in enumerate(shown):
        y += ROW
        if index % 2 == 0:
            canvas.draw.rectangle((MARGIN - 10, y - 6, WIDTH - MARGIN + 10, y + ROW - 6), fill=FELT_DARK)
        _row(canvas, row, y, first, widths, size, PAPER, bold=False)
    if len(shown) < len(rows):
        more = f"+{len(rows) - len(shown)}"
        canvas.text((MARGIN, y + ROW), more, size, MUTED)
    return canvas.png()


def _row(
    canvas: Canvas,
    cells: list[str],
    y: float,
    first: float,
    widths: list[float],
    size: int,
    fill: tuple[int, int, int],
    bold: bool,
) -> None:
    cells = [*cells, *[""] * (len(widths) + 1 - len(cells))]
    name, name_size = fitted(cells[0], size, first - 16, bold)
    canvas.text((MARGIN, y + (size - name_size) / 2), name, name_size, fill, bold)
    x = MARGIN + first
    for cell, width in zip(cells[1:], widths, strict=False):
        x += width
        canvas.fitted_text((x, y), cell, size, width - 8, fill, bold=bold, right=True)
