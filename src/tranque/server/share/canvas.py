"""A share card's canvas: 1200x630 (the Open Graph image size), the site's felt and colours,
the fonts shipped with the project, text fitted to a width, the brand, and the PNG's bytes.

The fonts are DejaVu Sans and DejaVu Sans Bold cut down to Latin (fonts/LICENSE-DejaVu.txt):
Pillow's own default font has no «ñ», «á» or «¡», and a server's system fonts are not to be
counted on. Everything here is pure Pillow work: it runs in a worker (cards.py), never on the
event loop.
"""

from __future__ import annotations

import functools
import io
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

WIDTH, HEIGHT = 1200, 630
MARGIN = 60
FONTS = Path(__file__).parent / "fonts"

# The web client's colours (web/style.css): the felt, paper, ink, the accent and each side's.
FELT = (31, 107, 72)
FELT_DARK = (23, 84, 58)
PAPER = (255, 253, 245)
INK = (29, 29, 27)
ACCENT = (242, 177, 52)
MUTED = (206, 228, 214)  # light text on the felt
SIDES = [(31, 122, 224), (217, 85, 43), (155, 89, 208), (46, 125, 50), (154, 116, 0), (109, 76, 65)]
ELLIPSIS = "…"


@functools.lru_cache(maxsize=64)
def font(size: int, bold: bool = False) -> ImageFont.FreeTypeFont:
    """The card's font at `size` pixels."""
    name = "DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf"
    return ImageFont.truetype(str(FONTS / name), size)


def text_width(text: str, size: int, bold: bool = False) -> float:
    return font(size, bold).getlength(text)


def fitted(text: str, size: int, width: float, bold: bool = False, smallest: int = 18) -> tuple[str, int]:
    """`text` and the size it is drawn at to fit `width`: `size`, or smaller down to
    `smallest`, and cut with an ellipsis if even that is too wide."""
    while size > smallest and text_width(text, size, bold) > width:
        size -= 2
    if text_width(text, size, bold) <= width:
        return text, size
    while text and text_width(text + ELLIPSIS, size, bold) > width:
        text = text[:-1]
    return text.rstrip() + ELLIPSIS, size


class Canvas:
    """One card being drawn: the felt, the brand at the top left and `corner` at the top right."""

    def __init__(self, corner: str = "") -> None:
        self.image = Image.new("RGB", (WIDTH, HEIGHT), FELT)
        self.draw = ImageDraw.Draw(self.image)
        self.draw.rectangle((0, HEIGHT - 70, WIDTH, HEIGHT), fill=FELT_DARK)
        self.draw.rectangle((0, 0, WIDTH, 8), fill=ACCENT)
        self.text((MARGIN, 34), "TRANQUE", 40, ACCENT, bold=True)
        self.text((MARGIN + text_width("TRANQUE", 40, True) + 16, 48), "Dominó", 26, MUTED)
        if corner:
            shown, size = fitted(corner, 24, WIDTH / 2 - MARGIN)
            self.text((WIDTH - MARGIN - text_width(shown, size), 46), shown, size, MUTED)

    def text(
        self, at: tuple[float, float], text: str, size: int, fill: tuple[int, int, int], bold: bool = False
    ) -> None:
        self.draw.text(at, text, font=font(size, bold), fill=fill)

    def fitted_text(
        self,
        at: tuple[float, float],
        text: str,
        size: int,
        width: float,
        fill: tuple[int, int, int],
        bold: bool = False,
        right: bool = False,
    ) -> None:
        """`text` fitted to `width` (smaller, or cut), from `at` (its right end at `at` if `right`)."""
        shown, shown_size = fitted(text, size, width, bold)
        x, y = at
        if right:
            x -= text_width(shown, shown_size, bold)
        self.text((x, y + (size - shown_size) / 2), shown, shown_size, fill, bold)

    def footer(self, text: str) -> None:
        self.fitted_text((MARGIN, HEIGHT - 50), text, 24, WIDTH - 2 * MARGIN, MUTED)

    def png(self) -> bytes:
        out = io.BytesIO()
        self.image.save(out, format="PNG", optimize=True)
        return out.getvalue()
