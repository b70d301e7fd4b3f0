"""Two people with accounts: one creates a private table, the other joins by the invite
link, and they play a round against each other with two bots."""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

from tests.server.support.harness import LiveServer
from tests.web.conftest import ConsoleErrors
from tests.web.driver import play_both_until


def sign_up(page: Any, live: LiveServer, name: str) -> None:
    page.goto(live.http + "/#/entrar")
    page.fill("input[name=name]", name)
    page.fill("input[name=password]", "dominó-seguro-123")
    page.click("button[name=register]")
    page.wait_for_selector(f"#account:has-text('{name}')")


def test_a_private_table_by_invitation_plays_a_round(
    browser: Any, live_paused: LiveServer, console_errors: ConsoleErrors, screenshots: Path
) -> None:
    live = live_paused  # the round-end cards stay up while both are read
    host_context = browser.new_context(viewport={"width": 1280, "height": 800})
    guest_context = browser.new_context(viewport={"width": 360, "height": 640})
    host = console_errors.watch(host_context.new_page())
    guest = console_errors.watch(guest_context.new_page())
    sign_up(host, live, "ana")
    sign_up(guest, live, "beto")

    host.click("#create-table")
    host.wait_for_selector("#start")
    host.select_option("select[name=players]", "4")
    host.select_option("select[name=mode]", "pairs")
    host.check("input[name=private]")
    host.click("#start")
    link = host.locator(".invite-link").input_value()
    assert "/mesa?invite=" in link

    guest.goto(link)
    guest.wait_for_selector(".table-screen")
    host.wait_for_selector(".invite:has-text('2/4')")
    host.screenshot(path=screenshots / "private-waiting-1280.png")
    host.click(".invite button.primary")
    host.wait_for_selector(".hand-tile")
    guest.wait_for_selector(".hand-tile")
    assert "beto" in host.locator(".seats-grid").inner_text()
    assert "ana" in guest.locator(".seats-grid").inner_text()

    seen: Counter[str] = Counter()
    play_both_until(host, guest, ".overlay.round-end", seen)
    assert seen["play"] + seen["both_ends"] >= 2
    host_result = host.locator(".overlay.round-end .why").inner_text()
    guest_result = guest.locator(".overlay.round-end .why").inner_text()
    assert host_result and guest_result
    guest.screenshot(path=screenshots / "private-round-end-360.png")
    host_context.close()
    guest_context.close()
