"""The table fits a phone (360×640) and a desktop (1280×800): hand and line never overflow
the screen nor overlap each other, however long the line grows: the table is measured every
time the client changes the line or the hand (tests/web/recorder.py), all through a hand.
Screenshots of the main screens are saved for review."""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from tests.server.support.harness import LiveServer
from tests.web.conftest import ConsoleErrors
from tests.web.driver import Deadline, act_once
from tests.web.recorder import Recorder
from tests.web.test_resilience import wait_for_my_turn

Box = dict[str, float]


MEASURE = """() => {  // also given the element that changed, unused
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


def check_layout(boxes: dict[str, Any], width: int) -> int:
    """Check one measurement (MEASURE, everything in one go); returns the line's length."""
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
    live_paused: LiveServer,
    console_errors: ConsoleErrors,
    screenshots: Path,
    width: int,
    height: int,
    players: str,
) -> None:
    page = console_errors.watch(browser.new_page(viewport={"width": width, "height": height}))
    # The table is measured each time the client changes the line or the hand, right then.
    recorder = Recorder(page, ".line-tiles, .hand", MEASURE)
    page.goto(live_paused.http + "/")
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
    failure = f"layout-failure-{width}-{players}p.png"
    deadline = Deadline(240, "the round did not end")
    # The round-end card stays until "Listo" (live_paused), and the driver stops at it.
    while not page.locator(".overlay.round-end").count():
        deadline.check(seen)
        longest = max(longest, check_new(recorder, width, page, screenshots / failure))
        if page.locator(".overlay.game-end").count():
            page.click(".overlay.game-end button.primary")  # over in one hand: a rematch
            page.wait_for_selector(".overlay.game-end", state="detached")
        elif not act_once(page, seen, stop_at=".overlay.round-end"):
            page.wait_for_timeout(40)
    longest = max(longest, check_new(recorder, width, page, screenshots / failure))  # the last ones
    assert longest >= 8, f"the line only reached {longest} tiles"
    page.screenshot(path=screenshots / f"round-end-{width}-{players}p.png")
    page.locator(".overlay.round-end button.primary").click()
    page.wait_for_selector(".overlay.round-end", state="detached")
    page.wait_for_selector(".hand-tile")
    page.screenshot(path=screenshots / f"table-{width}-{players}p.png")


def check_new(recorder: Recorder, width: int, page: Any, failure: Path) -> int:
    """Check every measurement taken since the last look (a screenshot at `failure` when one
    fails); returns the longest line among them."""
    longest = 0
    for boxes in recorder.take():
        try:
            longest = max(longest, check_layout(boxes, width))
        except AssertionError:
            page.screenshot(path=failure)
            raise
    return longest


def test_a_phone_keeps_the_board_whole_when_the_opponents_take_many_lines(
    browser: Any, live: LiveServer, console_errors: ConsoleErrors
) -> None:
    """Six players on a phone, each opponent having passed on several numbers: their badges
    take a line each above the board. The table then grows past the screen (the page scrolls)
    rather than squeeze the board under the hand."""
    page = console_errors.watch(browser.new_page(viewport={"width": 360, "height": 640}))
    page.goto(live.http + "/")
    page.click("#practice")
    page.wait_for_selector("#start")
    page.select_option("select[name=players]", "6")
    page.click("#start")
    page.wait_for_selector(".hand-tile")
    wait_for_my_turn(page)  # the bots wait for this seat
    # Added and measured in one go: the client may redraw the badges at any time.
    shown, boxes = page.evaluate(
        """() => {
            const shown = [...document.querySelectorAll('.opponent .badge .tags')].map((tags) => {
                const passed = document.createElement('small');  // as Badge.update shows it
                passed.className = 'passed-on';
                passed.textContent = 'pasó con 0, 1, 2, 4, 5, 6';
                tags.append(passed);
                return passed.getBoundingClientRect().width > 0;
            });
            return [shown, (MEASURE)()];
        }""".replace("MEASURE", MEASURE)
    )
    assert shown == [True] * 5
    check_layout(boxes, 360)
    assert boxes["board"]["height"] >= 150 - 0.5, boxes["board"]
