"""The operator's page, #/admin, in Chromium against a live server.

A player starts a practice game and leaves it waiting on their turn; an admin finds the
player by the start of their name, opens the table, reads its private log, and ends it with a
reason: the player's browser shows the game annulled by the site's administrators with that
reason, and the table is over. The page fits a phone, a tablet and a desktop (screenshots at
each), has no serious axe-core violation, reads in English too, and tells anyone else it is
not for them.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.server.support.harness import LiveServer
from tests.web.conftest import DESKTOP, PHONE, ConsoleErrors, Size, axe_violations
from tests.web.test_accounts import sign_up
from tests.web.test_moderation_browser import grant

TABLET = Size(768, 1024, phone=False)
REASON = "La mesa se quedó trabada"


def overflow(page: Any) -> int:
    """How many CSS pixels the page is wider than the screen (0: it fits)."""
    width: int = page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")
    return width


def test_an_admin_ends_a_stuck_practice_table_and_its_player_reads_why(
    browser: Any, live: LiveServer, console_errors: ConsoleErrors, axe_source: str, screenshots: Path
) -> None:
    player = console_errors.watch(browser.new_context(**PHONE.context_options()).new_page())
    sign_up(player, live, "Pedro")
    player.click("#practice")
    player.wait_for_selector("#start")
    player.select_option("select[name=preset]", "clasico")
    player.select_option("select[name=players]", "2")
    player.click("#start")
    player.wait_for_selector(".hand-tile")
    table_id = player.url.rsplit("/", 1)[-1]

    # Anyone but an admin is told the page is not for them.
    assert player.locator("#nav-admin").is_hidden()

    admin = console_errors.watch(browser.new_context(**DESKTOP.context_options()).new_page())
    sign_up(admin, live, "Jefa")
    admin.goto(live.http + "/#/admin")
    admin.wait_for_selector("[role=alert]:has-text('solo para administradores')")
    grant(live, "Jefa", "admin")
    admin.goto(live.http + "/")
    admin.reload()
    admin.click("#nav-admin")
    admin.fill("#ad-prefix", "ped")
    admin.click(".ad-players button[type=submit]")
    card = admin.wait_for_selector(".ad-player[data-player=Pedro]")
    assert "Rol: player" in card.inner_text()
    admin.click(f".ad-player[data-player=Pedro] .ad-open-table:has-text('{table_id}')")
    admin.wait_for_selector(".ad-table-line[data-status=playing]")
    assert "Pedro" in admin.inner_text(".ad-table-players")
    assert "Privado" in admin.inner_text(".ad-private")
    assert "round_started" in admin.inner_text(".ad-log")
    assert admin.locator(".ad-commitments li").count() >= 1

    for size in (DESKTOP, TABLET, PHONE):
        admin.set_viewport_size({"width": size.width, "height": size.height})
        admin.screenshot(path=screenshots / f"admin-table-{size.width}.png", full_page=True)
        assert overflow(admin) == 0, size
    blocking = [
        rule for rule in axe_violations(admin, axe_source) if rule["impact"] in ("serious", "critical")
    ]
    assert blocking == [], blocking

    admin.fill("#ad-end-why", REASON)
    admin.click(".ad-end")
    admin.wait_for_selector(".ad-table-line[data-status=annulled]")
    admin.wait_for_selector(".ad-done:has-text('anulada')")
    assert admin.locator(".ad-end").count() == 0  # nothing left to end

    # The player's browser: the game is annulled by the site's administrators, and why.
    end = player.wait_for_selector(".overlay.game-end")
    text = end.inner_text()
    assert "La administración del sitio anuló la partida" in text
    assert f"«{REASON}»" in text
    assert player.locator(".overlay.game-end .res-rematch").count() == 0  # refused after an annulment
    player.screenshot(path=screenshots / "admin-annulled-player-360.png")

    # The admin's action is in the moderation log; the page in English.
    entries = live.on_server(lambda: live.state.store.moderation_log(5))
    assert [(e.action, e.reason, e.details) for e in entries][:1] == [
        ("end_table", REASON, {"table": table_id})
    ]
    admin.click("#lang")
    admin.wait_for_selector("h1:has-text('Site administration')")
    admin.wait_for_selector("h2:has-text('Find players')")
