"""A guest opens the site, starts a practice game against the machine and plays it out; asks
for «Pista» on its turns and plays what the server suggests; a table that is not practice
offers none."""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path
from typing import Any

from tests.server.support.harness import LiveServer
from tests.server.support.scripted import seat_table, start_table_now
from tests.web.conftest import ConsoleErrors
from tests.web.driver import Deadline, play_until
from tranque.engine import Rules
from tranque.server.table.state import TableKind


def start_practice(page: Any, live: LiveServer, players: str = "2") -> None:
    page.goto(live.http + "/")
    page.click("#practice")
    page.wait_for_selector("#start")
    page.select_option("select[name=preset]", "clasico")
    page.select_option("select[name=players]", players)
    page.click("#start")
    page.wait_for_selector(".hand-tile")


def test_a_guest_plays_a_practice_game_to_the_end_by_clicking(
    browser: Any, live: LiveServer, console_errors: ConsoleErrors, screenshots: Path
) -> None:
    page = console_errors.watch(browser.new_page(viewport={"width": 1280, "height": 800}))
    start_practice(page, live)
    page.screenshot(path=screenshots / "practice-start-1280.png")
    seen: Counter[str] = Counter()
    games = 0
    # Two players with a 14-tile pozo: drawing and a tile that fits both ends come up in
    # nearly every game; a rematch covers the rare game without them.
    while games < 4 and not (games and seen["draw"] and seen["both_ends"]):
        if games:
            page.click(".overlay.game-end button.primary")
            page.wait_for_selector(".hand-tile")
        play_until(page, ".overlay.game-end", seen)
        games += 1
    assert seen["draw"] >= 1, seen
    assert seen["both_ends"] >= 1, seen
    headline = page.locator(".overlay.game-end .why").inner_text()
    assert headline == "¡Ganaste!" or headline.startswith("Gana "), headline
    page.wait_for_selector(".verified li")
    checks = page.locator(".verified li")
    assert checks.count() >= 1
    for index in range(checks.count()):
        assert "verificado" in checks.nth(index).inner_text()
        assert "no verificado" not in checks.nth(index).inner_text()
    page.screenshot(path=screenshots / "game-end-1280.png", full_page=True)


def _my_turn_with_a_tile_to_play(page: Any, seen: Counter[str]) -> None:
    """Play on (drawing when that is all there is, answering round ends) until it is this
    player's turn with a tile that fits, and the «Pista» button can be pressed."""
    deadline = Deadline(60, "no turn with a tile to play")
    while not (
        page.locator(".hand-tile.playable").count() and page.locator(".hint-button:not([disabled])").count()
    ):
        deadline.check(seen)
        lit = page.locator(".pozo.lit")
        ready = page.locator(".overlay.round-end button.primary:not([disabled]):not(.res-to-final)")
        if lit.count():
            lit.click(timeout=2000)
            seen["draw"] += 1
        elif ready.count():
            ready.first.click(timeout=2000)
        else:
            page.wait_for_timeout(40)


def test_pista_lights_the_tile_the_server_suggests_and_says_it(
    browser: Any, live: LiveServer, console_errors: ConsoleErrors, screenshots: Path
) -> None:
    page = console_errors.watch(browser.new_page(viewport={"width": 1280, "height": 800}))
    start_practice(page, live)
    seen: Counter[str] = Counter()
    hint = page.locator(".hint-button")
    assert hint.inner_text() == "Pista"
    for asked in range(2):
        _my_turn_with_a_tile_to_play(page, seen)
        assert page.locator(".hint-text").inner_text() == ""
        hint.click()
        page.wait_for_selector(".hand-tile.hinted")
        said = page.locator(".hint-text").inner_text()
        found = re.fullmatch(r"Pista: (?:juega el (\d-\d) a la (izquierda|derecha)|sal con el (\d-\d))", said)
        assert found, said
        tile = found.group(1) or found.group(3)
        lit = page.locator(".hand-tile.hinted")
        assert lit.count() == 1
        assert lit.get_attribute("data-tile") == tile  # the tile the words name
        assert "playable" in (lit.get_attribute("class") or "")  # one of the server's options
        assert (lit.get_attribute("aria-label") or "").endswith(", la pista")
        assert page.locator(".hint-text").get_attribute("role") == "status"
        assert hint.is_disabled()  # one hint a turn: it is on the screen
        if asked == 0:
            page.screenshot(path=screenshots / "practice-hint-1280.png")
        # The line's own end is lit when the tile fits both (then the tile waits for its end).
        side = {"izquierda": "left", "derecha": "right"}.get(found.group(2) or "")
        lit.click()
        if page.locator(".end.choose").count():
            assert side is not None
            end = page.locator(f".line-svg .end-{side}.hinted")
            assert end.count() == 1 and (end.get_attribute("aria-label") or "").endswith(" · la pista")
            end.click()
            seen["both_ends"] += 1
        page.wait_for_selector(".hand-tile.hinted", state="detached")
        assert page.locator(f'.hand-tile[data-tile="{tile}"]').count() == 0  # played as suggested
        assert page.locator(".hint-text").inner_text() == ""
    assert page.evaluate("() => window.tranque.table.state.hintsLeft") == 18


def test_a_table_that_is_not_practice_has_no_pista(
    browser: Any, live: LiveServer, console_errors: ConsoleErrors
) -> None:
    rules = Rules.preset("clasico", players=2, mode="individual")
    table, tokens = seat_table(live, rules, [0], kind=TableKind.PUBLIC)
    start_table_now(live, table)
    page = console_errors.watch(browser.new_page(viewport={"width": 1280, "height": 800}))
    saved = json.dumps({"seat": 0, "token": tokens[0], "kind": "public"})
    page.add_init_script(f"localStorage.setItem({json.dumps('tranque.seat.' + table)}, {json.dumps(saved)})")
    page.goto(f"{live.http}/#/mesa/{table}")
    page.wait_for_selector(".hand-tile")
    page.wait_for_selector(".tools")
    assert page.evaluate("() => window.tranque.table.state.kind") == "public"
    assert page.locator(".hint-button, .hint-text, .hand-tile.hinted").count() == 0
