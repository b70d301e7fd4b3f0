"""The post-game analysis in the replay viewer (js/analysis_view.js): a finished game kept with
its record, «Analizar la partida» asked for by its logged-in player, then the chart of each
team's expected result, each player's accuracy, the flagged moves listed and marked on the
timeline, and at a flagged move the better tile drawn pale on the board where the server
laid it out. A tiny budget (3 deals per decision) keeps it quick; what is checked does not
depend on it. And while it waits in the queue, its progress bar; without an account, the
server's refusal."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.server.support.analysis_helpers import DEALS, keep_game
from tests.server.support.harness import LiveServer
from tests.server.support.http_helpers import PASSWORD
from tests.server.support.players_helpers import make_user
from tests.web.conftest import DESKTOP, PHONE, ConsoleErrors, browser_settings
from tests.web.test_replay import no_serious_violation


@pytest.fixture
def analysing() -> Iterator[LiveServer]:
    settings = browser_settings(analysis_in_processes=False, analysis_deals=DEALS)
    with LiveServer(settings) as server:
        yield server


@pytest.fixture
def queued() -> Iterator[LiveServer]:
    """A server that queues analyses and runs none (no workers): they stay pending."""
    with LiveServer(browser_settings(analysis_workers=0)) as server:
        yield server


def open_replay(browser: Any, server: LiveServer, game_id: str, *, log_in: str | None) -> Any:
    page = browser.new_page(viewport={"width": DESKTOP.width, "height": DESKTOP.height})
    page.goto(server.http + "/")
    if log_in is not None:
        answer = page.request.post(server.http + "/api/login", data={"name": log_in, "password": PASSWORD})
        assert answer.ok, answer.text()
    page.goto(f"{server.http}/#/partida/{game_id}")
    page.wait_for_selector(".replay .rp-controls")
    page.wait_for_selector(".analysis[data-status]")
    return page


def step(page: Any) -> int:
    return int(page.locator(".replay").get_attribute("data-step"))


def test_the_analysis_is_asked_for_and_shown_on_the_replay(
    browser: Any, open_page: Any, analysing: LiveServer, screenshots: Path, axe_source: str
) -> None:
    ana = make_user(analysing, "ana", can_log_in=True)
    keep_game(analysing, "mesa1.1", [ana, None])
    page = open_replay(browser, analysing, "mesa1.1", log_in="ana")
    assert page.locator(".analysis").get_attribute("data-status") == "none"
    assert page.locator(".an-chart").count() == 0

    page.get_by_role("button", name="Analizar la partida").click()
    page.wait_for_selector(".analysis[data-status='done'] .an-chart")
    result = httpx.get(f"{analysing.http}/api/games/mesa1.1/analysis", timeout=20).json()["result"]

    # The chart: a line per team, a mark per flagged move.
    flagged = [d for d in result["decisions"] if d["verdict"] in ("inaccuracy", "error")]
    assert flagged
    assert page.locator(".an-chart polyline").count() == 2
    assert page.locator(".an-chart circle.mark").count() == len(flagged)
    # Each player's accuracy, as the server figured it.
    shown = page.locator(".an-player .an-accuracy").all_inner_texts()
    assert [re.sub(r"\s", " ", text) for text in shown] == [
        "—" if p["accuracy"] is None else f"{round(p['accuracy'])} %" for p in result["players"]
    ]
    # The flagged moves, listed and marked on the timeline.
    assert page.locator(".an-flagged .an-move").count() == len(flagged)
    assert page.locator(".an-timeline .an-mark").count() == len(flagged)
    assert "mejor:" in page.locator(".an-flagged .an-move").first.inner_text()

    # At a flagged move whose best was a play: the better tile, pale, where the server put it.
    # (One whose next move has no better tile of its own, to see the ghost go a step on.)
    ghosts_at = {d["step"] for d in flagged if d["ghost"] is not None}
    index, decision = next(
        (i, d) for i, d in enumerate(flagged) if d["ghost"] is not None and d["step"] + 1 not in ghosts_at
    )
    page.locator(".an-flagged .an-move .an-go").nth(index).click()
    assert step(page) == decision["step"] - 1
    ghost = page.locator(".rp-line .ghost")
    assert ghost.count() == 1
    assert ghost.get_attribute("data-ghost") == decision["best"]["tile"]
    box = decision["ghost"]
    assert [float(ghost.get_attribute(name)) for name in ("x", "y", "width", "height")] == [
        box["x"],
        box["y"],
        box["w"],
        box["h"],
    ]
    assert "le convenía más" in page.locator(".rp-status").inner_text()
    assert page.locator(f".an-mark.current[data-frame='{decision['step'] - 1}']").count() == 1
    page.screenshot(path=screenshots / "analysis-1280.png", full_page=True)
    no_serious_violation(page, axe_source)

    # A step on: the move as it was played, and no ghost.
    page.locator(".rp-step.rp-forward").click()
    assert page.locator(".rp-line .ghost").count() == 0
    # A timeline mark goes to its move as well.
    page.locator(".an-timeline .an-mark").nth(index).click()
    assert step(page) == decision["step"] - 1

    # On a phone, the analysis done is shown to a guest too, nothing wider than the screen.
    phone = open_page(PHONE)
    phone.goto(f"{analysing.http}/#/partida/mesa1.1")
    phone.wait_for_selector(".analysis[data-status='done'] .an-chart")
    assert phone.locator(".an-request").is_hidden()
    phone.locator(".an-flagged .an-move .an-go").nth(index).tap()
    assert phone.locator(".rp-line .ghost").count() == 1
    width = phone.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE.width, width
    for mark in phone.locator(".an-timeline .an-mark").all():
        box = mark.bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= PHONE.width
    phone.screenshot(path=screenshots / "analysis-360.png", full_page=True)


def test_a_queued_analysis_shows_its_progress_and_a_guest_is_told_to_log_in(
    browser: Any, queued: LiveServer, console_errors: ConsoleErrors
) -> None:
    ana = make_user(queued, "ana", can_log_in=True)
    keep_game(queued, "mesa1.1", [ana, None])

    guest = open_replay(browser, queued, "mesa1.1", log_in=None)
    guest.get_by_role("button", name="Analizar la partida").click()
    guest.wait_for_selector(".an-status.error")
    assert guest.locator(".an-status").inner_text() == "Entra con tu cuenta para hacer esto."

    page = open_replay(browser, queued, "mesa1.1", log_in="ana")
    page.get_by_role("button", name="Analizar la partida").click()
    page.wait_for_selector(".analysis[data-status='pending'] .an-progress")
    assert page.locator(".an-progress").is_visible()
    assert page.locator(".an-status").inner_text() == "En cola: el análisis empieza pronto…"
    assert page.get_by_role("button", name="Analizar la partida").count() == 0
    guest.context.close()  # its refused request's console line is in by now
    console_errors[:] = [error for error in console_errors if "status of 401" not in error]
