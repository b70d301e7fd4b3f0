"""«La suerte del reparto» in the browser (js/luck_view.js): a finished round's summary at a
practice table shows, once the server has worked it out, what the deal gave each side beside
the result, the same figures GET /api/tables/{table}/rounds/{n}/luck gives, without holding
the card up; and below a kept game's replay, every round's. Screenshots of the card at the
three sizes go to test-output/screenshots/luck/<size>/."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.server.support.analysis_helpers import keep_game
from tests.server.support.harness import LiveServer
from tests.web.conftest import DESKTOP, SIZES, ConsoleErrors, Size, browser_settings, serious_violations
from tests.web.driver import play_to_round_end, start_practice
from tests.web.test_analysis_browser import open_replay

PLAYOUTS = 4  # what the page shows does not depend on how many
LINE = ".overlay.round-end .luck-line"


@pytest.mark.parametrize("size", list(SIZES.values()), ids=list(SIZES))
def test_a_finished_round_s_summary_shows_what_the_deal_gave(
    open_page: Callable[[Size], Any],
    live_paused: LiveServer,
    console_errors: ConsoleErrors,
    screenshots: Path,
    axe_source: str,
    size: Size,
) -> None:
    live_paused.state.luck.playouts = PLAYOUTS
    page = console_errors.watch(open_page(size))
    start_practice(page, live_paused.http)
    play_to_round_end(page, Counter())
    card = page.locator(".overlay.round-end")
    # The card is up with everything else before the figures come.
    assert card.locator(".revealed-hand").count() == 2
    names = card.locator(".revealed-hand .who").all_inner_texts()
    (bot,) = [name for name in names if name != "Tú"]
    assert "Tú" in names and bot.endswith(" (Jugador de patio)"), names  # the bot's level, in the summary
    assert page.locator(LINE).count() == 1
    # Nothing is worked out until the player asks: it costs the server seconds of CPU.
    assert page.locator(f"{LINE}[data-status=asked-for]").count() == 1
    luck = live_paused.state.luck
    assert luck.computed == 0 and not luck.running, "a round was worked out before anyone asked"
    page.locator(f"{LINE} button.luck-ask").click()
    page.locator(f"{LINE}[data-status=done]").wait_for(timeout=90_000)
    lines = page.locator(f"{LINE} p").all_inner_texts()
    expected, result, verdict = lines
    assert expected.startswith("Con esas fichas, jugando todos igual de bien, se esperaba: "), expected
    assert result.startswith("Resultado: "), result
    assert verdict in ("El reparto estaba parejo.",) or verdict.startswith("El reparto favorecía a "), verdict

    # The same figures as the endpoint's, for the same round.
    (table,) = live_paused.state.registry.tables.values()  # the practice table
    number = int(card.get_attribute("data-round") or "0")
    game = table.state.game
    assert game is not None
    played = game.rounds[number].result
    assert played is not None
    scored = [int(n) for n in re.findall(r": (\d+)", result)]
    assert sorted(scored) == sorted(played.points), (result, played.points)

    card.scroll_into_view_if_needed()
    folder = screenshots / "luck" / size.name
    folder.mkdir(parents=True, exist_ok=True)
    page.locator(LINE).scroll_into_view_if_needed()
    page.screenshot(path=folder / "round-end.png")
    assert serious_violations(page, axe_source) == []  # the summary with the deal's figures


@pytest.fixture
def analysing() -> Iterator[LiveServer]:
    with LiveServer(browser_settings(analysis_in_processes=False)) as server:
        server.state.luck.playouts = PLAYOUTS
        yield server


def test_below_a_kept_game_s_replay_every_round_s_luck(
    browser: Any, analysing: LiveServer, console_errors: ConsoleErrors, screenshots: Path, axe_source: str
) -> None:
    keep_game(analysing, "mesa1.1", [None, None])
    page = console_errors.watch(open_replay(browser, analysing, "mesa1.1", log_in=None))
    page.locator(".luck button.luck-ask").click()
    page.wait_for_selector(".luck[data-status=done] .luck-round")
    body = httpx.get(f"{analysing.http}/api/games/mesa1.1/luck", timeout=20).json()
    rounds = page.locator(".luck .luck-round")
    assert rounds.count() == len(body["rounds"]) > 0
    first = rounds.first.inner_text()
    assert first.startswith("Mano 1 Con esas fichas, jugando todos igual de bien, se esperaba: "), first
    side = body["rounds"][0]["sides"][0]
    assert f"Resultado: jugador0: {side['scored']}" in first, first
    page.locator(".luck").scroll_into_view_if_needed()
    folder = screenshots / "luck" / DESKTOP.name
    folder.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=folder / "replay.png", full_page=True)
    assert serious_violations(page, axe_source) == []  # the replay with every round's figures
