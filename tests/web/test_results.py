"""The end of a hand and of a game, in the browser: the last hand is shown before the
game-end card, every round of the game reads as checked by this browser, and «Revancha»
asks the server for a new game at the same table (docs/protocol.md, «rematch»)."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.server.support.harness import LiveServer
from tests.web.conftest import ConsoleErrors, browser_settings
from tests.web.driver import play_both_until, play_until
from tests.web.test_accounts import sign_up
from tests.web.test_practice import start_practice

LAST_ROUND = ".overlay.round-end.last-round"


def play_to_last_round(page: Any, seen: Counter[str]) -> None:
    """Play by clicking until the game's last round is on screen (never past it)."""
    play_until(page, LAST_ROUND, seen, through_last=False)


def test_the_last_hand_is_shown_before_the_game_end_card(
    browser: Any, live: LiveServer, console_errors: ConsoleErrors, screenshots: Path
) -> None:
    page = console_errors.watch(browser.new_page(viewport={"width": 1280, "height": 800}))
    start_practice(page, live)
    seen: Counter[str] = Counter()
    play_to_last_round(page, seen)
    card = page.locator(LAST_ROUND)
    assert page.locator(".overlay.game-end").count() == 0
    title = card.locator("h2").inner_text()
    found = re.fullmatch(r"Fin de la mano (\d+)", title)
    assert found, title
    rounds = int(found.group(1))
    assert card.locator(".res-last").inner_text() == "Última mano de la partida"
    assert card.locator(".why").inner_text()
    assert card.locator(".points li").count() >= 1
    total = card.locator(".res-total").inner_text()
    scores = [int(n) for n in re.findall(r"\b(\d+)\b", total)]
    assert total.startswith("Marcador: ") and max(scores) >= 100, total
    assert card.locator(".revealed-hand").count() == 2
    card.locator(".res-fair:not([data-state=checking])").wait_for()
    assert card.locator(".res-fair").inner_text() == "✔ Reparto verificado por este navegador"
    # No «Listo» on the last hand: only the way on to the final result.
    assert card.locator("button.res-ready").count() == 0
    page.screenshot(path=screenshots / "last-round-1280.png")

    card.locator("button.res-to-final").click()
    page.wait_for_selector(".overlay.game-end")
    assert page.locator(".overlay.round-end").count() == 0
    headline = page.locator(".overlay.game-end .why").inner_text()
    assert headline == "¡Ganaste!" or headline.startswith("Gana "), headline
    assert page.locator(".overlay.game-end .final").first.inner_text() == total
    checks = page.locator(".overlay.game-end .verified li")
    assert checks.count() == rounds
    for index in range(rounds):
        assert checks.nth(index).inner_text() == f"Mano {index + 1}: ✔ verificado"
    page.screenshot(path=screenshots / "game-end-after-last-round-1280.png", full_page=True)


def new_game_started(page: Any) -> None:
    """The game-end card gives way to a new game's first hand with the scores at zero."""
    page.wait_for_selector(".overlay.game-end", state="detached", timeout=15_000)
    page.wait_for_selector(".hand-tile", timeout=15_000)
    scores = page.locator(".table-header .score b").all_inner_texts()
    assert scores and all(score == "0" for score in scores), scores


def test_rematch_at_a_practice_table_starts_a_new_game_at_the_same_table(
    browser: Any, live: LiveServer, console_errors: ConsoleErrors
) -> None:
    page = console_errors.watch(browser.new_page(viewport={"width": 1280, "height": 800}))
    start_practice(page, live)
    play_until(page, ".overlay.game-end", Counter())
    url = page.url
    page.locator(".overlay.game-end button.res-rematch").click()
    new_game_started(page)
    assert page.url == url  # the same table, not a new practice table


def two_at_a_private_table(
    browser: Any, live: LiveServer, console_errors: ConsoleErrors, guest_viewport: dict[str, int]
) -> tuple[Any, Any]:
    """ana creates a private table for two at 1280×800, beto joins by its link on a phone;
    both pages once the hand is dealt."""
    host = console_errors.watch(browser.new_context(viewport={"width": 1280, "height": 800}).new_page())
    guest = console_errors.watch(browser.new_context(viewport=guest_viewport).new_page())
    sign_up(host, live, "ana")
    sign_up(guest, live, "beto")
    host.click("#create-table")
    host.wait_for_selector("#start")
    host.select_option("select[name=players]", "2")
    host.check("input[name=private]")
    host.click("#start")
    guest.goto(host.locator(".invite-link").input_value())
    host.wait_for_selector(".hand-tile")
    guest.wait_for_selector(".hand-tile")
    return host, guest


@pytest.mark.browser_game  # two people play a whole game: such tests take turns (tests/conftest.py)
def test_rematch_between_two_people_needs_both_and_starts_a_new_game_for_both(
    browser: Any, live: LiveServer, console_errors: ConsoleErrors, screenshots: Path
) -> None:
    host, guest = two_at_a_private_table(browser, live, console_errors, {"width": 390, "height": 844})

    seen: Counter[str] = Counter()
    play_both_until(host, guest, ".overlay.game-end", seen, timeout=600)
    host.locator(".overlay.game-end button.res-rematch").click()
    status = guest.locator(".overlay.game-end .res-rematch-status")
    status.filter(has_text="Quieren la revancha: ana.").wait_for()
    assert "Falta que acepte: Tú." in status.inner_text()
    assert guest.locator(".overlay.game-end").count() == 1  # nothing starts before beto agrees
    guest.screenshot(path=screenshots / "rematch-proposed-390.png")
    guest.locator(".overlay.game-end button.res-rematch").click()
    new_game_started(host)
    new_game_started(guest)
    host.context.close()
    guest.context.close()


def vote_to_annul(page: Any) -> None:
    """Open «Frases · Ayudas» and propose annulling, as a player does."""
    page.locator(".tools summary").click()
    page.locator(".tools button", has_text="Proponer anular").click()


@pytest.fixture
def live_slow_rounds() -> Iterator[LiveServer]:
    """A live server whose next hand is dealt 8 s after a round ends, not 1 s: long enough for a
    test to read both players' round-end cards however busy the machine is."""
    with LiveServer(browser_settings(between_rounds_seconds=8.0)) as server:
        yield server


def test_an_annulled_game_says_why_and_its_unfinished_hand_is_not_called_unverified(
    browser: Any, live_slow_rounds: LiveServer, console_errors: ConsoleErrors, screenshots: Path
) -> None:
    live = live_slow_rounds
    host, guest = two_at_a_private_table(browser, live, console_errors, {"width": 360, "height": 640})

    seen: Counter[str] = Counter()
    play_both_until(host, guest, ".overlay.round-end", seen)
    for page in (host, guest):
        page.locator(".overlay.round-end .res-fair:not([data-state=checking])").wait_for()
        assert (
            page.locator(".overlay.round-end .res-fair").inner_text()
            == "✔ Reparto verificado por este navegador"
        )
    # The second hand is dealt; both vote to annul it before it ends.
    host.wait_for_selector(".overlay.round-end", state="detached")
    guest.wait_for_selector(".overlay.round-end", state="detached")
    vote_to_annul(host)
    host.wait_for_selector(".tools button:has-text('Seguir jugando')", state="attached")
    vote_to_annul(guest)
    for page in (host, guest):
        card = page.locator(".overlay.game-end")
        card.wait_for()
        assert card.locator(".why").inner_text() == "Partida anulada"
        assert card.locator(".final").inner_text() == "Todos votaron por anularla: no cuenta para nadie."
        checks = card.locator(".verified li")
        assert checks.count() == 2
        assert checks.nth(0).inner_text() == "Mano 1: ✔ verificado"
        annulled = checks.nth(1).inner_text()
        assert annulled.startswith("Mano 2: anulada sin terminar (por votación)"), annulled
        assert "no verificado" not in annulled and "✘" not in annulled
    guest.screenshot(path=screenshots / "game-annulled-360.png", full_page=True)
    host.context.close()
    guest.context.close()


def start_preset_practice(page: Any, live: LiveServer, preset: str, players: str) -> None:
    page.goto(live.http + "/")
    page.click("#practice")
    page.wait_for_selector("#start")
    page.select_option("select[name=preset]", preset)
    page.select_option("select[name=players]", players)
    page.click("#start")
    page.wait_for_selector(".hand-tile")


@pytest.mark.parametrize(
    ("preset", "players", "rule"),
    [
        ("futbol", "2", None),
        (
            "en-contra",
            "3",
            "En contra: los puntos que quedan en una mano se suman en contra de quien los tiene",
        ),
        ("ponce", "4", None),
    ],
)
def test_a_round_end_speaks_its_presets_terms_and_never_contradicts_itself(
    browser: Any,
    live_paused: LiveServer,
    console_errors: ConsoleErrors,
    screenshots: Path,
    preset: str,
    players: str,
    rule: str | None,
) -> None:
    # The round-end card stays until "Listo" (live_paused): it is read at leisure.
    page = console_errors.watch(browser.new_page(viewport={"width": 390, "height": 844}))
    start_preset_practice(page, live_paused, preset, players)
    play_until(page, ".overlay.round-end", Counter(), through_last=False)
    card = page.locator(".overlay.round-end")
    lines = card.locator(".points li").all_inner_texts()
    total = card.locator(".res-total").inner_text()
    words = "\n".join([card.locator(".why").inner_text(), *lines, total])
    assert lines, words
    scored = [line for line in lines if re.search(r"\banota(s)? \d+|suma(s)? \d+ en contra|¡Gol", line)]
    if scored:
        assert not any(line.startswith("Nadie") for line in lines), words
    if preset == "futbol":
        assert total.startswith("Marcador: ") and " puntos y " in total and " gol" in total, total
        for line in lines:
            if "Gol" in line:
                assert "menos de 10" in line and "no anota" in line, line
    if preset == "en-contra":
        assert lines[0].startswith(str(rule)), words
        assert not any(" anota" in line or line.startswith("Anotas") for line in lines), words
        assert total.startswith("En contra: ") and total.endswith("(gana quien tenga menos)"), total
    if preset == "ponce":
        assert total.startswith("Palitos: "), total
        assert all("palito" in line for line in lines), words
    page.screenshot(path=screenshots / f"round-end-{preset}-390.png")


def test_the_round_end_card_reads_in_english(
    browser: Any, live_paused: LiveServer, console_errors: ConsoleErrors
) -> None:
    # The round-end card stays until "Listo" (live_paused): it is read at leisure.
    page = console_errors.watch(browser.new_page(viewport={"width": 1280, "height": 800}))
    page.goto(live_paused.http + "/")
    page.evaluate("localStorage.setItem('tranque.lang', 'en')")
    start_practice(page, live_paused)
    play_until(page, ".overlay.round-end", Counter(), through_last=False)
    card = page.locator(".overlay.round-end")
    card.locator(".res-fair:not([data-state=checking])").wait_for()
    assert re.fullmatch(r"End of round \d+", card.locator("h2").inner_text())
    assert card.locator(".res-fair").inner_text() == "✔ Deal verified by this browser"
    assert card.locator(".res-total").inner_text().startswith("Score: ")
    words = card.inner_text()
    for spanish in ("Mano", "anota", "Nadie", "Marcador", "Reparto", "puntos", "Tú"):
        assert spanish not in words, words
