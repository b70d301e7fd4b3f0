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

from tests.server.support.analysis_helpers import DEALS, Clients, ask, keep_game, wait_for
from tests.server.support.harness import LiveServer
from tests.server.support.http_helpers import PASSWORD
from tests.server.support.players_helpers import make_user
from tests.web.conftest import DESKTOP, PHONE, TALL_PHONE, ConsoleErrors, Size, browser_settings
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


def shots(screenshots: Path, size: Size) -> Path:
    folder = screenshots / "analysis" / size.name
    folder.mkdir(parents=True, exist_ok=True)
    return folder


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
    assert "Mejor era" in page.locator(".an-flagged .an-move").first.inner_text()

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
    assert page.locator(".rp-best").inner_text().startswith("Mejor: ")
    assert page.locator(f".an-mark.current[data-frame='{decision['step'] - 1}']").count() == 1
    page.screenshot(path=shots(screenshots, DESKTOP) / "ghost-full.png", full_page=True)
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
    phone.screenshot(path=shots(screenshots, PHONE) / "ghost-full.png", full_page=True)


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


# The analysis as a player reads it (N4) and the board in sight on a phone (N13).
# The analysis is the server's own, done once for the module; the fields the judge adds
# (loss_points, reasons, model_note, unit: docs/analysis.md) are laid over it by a route,
# the fixture below, so the sentence, the reasons, the model's note and the lesson links are
# checked exactly.

GAME = "mesa1.1"
PLAYED = {
    "left": "jugó el {} por la izquierda",
    "right": "jugó el {} por la derecha",
    None: "salió con el {}",
}
BEST = {"left": "el {} por la izquierda", "right": "el {} por la derecha", None: "salir con el {}"}


def played_words(action: dict[str, Any]) -> str:
    if action["type"] == "play":
        return PLAYED[action.get("side")].format(action["tile"])
    return "robó" if action["type"] == "draw" else "pasó"


def best_words(action: dict[str, Any]) -> str:
    if action["type"] == "play":
        return BEST[action.get("side")].format(action["tile"])
    return "robar" if action["type"] == "draw" else "pasar"


def with_contract_fields(result: dict[str, Any]) -> dict[str, Any]:
    """The result with the judge's fields on its flagged moves: the first with a reason, its
    lesson and the model's note; the others with their loss in points only."""
    result = {**result, "unit": "points"}
    flagged = [d for d in result["decisions"] if d["verdict"] in ("inaccuracy", "error")]
    for index, decision in enumerate(flagged):
        decision.update(loss_points=7.4 + index, reasons=[], model_note=None)
    first = flagged[0]
    other = 1 - first["seat"]
    first["reasons"] = [
        {"kind": "ignored_pass", "params": {"number": 3, "seat": other}, "lesson": "leer-pases"}
    ]
    first["model_note"] = {"kind": "model", "loss_points": 2.5, "best": first["best"]}
    # One accurate move the expert's weighted reading would have played otherwise.
    accurate = [d for d in result["decisions"] if d["verdict"] == "accurate"]
    for decision in accurate:
        decision["model_note"] = None
    noted = next(d for d in accurate if len(d["alternatives"]) > 1)
    other_best = next(a["action"] for a in noted["alternatives"] if a["action"] != noted["played"])
    noted["model_note"] = {"kind": "model", "loss_points": 11.0, "best": other_best}
    return result


@pytest.fixture(scope="module")
def analysed() -> Iterator[tuple[LiveServer, dict[str, Any]]]:
    """A server with a finished game analysed, and that analysis with the contract's fields."""
    settings = browser_settings(analysis_in_processes=False, analysis_deals=DEALS)
    with LiveServer(settings) as server, Clients(server) as clients:
        http, ana = clients.logged_in("ana")
        keep_game(server, GAME, [ana, None])
        assert ask(http, GAME).status_code in (200, 202)
        yield server, with_contract_fields(wait_for(http, GAME)["result"])


def open_analysed(open_page: Any, server: LiveServer, result: dict[str, Any], size: Size) -> Any:
    """The analysed game's replay at `size`, its analysis answered with `result`."""
    page = open_page(size)

    def answer(route: Any) -> None:
        if route.request.method != "GET":
            route.continue_()
            return
        response = route.fetch()
        route.fulfill(response=response, json={**response.json(), "result": result})

    page.route(f"**/api/games/{GAME}/analysis", answer)
    page.goto(f"{server.http}/#/partida/{GAME}")
    page.wait_for_selector(".analysis[data-status='done'] .an-flagged")
    return page


def name_of(page: Any, seat: int) -> str:
    text: str = page.locator(f".rp-seat[data-seat='{seat}'] .rp-name").inner_text()
    return text


def board_in_sight(page: Any) -> str | None:
    """None when the centre of the board is on screen and the board is what is there; else
    what is wrong."""
    found: str | None = page.evaluate(
        """() => {
            const board = document.querySelector('.rp-board').getBoundingClientRect();
            const x = board.left + board.width / 2, y = board.top + board.height / 2;
            if (y < 0 || y > innerHeight) return `the board's centre is off screen (y=${y})`;
            const there = document.elementFromPoint(x, y);
            return there && there.closest('.rp-board') ? null : `over the board: ${there && there.className}`;
        }"""
    )
    return found


def test_N4_a_flagged_move_reads_as_a_sentence_and_goes_to_its_position(
    open_page: Any, analysed: tuple[LiveServer, dict[str, Any]], screenshots: Path, axe_source: str
) -> None:
    server, result = analysed
    flagged = [d for d in result["decisions"] if d["verdict"] in ("inaccuracy", "error")]
    first = flagged[0]
    for size in (DESKTOP, PHONE, TALL_PHONE):
        page = open_analysed(open_page, server, result, size)
        name, other = name_of(page, first["seat"]), name_of(page, 1 - first["seat"])
        item = page.locator(".an-flagged .an-move").first
        verdict = {"error": "error", "inaccuracy": "imprecisión"}[first["verdict"]]
        # One plain sentence: who did what, what it cost in points, what was better and why.
        head = f"Mano {first['round']}, jugada {first['move']} · {name} {played_words(first['played'])}"
        assert item.locator(".an-said").inner_text() == (
            f"{verdict.upper()} {head}: le costó unos 7,4 puntos en esta mano. "
            f"Mejor era {best_words(first['best'])}, porque {other} ya había "
            "pasado al 3: convenía dejarle ese número en la mesa."
        )
        assert item.locator(".an-model").inner_text() == (
            "Según cómo suelen jugar los demás, la jugada hecha era la mejor."
            if first["best"] == first["played"]
            else f"Según cómo suelen jugar los demás, lo mejor era {best_words(first['best'])}; "
            "la jugada hecha perdía unos 2,5 puntos."
        )
        lesson = item.locator("a.an-lesson")
        assert lesson.inner_text() == "Aprende: leer los pases y contar"
        assert lesson.get_attribute("href") == "#/aprender/leer-pases"
        if len(flagged) > 1:
            assert (
                "le costó unos 8,4 puntos en esta mano."
                in page.locator(".an-flagged .an-move").nth(1).inner_text()
            )
        # An accurate move the expert's weighted reading would have played otherwise: apart,
        # labelled, never flagged nor marked on the timeline.
        noted = next(d for d in result["decisions"] if d["verdict"] == "accurate" and d["model_note"])
        assert page.locator(".an-noted-box h3").inner_text() == "Según cómo suelen jugar los demás"
        assert page.locator(".an-noted .an-move .an-said").all_inner_texts() == [
            f"Mano {noted['round']}, jugada {noted['move']} · {name_of(page, noted['seat'])} "
            f"{played_words(noted['played'])}. Según cómo suelen jugar los demás, lo mejor era "
            f"{best_words(noted['model_note']['best'])}; la jugada hecha perdía unos 11 puntos."
        ]
        assert page.locator(".an-timeline .an-mark").count() == len(flagged)
        # The chart says its values and their unit.
        ticks = page.locator(".an-chart text.tick").all_text_contents()
        assert "0" in ticks and any(re.fullmatch(r"\+\d+", tick) for tick in ticks), ticks
        assert any(re.fullmatch(r"−\d+", tick) for tick in ticks), ticks
        assert "en puntos" in page.locator(".an-axis").inner_text()
        assert page.locator(".an-legend .key").count() == 4  # two sides, two kinds of mark

        # «Ir a la jugada»: the position before the move, said so, the board brought in sight
        # and the focus on the step that shows what was played.
        page.evaluate("window.scrollTo(0, document.body.scrollHeight)")
        item.locator(".an-go").click()
        assert step(page) == first["step"] - 1
        assert page.locator(".rp-question").inner_text() == (
            f"Antes de la jugada {first['move']} de {name}: ¿qué jugarías?"
        )
        best = f"Mejor: {best_words(first['best'])}"
        assert page.locator(".rp-best").inner_text().startswith(best)
        if first["ghost"] is not None:
            ghost = page.locator(".rp-line .ghost")
            assert ghost.count() == 1
            assert ghost.locator("title").text_content() == page.locator(".rp-best").inner_text()
        top = page.evaluate("document.querySelector('.rp-board').getBoundingClientRect().top")
        assert -1 <= top < size.height / 3, top
        assert page.evaluate("document.activeElement.classList.contains('rp-forward')")
        assert board_in_sight(page) is None
        page.screenshot(path=shots(screenshots, size) / "flagged-move.png")
        if size == DESKTOP:
            no_serious_violation(page, axe_source)

        page.keyboard.press("Enter")  # «›», focused: what was played
        assert step(page) == first["step"]
        assert page.locator(".rp-after").inner_text() == (
            f"{name} {played_words(first['played'])} ({verdict}). Mejor era {best_words(first['best'])}."
        )
        next_flagged = any(d["step"] == first["step"] + 1 for d in flagged)
        assert page.locator(".rp-question").is_visible() == next_flagged
        page.screenshot(path=shots(screenshots, size) / "after-the-move.png")
        page.screenshot(path=shots(screenshots, size) / "analysis-full.png", full_page=True)
        page.context.close()


def test_N13_on_a_phone_the_analysed_replay_keeps_the_board_in_sight(
    open_page: Any, analysed: tuple[LiveServer, dict[str, Any]], axe_source: str
) -> None:
    server, result = analysed
    flagged = [d for d in result["decisions"] if d["verdict"] in ("inaccuracy", "error")]
    for size in (PHONE, TALL_PHONE):
        page = open_analysed(open_page, server, result, size)
        page.evaluate("document.querySelector('.rp-board').scrollIntoView({block: 'center'})")
        assert board_in_sight(page) is None, (size.name, board_in_sight(page))
        page.locator(".an-flagged .an-move .an-go").first.click()
        assert step(page) == flagged[0]["step"] - 1
        for _ in range(4):  # stepping on with the controls, the board stays in sight
            assert board_in_sight(page) is None, (size.name, step(page), board_in_sight(page))
            forward = page.locator(".rp-step.rp-forward")
            box = forward.bounding_box()
            assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= size.height
            forward.tap()
        # The analysis lies below the board, not over it.
        board = page.locator(".rp-board").bounding_box()
        analysis = page.locator(".analysis").bounding_box()
        assert board is not None and analysis is not None
        assert analysis["y"] >= board["y"] + board["height"]
        no_serious_violation(page, axe_source)
        page.context.close()
