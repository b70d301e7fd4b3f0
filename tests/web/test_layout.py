"""The table fits a phone (360×640) and a desktop (1280×800): hand and line never overflow
the screen nor overlap each other, however long the line grows. Screenshots of the main
screens are saved for review."""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from tests.server.harness import LiveServer
from tests.web.conftest import ConsoleErrors
from tests.web.driver import Deadline, act_once

Box = dict[str, float]


MEASURE = """() => {
    const box = (el) => {
        const r = el.getBoundingClientRect();
        return {x: r.x, y: r.y, width: r.width, height: r.height};
    };
    const all = (selector) => [...document.querySelectorAll(selector)].map(box);
    const one = (selector) => { const el = document.querySelector(selector); return el ? box(el) : null; };
    return {board: one(".board"), hand: one(".hand"), line: one(".line"), tiles: all(".hand-tile"),
            placed: all(".line-svg .placed"), opponents: all(".opponent")};
}"""


def inside(inner: Box, outer: Box, slack: float = 1.0) -> bool:
    return (
        inner["x"] >= outer["x"] - slack
        and inner["y"] >= outer["y"] - slack
        and inner["x"] + inner["width"] <= outer["x"] + outer["width"] + slack
        and inner["y"] + inner["height"] <= outer["y"] + outer["height"] + slack
    )


def overlap(a: Box, b: Box) -> bool:
    return not (
        a["x"] + a["width"] <= b["x"]
        or b["x"] + b["width"] <= a["x"]
        or a["y"] + a["height"] <= b["y"]
        or b["y"] + b["height"] <= a["y"]
    )


def check_layout(page: Any, width: int) -> int:
    """Measure everything in one go (the page redraws on every message); returns the line's length."""
    boxes = page.evaluate(MEASURE)
    screen = {"x": 0.0, "y": 0.0, "width": float(width), "height": 1e9}
    board, hand, line = boxes["board"], boxes["hand"], boxes["line"]
    assert board and hand and line, boxes
    assert inside(hand, screen), (hand, width)
    assert inside(board, screen), (board, width)
    assert not overlap(board, hand), (board, hand)
    for index, tile in enumerate(boxes["tiles"]):
        assert inside(tile, hand), f"hand tile {index} overflows the hand: {tile} {hand}"
    for index, tile in enumerate(boxes["placed"]):
        assert inside(tile, line), f"line tile {index} overflows the table: {tile} {line}"
    for opponent in boxes["opponents"]:
        assert not overlap(opponent, hand), (opponent, hand)
        assert not overlap(opponent, board), (opponent, board)
    return len(boxes["placed"])


@pytest.mark.parametrize(("width", "height", "players"), [(360, 640, "2"), (1280, 800, "2"), (360, 640, "6")])
def test_the_table_fits_the_screen_as_the_line_grows(
    browser: Any,
    live: LiveServer,
    console_errors: ConsoleErrors,
    screenshots: Path,
    width: int,
    height: int,
    players: str,
) -> None:
    page = console_errors.watch(browser.new_page(viewport={"width": width, "height": height}))
    page.goto(live.http + "/")
    page.wait_for_selector("#practice")
    page.screenshot(path=screenshots / f"home-{width}.png", full_page=True)
    page.click("#practice")
    page.wait_for_selector("#start")
    page.select_option("select[name=players]", players)
    page.screenshot(path=screenshots / f"options-{width}.png", full_page=True)
    page.click("#start")
    page.wait_for_selector(".hand-tile")
    seen: Counter[str] = Counter()
    longest = 0
    deadline = Deadline(240, "the round did not end")
    while not page.locator(".overlay.round-end").count():
        deadline.check(seen)
        if act_once(page, seen):
            page.wait_for_timeout(60)
            try:
                longest = max(longest, check_layout(page, width))
            except AssertionError:
                page.screenshot(path=screenshots / f"layout-failure-{width}-{players}p.png")
                raise
        else:
            page.wait_for_timeout(40)
    assert longest >= 8, f"the line only reached {longest} tiles"
    page.screenshot(path=screenshots / f"round-end-{width}-{players}p.png")
    page.locator(".overlay.round-end button.primary").click()
    page.wait_for_selector(".overlay.round-end", state="detached")
    page.wait_for_selector(".hand-tile")
    page.screenshot(path=screenshots / f"table-{width}-{players}p.png")
