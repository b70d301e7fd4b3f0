"""The table screen of the browser client v2, in Debian's Chromium against a live server:
the page is updated in place (an open panel stays open), ponce's palitos show on the pass
that earns them, a tile is dragged onto an end with the mouse and with a finger, the host
keeps the invitation across a reload, and a phone shows every name, partner mark and toast
whole. Each test fails on the client before the split of TableView."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from tests.server.support.harness import LiveServer
from tests.web.conftest import ConsoleErrors
from tests.web.driver import act_once
from tests.web.test_accounts import sign_up

Box = dict[str, float]


def start_practice(
    page: Any, live: LiveServer, preset: str = "clasico", players: str = "2", mode: str = ""
) -> None:
    page.goto(live.http + "/")
    page.click("#practice")
    page.wait_for_selector("#start")
    page.wait_for_selector(f"select[name=preset] option[value='{preset}']", state="attached")
    page.select_option("select[name=preset]", preset)
    page.select_option("select[name=players]", players)
    if mode:
        page.select_option("select[name=mode]", mode)
    page.click("#start")
    page.wait_for_selector(".hand-tile")


def seq(page: Any) -> int:
    # (`lastSeq` on the client before v2, so the test runs there too and fails on its point.)
    value: int = page.evaluate("() => window.tranque.table.state.seq ?? window.tranque.table.lastSeq")
    return value


# A legal play on a real end of the line (not the lead), for this seat now: {tile, side}.
PLAY_ON_AN_END = """() => {
    const s = window.tranque.table.state;
    const you = s.you ?? window.tranque.table.seat;  // (the client before v2 kept the seat outside)
    if (!s.options || !s.ends || !s.turn || s.turn.seat !== you) return null;
    const play = s.options.legal_actions.find((a) => a.type === "play" && a.side);
    return play ? {tile: play.tile, side: play.side} : null;
}"""


# A tile this seat may play on either end now: {tile, side: "left"}.
PLAY_ON_BOTH_ENDS = """() => {
    const s = window.tranque.table.state;
    const you = s.you ?? window.tranque.table.seat;  // (the client before v2 kept the seat outside)
    if (!s.options || !s.ends || !s.turn || s.turn.seat !== you) return null;
    const plays = s.options.legal_actions.filter((a) => a.type === "play" && a.side);
    const both = plays.find((a) => plays.some((b) => b.tile === a.tile && b.side !== a.side));
    return both ? {tile: both.tile, side: both.side} : null;
}"""


# Whether this seat is to act now and holds its options for this very turn.
OPTIONS_IN_HAND = """() => {
    const table = window.tranque.table;
    const s = table.state;
    const you = s.you ?? table.seat;  // (the client before v2 kept the seat outside)
    return Boolean(s.turn && s.turn.seat === you && s.options && s.options.turn_id === s.turn.turn_id);
}"""


def wait_for_a_play_on_an_end(
    page: Any, seen: Counter[str], timeout: float = 240, wanted: str = PLAY_ON_AN_END
) -> dict[str, str]:
    """Play (by clicking, as the driver does) until this seat may put a tile on an end."""
    import time

    # Both read at one instant: the driver moves only on a turn whose options are in and hold
    # no such play. (Read apart, the options could arrive between the two looks, and the
    # driver would play the very chance this waits for.)
    look = f"() => ({{ready: ({OPTIONS_IN_HAND})(), play: ({wanted})()}})"
    deadline = time.monotonic() + timeout
    while True:
        now: dict[str, Any] = page.evaluate(look)
        play: dict[str, str] | None = now["play"]
        if play and page.locator(f'.hand-tile[data-tile="{play["tile"]}"]').count():
            return play
        assert time.monotonic() < deadline, f"no play on an end came up; moves: {dict(seen)}"
        if page.locator(".overlay.round-end button.primary:not([disabled])").count():
            if not act_once(page, seen):
                page.wait_for_timeout(40)
            continue
        if play or not now["ready"]:
            # Not this seat's turn, its options not in yet, or the play not drawn yet: only wait.
            page.wait_for_timeout(40)
            continue
        # This seat's turn, and its options hold only a lead or a draw/pass: play that by clicking.
        act_once(page, seen)


def center(page: Any, selector: str) -> tuple[float, float]:
    box = page.locator(selector).first.bounding_box()
    assert box, selector
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


def end_selector(side: str) -> str:
    return f".end-{side}[data-pips]"


def test_the_tools_panel_stays_open_across_twenty_events(
    browser: Any, live: LiveServer, console_errors: ConsoleErrors, screenshots: Path
) -> None:
    page = console_errors.watch(browser.new_page(viewport={"width": 1280, "height": 800}))
    start_practice(page, live)
    page.click(".tools summary")
    page.wait_for_selector(".tools[open]")
    panel = page.locator(".tools").element_handle()
    start = seq(page)
    seen: Counter[str] = Counter()
    while seq(page) < start + 20:
        if not act_once(page, seen):
            page.wait_for_timeout(40)
    assert page.evaluate("(panel) => panel.isConnected && panel.open", panel), (
        "the panel closed or was rebuilt"
    )
    assert page.locator(".tools[open] .phrases button").count() == 12  # the quick phrases
    page.screenshot(path=screenshots / "tools-open-1280.png")


def test_ponce_palitos_change_on_the_pass_that_earns_them(
    browser: Any, live: LiveServer, console_errors: ConsoleErrors, screenshots: Path
) -> None:
    page = console_errors.watch(browser.new_page(viewport={"width": 1280, "height": 800}))
    start_practice(page, live, preset="ponce", players="4", mode="pairs")
    assert "palitos" in page.locator(".scores").inner_text()
    # What the score bar says right after the page handled each pass that scores.
    page.evaluate(
        """() => {
            const table = window.tranque.table;
            const handle = table.handle.bind(table);
            window.scoringPasses = [];
            table.handle = (message) => {
                handle(message);
                if (message.type === "event" && message.kind === "action" && message.data.scores) {
                    window.scoringPasses.push({
                        scores: message.data.scores,
                        bar: document.querySelector(".scores").innerText,
                        phase: table.state.phase,
                        said: document.querySelector(".announcer").textContent,
                    });
                }
            };
        }"""
    )
    seen: Counter[str] = Counter()
    while not page.evaluate("() => window.scoringPasses.length"):
        if not act_once(page, seen):
            page.wait_for_timeout(40)
    [first] = page.evaluate("() => window.scoringPasses.slice(0, 1)")
    assert first["phase"] == "playing", "the palitos must count before the hand ends"
    for score in first["scores"]:
        word = "palito" if score == 1 else "palitos"
        assert f"{score} {word}" in first["bar"], first
    assert re.search(r"(pasó|Pasaste): \d+ palitos? para Pareja [AB]", first["said"]), first
    page.screenshot(path=screenshots / "ponce-palitos-1280.png")


def test_a_tile_dragged_onto_an_end_with_the_mouse_is_played_there(
    browser: Any, live: LiveServer, console_errors: ConsoleErrors, screenshots: Path
) -> None:
    page = console_errors.watch(browser.new_page(viewport={"width": 1280, "height": 800}))
    start_practice(page, live)
    seen: Counter[str] = Counter()
    play = wait_for_a_play_on_an_end(page, seen)
    before = page.evaluate("() => window.tranque.table.state.layout.length")
    page.evaluate(
        """() => {
            window.said = [];
            const live = document.querySelector(".announcer");
            const watch = new MutationObserver(() => window.said.push(live.textContent));
            watch.observe(live, {childList: true, characterData: true, subtree: true});
        }"""
    )
    x, y = center(page, f'.hand-tile[data-tile="{play["tile"]}"]')
    to_x, to_y = center(page, end_selector(play["side"]))
    page.mouse.move(x, y)
    page.mouse.down()
    page.mouse.move(to_x, to_y, steps=12)
    page.mouse.up()
    page.wait_for_selector(f'.hand-tile[data-tile="{play["tile"]}"]', state="detached")
    page.wait_for_function(f"() => window.tranque.table.state.layout.length > {before}")
    played = page.evaluate("() => window.tranque.table.state.announcements.filter((a) => a.seat === 0).pop()")
    assert (played["tile"], played["side"]) == (play["tile"], play["side"])
    page.wait_for_function("() => window.said.some((text) => text.startsWith('Jugaste'))")
    mine = next(text for text in page.evaluate("() => window.said") if text.startswith("Jugaste"))
    where = "izquierda" if play["side"] == "left" else "derecha"
    assert re.fullmatch(rf"Jugaste [a-z]+-[a-z]+ a la {where}", mine), mine


def test_a_tile_dragged_onto_an_end_with_a_finger_is_played_there(
    browser: Any, live: LiveServer, console_errors: ConsoleErrors, screenshots: Path
) -> None:
    context = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True)
    page = console_errors.watch(context.new_page())
    start_practice(page, live)
    page.evaluate(
        "() => window.addEventListener('pointerdown', (e) => (window.lastPointer = e.pointerType), true)"
    )
    seen: Counter[str] = Counter()
    play = wait_for_a_play_on_an_end(page, seen)
    x, y = center(page, f'.hand-tile[data-tile="{play["tile"]}"]')
    to_x, to_y = center(page, end_selector(play["side"]))
    touch_drag(context, page, (x, y), (to_x, to_y))
    page.wait_for_selector(f'.hand-tile[data-tile="{play["tile"]}"]', state="detached")
    assert page.evaluate("() => window.lastPointer") == "touch"
    played = page.evaluate("() => window.tranque.table.state.announcements.filter((a) => a.seat === 0).pop()")
    assert (played["tile"], played["side"]) == (play["tile"], play["side"])
    page.screenshot(path=screenshots / "touch-drag-390.png")
    context.close()


def touch_drag(context: Any, page: Any, start: tuple[float, float], end: tuple[float, float]) -> None:
    """A finger put down at `start`, moved to `end` and lifted: real touch input (CDP)."""
    touch = context.new_cdp_session(page)
    (x, y), (to_x, to_y) = start, end
    touch.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": x, "y": y}]})
    for step in range(1, 13):
        point = {"x": x + (to_x - x) * step / 12, "y": y + (to_y - y) * step / 12}
        touch.send("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [point]})
    touch.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})


@pytest.mark.parametrize("pointer", ["mouse", "touch"])
def test_the_hand_is_reordered_by_dragging_and_a_tap_below_a_tile_flips_it(
    browser: Any, live: LiveServer, console_errors: ConsoleErrors, pointer: str
) -> None:
    touch = pointer == "touch"
    context = browser.new_context(
        viewport={"width": 390, "height": 844} if touch else {"width": 1280, "height": 800},
        has_touch=touch,
        is_mobile=touch,
    )
    page = console_errors.watch(context.new_page())
    start_practice(page, live)
    # On this player's turn with a tile to play the hand holds still (no draw is made for
    # them meanwhile): a drag aimed at one tile lands on it however slow the machine is.
    page.wait_for_selector(".hand-tile.playable")
    order = page.locator(".hand-tile").evaluate_all("tiles => tiles.map(t => t.dataset.tile)")
    first, last = order[0], order[-1]
    x, y = center(page, f'.hand-tile[data-tile="{last}"]')
    to_x, to_y = center(page, f'.hand-tile[data-tile="{first}"]')
    if touch:
        touch_drag(context, page, (x, y), (to_x, to_y))
    else:
        page.mouse.move(x, y)
        page.mouse.down()
        page.mouse.move(to_x, to_y, steps=10)
        page.mouse.up()
    # Moved before the tile it was dropped on: the first.
    page.wait_for_function(
        f"""() => {{
            const order = [...document.querySelectorAll('.hand .hand-tile')].map((t) => t.dataset.tile);
            const moved = order.indexOf('{last}');
            return moved < {len(order) - 1} && moved < order.indexOf('{first}') + 2;
        }}"""
    )
    tile = page.locator(f'.hand-tile[data-tile="{first}"]')
    face = tile.get_attribute("data-face")
    flip = page.locator(f'.hand-tile[data-tile="{first}"] .flip-zone')
    if touch:
        flip.tap()
    else:
        flip.click()
    a, b = first.split("-")
    page.wait_for_function(
        f"() => document.querySelector('.hand-tile[data-tile=\"{first}\"]').dataset.face === '{b}-{a}'"
    )
    assert face == f"{a}-{b}"
    context.close()


def test_the_keyboard_plays_a_tile(browser: Any, live: LiveServer, console_errors: ConsoleErrors) -> None:
    page = console_errors.watch(browser.new_page(viewport={"width": 1280, "height": 800}))
    start_practice(page, live)
    seen: Counter[str] = Counter()
    play = wait_for_a_play_on_an_end(page, seen)
    page.locator(".hand-tile[tabindex='0']").focus()
    order = page.locator(".hand-tile").evaluate_all("tiles => tiles.map(t => t.dataset.tile)")
    for _ in range(order.index(play["tile"])):
        page.keyboard.press("ArrowRight")
    assert page.evaluate("() => document.activeElement.dataset.tile") == play["tile"]
    page.keyboard.press("Enter")
    if page.locator(".end.choose").count():
        page.keyboard.press("i" if play["side"] == "left" else "d")
    page.wait_for_selector(f'.hand-tile[data-tile="{play["tile"]}"]', state="detached")


def test_a_reload_keeps_the_invitation_and_the_bots_button(
    browser: Any, live: LiveServer, console_errors: ConsoleErrors, screenshots: Path
) -> None:
    context = browser.new_context(
        viewport={"width": 1280, "height": 800}, permissions=["clipboard-read", "clipboard-write"]
    )
    context.route("https://wa.me/**", lambda route: route.fulfill(body="whatsapp", content_type="text/plain"))
    page = console_errors.watch(context.new_page())
    sign_up(page, live, "ana")
    page.click("#create-table")
    page.wait_for_selector("#start")
    page.select_option("select[name=players]", "4")
    page.select_option("select[name=mode]", "pairs")
    page.check("input[name=private]")
    page.click("#start")
    page.wait_for_selector(".invite-link")
    link = page.locator(".invite-link").input_value()
    assert re.fullmatch(re.escape(live.http) + r"/mesa\?invite=[\w%-]+", link), link
    page.reload()
    page.wait_for_selector(".invite-link")
    assert page.locator(".invite-link").input_value() == link
    box = page.locator(".invite-link")
    assert box.evaluate("(el) => el.scrollWidth <= el.clientWidth && el.scrollHeight <= el.clientHeight"), (
        "the link is cut"
    )
    page.click(".copy-link")
    assert page.evaluate("() => navigator.clipboard.readText()") == link
    if not page.evaluate("() => Boolean(navigator.share)"):
        with context.expect_page() as popup:
            page.click(".share-link")
        assert popup.value.url.startswith("https://wa.me/?text=")
        assert link in popup.value.url.replace("%3A", ":").replace("%2F", "/").replace("%3F", "?").replace(
            "%3D", "="
        )
        popup.value.close()
    page.screenshot(path=screenshots / "host-panel-1280.png")
    page.click(".invite button.primary")
    page.wait_for_selector(".hand-tile")
    assert not page.locator(".invite").count()
    context.close()


def boxes(page: Any, selector: str) -> list[Box]:
    found: list[Box] = page.locator(selector).evaluate_all(
        """els => els.map((el) => {
            const r = el.getBoundingClientRect();
            return {x: r.x, y: r.y, width: r.width, height: r.height};
        })"""
    )
    return found


def measure(page: Any, selectors: list[str]) -> dict[str, list[Box]]:
    """The boxes of everything `selectors` find, measured in one go (the page moves on)."""
    found: dict[str, list[Box]] = page.evaluate(
        """(selectors) => Object.fromEntries(selectors.map((selector) => [selector,
            [...document.querySelectorAll(selector)].map((el) => {
                const r = el.getBoundingClientRect();
                return {x: r.x, y: r.y, width: r.width, height: r.height};
            })]))""",
        selectors,
    )
    return found


def overlap(a: Box, b: Box) -> bool:
    return not (
        a["x"] + a["width"] <= b["x"]
        or b["x"] + b["width"] <= a["x"]
        or a["y"] + a["height"] <= b["y"]
        or b["y"] + b["height"] <= a["y"]
    )


@pytest.mark.parametrize(
    ("width", "height", "mode"), [(360, 640, "pairs"), (360, 640, "individual"), (390, 844, "pairs")]
)
def test_a_phone_shows_six_players_whole(
    browser: Any,
    live: LiveServer,
    console_errors: ConsoleErrors,
    screenshots: Path,
    width: int,
    height: int,
    mode: str,
) -> None:
    page = console_errors.watch(browser.new_page(viewport={"width": width, "height": height}))
    start_practice(page, live, players="6", mode=mode)
    seen: Counter[str] = Counter()
    for _ in range(3):  # a few moves, so the line has tiles and badges have markers
        while not act_once(page, seen):
            page.wait_for_timeout(40)
    cut = page.evaluate(
        """() => [...document.querySelectorAll('.who, .partner-mark, .team-mark, .scores, .table-header')]
            .filter((el) => el.scrollWidth > el.clientWidth)
            .map((el) => el.className + ': ' + el.textContent)"""
    )
    assert cut == [], cut
    if mode == "pairs":
        assert page.locator(".opponent .partner-mark").count() == 1
        assert page.locator(".opponent .partner-mark").inner_text() == "(compañero)"
        assert page.locator(".opponent .team-mark").count() == 5, (
            "a team is told by its letter, not colour alone"
        )
    shown = [
        box for box in boxes(page, ".table-header .score") if box["width"] > 1
    ]  # not the screen-reader copies
    assert shown
    tops = {round(box["y"]) for box in shown}
    assert len(tops) == 1, f"the header takes more than one line: {tops}"
    pairs: list[list[Box]] = page.evaluate(
        """() => [...document.querySelectorAll('.badge')].map((badge) => [badge.querySelector('.clock'),
            badge.querySelector('.who')].map((el) => {
                const r = el.getBoundingClientRect();
                return {x: r.x, y: r.y, width: r.width, height: r.height};
            }))"""
    )  # measured at once: the page moves on between two measurements
    for clock, name in pairs:
        assert not overlap(clock, name), (clock, name)
    seen_at_once = measure(page, [".hand-tile .tile-face svg", ".line-svg .placed"])
    hand_tile = seen_at_once[".hand-tile .tile-face svg"][0]
    for placed in seen_at_once[".line-svg .placed"]:
        assert min(placed["width"], placed["height"]) <= hand_tile["width"] + 0.5, (placed, hand_tile)
    # A toast (a phrase said) never covers the hand.
    page.click(".tools summary")
    page.click(".phrases button >> nth=0")
    page.wait_for_selector("#toast.show")
    page.wait_for_function("() => document.getElementById('toast').getAnimations().length === 0")
    seen_at_once = measure(page, ["#toast", ".hand"])
    toast, hand = seen_at_once["#toast"][0], seen_at_once[".hand"][0]
    assert not overlap(toast, hand), (toast, hand)
    page.screenshot(path=screenshots / f"table-{width}-6p-{mode}-toast.png")


def test_a_double_click_on_start_makes_one_game(
    browser: Any, live: LiveServer, console_errors: ConsoleErrors
) -> None:
    page = console_errors.watch(browser.new_page(viewport={"width": 1280, "height": 800}))
    page.goto(live.http + "/")
    page.click("#practice")
    page.wait_for_selector("select[name=preset] option[value='clasico']", state="attached")
    before = len(live.state.registry.tables)
    page.dblclick("#start")
    page.wait_for_selector(".hand-tile")
    page.wait_for_load_state("networkidle")
    assert len(live.state.registry.tables) == before + 1


def test_a_spectator_sees_the_score_bar_from_the_first_hand(
    browser: Any, live: LiveServer, console_errors: ConsoleErrors, screenshots: Path
) -> None:
    host_context = browser.new_context(viewport={"width": 1280, "height": 800})
    host = console_errors.watch(host_context.new_page())
    sign_up(host, live, "ana")
    host.click("#create-table")
    host.wait_for_selector("#start")
    host.select_option("select[name=players]", "4")
    host.select_option("select[name=mode]", "pairs")
    host.click("#start")
    host.wait_for_selector(".invite button.primary")
    table = host.evaluate("() => window.tranque.table.tableId")
    host.click(".invite button.primary")
    host.wait_for_selector(".hand-tile")
    watcher_context = browser.new_context(viewport={"width": 390, "height": 844})
    watcher = console_errors.watch(watcher_context.new_page())
    watcher.goto(f"{live.http}/#/mesa/{table}")
    watcher.wait_for_selector(".table-screen .scores .score")
    assert watcher.evaluate("() => window.tranque.table.state.results.length") == 0, "the first hand is over"
    for page in (host, watcher):
        scores = page.locator(".scores .score")
        assert scores.count() == 2
        for index in range(2):
            assert scores.nth(index).inner_text().endswith(": 0"), scores.nth(index).inner_text()
    assert watcher.locator(".hand-tile").count() == 0
    assert watcher.locator(".me .note").inner_text() == "Estás mirando esta mesa."
    watcher.screenshot(path=screenshots / "spectator-390.png")
    host_context.close()
    watcher_context.close()


def test_the_choose_an_end_hint_lives_only_while_choosing(
    browser: Any, live: LiveServer, console_errors: ConsoleErrors, screenshots: Path
) -> None:
    page = console_errors.watch(browser.new_page(viewport={"width": 360, "height": 640}))
    start_practice(page, live)
    seen: Counter[str] = Counter()
    play = wait_for_a_play_on_an_end(page, seen, wanted=PLAY_ON_BOTH_ENDS)
    page.locator(f'.hand-tile[data-tile="{play["tile"]}"]').click()
    page.wait_for_selector(".end.choose >> nth=1")
    assert "toca la punta" in page.locator(".turn-text").inner_text()
    assert "punta" not in page.locator("#toast").inner_text(), "a toast would outlive the choice"
    page.screenshot(path=screenshots / "choose-end-360.png")
    page.locator(".end-right.choose").click()
    page.wait_for_selector(f'.hand-tile[data-tile="{play["tile"]}"]', state="detached")
    assert "toca la punta" not in page.locator(".turn-text").inner_text()
    assert not page.locator(".end.choose").count()


def test_a_tile_on_the_board_says_how_many_of_its_numbers_are_out(
    browser: Any, live: LiveServer, console_errors: ConsoleErrors
) -> None:
    """Hovering a placed tile (its title) or tapping it (a toast) counts, for each of its
    numbers, the tiles on the board that carry it: what a player counts on a real table."""
    page = console_errors.watch(browser.new_page(viewport={"width": 1280, "height": 800}))
    start_practice(page, live)
    seen: Counter[str] = Counter()
    while page.locator(".line .placed").count() < 4:
        if not act_once(page, seen):
            page.wait_for_timeout(40)
    # Read at one instant: the board and the first tile's words (the bots play on meanwhile).
    title, on_board = page.evaluate(
        """() => {
            const placed = [...document.querySelectorAll(".line .placed")];
            return [placed[0].querySelector("title").textContent,
                    placed.map((tile) => tile.dataset.pips.split("-").map(Number))];
        }"""
    )
    expected = [sum(1 for other in on_board if n in other) for n in dict.fromkeys(on_board[0])]
    counts = [int(k) for k in re.findall(r"ya se jug(?:aron|ó) (\d+) de 7", title)]
    assert counts == expected, (title, on_board)
    tile = page.locator(".line .placed").first
    tile.click()
    page.wait_for_selector("#toast.show")
    assert "ya se jug" in page.locator("#toast").inner_text()
