"""A tournament's share card: its name, format and state, and its podium once it is over
(first in the middle, second to the left, third to the right); before that, the leaders of
its standings so far. Built from the tournament's public view (`Tournament.public_json`,
what anyone reading the event may see): names and places, never a tile.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from tranque.server.share.canvas import (
    ACCENT,
    FELT_DARK,
    HEIGHT,
    INK,
    MARGIN,
    MUTED,
    PAPER,
    WIDTH,
    Canvas,
    fitted,
    text_width,
)
from tranque.server.share.texts import day, names_joined, say

LEADERS = 5  # the standings shown while the tournament is not over


@dataclass(frozen=True)
class PodiumCard:
    lang: str
    name: str
    details: str  # «Suizo · Terminado · 16 inscritos»
    date: str
    podium: tuple[str, ...]  # first, second, third (names), once finished
    leaders: tuple[tuple[int, str], ...]  # (place, names) of the standings, before


def podium_card(detail: dict[str, Any], lang: str) -> PodiumCard:
    """The card of a tournament from its public view (`public_json`)."""
    details = " · ".join(
        [
            say(lang, f"format_{detail['format']}"),
            say(lang, f"status_{detail['status']}"),
            say(lang, "entrants", entrants=detail["entrants"]),
        ]
    )
    podium = tuple(names_joined(lang, list(place["names"])) for place in detail.get("podium") or [])
    leaders = tuple(
        (int(row["place"]), names_joined(lang, list(row["names"])))
        for row in (detail.get("standings") or [])[:LEADERS]
    )
    starts = detail.get("starts_at")
    return PodiumCard(
        lang=lang,
        name=str(detail["name"]),
        details=details,
        date="" if starts is None else day(lang, float(starts)),
        podium=podium,
        leaders=() if podium else leaders,
    )


def render_podium_card(card: PodiumCard) -> bytes:
    """The card as a 1200x630 PNG."""
    canvas = Canvas(card.date)
    canvas.fitted_text((MARGIN, 104), card.name, 52, WIDTH - 2 * MARGIN, PAPER, bold=True)
    canvas.fitted_text((MARGIN, 172), card.details, 26, WIDTH - 2 * MARGIN, MUTED)
    if card.podium:
        _podium(canvas, card)
    elif card.leaders:
        canvas.text((MARGIN, 226), say(card.lang, "standings"), 28, ACCENT, bold=True)
        for index, (place, names) in enumerate(card.leaders):
            y = 272 + index * 48
            canvas.text((MARGIN, y), f"{place}.", 30, ACCENT, bold=True)
            canvas.fitted_text((MARGIN + 70, y), names, 30, WIDTH - 2 * MARGIN - 70, PAPER)
    else:
        canvas.text((MARGIN, 260), say(card.lang, "no_places"), 32, MUTED)
    canvas.footer(say(card.lang, "footer_tournament"))
    return canvas.png()


def _podium(canvas: Canvas, card: PodiumCard) -> None:
    labels = say(card.lang, "places").split("|")
    width = 300
    floor = HEIGHT - 90
    heights = {0: 190, 1: 140, 2: 100}  # first, second, third
    lefts = {0: (WIDTH - width) / 2, 1: (WIDTH - width) / 2 - width - 30, 2: (WIDTH + width) / 2 + 30}
    for place, names in enumerate(card.podium[:3]):
        left, height = lefts[place], heights[place]
        top = floor - height
        fill = ACCENT if place == 0 else PAPER
        canvas.draw.rounded_rectangle((left, top, left + width, floor), radius=12, fill=fill)
        label, size = fitted(labels[place], 40, width - 20, bold=True)
        canvas.text(
            (left + (width - text_width(label, size, True)) / 2, top + 14), label, size, INK, bold=True
        )
        shown, shown_size = fitted(names, 28, width - 10, bold=True)
        x = left + (width - text_width(shown, shown_size, True)) / 2
        canvas.draw.rectangle((left, top - 48, left + width, top - 6), fill=FELT_DARK)
        canvas.text((x, top - 44), shown, shown_size, PAPER, bold=True)
