"""The table's fixes, each pinned by a test that failed on the client before it:
the tools panel hides nothing needed to play (N1), every player sees and answers an annul
vote (N2), "Contar" off counts nothing on the board (N3), a page's toasts stay on it (N8),
the Spanish of the table (N10), a colour for every seat (N11), a blocked player's phrase
shows nothing (N12), and every 5- and 6-player practice table draws its hand (N14). Their
screenshots go to test-output/screenshots/table/<size>/."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.server.support.harness import LiveServer
from tests.web.conftest import SIZES, ConsoleErrors, Size, serious_violations
from tests.web.driver import act_once, play_until
from tests.web.test_results import two_at_a_private_table, vote_to_annul

SHOTS = "table"


def shoot(page: Any, screenshots: Path, size: Size, name: str) -> None:
    folder = screenshots / SHOTS / size.name
    folder.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=folder / f"{name}.png")


def practice(page: Any, live: LiveServer, **options: Any) -> None:
    """A practice table with these options, opened as the page's own button opens one."""
    page.goto(live.http + "/")
    page.wait_for_selector("#practice")
    body = {"preset": "clasico", "players": 2, **options}
    assert page.evaluate("(options) => window.tranque.practice(options)", body)
    page.wait_for_selector(".hand-tile", timeout=30_000)


# What covers the middle and the corners of an element (inset by 3 px): the element itself
# (or something inside it, or what holds it: a rounded corner) is on top at each point, or
# the list names what is.
COVERED = """(element) => {
    const box = element.getBoundingClientRect();
    const points = [[box.left + box.width / 2, box.top + box.height / 2],
                    [box.left + 3, box.top + 3], [box.right - 3, box.top + 3],
                    [box.left + 3, box.bottom - 3], [box.right - 3, box.bottom - 3]];
    return points.map(([x, y]) => document.elementFromPoint(x, y))
        .filter((top) => !top || !(element === top || element.contains(top) || top.contains(element)))
        .map((top) => (top ? top.outerHTML.slice(0, 80) : "(off screen)"));
}"""


def covered(page: Any, selector: str) -> dict[str, list[str]]:
    """Every element `selector` finds that something else covers, with what covers it."""
    found: dict[str, list[str]] = {}
    for index in range(page.locator(selector).count()):
        element = page.locator(selector).nth(index)
        if not element.is_visible():
            continue
        over: list[str] = element.evaluate(COVERED)
        if over:
            found[f"{selector}[{index}] {element.inner_text()[:30]!r}"] = over
    return found


# N1 ------------------------------------------------------------------------------------

PANEL_FITS = (
    "() => { const b = document.querySelector('.tools-body'); return b.scrollHeight <= b.clientHeight + 1 }"
)


@pytest.mark.parametrize("size", list(SIZES.values()), ids=list(SIZES))
def test_N1_the_open_tools_panel_covers_no_badge_nor_the_turn_line(
    open_page: Callable[[Size], Any], live: LiveServer, screenshots: Path, axe_source: str, size: Size
) -> None:
    page = open_page(size)
    practice(page, live, players=4, mode="individual")
    page.click(".tools summary")
    page.wait_for_selector(".tools[open] .tools-body")
    page.wait_for_function("() => document.querySelector('.turn-text').textContent !== ''")
    hidden = {
        **covered(page, ".badge"),
        **covered(page, ".turn-text"),
        **(covered(page, ".hand-tile") if size.phone else {}),
    }
    shoot(page, screenshots, size, "tools-open")
    assert hidden == {}, f"the open panel covers what is needed to play: {hidden}"
    # Its content fits: the last switch is inside the panel's own box, nothing cut. On a phone
    # the panel takes the felt's box at the table's next render (tools_sheet.js): on a loaded
    # machine that comes a moment after it opens, so the check waits for it, for at most 10 s.
    from playwright.sync_api import Error as PlaywrightError

    try:
        page.wait_for_function(PANEL_FITS, timeout=10_000)
    except PlaywrightError:
        pytest.fail("the panel scrolls: its last switch is cut")
    assert page.locator(".tools-body .aids label").last.is_visible()
    assert serious_violations(page, axe_source) == []  # the open panel, for a screen reader too


# N2 ------------------------------------------------------------------------------------


@pytest.mark.parametrize("size", list(SIZES.values()), ids=list(SIZES))
def test_N2_every_player_sees_an_open_annul_vote_and_anyone_can_say_no(
    browser: Any,
    live: LiveServer,
    console_errors: ConsoleErrors,
    screenshots: Path,
    axe_source: str,
    size: Size,
) -> None:
    host, guest = two_at_a_private_table(
        browser, live, console_errors, {"width": size.width, "height": size.height}
    )
    assert host.locator(".annul-vote").count() == 0
    vote_to_annul(host)
    banner = guest.locator(".annul-vote")
    banner.wait_for()
    guest.wait_for_timeout(3600)  # the toast that told of it is gone: the question stays
    assert banner.is_visible()
    assert banner.locator(".annul-text").inner_text() == "¿Anular la partida? Votaron que sí: ana (1/2)"
    assert (
        host.locator(".annul-vote .annul-text").inner_text() == "¿Anular la partida? Votaron que sí: Tú (1/2)"
    )
    assert banner.locator("button.annul-yes").is_visible() and banner.locator("button.annul-no").is_visible()
    assert host.locator(".annul-vote button.annul-yes").count() == 0  # ana said yes already
    shoot(guest, screenshots, size, "annul-vote")
    assert serious_violations(guest, axe_source) == []  # the vote's banner and its buttons
    # beto, who did not propose it, says no: the vote is over for both, and ana is told.
    banner.locator("button.annul-no").click()
    host.locator(".annul-vote").wait_for(state="detached")
    guest.locator(".annul-vote").wait_for(state="detached")
    host.locator("#toast.show", has_text="beto votó que no: la partida sigue.").wait_for()
    assert guest.locator(".overlay.game-end").count() == 0
    host.context.close()
    guest.context.close()


# Every text the toast shows from now on, in `window.toasts`.
TOASTS_SEEN = """() => {
    window.toasts = [];
    const toast = document.getElementById("toast");
    new MutationObserver(() => window.toasts.push(toast.textContent))
        .observe(toast, {childList: true, characterData: true, subtree: true, attributes: true});
}"""


# N3 ------------------------------------------------------------------------------------


def a_tile_on_the_board(page: Any) -> Any:
    seen: Counter[str] = Counter()
    while not page.locator(".line svg .placed").count():
        if not act_once(page, seen):
            page.wait_for_timeout(40)
    return page.locator(".line svg .placed").first


def test_N3_with_counting_off_a_board_tile_counts_nothing(
    browser: Any, live: LiveServer, console_errors: ConsoleErrors
) -> None:
    page = console_errors.watch(browser.new_page(viewport={"width": 1280, "height": 800}))
    practice(page, live)
    tile = a_tile_on_the_board(page)
    assert "ya se jug" in tile.locator("title").text_content()  # with the aid on it counts
    page.click(".tools summary")
    page.locator(".aids label", has_text="Contar").locator("input").uncheck()
    page.click(".tools summary")
    title = tile.locator("title").text_content()
    assert "jug" not in title and title, title  # the tile's name only
    page.evaluate(TOASTS_SEEN)
    tile.dispatch_event("click")
    page.wait_for_timeout(300)
    said = page.evaluate("() => window.toasts")
    assert not [text for text in said if "jug" in text], said


# N12 -----------------------------------------------------------------------------------


PHRASE = """([seat, said]) => {
    const table = window.tranque.table;
    const seq = table.state.seq + 1;
    table.handle({type: "event", seq, kind: "phrase", at: Date.now() / 1000, data: {seat, phrase: said}});
}"""


def test_N12_a_blocked_players_phrase_shows_nothing(
    browser: Any, live: LiveServer, console_errors: ConsoleErrors
) -> None:
    page = console_errors.watch(browser.new_page(viewport={"width": 1280, "height": 800}))
    practice(page, live)
    page.evaluate(PHRASE, [1, None])  # the first thing heard is a blocked player's phrase
    assert not page.locator("#toast.show").count()
    page.evaluate(PHRASE, [0, "buena"])  # your own
    page.locator("#toast.show", has_text="Tú: ¡Buena!").wait_for()
    page.evaluate("() => document.getElementById('toast').classList.remove('show')")
    page.evaluate(PHRASE, [1, None])  # the blocked player again: not your phrase once more
    page.wait_for_timeout(200)
    assert not page.locator("#toast.show").count(), page.locator("#toast").inner_text()


# N10 / N11 -----------------------------------------------------------------------------


def test_N10_your_own_pass_and_a_table_without_pozo_read_right(
    browser: Any, live: LiveServer, console_errors: ConsoleErrors
) -> None:
    page = console_errors.watch(browser.new_page(viewport={"width": 1280, "height": 800}))
    practice(page, live, players=4, mode="pairs")  # double-six for four: no tile is left over
    assert page.locator(".pozo").count() == 0, page.locator(".ends-bar").inner_text()
    # Your badge after you passed with 0 and 5 open (as the state holds it after such a pass).
    page.evaluate(
        """() => {
            const table = window.tranque.table;
            table.state = {...table.state, markers: {0: {kind: "passed"}}, passedOn: {0: [0, 5]}};
            table.render();
        }"""
    )
    badge = page.locator(".me .badge")
    mine = f"{badge.locator('.marker').inner_text()} {badge.locator('.passed-on').inner_text()}"
    assert mine == "Pasaste (no llevas 0 ni 5)", mine


def test_N10_a_table_with_a_pozo_shows_it(
    browser: Any, live: LiveServer, console_errors: ConsoleErrors
) -> None:
    page = console_errors.watch(browser.new_page(viewport={"width": 1280, "height": 800}))
    practice(page, live, players=2)
    assert page.locator(".pozo").inner_text().startswith("Pozo:")


LUMINANCE = """(color) => {
    const [r, g, b] = color.match(/\\d+(\\.\\d+)?/g).slice(0, 3).map(Number).map((c) => c / 255)
        .map((c) => (c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4));
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}"""


@pytest.mark.parametrize("players", [4, 5, 6])
def test_N11_every_seat_has_its_own_colour_in_the_score_bar(
    browser: Any, live: LiveServer, console_errors: ConsoleErrors, players: int
) -> None:
    page = console_errors.watch(browser.new_page(viewport={"width": 1280, "height": 800}))
    practice(page, live, players=players, mode="individual")
    scores = page.locator(".table-header .score")
    assert scores.count() == players
    marks: list[dict[str, Any]] = scores.evaluate_all(
        f"""(scores) => scores.map((score) => {{
            const style = getComputedStyle(score);
            const luminance = {LUMINANCE};
            const page = luminance(getComputedStyle(document.documentElement).backgroundColor);
            const line = luminance(style.borderBottomColor);
            return {{width: parseFloat(style.borderBottomWidth), style: style.borderBottomStyle,
                     color: style.borderBottomColor,
                     contrast: (Math.max(page, line) + 0.05) / (Math.min(page, line) + 0.05)}};
        }})"""
    )
    for seat, mark in enumerate(marks):
        assert mark["width"] >= 2 and mark["style"] == "solid", (seat, mark)
        assert mark["contrast"] >= 3, (seat, mark)  # WCAG 1.4.11, a graphic against the page
    assert len({mark["color"] for mark in marks}) == players, marks


def test_ordenar_fichas_sorts_the_hand_and_dragging_still_orders_it(
    browser: Any, live: LiveServer, console_errors: ConsoleErrors
) -> None:
    page = console_errors.watch(browser.new_page(viewport={"width": 1280, "height": 800}))
    practice(page, live, players=4, mode="pairs")  # no pozo: the hand only shrinks
    hand = "() => [...document.querySelectorAll('.hand-tile')].map((tile) => tile.dataset.tile)"
    sort = page.locator("button.sort-hand")
    assert sort.inner_text() == "Ordenar por número"
    sort.click()
    tiles = page.evaluate(hand)
    key = [tuple(sorted(map(int, tile.split("-")), reverse=True)) for tile in tiles]
    assert key == sorted(key), tiles
    assert sort.inner_text() == "Ordenar por puntos"
    sort.click()
    tiles = page.evaluate(hand)
    weights = [sum(map(int, tile.split("-"))) for tile in tiles]
    assert weights == sorted(weights, reverse=True), tiles
    # The player's own order still wins afterwards: the last tile moved to the front.
    page.evaluate("(order) => window.tranque.table.reorder(order[order.length - 1], order[0])", tiles)
    assert page.evaluate(hand)[0] == tiles[-1]


# N8 ------------------------------------------------------------------------------------


def test_N8_a_toast_stays_on_the_page_that_made_it(
    browser: Any, live: LiveServer, console_errors: ConsoleErrors
) -> None:
    page = console_errors.watch(browser.new_page(viewport={"width": 1280, "height": 800}))
    practice(page, live)
    # The table says something (a tile's count, a refusal…), and its reader goes elsewhere
    # while it shows; the table's own toast function is kept, as a late answer would use it.
    page.evaluate("() => (window.tableToast = window.tranque.table.toast)")
    page.evaluate("() => window.tableToast('Del 5 ya se jugaron 3 de 7.')")
    page.wait_for_selector("#toast.show")
    page.evaluate("() => (location.hash = '#/jugador/NadieAqui')")
    page.wait_for_selector("main h2:has-text('NadieAqui'), main :text('NadieAqui')")
    assert not page.locator("#toast.show").count(), "the table's toast followed to the next page"
    # An answer to the table's request arriving now is not said on this page either.
    page.evaluate("() => window.tableToast('Esa mesa no existe o ya terminó.')")
    page.wait_for_timeout(300)
    assert not page.locator("#toast.show").count(), page.locator("#toast").inner_text()
    console_errors[:] = [error for error in console_errors if "status of 404" not in error]


def test_N8_the_login_form_forgets_the_servers_error_once_edited(
    browser: Any, live: LiveServer, console_errors: ConsoleErrors
) -> None:
    page = console_errors.watch(browser.new_page(viewport={"width": 1280, "height": 800}))
    page.goto(live.http + "/#/entrar")
    page.fill("input[name=name]", "nadie_aqui")
    page.fill("input[name=password]", "contraseña-que-no-es")
    page.click("button[name=login]")
    error = page.locator(".form-error")
    page.wait_for_function("() => document.querySelector('.form-error').textContent.trim() !== ''")
    page.fill("input[name=password]", "otra-contraseña-123")
    assert error.inner_text().strip() == "", error.inner_text()
    console_errors[:] = [error for error in console_errors if "status of 401" not in error]


# Round summaries and the game's chart ---------------------------------------------------


@pytest.mark.parametrize("size", list(SIZES.values()), ids=list(SIZES))
def test_double_nine_tiles_in_a_round_summary_are_large_enough_to_count(
    open_page: Callable[[Size], Any], live_paused: LiveServer, screenshots: Path, size: Size
) -> None:
    page = open_page(size)
    practice(page, live_paused, players=5)  # five players: double-nine
    seen: Counter[str] = Counter()
    play_until(page, ".overlay.round-end, .overlay.game-end", seen)
    card = page.locator(".overlay.round-end")
    card.locator(".revealed-hand").first.wait_for()
    sizes = card.locator(".revealed-hand .tiles svg").evaluate_all(
        "(tiles) => tiles.map((tile) => tile.getBoundingClientRect().height)"
    )
    assert sizes, "nobody had a tile left"
    assert min(sizes) >= 24, sizes  # a half of a lying tile is as tall as the tile
    card.locator(".res-fair:not([data-state=checking])").wait_for()
    shoot(page, screenshots, size, "round-summary-double-nine")


GAME_END = """async () => {
    const table = window.tranque.table;
    const { showGameEnd } = await import("/static/js/results.js");
    const points = [[0, 23, 0, 0], [31, 0, 0, 0], [0, 0, 0, 47], [0, 58, 0, 0], [0, 0, 12, 0]];
    const results = points.map((list) => ({points: Object.fromEntries(list.map((n, s) => [String(s), n]))}));
    const scores = [0, 1, 2, 3].map((seat) => points.reduce((sum, list) => sum + list[seat], 0));
    table.state = {...table.state, results, scores, phase: "finished"};
    showGameEnd(table, {reason: "target", winners: [1], scores, goals: [0, 0, 0, 0]});
    return scores;
}"""


@pytest.mark.parametrize("size", list(SIZES.values()), ids=list(SIZES))
def test_the_game_end_chart_has_a_legend_and_its_numbers(
    open_page: Callable[[Size], Any],
    live: LiveServer,
    console_errors: ConsoleErrors,
    screenshots: Path,
    size: Size,
) -> None:
    page = open_page(size)
    practice(page, live, players=4, mode="individual")
    page.evaluate("() => (window.tranque.table.handle = () => {})")  # the live game left aside
    scores = page.evaluate(GAME_END)  # a finished game's totals, drawn by the page's own card
    card = page.locator(".overlay.game-end")
    legend = card.locator(".chart-legend li").all_inner_texts()
    names = page.evaluate("() => [1, 2, 3].map((seat) => window.tranque.table.state.seats[seat].name)")
    assert legend == [f"{name}: {score}" for name, score in zip(["Tú", *names], scores, strict=True)], legend
    totals = card.locator(".chart text.total").all_text_contents()
    assert sorted(totals) == sorted(str(score) for score in scores), totals
    ticks = card.locator(".chart text.tick").all_text_contents()
    assert "100" in ticks and "0" in ticks and "5" in ticks, ticks  # the target, zero, the last hand
    card.locator(".chart-legend").scroll_into_view_if_needed()
    shoot(page, screenshots, size, "game-end-chart")


# N14 -----------------------------------------------------------------------------------


def test_N14_many_five_and_six_player_practice_tables_all_draw_their_hands(
    browser: Any, live: LiveServer, console_errors: ConsoleErrors
) -> None:
    """Eight tables of five and six players started at once (the machine busy dealing
    double-nine and seating bots for all of them), two of whose pages lose their socket the
    moment their table is made (the deal then comes by the sync of the hello sent on
    reconnecting): every page draws its hand."""
    from playwright.sync_api import Error as PlaywrightError

    pages = []
    for index in range(8):
        page = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
        page.goto(live.http + "/")
        page.wait_for_selector("#practice")
        pages.append((index, page))
    for index, page in pages:
        players = 5 if index % 2 else 6
        cut = "window.tranque.socket.giveUp();" if index in (2, 5) else ""
        page.evaluate(
            f"""() => {{ window.tranque.practice({{preset: "clasico", players: {players}}})
                .then(() => {{ {cut} }}); }}"""
        )
    # The bots play on meanwhile (a forced draw adds a tile), so the hand drawn is compared with
    # the hand held at one moment, once the page has caught up: two reads apart can differ.
    same = """() => {
        const drawn = document.querySelectorAll(".hand-tile").length;
        return drawn > 0 && drawn === window.tranque.table.state.hand.length;
    }"""
    for index, page in pages:
        page.wait_for_selector(".hand-tile", timeout=60_000)
        try:
            page.wait_for_function(same, timeout=30_000)
        except PlaywrightError:
            drawn = page.locator(".hand-tile").count()
            held = page.evaluate("() => window.tranque.table.state.hand.length")
            raise AssertionError(f"page {index} draws {drawn} tiles of the {held} it holds") from None
        page.context.close()
