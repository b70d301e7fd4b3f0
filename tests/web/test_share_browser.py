"""«Compartir» in the browser (js/share.js, docs/sharing.md): on the game-end card, with no
share sheet (headless Chromium has none: the copy path), the game's share link is copied and
the player told so; with a share sheet, the sheet gets the link; the link itself opens the
game's replay, and its page carries the card. A public tournament's page shares its own.
Photographed at the three sizes.
"""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path
from typing import Any

import httpx

from tests.server.support.harness import LiveServer
from tests.server.support.http_helpers import register
from tests.web.conftest import SIZES, ConsoleErrors
from tests.web.driver import play_until
from tests.web.test_practice import start_practice

NO_SHARE_SHEET = "delete Navigator.prototype.share; delete navigator.share;"
SHEET_RECORDER = (
    "window.__shared = [];"
    "Object.defineProperty(Navigator.prototype, 'share', {configurable: true,"
    " value: async (data) => { window.__shared.push(data); }});"
)
CLIPBOARD = ["clipboard-read", "clipboard-write"]


def toast(page: Any) -> str:
    page.wait_for_selector("#toast.show")
    text: str = page.locator("#toast").inner_text()
    return text


def test_the_game_end_cards_compartir_copies_the_share_link(
    browser: Any, live: LiveServer, console_errors: ConsoleErrors, screenshots: Path
) -> None:
    context = browser.new_context(viewport={"width": 1280, "height": 800}, permissions=CLIPBOARD)
    context.add_init_script(NO_SHARE_SHEET)
    page = console_errors.watch(context.new_page())
    start_practice(page, live)
    table = re.search(r"#/mesa/([^/?]+)", page.url)
    assert table is not None
    game_id = f"{table.group(1)}.1"
    play_until(page, ".overlay.game-end", Counter())
    assert page.evaluate("typeof navigator.share") == "undefined"
    share = page.locator(".overlay.game-end button.res-share")
    assert share.inner_text() == "Compartir"
    share.click()
    assert toast(page) == "Enlace copiado: pégalo en el chat que quieras"
    link = f"{live.http}/partida/{game_id}"
    assert page.evaluate("navigator.clipboard.readText()") == link
    for name, size in SIZES.items():
        page.set_viewport_size({"width": size.width, "height": size.height})
        page.locator(".overlay.game-end button.res-share").scroll_into_view_if_needed()
        box = page.locator(".overlay.game-end button.res-share").bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= size.width, (name, box)
        page.screenshot(path=screenshots / f"share-game-end-{name}.png")

    # The link: its page names the card, and it opens this game's replay.
    live.recorded()
    shared = httpx.get(link, timeout=30).text
    assert f'<meta property="og:image" content="{live.http}/api/share/games/{game_id}.png">' in shared
    visitor = console_errors.watch(browser.new_page(viewport={"width": 390, "height": 844}))
    visitor.goto(link)
    visitor.wait_for_selector(".replay .rp-controls")
    assert visitor.url == f"{live.http}/#/partida/{game_id}"
    visitor.screenshot(path=screenshots / "share-link-opens-replay-390x844.png")
    context.close()


def test_a_share_sheet_gets_the_link_and_nothing_is_copied(
    browser: Any, live: LiveServer, console_errors: ConsoleErrors
) -> None:
    """On a phone with a share sheet (stubbed here: headless Chromium has none)."""
    context = browser.new_context(viewport={"width": 390, "height": 844})
    context.add_init_script(SHEET_RECORDER)
    page = console_errors.watch(context.new_page())
    start_practice(page, live)
    table = re.search(r"#/mesa/([^/?]+)", page.url)
    assert table is not None
    play_until(page, ".overlay.game-end", Counter())
    page.locator(".overlay.game-end button.res-share").click()
    page.wait_for_function("() => window.__shared.length === 1")
    shared = page.evaluate("window.__shared[0]")
    assert shared == {
        "title": "Partida de dominó en Tranque",
        "text": "¡Mira cómo quedó esta partida de dominó!",
        "url": f"{live.http}/partida/{table.group(1)}.1",
    }
    # Nothing was copied: no toast says so (another toast of the game may still be showing).
    toasts = page.locator("#toast.show")
    assert not toasts.count() or "Enlace copiado" not in toasts.inner_text()
    context.close()


def test_a_tournaments_page_shares_its_link(
    browser: Any, live: LiveServer, console_errors: ConsoleErrors, screenshots: Path
) -> None:
    with httpx.Client(base_url=live.http, timeout=20) as http:
        assert register(http, "organiza").status_code == 201
        made = http.post(
            "/api/tournaments",
            json={
                "name": "Copa de la Ñapa",
                "format": "minitorneo",
                "entry": "duel",
                "size": 4,
                "rated": False,
            },
        )
        assert made.status_code == 201, made.text
    tid = made.json()["tournament"]["id"]
    for name, size in SIZES.items():
        context = browser.new_context(
            viewport={"width": size.width, "height": size.height}, permissions=CLIPBOARD
        )
        context.add_init_script(NO_SHARE_SHEET)
        page = console_errors.watch(context.new_page())
        page.goto(f"{live.http}/torneo/{tid}")  # the share link lands on the tournament's page
        page.wait_for_selector(".tn-share-button")
        assert page.url == f"{live.http}/#/torneo/{tid}"
        page.locator(".tn-share-button").click()
        assert toast(page) == "Enlace copiado: pégalo en el chat que quieras"
        assert page.evaluate("navigator.clipboard.readText()") == f"{live.http}/torneo/{tid}"
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= size.width, (name, width)
        page.screenshot(path=screenshots / f"share-tournament-{name}.png", full_page=True)
        context.close()
