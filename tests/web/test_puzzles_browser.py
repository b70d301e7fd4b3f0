"""«¿Qué jugarías?» in Chromium against a live server, at the three screen sizes: the home
page's card leads to the day's puzzle, the reader solves it by the page's own controls (a
tile, and an end when it fits both), the answer shows the verdict, the explanation, each
move's worth and the lesson's link; a wrong answer says so and names the best. axe-core
finds no serious or critical violation on the question nor on the answer; screenshots of
both go to test-output/screenshots/puzzles/<size>/."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.server.support.harness import LiveServer
from tests.web.conftest import BLOCKING, SIZES, Size, axe_violations
from tranque.server.puzzles.book import packaged


def blocking(page: Any, axe_source: str) -> list[str]:
    return [
        f"{v['id']} ({v['impact']}): {[n['target'] for n in v['nodes']]}"
        for v in axe_violations(page, axe_source)
        if v["impact"] in BLOCKING
    ]


def play(page: Any, action: dict[str, Any]) -> None:
    """Choose `action` as a reader does: its tile, then its end if the page asks."""
    page.click(f".pz-tile[data-tile='{action['tile']}']")
    if page.locator(".pz-ends button").count():
        page.click(f".pz-ends button[data-side={action['side']}]")


def play_by_keyboard(page: Any, action: dict[str, Any]) -> None:
    """Choose `action` with the keyboard only: focus its tile, Enter; the end's button then
    has the focus (the left one first), Tab moves to the right one."""
    page.focus(f".pz-tile[data-tile='{action['tile']}']")
    page.keyboard.press("Enter")
    if page.locator(".pz-ends button").count():
        focused = page.evaluate("() => document.activeElement.dataset.side")
        assert focused == "left"
        if action["side"] == "right":
            page.keyboard.press("Tab")
        page.keyboard.press("Enter")


@pytest.mark.parametrize("size", list(SIZES.values()), ids=list(SIZES))
def test_the_reader_solves_the_daily_puzzle_from_the_home_page(
    open_page: Callable[[Size], Any],
    live: LiveServer,
    screenshots: Path,
    axe_source: str,
    size: Size,
) -> None:
    folder = screenshots / "puzzles" / size.name
    folder.mkdir(parents=True, exist_ok=True)
    page = open_page(size)
    page.goto(live.http + "/")
    page.wait_for_selector("#puzzle-card-go")
    if size.name == "360x640":
        page.screenshot(path=str(folder / "home.png"), full_page=True)
    page.click("#puzzle-card-go")
    page.wait_for_selector(".pz-tile")
    page.wait_for_selector(".pz-line .placed")
    puzzle_id = page.get_attribute(".puzzle-page", "data-id")
    puzzle = packaged().puzzles[puzzle_id]
    assert "¿Qué jugarías?" in page.inner_text("h1")
    assert page.locator(".pz-tile").count() == len(puzzle["hand"])
    assert page.locator(".pz-line .placed").count() == len(
        [e for e in puzzle["events"] if e["type"] == "play"]
    )
    page.screenshot(path=str(folder / "question.png"), full_page=True)
    assert blocking(page, axe_source) == []
    play(page, puzzle["answer"]["accepted"][0])
    page.wait_for_selector(".pz-verdict.right")
    assert "Bien jugado" in page.inner_text(".pz-verdict")
    assert page.locator(".pz-worth tbody tr").count() == len(puzzle["answer"]["choices"])
    assert page.locator(".pz-worth tr.best.mine").count() == 1
    lesson = page.get_attribute(".pz-lesson", "href")
    assert lesson == f"#/aprender/{puzzle['answer']['lesson']}"
    assert (
        page.locator(".pz-after .placed").count()
        == page.locator(".pz-line:not(.pz-after-line) .placed").count() + 1
    )
    assert "Racha" in page.inner_text(".pz-streak")
    page.screenshot(path=str(folder / "answer.png"), full_page=True)
    assert blocking(page, axe_source) == []


def test_a_wrong_answer_names_the_best_and_another_puzzle_follows_in_english(
    open_page: Callable[[Size], Any], live: LiveServer, screenshots: Path
) -> None:
    page = open_page(SIZES["1280x800"])
    puzzle_id = sorted(packaged().puzzles)[0]
    puzzle = packaged().puzzles[puzzle_id]
    page.goto(live.http + f"/#/que-jugarias/{puzzle_id}")
    page.wait_for_selector(".pz-tile")
    assert page.get_attribute(".puzzle-page", "data-id") == puzzle_id
    wrong = next(a for a in puzzle["legal"] if a not in puzzle["answer"]["accepted"])
    play_by_keyboard(page, wrong)
    page.wait_for_selector(".pz-verdict.wrong")
    assert "No es la mejor" in page.inner_text(".pz-verdict")
    assert puzzle["answer"]["best"]["tile"] in page.inner_text(".pz-best")
    assert page.locator(".pz-worth tr.mine:not(.best)").count() == 1
    page.click(".pz-nav button")
    page.wait_for_function(
        "(left) => { const shown = document.querySelector('.puzzle-page');"
        " return Boolean(shown && shown.dataset.id && shown.dataset.id !== left); }",
        arg=puzzle_id,
    )
    page.evaluate("() => localStorage.setItem('tranque.lang', 'en')")
    page.reload()
    page.wait_for_selector(".pz-tile")
    assert "What would you play?" in page.inner_text("h1")
    shown = packaged().puzzles[page.get_attribute(".puzzle-page", "data-id")]
    play(page, shown["answer"]["accepted"][0])
    page.wait_for_selector(".pz-verdict.right")
    assert "Well played" in page.inner_text(".pz-verdict")
    assert "What each move is worth" in page.inner_text(".pz-result")
    folder = screenshots / "puzzles" / "1280x800"
    folder.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(folder / "answer_en.png"), full_page=True)
