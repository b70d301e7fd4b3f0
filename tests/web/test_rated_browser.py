"""A competitive game between two accounts, in the browser: the table says before the first
tile whether the game counts (and each team's chance, or why not), the game-end card shows
each player's new rating and XP, and the rankings and profiles have them afterwards.

Each person's browser sends its own client address (X-Forwarded-For, which the live server
trusts from the loopback like a proxy in front of it), as two people at two homes would.
"""

from __future__ import annotations

import re
from collections import Counter
from typing import Any

import pytest

from tests.server.support.harness import LiveServer
from tests.web.conftest import ConsoleErrors
from tests.web.driver import play_both_until
from tests.web.test_accounts import sign_up


def two_at_a_competitive_table(
    browser: Any, live: LiveServer, console_errors: ConsoleErrors, addresses: tuple[str, str]
) -> tuple[Any, Any]:
    """ana (1280×800) creates a private competitive table for two; beto (a phone) joins it by
    its link; both pages once the hand is dealt."""
    pages = []
    sizes = ({"width": 1280, "height": 800}, {"width": 390, "height": 844})
    for address, viewport in zip(addresses, sizes, strict=True):
        context = browser.new_context(viewport=viewport, extra_http_headers={"X-Forwarded-For": address})
        pages.append(console_errors.watch(context.new_page()))
    host, guest = pages
    sign_up(host, live, "ana")
    sign_up(guest, live, "beto")
    host.click("#create-table")
    host.wait_for_selector("#start")
    host.select_option("select[name=players]", "2")
    host.check("input[name=competitive][value=yes]")
    host.check("input[name=private]")
    host.click("#start")
    guest.goto(host.locator(".invite-link").input_value())
    host.wait_for_selector(".hand-tile")
    guest.wait_for_selector(".hand-tile")
    return host, guest


@pytest.mark.browser_game  # two people play a whole game: such tests take turns (tests/conftest.py)
def test_a_competitive_duel_shows_the_chances_then_the_new_ratings_and_ranks_both(
    browser: Any, live: LiveServer, console_errors: ConsoleErrors
) -> None:
    host, guest = two_at_a_competitive_table(browser, live, console_errors, ("198.51.100.1", "198.51.100.2"))
    for page in (host, guest):
        line = page.locator(".rating-line")
        line.filter(has_text="cuenta para la clasificación").wait_for()
        text = line.inner_text()
        assert "Partida competitiva" in text and "Probabilidad de ganar" in text, text
        chances = [int(n) for n in re.findall(r"(\d+) %", text)]
        assert len(chances) == 2 and 98 <= sum(chances) <= 102, text  # two newcomers: even

    play_both_until(host, guest, ".overlay.game-end", Counter(), timeout=600)
    for page in (host, guest):
        changes = page.locator(".overlay.game-end .res-rating li")
        changes.first.wait_for()
        lines = changes.all_inner_texts()
        assert len(lines) == 2, lines
        assert all(re.search(r"rating \d+ → \d+ \([+−-]?\d+\), \+(20|5) XP", line) for line in lines), lines
        assert sorted(int(re.search(r"\+(\d+) XP", line).group(1)) for line in lines) == [5, 20], lines  # type: ignore[union-attr]

    # «Reportar» on the game-end card: the other person only (never oneself), about this game.
    reports = host.locator(".overlay.game-end .report-open")
    assert reports.all_inner_texts() == ["Reportar a beto"]
    reports.first.click()
    host.select_option(".overlay.game-end .report-form select[name=reason]", "stalling")
    host.click(".overlay.game-end .report-send")
    host.locator(".overlay.game-end .report-done").filter(has_text="Reporte enviado").wait_for()

    # The week's XP ranking lists both, the winner first; a profile has the game.
    host.goto(live.http + "/#/clasificacion")
    ranked = host.locator(".ranking-table:not(.mine-only) tbody tr")
    ranked.nth(1).wait_for()
    rows = ranked.all_inner_texts()
    assert len(rows) == 2 and re.search(r"\b20\b", rows[0]) and re.search(r"\b5\b", rows[1]), rows
    host.goto(live.http + "/#/jugador/beto")
    host.locator(".game-item").first.wait_for()
    assert host.locator(".game-item").count() == 1
    host.context.close()
    guest.context.close()


def test_two_players_from_one_connection_are_told_the_game_does_not_count(
    browser: Any, live: LiveServer, console_errors: ConsoleErrors
) -> None:
    host, guest = two_at_a_competitive_table(browser, live, console_errors, ("198.51.100.7", "198.51.100.7"))
    for page in (host, guest):
        line = page.locator(".rating-line")
        line.filter(has_text="misma conexión").wait_for()
        assert "no cuenta para la clasificación" in line.inner_text()
    host.context.close()
    guest.context.close()


def test_FP2_a_seat_opened_from_the_other_players_connection_mid_game_stops_counting(
    browser: Any, live: LiveServer, console_errors: ConsoleErrors
) -> None:
    """Both sat from their own homes and the game counts; then beto's seat is opened in a
    browser at ana's connection (his session copied there): both pages say at once that the
    game no longer counts, in Spanish and, on an English page, in English."""
    host, guest = two_at_a_competitive_table(
        browser, live, console_errors, ("198.51.100.21", "198.51.100.22")
    )
    host.locator(".rating-line").filter(has_text="Partida competitiva").wait_for()
    moved = browser.new_context(
        viewport={"width": 390, "height": 844},
        storage_state=guest.context.storage_state(),
        extra_http_headers={"X-Forwarded-For": "198.51.100.21"},
    )
    again = console_errors.watch(moved.new_page())
    again.goto(guest.url)
    again.wait_for_selector(".hand-tile")
    for page in (host, guest, again):
        line = page.locator(".rating-line")
        line.filter(has_text="Dos puestos se jugaron desde la misma conexión").wait_for()
        assert "ya no cuenta para la clasificación" in line.inner_text()
    host.evaluate("localStorage.setItem('tranque.lang', 'en')")
    host.reload()
    host.locator(".rating-line").filter(has_text="Two seats were played from the same connection").wait_for()
    for context in (host.context, guest.context, moved):
        context.close()
