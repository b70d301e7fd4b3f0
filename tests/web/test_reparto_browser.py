"""El reparto del día in Chromium against a live server: two accounts open it from the home
page's card, play today's individual game to its end by the page's own controls (a short
game: 2 hands), and get the same tiles in each hand; both appear on the day's board, best
first, against par; one opens its game beside the day's best. Then the server's reparto clock
moves to the next day in Bogotá: the day's seed is revealed, it gives the commitment both saw
and every hand each was dealt, and the page's «Verificar» checks it in the browser. The page
is photographed at the three sizes (test-output/screenshots/reparto/)."""

from __future__ import annotations

import hashlib
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.server.support.harness import LiveServer
from tests.web.conftest import DESKTOP, PHONE, TALL_PHONE, ConsoleErrors, axe_violations, browser_settings
from tests.web.driver import Deadline, act_once, play_until
from tests.web.test_accounts import sign_up
from tranque.server.table.clock import RealClock

HANDS = 2


class ShiftedClock(RealClock):
    """The real clock, `shift` seconds on: the test moves the reparto's day with it."""

    def __init__(self) -> None:
        self.shift = 0.0

    def now(self) -> float:
        return super().now() + self.shift


@pytest.fixture
def reparto_live() -> Iterator[tuple[LiveServer, ShiftedClock]]:
    clock = ShiftedClock()
    settings = browser_settings(
        reparto_bot_level="heuristic", reparto_in_processes=False, reparto_hands=HANDS, reparto_clock=clock
    )
    with LiveServer(settings) as server:
        yield server, clock


def get(page: Any, path: str) -> Any:
    answer = page.request.get(page.url.split("#")[0].rstrip("/") + path)
    assert answer.ok, (path, answer.status, answer.text())
    return answer.json()


def play_last_tiles(page: Any) -> None:
    """Play the game out choosing the last lit tile and the left end (the driver chooses the
    first and the right end): another player of the same deals, who plays them otherwise."""
    seen: Counter[str] = Counter()
    deadline = Deadline(240, "the game did not end")
    while not page.locator(".overlay.game-end").count():
        deadline.check(seen)
        tiles = page.locator(".hand-tile.playable")
        if not page.locator(".overlay").count() and not page.locator(".end.choose").count() and tiles.count():
            try:
                tiles.last.click(timeout=2000)
                if page.locator(".end-left.choose").count():
                    page.locator(".end-left.choose").first.click(timeout=2000)
                seen["play"] += 1
            except Exception:  # the hand changed while it was read: look again
                page.wait_for_timeout(40)
            continue
        if not act_once(page, seen, stop_at=".overlay.game-end"):
            page.wait_for_timeout(40)


def play_the_day(page: Any, live: LiveServer, otherwise: bool = False) -> str:
    """From the home page's card to the end of today's individual game; the table's id."""
    page.goto(live.http + "/")
    page.click("#reparto-card-go")
    page.wait_for_selector("#rd-play-individual")
    page.click("#rd-play-individual")
    page.wait_for_selector(".hand-tile")
    table = str(page.url.split("#/mesa/")[1])
    # The table says whose deals these are, with the way back, and offers no «Pista».
    day = httpx.get(f"{live.http}/api/reparto", timeout=20).json()["today"]["day"]
    page.wait_for_selector(f".table-header a.reparto-link[href='#/reparto/{day}']")
    assert page.locator(".hint-button").count() == 0
    if otherwise:
        play_last_tiles(page)
    else:
        play_until(page, ".overlay.game-end", Counter(), timeout=240)
    return table


def wait_rows(page: Any, count: int) -> list[str]:
    deadline = time.monotonic() + 60
    while True:
        page.goto(page.url.split("#")[0] + "#/reparto")
        page.reload()
        page.wait_for_selector(".rd-board[data-mode=individual] .rd-par")
        rows = page.locator(".rd-boards .rd-board[data-mode=individual] .rd-row .rd-name")
        if (
            rows.count() == count
            and "…" not in page.locator(".rd-boards .rd-board[data-mode=individual] .rd-par").inner_text()
        ):
            return [rows.nth(index).inner_text() for index in range(count)]
        assert time.monotonic() < deadline, "the board did not fill"
        page.wait_for_timeout(300)


def blocking(page: Any, axe_source: str) -> list[str]:
    """axe-core's serious and critical violations on the page as it is now."""
    return [
        f"{v['id']} ({v['impact']}): {[n['target'] for n in v['nodes']]}"
        for v in axe_violations(page, axe_source)
        if v["impact"] in ("serious", "critical")
    ]


def shoot(page: Any, folder: Path, name: str) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(folder / f"{name}.png"), full_page=True)


def test_two_accounts_play_the_same_deals_of_the_day_and_are_ranked_against_par(
    browser: Any,
    reparto_live: tuple[LiveServer, ShiftedClock],
    console_errors: ConsoleErrors,
    screenshots: Path,
    axe_source: str,
) -> None:
    live, clock = reparto_live
    folder = screenshots / "reparto"
    ana = console_errors.watch(browser.new_context(**DESKTOP.context_options()).new_page())
    bea = console_errors.watch(browser.new_context(**PHONE.context_options()).new_page())
    sign_up(ana, live, "ana")
    sign_up(bea, live, "bea")

    tables = {"ana": play_the_day(ana, live), "bea": play_the_day(bea, live, otherwise=True)}
    today = get(ana, "/api/reparto")["today"]
    records = {
        name: get(page, f"/api/tables/{tables[name]}/record") for name, page in (("ana", ana), ("bea", bea))
    }
    for record in records.values():
        assert len(record["rounds"]) == HANDS
        assert [r["commitment"] for r in record["rounds"]] == today["modes"]["individual"]["commitments"]
    # Everyone who plays it gets the same tiles in each hand.
    assert [r["hands"][0] for r in records["ana"]["rounds"]] == [
        r["hands"][0] for r in records["bea"]["rounds"]
    ]

    # The board: both, best first by their own result (their points minus the expert's).
    diffs = {name: record["scores"][0] - record["scores"][1] for name, record in records.items()}
    names = wait_rows(ana, 2)
    assert sorted(names) == ["ana", "bea"]
    assert diffs[names[0]] >= diffs[names[1]]
    against = ana.locator(".rd-boards .rd-board[data-mode=individual] .rd-against").all_inner_texts()
    assert len(against) == 2
    board = get(ana, f"/api/reparto/{today['day']}/individual/board")
    assert [row["name"] for row in board["rows"]] == names
    for row in board["rows"]:
        assert row["diff"] == diffs[row["name"]]
        assert row["against_par"] == row["diff"] - board["par"]["diff"]
    shoot(ana, folder / DESKTOP.name, "today")
    assert blocking(ana, axe_source) == []
    wait_rows(bea, 2)
    shoot(bea, folder / PHONE.name, "today")
    assert blocking(bea, axe_source) == []

    # A guest on a tall phone: may play, is not on the board, is told so.
    tall = console_errors.watch(browser.new_context(**TALL_PHONE.context_options()).new_page())
    tall.goto(live.http + "/#/reparto")
    tall.wait_for_selector(".rd-guest")
    wait_rows(tall, 2)
    shoot(tall, folder / TALL_PHONE.name, "today")

    # Her game beside the day's best (the replay page's module, twice).
    ana.click(".rd-replay-open[data-mode=individual]")
    ana.wait_for_selector(".rd-replay-pane[data-who=mine] .rp-board")
    ana.wait_for_selector(".rd-replay-pane[data-who=best] .rp-board")
    shoot(ana, folder / DESKTOP.name, "replays")

    # Twice for the board: refused, clearly.
    again = ana.request.post(live.http + "/api/reparto/play", data={"mode": "individual"})
    assert again.status == 409 and again.json()["code"] == "reparto_played"

    # The next day in Bogotá: the seed is revealed and gives what both saw.
    clock.shift += 86400
    day = get(ana, f"/api/reparto/{today['day']}/seed")
    seed = bytes.fromhex(day["seed"])
    assert hashlib.sha256(seed + day["parameters"].encode()).hexdigest() == today["commitment"]
    for number, deal in enumerate(day["modes"]["individual"]["deals"]):
        for record in records.values():
            assert sorted(deal["hands"][0]) == sorted(record["rounds"][number]["hands"][0])
    for page, size in ((ana, DESKTOP), (bea, PHONE), (tall, TALL_PHONE)):
        page.goto(live.http + "/#/reparto")
        page.reload()  # a page already at #/reparto reads the day again
        page.wait_for_selector(".rd-yesterday .rd-verify")
        page.wait_for_selector(".rd-yesterday .rd-board[data-mode=individual] .rd-row")
        shoot(page, folder / size.name, "next-day")
        page.click(".rd-yesterday .rd-verify")
        page.wait_for_selector(".rd-verdict.ok")
        shoot(page, folder / size.name, "verified")
        assert blocking(page, axe_source) == []
    # This browser saw the day's commitment while it was on: the check says so too.
    assert (
        "navegador" in ana.locator(".rd-verdict").inner_text()
        or "browser" in ana.locator(".rd-verdict").inner_text()
    )
