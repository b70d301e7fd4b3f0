"""The seats of a table in Debian's Chromium against a live server, at the three sizes:

- bots have a face and a person's name, with their level beside it (badge, lobby);
- N6: a spectator sees seat 0 below the board, as a player sees themselves: partners opposite;
- N7: «Salir de la mesa» at a waiting table and «Abandonar» during a game, each saying what
  follows before it is confirmed (axe-core finds nothing serious with the dialog open);
- a provisional rating's «?» is a button that explains it.

Screenshots go to test-output/screenshots/seats/<size>/.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.server.support.harness import LiveServer
from tests.web.conftest import SIZES, ConsoleErrors, Size, axe_violations
from tests.web.test_accounts import sign_up
from tests.web.test_players_pages import seed_rated_duel
from tests.web.test_table_v2 import start_practice

# The table as a rated game would be: its `rating` says so (sync / the `rating` event).
RATED = """() => {
    const view = window.tranque.table;
    view.state = {...view.state, rating: {...(view.state.rating || {}), rated: true}};
    view.render();
}"""
LEVELS = ("Novato", "Bota gorda", "Jugador de patio", "Maestro")
ALL_SIZES = list(SIZES.values())


def shots(screenshots: Path, size: Size) -> Path:
    folder = screenshots / "seats" / size.name
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def box(page: Any, selector: str) -> dict[str, float]:
    found: dict[str, float] = page.locator(selector).first.bounding_box()
    assert found is not None, selector
    return found


def open_tools(page: Any) -> None:
    if not page.evaluate("() => document.querySelector('details.tools').open"):
        page.click("details.tools > summary")


@pytest.mark.parametrize("size", ALL_SIZES, ids=[s.name for s in ALL_SIZES])
def test_bots_have_faces_names_and_levels_at_the_table(
    browser: Any, live: LiveServer, console_errors: ConsoleErrors, screenshots: Path, size: Size
) -> None:
    context = browser.new_context(**size.context_options())
    page = console_errors.watch(context.new_page())
    start_practice(page, live, "clasico", "4", "pairs")
    page.wait_for_selector(".opponent .seat-face")
    faces = page.eval_on_selector_all(
        ".opponent .seat-face", "(imgs) => imgs.map((img) => img.getAttribute('src'))"
    )
    assert len(faces) == 3 and len(set(faces)) == 3, faces
    assert all(re.fullmatch(r"/avatars/[a-z]+\.svg", face) for face in faces), faces
    assert all(page.evaluate(f"() => fetch('{face}').then((r) => r.ok)") for face in faces)
    names = page.locator(".opponent .who").all_inner_texts()
    assert len(set(names)) == 3 and not any(re.match(r"Bot \d", name) for name in names), names
    levels = page.locator(".opponent .bot-level").all_inner_texts()
    assert levels == ["Jugador de patio"] * 3, levels  # a practice table's bots: heuristic
    for level in page.locator(".opponent .bot-level").all():
        assert level.is_visible()
    page.screenshot(path=shots(screenshots, size) / "bots-table.png")
    context.close()


def watch_a_pairs_table_of_bots(
    browser: Any, live: LiveServer, console_errors: ConsoleErrors, size: Size
) -> Any:
    """A public four-in-pairs table, its host at seat 0 and bots in the others, watched from
    «Partidas en juego → Mirar»: the spectator's page."""
    host_context = browser.new_context(viewport={"width": 1280, "height": 800})
    host = console_errors.watch(host_context.new_page())
    sign_up(host, live, f"ana{size.width}")
    host.click("#create-table")
    host.wait_for_selector("#start")
    host.select_option("select[name=players]", "4")
    host.select_option("select[name=mode]", "pairs")
    host.click("#start")
    host.wait_for_selector(".invite button.primary")
    host.click(".invite button.primary")
    host.wait_for_selector(".hand-tile")
    watcher = console_errors.watch(browser.new_context(**size.context_options()).new_page())
    watcher.goto(live.http + "/")
    watcher.wait_for_selector(".playing-list button.watch")
    entry = watcher.inner_text(".playing-list li")
    assert "(Jugador de patio)" in entry, entry  # the lobby says each bot's level
    watcher.click(".playing-list button.watch")
    watcher.wait_for_selector(".table-screen .opponent[data-seat='0'] .who")
    return watcher


@pytest.mark.parametrize("size", ALL_SIZES, ids=[s.name for s in ALL_SIZES])
def test_N6_a_spectator_sees_seat_0_below_the_board_and_partners_opposite(
    browser: Any, live: LiveServer, console_errors: ConsoleErrors, screenshots: Path, size: Size
) -> None:
    page = watch_a_pairs_table_of_bots(browser, live, console_errors, size)
    board = box(page, ".board")
    seat = {n: box(page, f".opponent[data-seat='{n}']") for n in range(4)}
    middle = board["x"] + board["width"] / 2
    assert seat[0]["y"] >= board["y"] + board["height"] - 1, (seat[0], board)  # below the board
    assert seat[2]["y"] + seat[2]["height"] <= board["y"] + 1, (seat[2], board)  # above it
    centre = seat[0]["x"] + seat[0]["width"] / 2
    assert abs(centre - middle) < board["width"] / 4, (seat[0], board)  # not in a corner
    if not size.phone:
        assert (
            seat[1]["x"] + seat[1]["width"] <= board["x"] + 1
            or seat[1]["x"] >= board["x"] + board["width"] - 1
        )
        assert abs(seat[2]["x"] + seat[2]["width"] / 2 - middle) < board["width"] / 4
    page.screenshot(path=shots(screenshots, size) / "spectator-pairs.png")
    page.context.close()


@pytest.mark.parametrize("size", ALL_SIZES, ids=[s.name for s in ALL_SIZES])
def test_N7_the_host_leaves_a_waiting_table_and_it_closes(
    browser: Any, live: LiveServer, console_errors: ConsoleErrors, screenshots: Path, size: Size
) -> None:
    context = browser.new_context(**size.context_options())
    page = console_errors.watch(context.new_page())
    sign_up(page, live, f"beto{size.width}")
    page.click("#create-table")
    page.wait_for_selector("#start")
    page.click("#start")
    page.wait_for_selector(".invite button.primary")
    table = page.evaluate("() => window.tranque.table.tableId")
    open_tools(page)
    assert page.locator("button.abandon-game").count() == 0
    page.click("button.leave-table")
    dialog = page.locator("dialog.leaving-dialog[open]")
    dialog.wait_for()
    assert "la mesa se cierra" in dialog.inner_text()
    page.screenshot(path=shots(screenshots, size) / "leave-confirm.png")
    dialog.locator("button.confirm-leave").click()
    page.wait_for_selector("#create-table")  # back home
    lobby = page.evaluate("() => fetch('/api/lobby').then((r) => r.json())")
    assert table not in {entry["table"] for entry in lobby}
    assert page.evaluate(f"() => localStorage.getItem('tranque.seat.{table}')") is None
    context.close()


@pytest.mark.parametrize("size", ALL_SIZES, ids=[s.name for s in ALL_SIZES])
def test_N7_abandon_says_what_follows_and_the_machine_plays_on(
    browser: Any,
    live: LiveServer,
    console_errors: ConsoleErrors,
    screenshots: Path,
    axe_source: str,
    size: Size,
) -> None:
    context = browser.new_context(**size.context_options())
    page = console_errors.watch(context.new_page())
    start_practice(page, live, "clasico", "2")
    table = page.evaluate("() => window.tranque.table.tableId")
    open_tools(page)
    assert page.locator("button.leave-table").count() == 0
    page.click("button.abandon-game")
    dialog = page.locator("dialog.leaving-dialog[open]")
    dialog.wait_for()
    text = dialog.inner_text()
    assert "la máquina juega por ti hasta el final" in text and "competitiva" not in text  # practice: casual
    assert page.evaluate("() => document.activeElement.classList.contains('stay')")
    page.screenshot(path=shots(screenshots, size) / "abandon-confirm.png")
    blocking = [v for v in axe_violations(page, axe_source) if v.get("impact") in ("serious", "critical")]
    assert not blocking, [(v["id"], v["help"]) for v in blocking]
    page.keyboard.press("Escape")  # changing one's mind changes nothing
    assert page.locator("dialog.leaving-dialog[open]").count() == 0
    # At a rated game the same question says it counts as lost (the table's `rating`).
    page.evaluate(RATED)
    page.click("button.abandon-game")
    assert "cuenta como perdida" in page.locator("dialog.leaving-dialog[open]").inner_text()
    page.locator("dialog.leaving-dialog[open] button.confirm-leave").click()
    page.wait_for_selector("#practice")  # back home
    assert page.evaluate(f"() => localStorage.getItem('tranque.seat.{table}')") is None
    assert page.locator("#resume").count() == 0 or not page.locator("#resume").is_visible()
    context.close()


@pytest.mark.parametrize("size", ALL_SIZES, ids=[s.name for s in ALL_SIZES])
def test_a_provisional_rating_explains_its_question_mark(
    browser: Any, live: LiveServer, console_errors: ConsoleErrors, screenshots: Path, size: Size
) -> None:
    context = browser.new_context(**size.context_options())
    page = console_errors.watch(context.new_page())
    winner, loser = f"eva{size.width}", f"fito{size.width}"
    register = {"name": loser, "password": "dominó-seguro-123"}
    httpx.post(live.http + "/api/register", json=register, timeout=20).raise_for_status()
    sign_up(page, live, winner)
    seed_rated_duel(live, winner, loser)
    page.goto(live.http + f"/#/jugador/{winner}")
    mark = page.locator(".rating.provisional button.prov-mark").first
    mark.wait_for()
    assert mark.get_attribute("aria-expanded") == "false"
    assert mark.get_attribute("aria-label") == "Rating provisional: ¿qué significa?"
    mark.focus()
    page.keyboard.press("Enter")  # not hover-only: the keyboard opens it
    note = page.locator(".rating.provisional .prov-note").first
    note.wait_for()
    assert mark.get_attribute("aria-expanded") == "true"
    assert re.search(r"empieza bajo .* más de 50 partidas", note.inner_text()), note.inner_text()
    page.screenshot(path=shots(screenshots, size) / "provisional-profile.png")
    page.keyboard.press("Escape")
    assert not note.is_visible()
    page.goto(live.http + "/#/clasificacion/1contra1")
    page.wait_for_selector(".ranking-table .rating.provisional button.prov-mark")
    page.locator(".ranking-table:not(.mine-only) .rating.provisional button.prov-mark").first.click()
    page.wait_for_selector(".ranking-table .prov-note:not([hidden])")
    page.screenshot(path=shots(screenshots, size) / "provisional-ranking.png")
    assert page.evaluate("document.documentElement.scrollWidth") <= size.width
    context.close()


# A rated game's `rating` as the table would have it: this seat new to the pool.
RATED_NEWCOMER = """() => {
    const view = window.tranque.table;
    const rating = {competitive: true, rated: true, reason: null, chances: [0.5, 0.5],
                    seats: [{seat: 0, rating: 450, provisional: true},
                            {seat: 1, rating: 1512, provisional: false}]};
    view.state = {...view.state, rating};
    view.render();
}"""


@pytest.mark.parametrize("size", ALL_SIZES, ids=[s.name for s in ALL_SIZES])
def test_the_tables_rating_line_explains_a_provisional_rating(
    browser: Any, live: LiveServer, console_errors: ConsoleErrors, screenshots: Path, size: Size
) -> None:
    context = browser.new_context(**size.context_options())
    page = console_errors.watch(context.new_page())
    start_practice(page, live, "clasico", "2")
    assert page.locator(".rating-line .prov-mark").count() == 0  # a practice game: no rating
    page.evaluate(RATED_NEWCOMER)
    assert "Tu rating: 450" in page.inner_text(".rating-line")
    page.click(".rating-line button.prov-mark")
    note = page.locator(".rating-line .prov-note")
    note.wait_for()
    assert "más de 50 partidas" in note.inner_text()
    page.screenshot(path=shots(screenshots, size) / "provisional-table.png")
    context.close()
