"""Play in the browser the way a person does: by clicking tiles, ends, the pozo and buttons.

The test reads the page (which tiles are lit, what the ends show) to decide; every move
is a click on what a player would click.
"""

from __future__ import annotations

import time
from collections import Counter
from typing import Any

CLICK_MS = 2000


def _ends(page: Any) -> tuple[int, int] | None:
    """The two open numbers, from the ends' `data-pips` (the line's own ends or the buttons)."""
    left = page.locator(".end-left[data-pips]")
    right = page.locator(".end-right[data-pips]")
    if not left.count() or not right.count():
        return None
    left_pips, right_pips = left.first.get_attribute("data-pips"), right.first.get_attribute("data-pips")
    if left_pips is None or right_pips is None:
        return None
    return int(left_pips), int(right_pips)


def fits_both(tile: str, ends: tuple[int, int] | None) -> bool:
    """The test's own reading of R8: a tile that fits two different ends gives a choice."""
    if ends is None or ends[0] == ends[1]:
        return False
    halves = {int(n) for n in tile.split("-")}
    return halves == {ends[0], ends[1]}


def act_once(page: Any, seen: Counter[str], through_last: bool = True, stop_at: str | None = None) -> bool:
    """Make one move if this page's player can; True when something was clicked. The game
    moves on by itself (a lone pass is played for you), so a click that finds its target
    gone is simply tried again on the next look. At the game's end the last round's card
    comes first: `through_last` goes on from it to the final result. Nothing is clicked once
    `stop_at` is on the page (it may appear while this looks: a round-end card must not be
    answered with "Listo" by the very call that was to stop there)."""
    from playwright.sync_api import Error as PlaywrightError

    try:
        return _act_once(page, seen, through_last, stop_at)
    except PlaywrightError:
        return False


def _act_once(page: Any, seen: Counter[str], through_last: bool, stop_at: str | None = None) -> bool:
    if page.locator(".overlay.game-end").count():
        return False
    final = page.locator(".overlay.round-end .res-to-final")
    if final.count():
        if not through_last:
            return False
        final.click(timeout=CLICK_MS)
        seen["to_final"] += 1
        return True
    ready = page.locator(".overlay.round-end button.primary:not([disabled]):not(.res-to-final)")
    if ready.count() and not (stop_at and page.locator(stop_at).count()):
        ready.first.click(timeout=CLICK_MS)
        seen["ready"] += 1
        return True
    if page.locator(".pozo.lit").count():
        page.locator(".pozo.lit").click(timeout=CLICK_MS)
        seen["draw"] += 1
        return True
    chosen = page.locator(".end-right.choose")
    if chosen.count():  # a tile that fits both ends is waiting for its end: tap the end only
        chosen.first.click(timeout=CLICK_MS)  # (tapping the tile again would drop the choice)
        seen["both_ends"] += 1
        return True
    tiles = page.locator(".hand-tile.playable")
    if tiles.count():
        ends = _ends(page)
        names = [tiles.nth(i).get_attribute("data-tile") for i in range(tiles.count())]
        if not names:  # the hand changed while it was read: look again
            return False
        choice = next((name for name in names if name and fits_both(name, ends)), names[0])
        page.locator(f'.hand-tile.playable[data-tile="{choice}"]').click(timeout=CLICK_MS)
        if page.locator(".end.choose").count():
            page.locator(".end-right.choose").first.click(timeout=CLICK_MS)
            seen["both_ends"] += 1
        else:
            seen["play"] += 1
        return True
    passing = page.locator(".status-row button.primary", has_text="Pasar")
    if passing.count():
        passing.click(timeout=CLICK_MS)
        seen["pass"] += 1
        return True
    return False


def play_until(
    page: Any, done: str, seen: Counter[str], timeout: float = 240, through_last: bool = True
) -> None:
    """Keep playing until the selector `done` is visible."""
    deadline = time.monotonic() + timeout
    while not page.locator(done).count():
        if time.monotonic() > deadline:
            raise AssertionError(f"{done} did not appear within {timeout} s; moves so far: {dict(seen)}")
        if not act_once(page, seen, through_last, stop_at=done):
            page.wait_for_timeout(40)


class Deadline:
    """A loop's time limit, so that a stuck browser test fails with what it saw instead of
    running forever: `check()` raises once `seconds` have passed."""

    def __init__(self, seconds: float, what: str) -> None:
        self.until = time.monotonic() + seconds
        self.what = what
        self.seconds = seconds

    def check(self, seen: Counter[str]) -> None:
        if time.monotonic() > self.until:
            raise AssertionError(f"{self.what} within {self.seconds} s; moves so far: {dict(seen)}")


def play_both_until(host: Any, guest: Any, done: str, seen: Counter[str], timeout: float = 300) -> None:
    """Two people at one table play until `done` is on both pages."""
    deadline = Deadline(timeout, f"{done} did not appear on both pages")
    while not (host.locator(done).count() and guest.locator(done).count()):
        deadline.check(seen)
        if not (act_once(host, seen, stop_at=done) or act_once(guest, seen, stop_at=done)):
            host.wait_for_timeout(40)


def play_moves(page: Any, moves: int, seen: Counter[str], timeout: float = 60) -> None:
    """Make `moves` moves of this page's player (plays, draws or passes), or stop at the
    round's end: a table in the middle of a hand."""
    deadline = time.monotonic() + timeout
    made = 0
    while made < moves and not page.locator(".overlay").count():
        if time.monotonic() > deadline:
            raise AssertionError(
                f"{moves} moves were not made within {timeout} s; moves so far: {dict(seen)}"
            )
        if act_once(page, seen):
            made += 1
        else:
            page.wait_for_timeout(40)


def start_practice(page: Any, base: str, preset: str = "clasico", players: str = "2") -> None:
    """From the home page, the options of a practice game, then its table with the hand dealt."""
    page.goto(base + "/")
    page.click("#practice")
    page.wait_for_selector("#start")
    page.select_option("select[name=preset]", preset)
    page.select_option("select[name=players]", players)
    page.click("#start")
    page.wait_for_selector(".hand-tile")


def play_to_round_end(page: Any, seen: Counter[str], rematches: int = 3) -> None:
    """Play until a round-end card shows. A game that ends with its first round shows the
    game-end card instead: then a rematch, up to `rematches` times."""
    for _ in range(rematches + 1):
        play_until(page, ".overlay.round-end, .overlay.game-end", seen)
        if page.locator(".overlay.round-end").count():
            return
        page.click(".overlay.game-end button.primary")
        page.wait_for_selector(".overlay.game-end", state="detached")
        page.wait_for_selector(".hand-tile")
    raise AssertionError(f"every game ended with its first round; moves: {dict(seen)}")
