"""The replay viewer in the browser (#/partida/<game_id>, js/replay.js): a practice game
played to its end by clicking opens its replay from the game-end card; the keyboard and the
slider step through it to the end, where the scores are those the game ended with and the
line holds the last round's tiles. It works at 1280×800 and on a 360×640 phone."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path
from typing import Any

from tests.server.support.harness import LiveServer
from tests.web.conftest import BLOCKING, DESKTOP, PHONE, ConsoleErrors, axe_violations
from tests.web.driver import play_until
from tests.web.test_accessibility import describe
from tests.web.test_practice import start_practice

LAST_ROUND = ".overlay.round-end.last-round"


def numbers(text: str) -> list[int]:
    return [int(n) for n in re.findall(r"\b(\d+)\b", text)]


def score_line(text: str) -> list[int]:
    """The scores of a «Marcador: Tú 54 · Bot 1 110» line, side by side."""
    return [int(part.rsplit(" ", 1)[1]) for part in text.split(": ", 1)[1].split(" · ")]


def step(page: Any) -> int:
    return int(page.locator(".replay").get_attribute("data-step"))


def viewer_scores(page: Any) -> list[int]:
    return [int(n) for n in page.locator(".rp-score b").all_inner_texts()]


def no_serious_violation(page: Any, axe_source: str) -> None:
    blocking = [rule for rule in axe_violations(page, axe_source) if rule["impact"] in BLOCKING]
    assert not blocking, describe(blocking)


def test_a_finished_practice_game_replays_to_its_end(
    browser: Any,
    open_page: Any,
    live: LiveServer,
    console_errors: ConsoleErrors,
    screenshots: Path,
    axe_source: str,
) -> None:
    page = console_errors.watch(browser.new_page(viewport={"width": DESKTOP.width, "height": DESKTOP.height}))
    start_practice(page, live)
    play_until(page, LAST_ROUND, Counter(), through_last=False)
    card = page.locator(LAST_ROUND)
    rounds = numbers(card.locator("h2").inner_text())[0]
    final = score_line(card.locator(".res-total").inner_text())
    board = page.locator("#line .placed").count()
    assert board > 0
    card.locator("button.res-to-final").click()
    page.wait_for_selector(".overlay.game-end")
    assert score_line(page.locator(".overlay.game-end .final").first.inner_text()) == final

    page.locator(".overlay.game-end a.res-replay").click()
    page.wait_for_selector(".replay .rp-controls")
    assert page.locator(".overlay").count() == 0
    game_id = page.evaluate("decodeURIComponent(location.hash.split('/')[2])")
    assert re.fullmatch(r"[\w-]+\.1", game_id), game_id
    slider = page.locator(".rp-slider")
    last = int(slider.get_attribute("max"))
    assert last > 2 * rounds  # a deal, some moves and an end in every round

    # The start: the first deal, every hand face up (seven tiles each), nothing on the table.
    assert step(page) == 0
    assert page.locator(".replay").get_attribute("data-kind") == "deal"
    assert [page.locator(f".rp-seat[data-seat='{s}'] .rp-tile").count() for s in (0, 1)] == [7, 7]
    assert page.locator(".rp-line .placed").count() == 0
    assert viewer_scores(page) == [0, 0]
    assert page.locator(".rp-round").count() == rounds
    assert page.locator(".rp-chart polyline").count() == 2

    # The keyboard: a step on, then to the end.
    page.locator("body").click(position={"x": 5, "y": 5})
    page.keyboard.press("ArrowRight")
    assert step(page) == 1
    assert page.locator(".rp-line .placed").count() == 1
    assert " sale con el " in page.locator(".rp-said").inner_text()
    page.keyboard.press("End")
    assert step(page) == last
    assert page.locator(".replay").get_attribute("data-kind") == "end"
    assert viewer_scores(page) == final
    assert page.locator(".rp-line .placed").count() == board
    assert page.locator(".rp-step.rp-forward").is_disabled()
    page.screenshot(path=screenshots / "replay-end-1280.png", full_page=True)
    no_serious_violation(page, axe_source)
    page.keyboard.press("Home")
    assert step(page) == 0
    page.keyboard.press("ArrowLeft")
    assert step(page) == 0

    # The slider: its own keys, then the buttons back and forth.
    slider.focus()
    page.keyboard.press("End")
    assert step(page) == last
    assert viewer_scores(page) == final
    assert page.locator(".rp-line .placed").count() == board
    page.locator(".rp-step.rp-back").click()
    assert step(page) == last - 1
    page.locator(".rp-step.rp-first").click()
    assert step(page) == 0
    page.locator(".rp-step.rp-last").click()
    assert step(page) == last

    # A round's summary jumps to its end; the links share and download this game.
    page.locator(".rp-round[data-round='0'] .rp-go").click()
    assert page.locator(".replay").get_attribute("data-kind") == "end"
    assert page.locator(".replay").get_attribute("data-round") == "0"
    share = page.locator("a.rp-share")
    assert share.get_attribute("href") == f"{live.http}/partida/{game_id}"
    download = page.locator("a.rp-download")
    record = page.request.get(live.http + download.get_attribute("href"))
    assert record.status == 200 and record.json()["scores"] == final

    # The same replay on a phone: nothing wider than the screen, the controls in reach.
    phone = console_errors.watch(open_page(PHONE))
    phone.goto(f"{live.http}/#/partida/{game_id}")
    phone.wait_for_selector(".replay .rp-controls")
    phone.locator(".rp-step.rp-last").tap()
    assert step(phone) == last
    assert viewer_scores(phone) == final
    assert phone.locator(".rp-line .placed").count() == board
    width = phone.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE.width, width
    for control in ("rp-first", "rp-back", "rp-forward", "rp-last"):
        box = phone.locator(f".rp-step.{control}").bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= PHONE.width
        assert box["height"] >= 44
    line = phone.locator(".rp-line").bounding_box()
    assert line is not None and line["width"] > 250 and line["height"] > 150
    phone.screenshot(path=screenshots / "replay-end-360.png", full_page=True)
    no_serious_violation(phone, axe_source)


def test_a_game_nobody_kept_says_so(browser: Any, live: LiveServer, console_errors: ConsoleErrors) -> None:
    page = console_errors.watch(browser.new_page(viewport={"width": DESKTOP.width, "height": DESKTOP.height}))
    page.goto(f"{live.http}/#/partida/nada.1")
    page.wait_for_selector(".rp-missing")
    assert page.locator(".rp-missing").inner_text() == "Esa partida no existe o no la puedes ver."
    assert page.locator(".rp-controls").count() == 0
    # The one error the page logs is the browser's own note of the 404 this test asked for.
    expected = [
        error for error in console_errors if "status of 404" in error and "/api/games/nada.1/replay" in error
    ]
    assert len(expected) == 1, list(console_errors)
    console_errors[:] = [error for error in console_errors if error not in expected]
