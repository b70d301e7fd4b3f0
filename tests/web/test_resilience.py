"""Reloading the page or losing the connection mid-game brings back the same game."""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

from tests.server.support.harness import LiveServer
from tests.server.support.switched_store import switch_tables
from tests.web.conftest import ConsoleErrors
from tests.web.driver import act_once
from tests.web.test_practice import start_practice


def table_picture(page: Any) -> dict[str, Any]:
    """What the player sees that must survive: hand, line, pozo, scores."""
    page.wait_for_selector(".hand-tile")
    return {
        "hand": sorted(page.locator(".hand-tile").evaluate_all("tiles => tiles.map(t => t.dataset.tile)")),
        "line": page.locator(".line-svg .placed").count(),
        "pozo": page.locator(".pozo").inner_text() if page.locator(".pozo").count() else None,
        "scores": page.locator(".scores").inner_text(),
        "turn": page.evaluate(
            "() => [window.tranque.table.state.round, window.tranque.table.state.turn.turn_id]"
        ),
    }


def wait_for_my_turn(page: Any) -> None:
    """Until this player must choose a tile (a lone pass or draw is played for them)."""
    page.wait_for_function(
        """() => {
            const table = window.tranque.table;
            const options = table && table.state && table.state.options;
            return Boolean(options && options.legal_actions.some((action) => action.type === "play"));
        }""",
        timeout=60_000,
    )


def test_a_reload_mid_game_shows_the_same_game(
    browser: Any, live: LiveServer, console_errors: ConsoleErrors, screenshots: Path
) -> None:
    page = console_errors.watch(browser.new_page(viewport={"width": 1280, "height": 800}))
    start_practice(page, live, players="4")
    seen: Counter[str] = Counter()
    for _ in range(3):
        wait_for_my_turn(page)
        act_once(page, seen)
    wait_for_my_turn(page)
    before = table_picture(page)
    url = page.url
    page.reload()
    assert page.url == url
    wait_for_my_turn(page)
    assert table_picture(page) == before
    assert page.locator(".hand-tile.playable").count() >= 1 or page.locator(".pozo.lit").count() == 1


def test_a_cut_connection_is_announced_and_the_game_resumes(
    browser: Any, live: LiveServer, console_errors: ConsoleErrors, screenshots: Path
) -> None:
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    page = console_errors.watch(context.new_page())
    start_practice(page, live, players="4")
    wait_for_my_turn(page)
    before = table_picture(page)

    def drop_every_socket() -> Any:
        async def drop() -> None:
            for table in live.state.registry.tables.values():
                for subscriber in list(table.subscribers):
                    await subscriber.websocket.close(code=1012)

        return drop()

    context.set_offline(True)
    live.on_server(drop_every_socket)
    page.wait_for_selector("#offline:not([hidden])")
    assert "Sin conexión" in page.locator("#offline").inner_text()
    page.screenshot(path=screenshots / "offline-1280.png")
    context.set_offline(False)
    page.wait_for_selector("#offline", state="hidden", timeout=20_000)
    wait_for_my_turn(page)
    assert table_picture(page) == before
    seen: Counter[str] = Counter()
    assert act_once(page, seen)
    context.close()


def test_a_table_waiting_for_the_database_says_so_and_goes_on_by_itself(
    browser: Any, live: LiveServer, console_errors: ConsoleErrors, screenshots: Path
) -> None:
    page = console_errors.watch(browser.new_page(viewport={"width": 1280, "height": 800}))
    start_practice(page, live, players="4")
    wait_for_my_turn(page)
    switch_tables(live, down=True)
    turn = page.evaluate("() => window.tranque.table.state.turn.turn_id")
    page.locator(".hand-tile.playable").first.click()  # refused: the table waits
    page.wait_for_selector("#offline:not([hidden])")
    banner = page.locator("#offline").inner_text()
    assert "espera su base de datos" in banner and "reloj del turno detenido" in banner
    page.screenshot(path=str(screenshots / "table-waiting-for-the-database.png"))
    switch_tables(live, down=False)
    page.wait_for_selector("#offline[hidden]", state="attached", timeout=15_000)
    wait_for_my_turn(page)  # the same seat, a full new turn
    assert page.evaluate("() => window.tranque.table.state.turn.turn_id") > turn
    page.locator(".hand-tile.playable").first.click()
    page.wait_for_function(f"() => window.tranque.table.state.turn.turn_id > {turn + 1}", timeout=15_000)
