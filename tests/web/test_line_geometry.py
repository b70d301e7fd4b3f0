"""The line in Chromium, over a whole hand: no placed tile moves, and the ends are at the ends.

A practice game is played by clicking (tests/web/driver.py). Every time the page changes the
line, the board is read there and then (tests/web/recorder.py): each placed tile's box in
board units (its data attributes, the SVG's user units) and on screen. Every board of a whole
hand is checked, from the lead to the last tile. Across the hand a tile keeps its board box
and its very element, and on screen every tile sits where its board box says relative to the
lead (the whole board only zooms). Each end button sits on the board at a placed tile's edge,
next to the half showing the end's number, inside the visible board.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from tests.server.support.harness import LiveServer
from tests.web.conftest import ConsoleErrors
from tests.web.driver import Deadline, act_once
from tests.web.recorder import Recorder
from tests.web.test_practice import start_practice

# One board, read when the client has just changed its placed tiles (`target` is the SVG's
# group of tiles): each placed tile's box in board units and on screen, and the end buttons.
READ_BOARD = """(target) => {
  const svg = target.closest("svg");
  const scale = Number(svg.dataset.scale);
  const holder = svg.parentElement.getBoundingClientRect();
  let born = Number(svg.dataset.testBorn || 0);
  const tiles = [...svg.querySelectorAll(".placed")].map((el) => {
    if (!el.dataset.testMark) el.dataset.testMark = String(++born);  // survives only if reused
    const r = el.getBoundingClientRect();
    return {
      tile: el.dataset.tile, mark: el.dataset.testMark, pips: el.dataset.pips,
      x: Number(el.dataset.x), y: Number(el.dataset.y), w: Number(el.dataset.w), h: Number(el.dataset.h),
      screen: [r.left, r.top, r.width, r.height],
    };
  });
  svg.dataset.testBorn = String(born);
  const ctm = svg.getScreenCTM();
  const shown = [...svg.querySelectorAll(".end")].filter((el) => el.getAttribute("display") !== "none");
  const ends = shown.map((el) => {
    const r = el.querySelector("circle").getBoundingClientRect();
    const at = new DOMPoint(Number(el.dataset.x), Number(el.dataset.y)).matrixTransform(ctm);
    return {
      side: el.dataset.side, pips: Number(el.dataset.pips), dir: el.dataset.dir,
      role: el.getAttribute("role"), label: el.getAttribute("aria-label"),
      tabindex: el.getAttribute("tabindex"),
      x: Number(el.dataset.x), y: Number(el.dataset.y), point: [at.x, at.y],
      circle: [r.left + r.width / 2, r.top + r.height / 2, r.width / 2],
    };
  });
  const round = (document.querySelector(".table-header") || document.body).textContent.match(/Mano (\\d+)/);
  return {
    scale, holder: [holder.left, holder.top, holder.width, holder.height], tiles, ends,
    round: round ? Number(round[1]) : null,
  };
}"""

# What an end button answers outside a choice: how many of its number are out.
PLAYED_OF = "/Del \\d+ ya se jug/"


def touching_half(tile: dict[str, Any], x: float, y: float) -> int | None:
    """The pips of the half of `tile` (board units) whose edge holds the point, else None."""
    a, b = (int(n) for n in tile["pips"].split("-"))
    x0, y0, w, h = tile["x"], tile["y"], tile["w"], tile["h"]
    halves = (
        [((x0, y0, w, h / 2), a), ((x0, y0 + h / 2, w, h / 2), b)]
        if h > w
        else [((x0, y0, w / 2, h), a), ((x0 + w / 2, y0, w / 2, h), b)]
    )
    for (hx, hy, hw, hh), pips in halves:
        inside = hx - 1e-6 <= x <= hx + hw + 1e-6 and hy - 1e-6 <= y <= hy + hh + 1e-6
        on_edge = min(abs(x - hx), abs(x - hx - hw), abs(y - hy), abs(y - hy - hh)) < 1e-6
        if inside and on_edge:
            return pips
    return None


def centre(rect: list[float]) -> tuple[float, float]:
    return rect[0] + rect[2] / 2, rect[1] + rect[3] / 2


def middle(tile: dict[str, Any]) -> tuple[float, float]:
    return tile["x"] + tile["w"] / 2, tile["y"] + tile["h"] / 2


def check_board(board: dict[str, Any], first_seen: dict[str, tuple[Any, ...]]) -> None:
    tiles, scale = board["tiles"], board["scale"]
    assert scale > 0
    reference = tiles[0]
    for tile in tiles:
        box = (tile["x"], tile["y"], tile["w"], tile["h"])
        # In board units the tile never moves, and it is the element first drawn for it.
        seen = first_seen.setdefault(tile["tile"], (box, tile["mark"]))
        assert seen == (box, tile["mark"]), (tile["tile"], seen, box, tile["mark"])
        # On screen it is where its box says, relative to the reference tile (only zoomed):
        # centres compared (the drawn body is inset a hair inside its box).
        left, top, width, height = tile["screen"]
        x, y = centre(tile["screen"])
        ref_x, ref_y = centre(reference["screen"])
        assert abs((x - ref_x) - (middle(tile)[0] - middle(reference)[0]) * scale) < 1.0, tile
        assert abs((y - ref_y) - (middle(tile)[1] - middle(reference)[1]) * scale) < 1.0, tile
        assert 0.9 * tile["w"] * scale <= width <= tile["w"] * scale + 1, (tile, scale)
        assert 0.9 * tile["h"] * scale <= height <= tile["h"] * scale + 1, (tile, scale)
        # The whole board is visible inside its box.
        hx, hy, hw, hh = board["holder"]
        assert hx - 1 <= left and left + width <= hx + hw + 1, (tile, board["holder"])
        assert hy - 1 <= top and top + height <= hy + hh + 1, (tile, board["holder"])
    ends = {end["side"]: end for end in board["ends"]}
    assert set(ends) == {"left", "right"}
    for end in ends.values():
        assert end["role"] == "button" and end["tabindex"] == "0" and str(end["pips"]) in end["label"]
        # The end's point is on a placed tile's edge, at the half showing the end's number.
        touched = [touching_half(tile, end["x"], end["y"]) for tile in tiles]
        assert end["pips"] in touched, (end, tiles)
        # On screen the button is right there: its centre within a radius and a half of the point.
        cx, cy, radius = end["circle"]
        px, py = end["point"]
        assert ((cx - px) ** 2 + (cy - py) ** 2) ** 0.5 <= radius * 1.5 + 1, end
        hx, hy, hw, hh = board["holder"]
        assert hx - 1 <= cx - radius and cx + radius <= hx + hw + 1, (end, board["holder"])
        assert hy - 1 <= cy - radius and cy + radius <= hy + hh + 1, (end, board["holder"])
        # The button covers no placed tile (a tap on it is a tap on the end).
        for tile in tiles:
            left, top, width, height = tile["screen"]
            nearest_x = min(max(cx, left), left + width)
            nearest_y = min(max(cy, top), top + height)
            assert ((cx - nearest_x) ** 2 + (cy - nearest_y) ** 2) ** 0.5 >= radius - 1.5, (end, tile)


def whole_hand(
    boards: list[dict[str, Any]], after: int, game_over: bool
) -> tuple[int, list[dict[str, Any]]] | None:
    """The first hand the page drew whole from `boards[after]` on: where its lead (its
    one-tile board) is and its boards up to the next hand's first one, once that one is drawn
    or the game is over (until then the hand may grow); None before that. The first hand's
    lead is often played before the page has loaded (the bots do not wait for it): then the
    hand after it is the one."""
    start = next((i for i in range(after, len(boards)) if len(boards[i]["tiles"]) == 1), None)
    if start is None:
        return None
    hand = [boards[start]]
    for board in boards[start + 1 :]:
        if board["round"] != hand[0]["round"]:
            return start, hand  # the next hand has begun: its tiles replace these
        hand.append(board)
    return (start, hand) if game_over else None


def check_hand(hand: list[dict[str, Any]]) -> set[str]:
    """Check every board of a whole hand; the ends ("left", "right") tiles were added at."""
    # Every board of the hand, from the lead to its last tile, one more tile each time.
    assert [len(board["tiles"]) for board in hand] == list(range(1, len(hand) + 1)), [
        len(board["tiles"]) for board in hand
    ]
    first_seen: dict[str, tuple[Any, ...]] = {}
    sides: set[str] = set()
    for previous, board in zip([None, *hand], hand, strict=False):
        if previous is not None:
            (grown,) = {t["tile"] for t in board["tiles"]} - {t["tile"] for t in previous["tiles"]}
            tile = next(t for t in board["tiles"] if t["tile"] == grown)
            touched = [e["side"] for e in previous["ends"] if touching_half(tile, e["x"], e["y"]) is not None]
            assert touched, (tile, previous["ends"])  # a new tile lies at an end the board showed
            sides.update(touched)
        check_board(board, first_seen)
    assert len(first_seen) >= 7  # a hand has seven tiles at least (a dominó or a tranque)
    assert len(hand) == len(first_seen)
    return sides


@pytest.mark.parametrize(("players", "size"), [("4", (1280, 800)), ("2", (360, 640)), ("6", (390, 844))])
def test_no_placed_tile_moves_and_the_end_buttons_sit_at_the_real_ends_over_a_whole_hand(
    browser: Any,
    live: LiveServer,
    console_errors: ConsoleErrors,
    screenshots: Path,
    players: str,
    size: tuple[int, int],
) -> None:
    """Whole hands are checked one after another until tiles have been added at both ends (a
    hand may grow at one end only: every play fitted there, or was laid there)."""
    width, height = size
    page = console_errors.watch(browser.new_page(viewport={"width": width, "height": height}))
    recorder = Recorder(page, ".line-tiles", READ_BOARD)  # every board the page draws, in order
    start_practice(page, live, players)
    seen: Counter[str] = Counter()
    boards = recorder.renders
    checked = 0  # boards before this one belong to hands already checked
    hands = 0
    sides: set[str] = set()
    keyboard_checked = False
    deadline = Deadline(300, "no whole hands with tiles added at both ends were played")
    while sides != {"left", "right"} or not keyboard_checked:
        deadline.check(seen)
        new = recorder.take()
        game_over = bool(page.locator(".overlay.game-end").count())
        if game_over:
            recorder.take()  # the end's card comes after the last hand's last board: all are in
        if (found := whole_hand(boards, checked, game_over)) is not None:
            start, hand = found
            sides |= check_hand(hand)
            hands += 1
            checked = start + len(hand)
        if new and new[-1]["tiles"] and not page.locator(".overlay").count():
            page.screenshot(path=screenshots / f"line-geometry-{width}.png")  # a board in play
        if not keyboard_checked and boards and len(boards[-1]["tiles"]) >= 3 and your_move(page):
            # An end button works from the keyboard: focused and pressed with Enter it answers
            # (outside a choice, with how many of its number are out). On the player's own
            # move nothing else happens: the table waits for it.
            toasts = recorder.toast_count()
            page.focus(".line-svg .end-left")
            page.keyboard.press("Enter")
            recorder.wait_for_toast(PLAYED_OF, after=toasts)
            keyboard_checked = True
        if page.locator(".overlay.game-end").count():
            # The game ended: a rematch for what is still to be seen.
            page.click(".overlay.game-end button.primary")
            page.wait_for_selector(".overlay.game-end", state="detached")
        elif not act_once(page, seen):
            page.wait_for_timeout(30)
    assert hands >= 1 and sides == {"left", "right"}


def your_move(page: Any) -> bool:
    """The player has a tile to play and nothing is in the way (no card, no choice pending)."""
    return bool(
        page.evaluate(
            """() => Boolean(document.querySelector(".hand-tile.playable"))
                && !document.querySelector(".overlay, .line-svg .end.choose")"""
        )
    )
