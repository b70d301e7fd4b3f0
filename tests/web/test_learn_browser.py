"""Aprender in the browser, through the page's own UI at the three sizes: a newcomer takes the
home page's offer, finds the path with the first lesson marked, and completes the first three
lessons (a wrong move's why shown in the live region, a move the rules refuse answered by the
engine, the stars at the end, «Siguiente lección»), by mouse and keyboard on the desktop and by
taps on the phones; the offer stays dismissed; a guest's stars persist in the browser; the
lesson on reading passes ends by counting the fives.
Screenshots of the path, a lesson with feedback and a lesson's stars go to
test-output/screenshots/learn/<size>/; axe-core finds no serious or critical violation on the
path and on a lesson."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.server.support.harness import LiveServer
from tests.web.conftest import AXE_REPORTS, BLOCKING, DESKTOP, PHONE, SIZES, Size, axe_violations


def tile(page: Any, key: str) -> Any:
    return page.locator(f".learn-hand .hand-tile[data-tile='{key}']")


def press_tile(page: Any, size: Size, key: str) -> None:
    """Choose (or play) a tile as this screen would: a tap on a phone, a click on the desktop."""
    if size.phone:
        tile(page, key).tap()
    else:
        tile(page, key).click()


def wait_state(page: Any, state: str) -> None:
    page.wait_for_selector(f".learn-lesson[data-state='{state}']")


def feedback(page: Any) -> str:
    text: str = page.locator(".learn-feedback").inner_text()
    return text


@pytest.mark.parametrize("size", list(SIZES.values()), ids=list(SIZES))
def test_a_newcomer_completes_the_first_three_lessons(
    open_page: Callable[[Size], Any], live: LiveServer, screenshots: Path, size: Size
) -> None:
    folder = screenshots / "learn" / size.name
    folder.mkdir(parents=True, exist_ok=True)
    page = open_page(size)
    page.goto(live.http + "/")
    offer = page.locator(".learn-offer")
    offer.wait_for()
    assert "¿Primera vez?" in offer.inner_text()
    assert page.locator("#learn-link").count() == 1  # also under «Cómo se juega»
    page.locator("#learn-offer-go").click()

    # The path: every lesson a card, the first one next.
    page.wait_for_selector(".learn-card")
    assert page.locator(".learn-card").count() == 15
    assert page.locator(".learn-card.next").get_attribute("data-lesson") == "fichas"
    page.screenshot(path=folder / "path.png", full_page=True)
    page.locator(".learn-card.next a").click()

    # Lesson 1, step 1: a wrong lead first (its why, read out by the live region), then the right one.
    wait_state(page, "playing")
    assert page.locator(".learn-feedback").get_attribute("aria-live") == "polite"
    assert "más vale" in page.locator(".learn-goal").inner_text()
    press_tile(page, size, "3-2")
    page.wait_for_selector(".learn-lesson[data-verdict='wrong']")
    assert "La 3-2 vale 5 puntos" in feedback(page)
    page.screenshot(path=folder / "lesson-feedback.png", full_page=True)
    press_tile(page, size, "6-5")
    wait_state(page, "step-done")
    page.locator("#learn-next-step").click()
    page.wait_for_selector(".learn-lesson[data-step='1'][data-state='playing']")
    press_tile(page, size, "5-5")
    wait_state(page, "lesson-done")
    assert page.locator(".learn-lesson").get_attribute("data-stars") == "2"  # one move over par
    assert "2 de 3 estrellas" in feedback(page)
    page.screenshot(path=folder / "lesson-stars.png", full_page=True)
    page.locator("#learn-next-lesson").click()

    # Lesson 2: a tile that does not fit (the engine says why), then matching and choosing an end.
    page.wait_for_selector(".learn-lesson[data-lesson='pegar'][data-state='playing']")
    if size.phone:
        tile(page, "6-1").tap()
        tile(page, "6-1").tap()  # a second tap plays it where it alone can go
    else:
        tile(page, "6-1").focus()
        page.keyboard.press("Enter")
        page.keyboard.press("Enter")
    page.wait_for_selector(".learn-lesson[data-verdict='illegal']")
    assert "6-1" in feedback(page)
    if size.phone:
        tile(page, "5-2").tap()
        page.locator(".learn-line .end-left").tap()
    else:  # the keyboard, as at the table: arrows to the tile, Enter to choose it, i for the left end
        page.locator(".learn-hand .hand-tile").first.focus()
        for _ in range(7):
            if page.evaluate("document.activeElement.dataset.tile") == "5-2":
                break
            page.keyboard.press("ArrowRight")
        assert page.evaluate("document.activeElement.dataset.tile") == "5-2"
        page.keyboard.press("Enter")
        page.keyboard.press("i")
    wait_state(page, "step-done")
    page.locator("#learn-next-step").click()
    page.wait_for_selector(".learn-lesson[data-step='1'][data-state='playing']")
    press_tile(page, size, "4-2")
    if size.phone:
        page.locator(".learn-line .end-right").tap()
    else:
        page.keyboard.press("d")
    wait_state(page, "lesson-done")
    assert page.locator(".learn-lesson").get_attribute("data-stars") == "2"
    page.locator("#learn-next-lesson").click()

    # Lesson 3: passing while a tile fits is refused; then play it.
    page.wait_for_selector(".learn-lesson[data-lesson='obligado'][data-state='playing']")
    page.locator(".learn-pass").click()
    page.wait_for_selector(".learn-lesson[data-verdict='illegal']")
    press_tile(page, size, "4-1")
    press_tile(page, size, "4-1")
    wait_state(page, "lesson-done")
    assert page.locator(".learn-lesson").get_attribute("data-stars") == "2"

    # Back on the path: three lessons with stars, the fourth next; the offer stays away.
    page.locator(".learn-back").click()
    page.wait_for_selector(".learn-card.next")
    assert page.locator(".learn-card.done").count() == 3
    assert page.locator(".learn-card.next").get_attribute("data-lesson") == "robar"
    page.goto(live.http + "/#/")
    page.wait_for_selector("#practice")
    assert page.locator(".learn-offer").count() == 0


def test_the_offer_can_be_dismissed_and_stays_dismissed(
    open_page: Callable[[Size], Any], live: LiveServer
) -> None:
    page = open_page(DESKTOP)
    page.goto(live.http + "/")
    page.locator("#learn-offer-close").click()
    assert page.locator(".learn-offer").count() == 0
    page.reload()
    page.wait_for_selector("#practice")
    assert page.locator(".learn-offer").count() == 0


def test_a_guests_stars_join_the_account_on_logging_in_in_english(
    open_page: Callable[[Size], Any], live: LiveServer
) -> None:
    page = open_page(DESKTOP)
    page.goto(live.http + "/#/aprender/pasar")
    page.wait_for_selector(".learn-lesson[data-state='playing']")
    page.locator(".learn-pass").click()
    wait_state(page, "lesson-done")
    assert page.locator(".learn-lesson").get_attribute("data-stars") == "3"
    page.goto(live.http + "/#/entrar")
    page.fill("input[name=name]", "aprendiz")
    page.fill("input[name=password]", "dominó-seguro-123")
    page.click("button[name=register]")
    page.wait_for_selector("#account:has-text('aprendiz')")
    page.locator("#lang").click()  # and the path in English
    page.goto(live.http + "/#/aprender")
    page.wait_for_selector(".learn-card.done")
    assert page.locator(".learn-card.done").get_attribute("data-lesson") == "pasar"
    assert page.locator(".learn-card.done .learn-stars").get_attribute("aria-label") == "3 of 3 stars"
    assert page.locator("h1").inner_text() == "Learn"
    kept = page.evaluate("fetch('/api/learn/progress').then((r) => r.json())")
    assert kept == {"progress": {"pasar": 3}}
    assert page.evaluate("localStorage.getItem('tranque.learn.progress')") is None


def test_reading_passes_then_counting_the_fives(
    open_page: Callable[[Size], Any], live: LiveServer, screenshots: Path
) -> None:
    """The lesson's second step counts a number: the mula leaves a 2 the opponent plays on (the
    why and the reply shown); the 5-2 on the 2 shows a 5 at both ends, and the opponent passes."""
    page = open_page(DESKTOP)
    page.goto(live.http + "/#/aprender/leer-pases")
    page.wait_for_selector(".learn-lesson[data-lesson='leer-pases'][data-state='playing']")
    press_tile(page, DESKTOP, "1-1")
    press_tile(page, DESKTOP, "1-1")  # it fits the 1 alone
    wait_state(page, "step-done")
    page.locator("#learn-next-step").click()
    page.wait_for_selector(".learn-lesson[data-step='1'][data-state='playing']")
    assert "siete fichas" in page.locator(".learn-goal").inner_text()
    press_tile(page, DESKTOP, "5-5")
    press_tile(page, DESKTOP, "5-5")
    page.wait_for_selector(".learn-lesson[data-verdict='wrong']")
    assert "cinco cincos en la mesa y dos en tu mano" in feedback(page)
    assert "Tu rival juega la 6-2" in feedback(page)
    page.wait_for_selector(".learn-after .placed")
    folder = screenshots / "learn" / DESKTOP.name
    folder.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=folder / "lesson-count.png", full_page=True)
    press_tile(page, DESKTOP, "5-2")
    page.locator(".learn-line .end-right").click()  # on the 2: a 5 at both ends
    wait_state(page, "lesson-done")
    assert "Tu rival pasa." in feedback(page)
    assert page.locator(".learn-lesson").get_attribute("data-stars") == "2"  # par 2, three tried


def reach_path(page: Any, base: str) -> None:
    page.goto(base + "/#/aprender")
    page.wait_for_selector(".learn-card.next")


def reach_lesson(page: Any, base: str) -> None:
    page.goto(base + "/#/aprender/parejas")
    page.wait_for_selector(".learn-lesson[data-state='playing']")
    page.locator(".learn-hand .hand-tile[data-tile='5-4']").click()
    page.locator(".learn-line .end-right").click()  # over the partner's 5
    page.wait_for_selector(".learn-after .placed")  # the punishing reply, drawn


SCREENS = {"path": reach_path, "lesson": reach_lesson}


@pytest.mark.parametrize(
    ("screen", "size"),
    [
        pytest.param(screen, size, id=f"{screen}-{size.name}")
        for screen in SCREENS
        for size in (DESKTOP, PHONE)
    ],
)
def test_axe_finds_no_serious_violation_in_aprender(
    axe_source: str,
    open_page: Callable[[Size], Any],
    live: LiveServer,
    screenshots: Path,
    screen: str,
    size: Size,
) -> None:
    page = open_page(size)
    SCREENS[screen](page, live.http)
    if screen == "lesson":  # a wrong move, its why and the board after the reply that punishes it
        folder = screenshots / "learn" / size.name
        folder.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=folder / "lesson-punish.png", full_page=True)
    violations = axe_violations(page, axe_source)
    (AXE_REPORTS / f"learn-{screen}-{size.name}.json").write_text(
        json.dumps(violations, indent=1, ensure_ascii=False), encoding="utf-8"
    )
    blocking = [rule for rule in violations if rule["impact"] in BLOCKING]
    assert blocking == [], blocking
