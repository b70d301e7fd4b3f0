"""A staked competitive duel between two accounts, in the browser: the stake shown in the lobby
before sitting, the pot at the table, each player's fichas on the game-end card, and both
balances afterwards, read from the server and on each one's profile with the game's lines in
its history. Screenshots of each moment at the three sizes, under
test-output/screenshots/fichas/<size>/.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.server.support.harness import LiveServer
from tests.web.conftest import SIZES, ConsoleErrors, browser_settings
from tests.web.driver import play_both_until
from tests.web.test_accounts import sign_up


@pytest.fixture
def live() -> Iterator[LiveServer]:
    """A browser test's server with fichas on, whatever the suite's switch says."""
    with LiveServer(browser_settings(fichas_enabled=True)) as server:
        yield server


def shoot(page: Any, screenshots: Path, name: str) -> None:
    """`page` at each of the three sizes, then back to its own."""
    own = page.viewport_size
    for size in SIZES.values():
        folder = screenshots / "fichas" / size.name
        folder.mkdir(parents=True, exist_ok=True)
        page.set_viewport_size({"width": size.width, "height": size.height})
        page.screenshot(path=str(folder / f"{name}.png"), full_page=True)
    page.set_viewport_size(own)


def balance_of(live: LiveServer, name: str) -> int:
    async def read() -> int:
        user = await live.state.store.find_user(name)
        assert user is not None
        found: int = await live.state.fichas.balance(user.user_id)
        return found

    return live.on_server(read)


@pytest.mark.browser_game  # two people play a whole game: such tests take turns (tests/conftest.py)
def test_a_staked_duel_shows_the_stake_the_pot_and_each_players_fichas(
    browser: Any, live: LiveServer, console_errors: ConsoleErrors, screenshots: Path
) -> None:
    pages = []
    for address, size in (("198.51.100.31", SIZES["1280x800"]), ("198.51.100.32", SIZES["390x844"])):
        context = browser.new_context(
            **size.context_options(), extra_http_headers={"X-Forwarded-For": address}
        )
        pages.append(console_errors.watch(context.new_page()))
    host, guest = pages
    sign_up(host, live, "ana")
    sign_up(guest, live, "beto")

    # ana makes a public competitive duel with a stake of 50: the select shows only once
    # «competitiva» is chosen.
    host.click("#create-table")
    host.wait_for_selector("#start:not([disabled])")
    host.select_option("select[name=players]", "2")
    assert host.locator(".stake-choice").is_hidden()
    host.check("input[name=competitive][value=yes]")
    host.locator(".stake-choice").wait_for(state="visible")
    host.select_option("select[name=stake]", "50")
    shoot(host, screenshots, "create-form")
    host.click("#start")
    host.locator(".pot-line").filter(has_text="Bote: 50 fichas").wait_for()
    hash_ = host.evaluate("() => location.hash")
    assert hash_.startswith("#/mesa/"), hash_
    game_id = hash_.removeprefix("#/mesa/") + ".1"

    # beto sees the stake in the lobby before sitting down.
    guest.goto(live.http + "/#/")
    row = guest.locator(".lobby-list li").filter(has_text="Apuesta: 50 fichas")
    row.wait_for()
    shoot(guest, screenshots, "lobby")
    row.get_by_role("button").click()
    for page in (host, guest):
        page.wait_for_selector(".hand-tile")
        page.locator(".pot-line").filter(has_text="Bote: 100 fichas").wait_for()
    shoot(guest, screenshots, "table")
    assert balance_of(live, "ana") == 950 and balance_of(live, "beto") == 950

    play_both_until(host, guest, ".overlay.game-end", Counter(), timeout=600)
    for page in (host, guest):
        items = page.locator(".overlay.game-end .res-fichas li")
        items.nth(2).wait_for()
        lines = items.all_inner_texts()
        # One line a seat, the reader's own as «Tú»: the winner +60 (the pot of 100 less the
        # bank's 40), the loser minus the stake.
        amounts = sorted(line.split(": ")[1] for line in lines[:2])
        assert amounts == ["+60 fichas", "\u221250 fichas"], lines
        assert sum(line.startswith("Tú: ") for line in lines[:2]) == 1, lines
        assert lines[2] == "La banca se lleva 40", lines
    shoot(host, screenshots, "game-end")
    live.recorded()  # the pot is emptied with the game's result
    for page, name in ((host, "ana"), (guest, "beto")):
        lines = page.locator(".overlay.game-end .res-fichas li").all_inner_texts()
        (own,) = [line for line in lines if line.startswith("Tú: ")]
        assert balance_of(live, name) == (1010 if own == "Tú: +60 fichas" else 950), (name, lines)

    # Each one's own profile shows that balance and the game in the history, newest first: the
    # winner's payout of the pot less the bank's cut, then both stakes, then the welcome gift.
    # The game's lines link to its replay (a table's id means nothing to a person).
    for page, name in ((host, "ana"), (guest, "beto")):
        won = balance_of(live, name) == 1010
        page.goto(f"{live.http}/#/jugador/{name}")
        page.wait_for_selector(f".fichas-balance[data-balance='{1010 if won else 950}']")
        texts = page.locator(".fichas-line .fichas-text").all_inner_texts()
        amounts = page.locator(".fichas-line .fichas-amount").all_inner_texts()
        assert amounts == (["+60", "−50", "+1000"] if won else ["−50", "+1000"]), (name, texts)
        assert texts[-2:] == ["Apuesta en una mesa · Ver la partida", "Regalo de bienvenida"], texts
        if won:
            assert texts[0] == "Ganaste el bote · Ver la partida", texts
        links = page.locator(".fichas-line .fichas-game")
        hrefs = [links.nth(index).get_attribute("href") for index in range(links.count())]
        assert hrefs == [f"#/partida/{game_id}"] * (2 if won else 1), hrefs
        shoot(page, screenshots, f"profile-{'winner' if won else 'loser'}")
    guest.locator(".fichas-line .fichas-game").first.click()
    guest.wait_for_selector(".replay .rp-meta")  # the replay of the staked game

    for page in (host, guest):
        page.context.close()
